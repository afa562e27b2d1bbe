"""``@record``: what ``@dataclass`` gives the few classes every run needs (the
configuration, diagnostics, results), without importing ``dataclasses``.

Importing ``dataclasses`` loads ``inspect`` (and with it ``ast`` and ``dis``):
about 16 ms of a run answered from the cache, which otherwise never needs it.
A record has the ``__init__`` (fields in annotation order, defaults, and
``factory()`` for mutable defaults), ``__repr__`` and ``__eq__`` a dataclass
would have; a frozen one also refuses assignment and hashes by its fields. The
model classes, which need ``dataclasses.replace`` and ``asdict``, stay
dataclasses (``frozen.py``)."""
from __future__ import annotations


class factory:
    """A default made afresh for each instance (``field(default_factory=...)``)."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


class FrozenError(AttributeError):
    """Assignment to a field of a frozen record."""


def fields_of(cls) -> tuple:
    """The field names of a record class, in order."""
    return cls._compared


def record(cls=None, *, frozen: bool = False):
    def wrap(cls):
        names = tuple(cls.__dict__.get("__annotations__", {}))
        params, lines, scope = [], [], {"_set": object.__setattr__}
        for name in names:
            default = cls.__dict__.get(name, _NONE)
            if isinstance(default, factory):
                scope[f"_f_{name}"] = default.make
                params.append(f"{name}=_NONE")
                value = f"_f_{name}() if {name} is _NONE else {name}"
                delattr(cls, name)
            else:
                if default is not _NONE:
                    scope[f"_d_{name}"] = default
                    params.append(f"{name}=_d_{name}")
                else:
                    params.append(name)
                value = name
            lines.append(f"_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
        scope["_NONE"] = _NONE
        source = f"def __init__(self, {', '.join(params)}):\n    " + ("\n    ".join(lines) or "pass") + "\n"
        exec(source, scope)  # the same code @dataclass generates; nothing from outside evallint goes in
        init = scope["__init__"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = init
        cls._compared = cls._shown = names  # every field of a record is compared and shown
        cls.__repr__ = shared_repr
        cls.__eq__ = shared_eq
        if frozen:
            cls.__setattr__ = _refuse
            cls.__delattr__ = _refuse
            cls.__hash__ = shared_hash
        else:
            cls.__hash__ = None  # like a dataclass with eq and not frozen
        return cls

    return wrap if cls is None else wrap(cls)


_NONE = object()


# The repr, equality and hash of records and of ``@frozen`` dataclasses: what a generated dataclass method
# does, over the class's ``_shown`` and ``_compared`` field names.
def _values(obj) -> tuple:
    return tuple(getattr(obj, name) for name in obj._compared)


def shared_repr(self) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
    return f"{self.__class__.__qualname__}({shown})"


def shared_eq(self, other):
    if other.__class__ is self.__class__:
        return _values(self) == _values(other)
    return NotImplemented


def shared_hash(self) -> int:
    return hash(_values(self))


def _refuse(self, name, *args):
    raise FrozenError(f"cannot assign to field '{name}'")
