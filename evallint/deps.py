"""Which other files a file's result depends on, so a cached result is
trusted only while none of them changed (or appeared, or vanished)."""
from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Optional

_current: ContextVar[Optional[set]] = ContextVar("evallint_deps", default=None)


def note(path: str) -> None:
    """Record that the result looked at ``path`` (whether or not it exists)."""
    bucket = _current.get()
    if bucket is not None:
        bucket.add(os.path.abspath(path))


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
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size, st.st_ino]
