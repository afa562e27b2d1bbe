"""``@frozen``: a frozen dataclass whose ``__repr__``, ``__eq__`` and
``__hash__`` are shared functions instead of code generated for each class.

They behave exactly like the generated ones (same repr text, equal only to an
instance of the same class with equal fields, hash of the field values); the
dataclass machinery compiles half as much code per class, which is most of
the time it takes to import the model on every cold start."""
from __future__ import annotations

import reprlib
from dataclasses import dataclass, fields

from .record import shared_eq, shared_hash, shared_repr


def frozen(cls):
    cls = dataclass(frozen=True, repr=False, eq=False)(cls)
    cls._compared = tuple(f.name for f in fields(cls) if f.compare)
    cls._shown = tuple(f.name for f in fields(cls) if f.repr)
    cls.__repr__ = _repr
    cls.__eq__ = shared_eq
    cls.__hash__ = shared_hash
    return cls


_repr = reprlib.recursive_repr()(shared_repr)  # as a generated dataclass repr: safe when a value holds its own instance
