"""``--staged``: what is in the git index, not the working tree. The staged files are linted, and the
files they point at (prompts, scripts, folders, targets files) are looked up in the index too: what
the commit will hold. However many files are staged, git is started a fixed number of times
(``gitindex.py``); of a blob over the size cap only the first bytes are read, which tell whether it is an
AgentV file to report (EV006)."""
from __future__ import annotations

import os
from functools import partial
from typing import Iterator, Optional, Union

from evallint.config import Config
from evallint.diagnostics import Finding
from evallint.lint import HEAD_PEEK, lint_bytes, lint_too_large, lint_unread
from evallint.load import git
from evallint.load.view import viewing
from evallint.report.result import FileResult
from evallint.run.discovery import excluded, is_candidate
from evallint.run.gitindex import (EMPTY_BLOBS, LINK_MODE, Blobs, GitError, IndexView, blob_sizes, git_output,
                                   index_entries, request_groups)
from evallint.run.pool import Chunks, lint_ordered

__all__ = ["GitError", "StagedIndex"]

MISSING = -1  # the size of a blob missing from the object store (a damaged repository): linted as empty
UNREAD = -2  # the size given with a link that cannot be followed: its EV009 is reported in place of a blob


class StagedIndex:
    """The git index of the repository around a folder: its staged candidate files and a view of it."""

    def __init__(self, cwd: str):
        try:
            top = git_output(["rev-parse", "--show-toplevel"], cwd).decode().strip()
        except GitError as exc:
            raise GitError(f"--staged reads the git index, which git cannot read here: {exc}") from None
        self.cwd = cwd
        self.top = os.path.normpath(top)
        # the deleted files (D) are kept to find the eval files that used them
        self.names = _staged_names(self.top, "--diff-filter=ACMRD")
        listing = git_output(["ls-files", "-s", "-z"], self.top)
        intended: frozenset = frozenset()
        if any(empty.encode() in listing for empty in EMPTY_BLOBS):
            # an intent-to-add entry ('git add -N') is a change from the last commit when such entries are
            # visible and none when they are not: the paths only the first comparison names are those entries.
            # Neither looks at the work tree (which would hash its files through the repository's clean filters)
            intended = (frozenset(_staged_names(self.top, "--diff-filter=d", "--ita-visible-in-index"))
                        - frozenset(_staged_names(self.top, "--diff-filter=d", "--ita-invisible-in-index")))
        self.view = IndexView(self.top, index_entries(listing, intended), Blobs(self.top))
        self.users: Optional[dict] = None  # eval file -> the staged or deleted files it uses, once found

    def _blob_of(self, name: str, config: Config) -> Union[str, Finding]:
        """The object name of what a staged file holds: a link is followed in the index, within the
        repository root, as the working tree's run follows one on disk (EV009 when it cannot be)."""
        mode, sha = self.view.entries[name][:2]
        if mode != LINK_MODE:
            return sha
        path = os.path.join(self.top, name)
        return self.view.staged_file(path, config.root_of(path))

    def lint(self, config: Config, jobs: int = 1) -> Iterator[FileResult]:
        """The staged candidate files, and the eval files that use a staged or deleted file
        (``dependents``), linted in path order (the paths as shown, relative to the working folder) with
        their references looked up in the index; in a pool of ``jobs`` processes when there are more
        than a chunk's worth."""
        staged = sorted((self._shown(name), self._blob_of(name, config))
                        for name in self._present() + list(self._users(config)) if is_candidate(name))
        staged = [(path, sha) for path, sha in staged if not excluded(path, config)]
        sizes = iter(blob_sizes(self.top, [sha for _, sha in staged if isinstance(sha, str)]))  # in that order
        items = ((path, (sha, _size(next(sizes)) if isinstance(sha, str) else UNREAD)) for path, sha in staged)
        how = Chunks(partial(lint_blobs, self.view), lint_blobs_in_worker, start_worker, (self.top, self.view.entries))
        try:
            yield from lint_ordered(items, config, jobs, how)
        finally:
            self.view.blobs.close()  # after the pool has stopped: its workers hold no pipe to this process's git

    def dependents(self, config: Config) -> dict:
        """{eval file: the staged or deleted files it uses}, as shown (``dependents.in_index``)."""
        return {self._shown(name): [self._shown(u) for u in used] for name, used in self._users(config).items()}

    def _users(self, config: Config) -> dict:
        if self.users is None:
            from evallint.run.dependents import in_index

            gone = [name for name in self.names if name not in self.view.entries]
            self.users = in_index(self.view, self._present(), gone, config)
        return self.users

    def _present(self) -> list:
        """The staged files that the index holds (not deleted)."""
        return [name for name in self.names if name in self.view.entries]

    def _shown(self, name: str) -> str:
        """An index path as shown: relative to the working folder."""
        return os.path.relpath(os.path.join(self.top, name), self.cwd)


