"""Marshmallow schemas: pre_load expands aliases and shorthands (running the
rule checks of each level on the way), post_load builds the frozen model.

marshmallow is imported here first, with the regular expressions of its
e-mail validator compiled on first use instead of at import: evallint never
validates e-mail addresses, and compiling them (Unicode letter classes,
case-insensitive) is about 60 ms, two thirds of what importing marshmallow costs, in
every process: each pre-commit run, each pool worker."""
from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from typing import Iterator


class DeferredPattern:
    """A regular expression compiled the first time it is used."""

    __slots__ = ("_source", "_compiled")

    def __init__(self, pattern, flags) -> None:
        self._source = (pattern, flags)
        self._compiled = None

    def __getattr__(self, name: str):
        if name.startswith("__"):  # asked of every class attribute when a class is made (ABCMeta)
            raise AttributeError(name)
        if self._compiled is None:
            self._compiled = _compile_now(*self._source)
        return getattr(self._compiled, name)


_compile_now = re.compile


@contextmanager
def _deferred_compiles(module: str) -> Iterator[None]:
    """While it is active, patterns compiled by ``module``'s own code are deferred; every other
    caller (another thread too) gets ``re.compile`` as always."""
    def compile_later(pattern, flags=0):
        if sys._getframe(1).f_globals.get("__name__") == module:
            return DeferredPattern(pattern, flags)
        return _compile_now(pattern, flags)

    re.compile = compile_later
    try:
        yield
    finally:
        re.compile = _compile_now


if "marshmallow.validate" not in sys.modules:
    with _deferred_compiles("marshmallow.validate"):
        import marshmallow.validate  # noqa: F401

from marshmallow import ValidationError  # noqa: E402  (after the import above, on purpose)

__all__ = ["DeferredPattern", "ValidationError"]
