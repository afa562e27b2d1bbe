"""Putting off what third-party modules do at import and evallint never needs: regular expressions
compiled when first used (``deferred_compiles``), and modules imported when one of their functions is
first called (``stand_in``). Used while PyYAML and marshmallow are imported; every other caller, and
any program that imported those modules first, sees nothing of it. A deferred pattern answers its
methods; a module that hands its pattern to ``re``'s functions instead (gettext does) is left alone."""
from __future__ import annotations

import importlib
import re
import sys
import types
from contextlib import contextmanager
TYPE_CHECKING = False  # typing is not imported at run time: a cached run never needs it
if TYPE_CHECKING:
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
def deferred_compiles(*modules: str) -> Iterator[None]:
    """While it is active, patterns compiled by the named modules' own code are deferred; every other
    caller (another thread too) gets ``re.compile`` as always."""
    def compile_later(pattern, flags=0):
        if sys._getframe(1).f_globals.get("__name__") in modules:
            return DeferredPattern(pattern, flags)
        return _compile_now(pattern, flags)

    re.compile = compile_later
    try:
        yield
    finally:
        re.compile = _compile_now


class OnFirstCall:
    """A function of a module not imported yet: the module is imported when it is first called."""

    __slots__ = ("_module", "_name")

    def __init__(self, module: str, name: str) -> None:
        self._module, self._name = module, name

    def __call__(self, *args, **kwargs):
        return getattr(importlib.import_module(self._module), self._name)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self._module}.{self._name}, imported on first call>"


@contextmanager
def stand_in(name: str, functions: tuple, same: Optional[dict] = None) -> Iterator[None]:
    """While it is active, ``import name`` gives a stand-in module holding ``functions`` as
    ``OnFirstCall``s and ``same``'s functions as they are (each does what the module's function of
    that name does); any other attribute comes from a copy of the real module, loaded then. After
    it, ``sys.modules`` and the parent package are as they were. Nothing is stood in for a module
    already imported."""
    if name in sys.modules:
        yield
        return
    parent_name, _, child = name.rpartition(".")
    parent = importlib.import_module(parent_name) if parent_name else None
    stand = types.ModuleType(name)
    for function in functions:
        setattr(stand, function, OnFirstCall(name, function))
    for attribute, function in (same or {}).items():
        setattr(stand, attribute, function)

    def real_attribute(attribute: str):
        import importlib.machinery
        import importlib.util

        spec = importlib.machinery.PathFinder.find_spec(name, parent.__path__ if parent else None)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return getattr(module, attribute)

    stand.__getattr__ = real_attribute
    sys.modules[name] = stand
    if parent is not None:
        setattr(parent, child, stand)
    try:
        yield
    finally:
        if sys.modules.get(name) is stand:
            del sys.modules[name]
        if parent is not None and parent.__dict__.get(child) is stand:
            delattr(parent, child)


def getmro(cls) -> tuple:
    """``inspect.getmro``, which is exactly this."""
    return cls.__mro__
