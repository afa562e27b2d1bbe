"""What the last commit holds. A YAML file that was an eval suite in ``HEAD`` is linted as one however it
is broken now (emptied, its top level a scalar, its 'evalcases' renamed beyond a near miss), so that
breaking an eval file that no ``include`` glob names is reported, not skipped.

Blobs are read through one ``git cat-file --batch`` process per repository and process, started at the
first question (as ``load/git.py`` starts every git). The git files that say which commit ``HEAD`` is are
noted as dependencies, so a cached answer is dropped when a commit is made. When git cannot answer (it
refuses a repository another user owns, or it is not installed), the files are judged by their content
alone and ``watching`` says why."""
from __future__ import annotations

import atexit
import os
import subprocess
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Optional

from evallint.load import deps, git

_BATCHES: dict = {}  # repository root -> Popen, or None when git cannot answer there
_REFUSED: dict = {}  # repository root -> why git cannot answer there
_watched: ContextVar[Optional[list]] = ContextVar("evallint_history_unanswered", default=None)
SKIP_BLOCK = 1 << 20  # the bytes of a blob over the cap are read and dropped in blocks of this size


def head_bytes(path: str, root: str, max_bytes: int, prefix: bool = False) -> Optional[bytes]:
    """The file's bytes in the commit ``HEAD`` of the git repository at ``root``, or None: no git
    repository there, no such file in ``HEAD``, a file over ``max_bytes`` (none of it is held; with
    ``prefix``, its first ``max_bytes`` bytes are given), or git unavailable."""
    relative = os.path.relpath(os.path.abspath(path), root)
    if relative.startswith(os.pardir) or "\n" in relative:
        return None
    return _object(root, "HEAD:" + relative.replace(os.sep, "/"), max_bytes, prefix)


def has_head(root: str) -> bool:
    """Whether the git repository at ``root`` has a commit ``HEAD`` that git answers for."""
    return _object(root, "HEAD", 0, prefix=True) is not None


def _object(root: str, name: str, max_bytes: int, prefix: bool) -> Optional[bytes]:
    """The bytes of the object ``name`` (``HEAD:PATH``) of the git repository at ``root``, as ``head_bytes`` says."""
    git_dir = _git_dir(root)
    if git_dir is None:
        return None
    _note_head(git_dir)
    proc = _batch(root)
    if proc is None:
        _unanswered(root)
        return None
    try:
        proc.stdin.write(name.encode("utf-8", "surrogateescape") + b"\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:
            raise OSError("git cat-file --batch stopped")
        header = line.split()
        # "<name> missing" (no such file, or no commit yet), the name as asked, which may hold spaces
        if len(header) != 3 or header[-1] in (b"missing", b"ambiguous"):
            return None
        size = int(header[2])
        data = proc.stdout.read(min(size, max_bytes)) if size <= max_bytes or prefix else None
        rest = size - (0 if data is None else len(data)) + 1  # what is left of the blob, and the line feed after it
        while rest > 0:  # a blob over the cap streams by in blocks, never held whole
            skipped = proc.stdout.read(min(rest, SKIP_BLOCK))
            if not skipped:
                raise OSError("git cat-file --batch stopped in the middle of a blob")
            rest -= len(skipped)
    except (OSError, ValueError):  # git stopped (it refuses the repository, say): no more questions there
        _stop(proc)
        _BATCHES[root] = None
        _REFUSED[root] = git.refusal(root) or "git cat-file --batch stopped answering"
        _unanswered(root)
        return None
    return data


@contextmanager
def watching() -> Iterator[list]:
    """The notices of the questions inside the block that git could not answer: why, for each."""
    notices: list = []
    token = _watched.set(notices)
    try:
        yield notices
    finally:
        _watched.reset(token)


def _unanswered(root: str) -> None:
    notices = _watched.get()
    if notices is not None:
        notices.append(f"cannot read the git history of '{root}': {_REFUSED[root]}; "
                       "files are recognized by their content only")


def _git_dir(root: str) -> Optional[str]:
    """The git folder of the repository whose top is ``root`` (``.git``, or where a ``.git`` file points)."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    line = _first_line(dot_git)
    if line is None or not line.startswith("gitdir:"):
        return None
    return os.path.normpath(os.path.join(root, line[len("gitdir:"):].strip()))


def _note_head(git_dir: str) -> None:
    """Note what changes when ``HEAD`` moves: the HEAD file, the branch it names, the packed refs."""
    head = os.path.join(git_dir, "HEAD")
    deps.note(head)
    line = _first_line(head)
    if line is not None and line.startswith("ref:"):
        ref = line[len("ref:"):].strip()
        common = _common_dir(git_dir)
        deps.note(os.path.join(common, *ref.split("/")))
        deps.note(os.path.join(common, "packed-refs"))


def _common_dir(git_dir: str) -> str:
    """Where a linked worktree's branches live (``commondir``), else ``git_dir`` itself."""
    line = _first_line(os.path.join(git_dir, "commondir"))
    return git_dir if line is None else os.path.normpath(os.path.join(git_dir, line))


def _first_line(path: str) -> Optional[str]:
    """The first line of one of git's small files, stripped; None when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.readline().strip()
    except (OSError, UnicodeDecodeError):
        return None


def _batch(root: str) -> Optional[subprocess.Popen]:
    if root not in _BATCHES:
        try:
            _BATCHES[root] = git.start(["cat-file", "--batch"], root)
        except OSError as exc:
            _BATCHES[root] = None
            _REFUSED[root] = git.not_started(exc)
    return _BATCHES[root]


def _stop(proc: subprocess.Popen) -> None:
    """End a ``git cat-file`` process, its pipes closed even when git is gone (nothing left to flush)."""
    for stream in (proc.stdin, proc.stdout):
        try:
            stream.close()
        except OSError:  # a broken pipe: what was buffered for git is dropped with it
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _forget() -> None:
    """In a forked process (a pool worker): the ``git cat-file`` processes are its parent's, whose pipes a
    second writer would garble (each process would read the other's answers); it starts its own."""
    _BATCHES.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget)


@atexit.register
def _close() -> None:
    for proc in _BATCHES.values():
        if proc is not None:
            _stop(proc)
