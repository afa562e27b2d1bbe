"""``@frozen``: a frozen dataclass whose ``__repr__``, ``__eq__`` and
``__hash__`` are shared functions instead of code generated for each class.

They behave exactly like the generated ones (same repr text, equal only to an
instance of the same class with equal fields, hash of the field values); the
dataclass machinery compiles half as much code per class, which is most of
the time it takes to import the model on every cold start."""
from __future__ import annotations

import reprlib
from dataclasses import dataclass, fields


def frozen(cls):
    cls = dataclass(frozen=True, repr=False, eq=False)(cls)
    cls._compared = tuple(f.name for f in fields(cls) if f.compare)
    cls._shown = tuple(f.name for f in fields(cls) if f.repr)
    cls.__repr__ = _repr
    cls.__eq__ = _eq
    cls.__hash__ = _hash
    return cls


@reprlib.recursive_repr()
def _repr(self) -> str:
    return f"{self.__class__.__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self._shown)})"


def _values(obj) -> tuple:
    return tuple(getattr(obj, name) for name in obj._compared)


def _eq(self, other):
    if other.__class__ is self.__class__:
        return _values(self) == _values(other)
    return NotImplemented


def _hash(self) -> int:
    return hash(_values(self))
