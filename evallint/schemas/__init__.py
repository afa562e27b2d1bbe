"""Marshmallow schemas: pre_load expands aliases and shorthands (running the
rule checks of each level on the way), post_load builds the frozen model.

marshmallow is imported here first, with two things it does at import put off
until they are used, which evallint never does; in every process (each
pre-commit run, each pool worker) they were most of what importing marshmallow
costs:

- the regular expressions of its e-mail validator are compiled on first use
  (Unicode letter classes, case-insensitive: about 60 ms);
- ``email.utils``, which its date fields name for the RFC 822 formats, is
  imported when one of its functions is first called (it imports ``socket``,
  ``urllib.parse``, ``calendar`` and the ``email`` package's charsets: about
  14 ms);
- ``inspect``, whose ``getmro`` its schema classes call as they are made (it
  is ``cls.__mro__``) and whose two generator tests it calls when a field
  checks for a collection, is imported when one of those tests is first called
  (it imports ``ast``, ``dis``, ``tokenize`` and ``linecache``: about 7 ms).

Only marshmallow's import sees the stand-ins: they are gone from
``sys.modules`` when the import ends, and a program that imported one of
those modules before gets it as it is."""
from __future__ import annotations

import importlib
import re
import sys
import types
from contextlib import contextmanager
from typing import Iterator, Optional


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


class _OnFirstCall:
    """A function of a module not imported yet: the module is imported when it is first called."""

    __slots__ = ("_module", "_name")

    def __init__(self, module: str, name: str) -> None:
        self._module, self._name = module, name

    def __call__(self, *args, **kwargs):
        return getattr(importlib.import_module(self._module), self._name)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self._module}.{self._name}, imported on first call>"


@contextmanager
def _stand_in(name: str, functions: tuple, same: Optional[dict] = None) -> Iterator[None]:
    """While it is active, ``import name`` gives a stand-in module holding ``functions`` as
    ``_OnFirstCall``s and ``same``'s functions as they are (each does what the module's function of
    that name does); any other attribute comes from a copy of the real module, loaded then. After
    it, ``sys.modules`` and the parent package are as they were. Nothing is stood in for a module
    already imported."""
    if name in sys.modules:
        yield
        return
    parent_name, _, child = name.rpartition(".")
    parent = importlib.import_module(parent_name) if parent_name else None
    stand_in = types.ModuleType(name)
    for function in functions:
        setattr(stand_in, function, _OnFirstCall(name, function))
    for attribute, function in (same or {}).items():
        setattr(stand_in, attribute, function)

    def real_attribute(attribute: str):
        import importlib.machinery
        import importlib.util

        spec = importlib.machinery.PathFinder.find_spec(name, parent.__path__ if parent else None)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return getattr(module, attribute)

    stand_in.__getattr__ = real_attribute
    sys.modules[name] = stand_in
    if parent is not None:
        setattr(parent, child, stand_in)
    try:
        yield
    finally:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        if parent is not None and parent.__dict__.get(child) is stand_in:
            delattr(parent, child)


def _getmro(cls) -> tuple:
    """``inspect.getmro``, which is exactly this."""
    return cls.__mro__


if "marshmallow.validate" not in sys.modules:
    with _deferred_compiles("marshmallow.validate"), \
            _stand_in("email.utils", ("format_datetime", "parsedate_to_datetime")), \
            _stand_in("inspect", ("isgeneratorfunction", "isgenerator"), {"getmro": _getmro}):
        import marshmallow.validate  # noqa: F401

from marshmallow import ValidationError  # noqa: E402  (after the import above, on purpose)

__all__ = ["DeferredPattern", "ValidationError"]
