"""Which other files a file's result looked at, with their signatures, so that a cached result is
trusted only while none of them changed (or appeared, or vanished); and a memo for one run, so that
files sharing a prompt or a targets file look it up once.

A path's signature is taken when the lint first notes it, which it does before it looks at or reads
the path: a file that changes while it is linted never has its new signature kept with a result made
from what it held before. A path noted with two different signatures (a memoized answer found before
the file changed, and a look after) is kept as ``CHANGED``, which no signature equals."""
from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Optional

from evallint.load.paths import inside

MEMO_SIZE = 4096  # entries a run's memo holds before it starts afresh: memory stays flat

CHANGED = "changed"  # the signature of a path that changed while the result was made: never matches

_current: ContextVar[Optional[dict]] = ContextVar("evallint_deps", default=None)
_memo: ContextVar[Optional[dict]] = ContextVar("evallint_memo", default=None)


def note(path: str) -> None:
    """Record that the result being made looks at ``path`` (whether or not it exists), with its
    signature now, before it is looked at."""
    bucket = _current.get()
    if bucket is not None:
        absolute = path if os.path.isabs(path) else os.path.abspath(path)
        if absolute not in bucket:
            bucket[absolute] = signature(absolute)


def _merge(bucket: dict, noted: dict) -> dict:
    """``bucket`` with the signatures ``noted`` added: a path signed differently in the two is ``CHANGED``."""
    for path, sig in noted.items():
        bucket[path] = sig if bucket.get(path, sig) == sig else CHANGED
    return bucket


@contextmanager
def recording() -> Iterator[dict]:
    """{absolute path: its signature when first noted} of the paths noted inside the block."""
    bucket: dict = {}
    token = _current.set(bucket)
    try:
        yield bucket
    finally:
        _current.reset(token)


def signature(path: str) -> Optional[list]:
    """What changes when the file or folder at ``path`` changes; None when it is missing."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino]


@contextmanager
def run_scope() -> Iterator[None]:
    """One run: ``memoized`` answers are kept until the block ends (files may change between runs)."""
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


def begin_worker_run() -> None:
    """Start the one run a pool worker lives for (its pool is started for a run and shut down after it): ``memoized``
    answers are kept until the process ends, shared by every chunk of files it lints."""
    _memo.set({})


def memoized(key: tuple, compute, *args):
    """``compute(*args)``, once per run for ``key`` (every time outside a run). The paths it noted are
    noted again on every use, so each result that uses the answer depends on them."""
    return memoized_when(key, None, compute, *args)


def memoized_when(key: tuple, keep, compute, *args):
    """``compute(*args)``, like ``memoized``, but kept for the rest of the run only when ``keep(answer)`` holds
    (None: always): an answer that is cheap to work out again then takes no memo entry, which many would crowd out
    the others."""
    memo = _memo.get()
    if memo is None:
        return compute(*args)
    found = memo.get(key)
    if found is None:
        probed: dict = {}
        token = _current.set(probed)
        try:
            value = compute(*args)
        finally:
            _current.reset(token)
        found = (value, probed)
        if keep is None or keep(value):
            if len(memo) >= MEMO_SIZE:
                memo.clear()
            memo[key] = found
    bucket = _current.get()
    if bucket is not None:
        _merge(bucket, found[1])
    return found[0]


def memoized_nearest(key_of, folder: str, root: str, find, default=None):
    """The answer of the nearest of ``folder`` and the folders above it up to ``root`` that has one (``find(folder)``:
    its answer, or None), else ``default`` (also at the top of the file system, or at a folder outside ``root``);
    memoized per folder (``memoized_upward``)."""
    def look(at: str) -> tuple:
        found = find(at)
        if found is not None:
            return True, found
        parent = os.path.dirname(at)
        if at == root or parent == at or not inside(at, root):
            return True, default
        return False, _same

    return memoized_upward(key_of, folder, look)


def _same(answer):
    return answer


def memoized_upward(key_of, folder: str, look):
    """The answer for ``folder`` (absolute, normalized) of a question each folder answers by itself or
    from its parent's answer, memoized per folder like ``memoized`` (``key_of(folder)``: its key). The
    folders are climbed in a loop, never by recursion, so any depth of folders is answered.
    ``look(folder)`` returns (True, answer) when the folder decides, else (False, derive), where
    ``derive(parent's answer)`` is its answer (``derive(None)`` for the top folder, its own parent). A
    folder's answer depends on the paths its own look noted and on those its parent's answer depends
    on."""
    memo = _memo.get()
    climbed = []  # (folder, derive or None, the paths its look noted), nearest first
    current = folder
    while True:
        found = memo.get(key_of(current)) if memo is not None else None
        if found is not None:
            answer, probed = found
            break
        noted: dict = {}
        token = _current.set(noted)
        try:
            decided, value = look(current)
        finally:
            _current.reset(token)
        if decided:
            answer, probed = value, {}
            climbed.append((current, None, noted))
            break
        climbed.append((current, value, noted))
        parent = os.path.dirname(current)
        if parent == current:
            answer, probed = None, {}
            break
        current = parent
    for at, derive, noted in reversed(climbed):
        if derive is not None:
            answer = derive(answer)
        probed = _merge(dict(probed), noted) if noted else probed  # a new dict: the memo keeps the old
        if memo is not None:
            if len(memo) >= MEMO_SIZE:
                memo.clear()
            memo[key_of(at)] = (answer, probed)
    bucket = _current.get()
    if bucket is not None:
        _merge(bucket, probed)
    return answer
