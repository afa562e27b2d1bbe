"""``--staged``: what is in the git index, not the working tree."""
from __future__ import annotations

import os
import subprocess

from evallint.run.discovery import CANDIDATE_SUFFIXES


class GitError(Exception):
    pass


def _git(args: list, cwd: str) -> bytes:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60)
    except FileNotFoundError:
        raise GitError("--staged needs git, which is not installed") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {' '.join(args)} did not answer within 60 s") from None
    if proc.returncode != 0:
        raise GitError(proc.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return proc.stdout


def staged_files(cwd: str) -> list:
    """(path relative to ``cwd``, staged bytes) of staged candidate files, sorted."""
    try:
        top = _git(["rev-parse", "--show-toplevel"], cwd).decode().strip()
    except GitError:
        raise GitError("--staged works inside a git repository, and this is not one") from None
    # works before the first commit too: --cached compares the index with an empty tree then
    names = _git(["diff", "--cached", "--name-only", "-z", "--diff-filter=ACMR", "--no-renames"], top)
    out = []
    for raw in sorted(n for n in names.split(b"\0") if n):
        name = raw.decode("utf-8", "surrogateescape")
        if not name.endswith(CANDIDATE_SUFFIXES):
            continue
        data = _git(["cat-file", "blob", f":{name}"], top)
        out.append((os.path.relpath(os.path.join(top, name), cwd), data))
    return out
