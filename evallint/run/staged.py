"""``--staged``: what is in the git index, not the working tree. The staged files are linted, and the
files they point at (prompts, scripts, folders, targets files) are looked up in the index too: what
the commit will hold. The index is listed once (``git ls-files -s``) and blobs are read through one
``git cat-file --batch`` process."""
from __future__ import annotations

import os
import subprocess
from typing import Iterator, Optional, Union

from evallint.config import Config
from evallint.diagnostics import Finding, Span
from evallint.lint import lint_bytes
from evallint.load.source import DEFAULT_MAX_BYTES, Source, decode_capped
from evallint.load.view import FILE, FOLDER, WORKING_TREE, FileView, viewing
from evallint.report.result import FileResult
from evallint.run.discovery import CANDIDATE_SUFFIXES, excluded

LINK_MODE, GITLINK_MODE = "120000", "160000"
MAX_LINKS = 40  # links followed in one path, as the kernel's limit: more is a loop
# the empty blob's object name (SHA-1, SHA-256): what an intent-to-add entry ('git add -N') holds
EMPTY_BLOBS = ("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
               "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813")
KEPT_BLOB_BYTES = 4 * 1024 * 1024  # at most this many bytes of referenced files are kept once read, for the next asker


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


class Blobs:
    """Blob contents from one ``git cat-file --batch`` process, started at the first read."""

    def __init__(self, top: str):
        self.top = top
        self.proc: Optional[subprocess.Popen] = None
        self.kept: dict = {}  # object name -> bytes, for referenced files read again
        self.kept_bytes = 0

    def read(self, sha: str, max_bytes: int, keep: bool = True) -> Optional[bytes]:
        """The blob's first ``max_bytes + 1`` bytes at most (more than ``max_bytes``: it is over the
        cap); None when the object is missing."""
        data = self.kept.get(sha)
        if data is not None:
            return data[:max_bytes + 1]
        if self.proc is None:
            try:
                self.proc = subprocess.Popen(["git", "cat-file", "--batch"], cwd=self.top, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            except OSError as exc:
                raise GitError(f"cannot run git cat-file: {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(sha.encode() + b"\n")
            self.proc.stdin.flush()
            header = self.proc.stdout.readline().split()
        except OSError as exc:
            raise GitError(f"git cat-file failed: {exc}") from None
        if len(header) == 2 and header[1] == b"missing":
            return None
        if len(header) != 3:
            raise GitError("git cat-file --batch answered in an unknown form")
        size = int(header[2])
        data = self.proc.stdout.read(min(size, max_bytes + 1))
        rest = size - len(data) + 1  # what is left of the blob, and the line feed after it
        while rest > 0:
            skipped = self.proc.stdout.read(min(rest, 1 << 20))
            if not skipped:
                raise GitError("git cat-file --batch stopped in the middle of a blob")
            rest -= len(skipped)
        if keep and size <= max_bytes and self.kept_bytes + size <= KEPT_BLOB_BYTES:
            self.kept[sha] = data
            self.kept_bytes += size
        return data

    def close(self) -> None:
        if self.proc is not None:
            proc, self.proc = self.proc, None
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.close()
            proc.stdout.close()
            proc.wait()


class IndexView(FileView):
    """The files of the git index under the work tree ``top`` (a real path). Outside it the index holds
    nothing: there the file system answers, as it does for the runner (a path out of the repository
    root is reported, never opened)."""

    def __init__(self, top: str, listing: bytes, blobs: Blobs, intended: frozenset = frozenset()):
        """``listing``: what ``git ls-files -s -z`` printed; ``intended``: the paths added with intent to
        add only, which the commit will not hold."""
        self.top = top
        self.blobs = blobs
        self.entries: dict = {}  # path relative to top, '/'-separated -> (mode, object name)
        self.folders = {""}
        for record in listing.split(b"\0"):
            if not record:
                continue
            info, _, raw = record.partition(b"\t")
            mode, sha, stage = info.decode().split()
            name = raw.decode("utf-8", "surrogateescape")
            if name in intended:
                continue
            if stage != "0" and name in self.entries and stage != "2":
                continue  # a conflict: the stage git calls "ours" stands for the path
            self.entries[name] = (mode, sha)
            folder = name.rpartition("/")[0]
            while folder not in self.folders:
                self.folders.add(folder)
                folder = folder.rpartition("/")[0]

    def _rel(self, path: str) -> Optional[str]:
        """``path`` relative to the work tree, '/'-separated; None when it is outside."""
        if path == self.top:
            return ""
        prefix = self.top if self.top.endswith(os.sep) else self.top + os.sep
        if not path.startswith(prefix):
            return None
        return path[len(prefix):].replace(os.sep, "/")

    def _kind(self, rel: str) -> Optional[str]:
        """FILE, FOLDER, "link" or None for what the index holds at ``rel``, links not followed."""
        found = self.entries.get(rel)
        if found is None:
            return FOLDER if rel in self.folders else None
        mode = found[0]
        if mode == LINK_MODE:
            return "link"
        return FOLDER if mode == GITLINK_MODE else FILE  # a submodule is a folder in the checkout

    def _follow(self, path: str, hops: int = 0) -> Optional[str]:
        """``path`` with the index's links resolved, component by component (os.path.realpath over the
        index); None for a loop."""
        rel = self._rel(path)
        if rel is None:
            return os.path.realpath(path)
        done = self.top
        parts = rel.split("/") if rel else []
        for i, part in enumerate(parts):
            step = os.path.join(done, part)
            found = self.entries.get("/".join(parts[:i + 1]))
            if found is not None and found[0] == LINK_MODE:
                if hops >= MAX_LINKS:
                    return None
                target = self.blobs.read(found[1], 4096, keep=False)
                if target is None:
                    return None
                target = target.decode("utf-8", "surrogateescape").replace("/", os.sep)
                joined = os.path.normpath(os.path.join(done, target, *parts[i + 1:]))
                return self._follow(joined, hops + 1)
            done = step
        return done

    def _real_kind(self, path: str) -> tuple:
        """(real path or None, its kind) with every link followed."""
        real = self._follow(path)
        if real is None:
            return None, None
        rel = self._rel(real)
        if rel is None:  # outside the work tree
            return real, FOLDER if os.path.isdir(real) else FILE if os.path.isfile(real) else None
        kind = self._kind(rel)
        return real, (None if kind == "link" else kind)

    def entry(self, path: str, folder: str) -> Optional[tuple]:
        if self._rel(path) is None:
            return WORKING_TREE.entry(path, folder)
        if not self.lexists(path):
            return None
        real, kind = self._real_kind(path)
        return (path if real is None else real), kind, -1

    def real_folder(self, folder: str) -> str:
        return self._follow(folder) or folder

    def lexists(self, path: str) -> bool:
        if self._rel(path) is None:
            return os.path.lexists(path)
        parent = self._follow(os.path.dirname(path))
        if parent is None:
            return False
        resolved = os.path.join(parent, os.path.basename(path))
        rel = self._rel(resolved)
        return os.path.lexists(resolved) if rel is None else self._kind(rel) is not None

    def isdir(self, path: str) -> bool:
        return self._real_kind(path)[1] == FOLDER

    def isfile(self, path: str) -> bool:
        return self._real_kind(path)[1] == FILE

    def _blob(self, path: str, max_bytes: int) -> Optional[bytes]:
        """The staged bytes of the file at ``path`` (its links followed), at most ``max_bytes + 1``."""
        real, kind = self._real_kind(path)
        rel = self._rel(real) if real is not None and kind == FILE else None
        if rel is None:
            return None
        return self.blobs.read(self.entries[rel][1], max_bytes)

    def read(self, path: str, size: int, max_bytes: int) -> Optional[bytes]:
        data = self._blob(path, max_bytes)
        return None if data is None or len(data) > max_bytes else data

    def source(self, path: str, root: Optional[str]) -> Union[Source, Finding]:
        real = self._follow(path)
        if real is None:
            return Finding("EV009", "symbolic link loop: the link never reaches a file", span=Span(0, 0, 0, 1))
        if root is not None and real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
            return Finding("EV009", "symbolic link leaves the repository root; it is not followed", span=Span(0, 0, 0, 1))
        data = self._blob(real, DEFAULT_MAX_BYTES)
        if data is None:
            return Finding("EV009", "not a file in the git index", span=Span(0, 0, 0, 1))
        return decode_capped(data, DEFAULT_MAX_BYTES)


class StagedIndex:
    """The git index of the repository around a folder: its staged candidate files and a view of it."""

    def __init__(self, cwd: str):
        try:
            top = _git(["rev-parse", "--show-toplevel"], cwd).decode().strip()
        except GitError:
            raise GitError("--staged works inside a git repository, and this is not one") from None
        self.cwd = cwd
        self.top = os.path.normpath(top)
        # works before the first commit too: --cached compares the index with an empty tree then
        names = _git(["diff", "--cached", "--name-only", "-z", "--diff-filter=ACMR", "--no-renames"], self.top)
        self.names = sorted(n.decode("utf-8", "surrogateescape") for n in names.split(b"\0") if n)
        listing = _git(["ls-files", "-s", "-z"], self.top)
        intended: frozenset = frozenset()
        if any(empty.encode() in listing for empty in EMPTY_BLOBS):
            # an intent-to-add entry is the one file that the index holds and the work tree shows as added
            added = _git(["diff", "--name-only", "-z", "--diff-filter=A", "--no-renames"], self.top)
            intended = frozenset(n.decode("utf-8", "surrogateescape") for n in added.split(b"\0") if n)
        self.view = IndexView(self.top, listing, Blobs(self.top), intended)

    def lint(self, config: Config) -> Iterator[FileResult]:
        """The staged candidate files, linted in path order with their references looked up in the index."""
        try:
            for name in self.names:
                if not name.endswith(CANDIDATE_SUFFIXES) or name not in self.view.entries:
                    continue
                # the first max_bytes + 1 bytes: more is reported as over the cap (EV006), as a file read from disk;
                # a blob missing from the object store (a damaged repository) is linted as empty
                data = self.view.blobs.read(self.view.entries[name][1], config.max_bytes, keep=False)
                path = os.path.relpath(os.path.join(self.top, name), self.cwd)
                if excluded(path, config):
                    continue
                with viewing(self.view):
                    result = lint_bytes(data or b"", path, config, explicit=False, model=False)
                yield result
        finally:
            self.view.blobs.close()
