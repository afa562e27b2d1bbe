"""Starting git: the one place that builds the command and the environment of every git evallint starts.

The repository read may come from anyone (a tarball, a restored CI cache, a shared folder), and its
``.git/config``, its hooks and its ``.gitattributes`` can name programs for git to run: an fsmonitor hook
when the index is read, hooks when the index is written, clean and smudge filters when work-tree files are
hashed or checked out, textconv and external diff drivers when a patch is printed, a pager, and an
``upload-pack`` or ssh command when a partial clone fetches an object it lacks. evallint never executes
what it reads, so every git it starts has all of these off:

- ``core.fsmonitor=false``: the index is read without asking a monitor;
- ``core.hooksPath`` names the null device: no hook is ever found;
- ``--no-optional-locks``: no command refreshes (writes) the index on the side;
- ``--no-pager``;
- no transport at all: ``GIT_ALLOW_PROTOCOL`` empty allows none, whatever the repository's
  ``protocol.*.allow`` says, and ``GIT_NO_LAZY_FETCH`` (git 2.45 and later) keeps a partial clone from
  trying to fetch a missing object;
- the callers compare the index with commits only, never with the work tree (which hashes files through
  clean filters), print names, never patches, and give ``git diff`` ``DIFF_OPTIONS`` besides.

The caller's own environment is kept (``GIT_DIR`` and ``GIT_INDEX_FILE`` set for a pre-commit hook, its
global settings): it is the caller's, not the repository's. So is git's ownership check (``safe.directory``):
a repository git refuses is reported (``refusal``), never read around it."""
from __future__ import annotations

import os
import subprocess
from typing import Optional

SAFE_OPTIONS = ("--no-pager", "--no-optional-locks", "-c", "core.fsmonitor=false", "-c", f"core.hooksPath={os.devnull}")
DIFF_OPTIONS = ("--no-ext-diff", "--no-textconv")
NOT_INSTALLED = "git is not installed (not found on PATH)"


def command(args: list) -> list:
    """The command line of ``git ARGS`` with the repository's programs off."""
    return ["git", *SAFE_OPTIONS, *args]


def environment() -> dict:
    """The caller's environment, with every transport off."""
    return {**os.environ, "GIT_ALLOW_PROTOCOL": "", "GIT_NO_LAZY_FETCH": "1"}


def run(args: list, cwd: str, stdin: bytes = b"", timeout: Optional[float] = None) -> subprocess.CompletedProcess:
    """``git ARGS`` run to its end, given ``stdin``, its output and messages captured. OSError when git
    cannot be started, ``subprocess.TimeoutExpired`` past ``timeout``."""
    return subprocess.run(command(args), cwd=cwd, input=stdin, capture_output=True, timeout=timeout, env=environment())


def start(args: list, cwd: str) -> subprocess.Popen:
    """``git ARGS`` started with pipes to its input and output (``cat-file --batch``), its messages
    dropped: they are never read while it runs, so they could fill their pipe and stop it. OSError when
    git cannot be started."""
    return subprocess.Popen(command(args), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=environment())


def complaint(stderr: bytes) -> str:
    """The first line git wrote when it failed, without its "fatal: " (the hints after it are for git's
    own command line)."""
    first = stderr.decode("utf-8", "replace").strip().split("\n", 1)[0].strip()
    return first[len("fatal: "):] if first.startswith("fatal: ") else first


def not_started(exc: OSError) -> str:
    """Why git could not be started."""
    return NOT_INSTALLED if isinstance(exc, FileNotFoundError) else f"git cannot be started: {exc.strerror or exc}"


def refusal(root: str) -> Optional[str]:
    """Why git cannot read the repository at ``root`` (another user owns it, it is damaged, git is
    missing), or None when it can."""
    try:
        proc = run(["rev-parse", "--git-dir"], root, timeout=60)
    except OSError as exc:
        return not_started(exc)
    except subprocess.TimeoutExpired:
        return "git rev-parse did not answer within 60 s"
    if proc.returncode != 0:
        return complaint(proc.stderr) or f"git rev-parse exited with status {proc.returncode}"
    return None