def _staged_names(top: str, *options: str) -> list:
    """The paths (relative to the work tree ``top``) that the index changes from the last commit, as
    ``git diff --cached OPTIONS`` names them: before the first commit too, when it compares the index with
    an empty tree."""
    names = git_output(["diff", "--cached", "--name-only", "-z", "--no-renames", *git.DIFF_OPTIONS, *options], top)
    return [n.decode("utf-8", "surrogateescape") for n in names.split(b"\0") if n]


def _size(size: Optional[int]) -> int:
    return MISSING if size is None else size


def _wanted(size: int, config: Config) -> int:
    """The bytes of a blob of ``size`` read to lint it: all of them, or the head of one over the cap."""
    return max(0, size) if size <= config.max_bytes else HEAD_PEEK


def _asks(item: tuple, config: Config) -> tuple:
    """(object name, bytes) that linting ``item`` asks git for: nothing for a link that cannot be followed."""
    sha, size = item[1]
    return ("", 0) if size == UNREAD else (sha, _wanted(size, config))


def lint_blobs(view: IndexView, todo: list, config: Config, keys: Optional[tuple] = None) -> list:
    """(result, None) for each (path, (object name, size)) of a chunk, in order: the blobs are asked for
    a group at a time (their bytes held for that group only), their references looked up in ``view``."""
    out = []
    with viewing(view):
        for group in request_groups(todo, lambda item: _asks(item, config)):
            asked = [(sha, _wanted(size, config)) for _, (sha, size) in group if size >= 0]
            answers = iter(view.blobs.read_many(asked) if asked else ())
            for path, (sha, size) in group:
                if size == UNREAD:  # a link that cannot be followed: ``sha`` is its EV009
                    out.append((lint_unread(path, sha, config, explicit=False, model=False), None))
                    continue
                answer = None if size == MISSING else next(answers)
                out.append((_lint_blob(path, size, answer, config), None))
    return out


def _lint_blob(path: str, size: int, answer: Optional[tuple], config: Config) -> FileResult:
    if answer is None:  # a blob missing from the object store (a damaged repository) is linted as empty
        return lint_bytes(b"", path, config, explicit=False, model=False)
    if size > config.max_bytes:
        return lint_too_large(path, size, answer[1], config, explicit=False, model=False)
    return lint_bytes(answer[1], path, config, explicit=False, model=False)


_worker_view: Optional[IndexView] = None  # the index as a pool worker sees it, with its own git process


def start_worker(top: str, entries: dict) -> None:
    """Prepare a pool worker: a view of the index (``IndexView.entries``) with a ``git cat-file`` process
    of its own."""
    global _worker_view
    _worker_view = IndexView(top, entries, Blobs(top))


def lint_blobs_in_worker(todo: list, config: Config, keys: Optional[tuple] = None) -> list:
    """``lint_blobs`` in a pool worker, in the run it lives for: results as slim as a reporter needs."""
    assert _worker_view is not None
    return [(result.slim(), row) for result, row in lint_blobs(_worker_view, todo, config)]
