"""Where findings go while a file is loaded, and how each mapping remembers
its data path through the schemas."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Optional

from ..diagnostics import VALUE, Finding


class _AtKey:
    """A dict key no YAML or JSON file can hold: carries a mapping's data path."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<at>"


AT = _AtKey()
CONTENT_AT = _AtKey()  # data path of a message's content, when the loader built the message

_findings: ContextVar[Optional[list]] = ContextVar("evallint_findings", default=None)


@contextmanager
def collecting() -> Iterator[list]:
    bucket: list = []
    token = _findings.set(bucket)
    try:
        yield bucket
    finally:
        _findings.reset(token)


def report(code: str, message: str, path: tuple, target: str = VALUE, fix: Optional[Any] = None,
           ref: Optional[tuple] = None) -> None:
    """Record a finding. ``ref`` is the data path of an earlier node whose line
    replaces ``{ref_line}`` in the message; ``fix`` is a fix recipe (fixes.py)."""
    bucket = _findings.get()
    if bucket is not None:
        extra = {"ref": tuple(ref)} if ref is not None else {}
        bucket.append(Finding(code, message, tuple(path), target, fix=fix, extra=extra))


def at_of(data: Any) -> tuple:
    return data.get(AT, ()) if isinstance(data, dict) else ()


def annotate(value: Any, path: tuple) -> Any:
    """A shallow copy of a mapping that knows its data path."""
    if isinstance(value, dict):
        copy = dict(value)
        copy[AT] = path
        return copy
    return value


def annotate_list(values: Any, path: tuple) -> Any:
    if isinstance(values, list):
        return [annotate(item, path + (i,)) for i, item in enumerate(values)]
    return values
