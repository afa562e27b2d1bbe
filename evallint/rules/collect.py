"""Where findings go while a file is loaded, and how each mapping remembers
its data path through the schemas."""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Optional

from evallint.diagnostics import VALUE, Finding
from evallint.suggest import suggestions_per_file


class _AtKey:
    """A dict key no YAML or JSON file can hold: carries a mapping's data path."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<at>"


AT = _AtKey()
CONTENT_AT = _AtKey()  # data path of a message's content, when the loader built the message
SIDECAR = _AtKey()  # in a JSONL dataset's suite data: the file name of its sidecar, where its settings go


class Collected:
    """What loading one file produced besides the model."""

    __slots__ = ("findings", "sites")

    def __init__(self):
        self.findings: list = []
        self.sites: list = []  # references to other files, checked later (rules/references.py)


class Site:
    """A value that names another file or a target, found while loading."""

    __slots__ = ("kind", "value", "path", "extra")

    def __init__(self, kind: str, value: Any, path: tuple, extra: dict):
        self.kind = kind
        self.value = value
        self.path = path
        self.extra = extra

    def __repr__(self) -> str:
        return f"Site({self.kind!r}, {self.value!r}, {self.path!r})"


_current: ContextVar[Optional[Collected]] = ContextVar("evallint_collected", default=None)


class collecting:
    """``with collecting() as collected``: what the loads inside it find goes to ``collected``; its "did you
    mean" suggestions are one file's (``suggest.suggestions_per_file``)."""

    __slots__ = ("bucket", "token", "suggestions")

    def __enter__(self) -> Collected:
        self.bucket = Collected()
        self.token = _current.set(self.bucket)
        self.suggestions = suggestions_per_file()
        self.suggestions.__enter__()
        return self.bucket

    def __exit__(self, *exc) -> None:
        self.suggestions.__exit__(*exc)
        _current.reset(self.token)


def reference(kind: str, value: Any, path: tuple, **extra: Any) -> None:
    """Record a value that points at a file or a target."""
    bucket = _current.get()
    if bucket is not None:
        bucket.sites.append(Site(kind, value, tuple(path), extra))


def report(code: str, message: str, path: tuple, target: str = VALUE, fix: Optional[Any] = None,
           ref: Optional[tuple] = None, needle: Optional[str] = None) -> None:
    """Record a finding. ``ref`` is the data path of an earlier node whose line
    replaces ``{ref_line}`` in the message; ``needle`` is text inside the value
    where the finding points exactly; ``fix`` is a fix recipe (fixes.py)."""
    bucket = _current.get()
    if bucket is not None:
        extra = {"ref": tuple(ref)} if ref is not None else {}
        if needle is not None:
            extra["needle"] = needle
        bucket.findings.append(Finding(code, message, tuple(path), target, fix=fix, extra=extra))


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
