"""Which other files a file's result depends on, so a cached result is
trusted only while none of them changed (or appeared, or vanished)."""
from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
TYPE_CHECKING = False  # typing is not imported at run time: a cached run never needs it
if TYPE_CHECKING:
    from typing import Iterator, Optional

from .bounded import Bounded

_current: ContextVar[Optional[set]] = ContextVar("evallint_deps", default=None)


def note(path: str) -> None:
    """Record that the result looked at ``path`` (whether or not it exists)."""
    bucket = _current.get()
    if bucket is not None:
        bucket.add(path if os.path.isabs(path) else absolute(path))


@contextmanager
def recording() -> Iterator[set]:
    bucket: set = set()
    token = _current.set(bucket)
    try:
        yield bucket
    finally:
        _current.reset(token)


def signature(path: str) -> Optional[list]:
    """What changes when the file changes: None for a missing path."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return stat_signature(st)


def stat_signature(st: os.stat_result) -> list:
    return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino]


# Within one run, many files point at the same prompts and the same targets
# file: their lookups are answered once. The memo lives only while a run is
# in progress (files may change between runs of one long-lived process).
_memo: ContextVar[Optional[dict]] = ContextVar("evallint_memo", default=None)


@contextmanager
def run_scope() -> Iterator[None]:
    token = _memo.set(Bounded(4096))
    try:
        yield
    finally:
        _memo.reset(token)


def cwd() -> str:
    """The working folder, read once per run (a walk's paths are relative to it: the run would
    otherwise ask the system for it for every path it makes absolute)."""
    memo = _memo.get()
    if memo is None:
        return os.getcwd()
    found = memo.young.get(_CWD) or memo.get(_CWD)
    if found is None:
        found = memo.put(_CWD, (os.getcwd(), ()))
    return found[0]


_CWD = ("cwd",)


def parent(path: str) -> str:
    """``os.path.dirname``, by string operations where paths have one separator (every file of a run
    asks it)."""
    if os.altsep is not None:
        return os.path.dirname(path)
    head = path[:path.rfind(os.sep) + 1]  # posixpath.dirname, without its argument checks
    if head and head != os.sep * len(head):
        head = head.rstrip(os.sep)
    return head


def absolute(path: str) -> str:
    """``os.path.abspath``, with the run's working folder."""
    if os.path.isabs(path):
        return os.path.normpath(path)
    base = cwd()
    if os.altsep is not None:  # where a relative path can name a drive, os.path.join knows what to do
        return os.path.normpath(os.path.join(base, path))
    return os.path.normpath(base + path if base.endswith(os.sep) else base + os.sep + path)


def remember_folder(folder: str, entries: list, has_agentv: bool) -> None:
    """What the walk saw in ``folder`` (absolute, normalized): its candidate entries, (name, is a
    folder) pairs (every entry with a candidate suffix that is not a folder is one), and whether it
    holds an ``.agentv`` folder. Later questions about those names in this run need not ask the
    system again."""
    memo = _memo.get()
    if memo is not None:
        memo.put(("listed", folder), (entries, has_agentv))


def known(key: tuple, value) -> None:
    """Give ``memoized(key, ...)`` its answer for this run, found some other way (what a run records
    for a cached result, the paths looked at, is still gathered when a recording asks)."""
    memo = _memo.get()
    if memo is not None:
        memo.put(key, (value, None))


def listed(folder: str) -> Optional[tuple]:
    """(candidate entries, holds .agentv) the walk saw in ``folder`` this run, or None."""
    memo = _memo.get()
    return None if memo is None else memo.get(("listed", folder))


def listed_files(folder: str) -> Optional[frozenset]:
    """The names of the files the walk saw in ``folder`` this run, lower-cased (a file system that
    ignores case finds ``Targets.yaml`` for ``targets.yaml``), or None."""
    return _from_listing("files", folder, _file_names)


def listed_folders(folder: str) -> Optional[frozenset]:
    """The names of the folders the walk saw in ``folder`` this run (as spelled there; links are not
    among them, nor the folders the walk skips), or None."""
    return _from_listing("folders", folder, _folder_names)


def _file_names(entries: list) -> frozenset:
    return frozenset(name.lower() for name, is_dir in entries if not is_dir)


def _folder_names(entries: list) -> frozenset:
    return frozenset(name for name, is_dir in entries if is_dir)


def _from_listing(kind: str, folder: str, make) -> Optional[frozenset]:
    """``make`` of the walk's listing of ``folder`` this run, or None when it has none. Made when first
    asked for, so a folder nobody asks about costs nothing, and a large folder is not scanned once per
    question."""
    memo = _memo.get()
    if memo is None:
        return None
    found = memo.get((kind, folder))
    if found is None:
        seen = memo.get(("listed", folder))
        if seen is None:
            return None
        found = memo.put((kind, folder), make(seen[0]))
    return found


def memoized(key: tuple, compute, *args):
    """``compute(*args)`` once per run for ``key``; the paths it looked at are noted on every use
    (when nothing records them, as in a run without a cache, they are not gathered at all)."""
    memo = _memo.get()
    if memo is None:
        return compute(*args)
    hit = memo.young.get(key)  # Bounded.get, without its call: a run makes many of these lookups
    if hit is None and memo.old:
        hit = memo.get(key)
    bucket = _current.get()
    if hit is None or (bucket is not None and hit[1] is None):
        if bucket is None:
            return memo.put(key, (compute(*args), None))[0]
        with recording() as probed:
            value = compute(*args)
        hit = memo.put(key, (value, tuple(probed)))
    if bucket is not None:
        bucket.update(hit[1])  # already absolute: note() made them so
    return hit[0]
