"""The base schema: unknown keys are left to the rules (EV109), never raised; the hooks that build the model, which
a load for findings only skips."""
from __future__ import annotations

from collections.abc import Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cached_property, lru_cache, partial, wraps
from typing import Any, Callable, Iterator, Optional

from marshmallow import EXCLUDE, Schema, missing as missing_, post_load, pre_load

# False within ``models_built(False)``: the loads of a caller that reports findings and never reads the model
_BUILDING: ContextVar[bool] = ContextVar("evallint_model_built", default=True)


@contextmanager
def models_built(build: bool) -> Iterator[None]:
    """Within it, the loads build the model, or with ``build`` False build none: each ``builds`` hook gives back
    what its schema loaded, as loaded, and the model's classes are not imported. The findings are the same: every
    check reads the data as written."""
    token = _BUILDING.set(build)
    try:
        yield
    finally:
        _BUILDING.reset(token)


def building() -> bool:
    """Whether the load under way builds the model (``models_built``; it does unless told otherwise)."""
    return _BUILDING.get()


def builds(hook: Optional[Callable] = None, *, pass_original: bool = False) -> Callable:
    """marshmallow's ``post_load`` for a hook that builds the schema's part of the model, run unless the load
    builds none (``models_built(False)``: then the loaded data is given back as it is)."""
    if hook is None:
        return partial(builds, pass_original=pass_original)

    @wraps(hook)
    def build(self, data, *args, **kwargs):
        return hook(self, data, *args, **kwargs) if _BUILDING.get() else data

    return post_load(build, pass_original=pass_original)


def made(model: str, name: str, /, **fields: Any) -> Any:
    """The class ``name`` of the model module ``model`` made of ``fields``, for a field that makes its part of the
    model as it loads; unless the load builds no model (``models_built(False)``): then ``fields``, a mapping, and
    the model module is not imported. (``model`` and ``name`` are positional: a model's field may be named so.)"""
    if not _BUILDING.get():
        return fields
    from importlib import import_module

    return getattr(import_module(model), name)(**fields)


def read_first(data: dict, pairs) -> dict:
    """``data`` as the runner reads each (alias, key) of ``pairs``, `key ?? alias`: without the alias beside a key
    that is set, without the key when it is null and the alias is given."""
    dropped = {alias if data[key] is not None else key for alias, key in pairs if alias in data and key in data}
    return {k: v for k, v in data.items() if k not in dropped} if dropped else data


class LintSchema(Schema):
    """A schema loads what the runner reads of a mapping (``reads``), so loading itself never fails on a key
    it ignores; its ``checks`` are what needs more than one value (``walk.py`` runs them after loading)."""

    definition = ""  # the name its JSON Schema is exported under when another schema nests it (jsonschema.py)
    checks: tuple = ()  # functions (data, place) -> findings and sites, run on each mapping this schema loads
    # a whole file's schema: the runner replaces the environment references in the file before it reads it
    interpolated = False

    class Meta:
        unknown = EXCLUDE

    @cached_property  # the schemas are built once
    def load_facts(self) -> tuple:
        """(the keys of the required fields, whether a field has a default to load, whether ``reads`` may drop a
        required key: one that has an alias)."""
        fields = self.load_fields.items()
        required = tuple(field.data_key or name for name, field in fields if field.required)
        defaults = any(field.load_default is not missing_ for _, field in fields)
        return required, defaults, any(key in required for _, key in self.aliases)

    @cached_property  # the schemas are built once
    def aliases(self) -> tuple:
        """(alias, key) of each field declared as another spelling of a key (``alias_of`` in its metadata), which
        the runner reads as `key ?? alias`: the alias only when the key is absent or null."""
        return tuple((field.data_key or name, field.metadata["alias_of"]) for name, field in self.load_fields.items()
                     if "alias_of" in field.metadata)

    def reads(self, data: dict) -> dict:
        """``data`` without the keys the runner ignores in it: of a key and its alias, the one it does not read."""
        return read_first(data, self.aliases)

    @pre_load
    def read(self, data, **kwargs):
        return self.reads(data)


def load(schema: Schema, data):
    """``schema``'s load of ``data``, of the keys it has only (marshmallow's public ``partial``) when that loads the
    same (``present_keys``): a wide schema (a 4.42 test declares two dozen keys) then spends nothing on the keys a
    mapping does not have."""
    return schema.load(data, partial=present_keys(schema, data))


def present_keys(schema: Schema, data) -> bool:
    """Whether loading the keys ``data`` has only loads what a whole load does: a mapping with each required key,
    for a schema without a default to fill in."""
    if not isinstance(schema, LintSchema) or not isinstance(data, dict):
        return False
    required, defaults, aliased = schema.load_facts
    if defaults:
        return False
    read = schema.reads(data) if aliased else data
    return all(key in read for key in required)


class DatasetLinePart:
    """A schema of (a part of) a line of a JSONL dataset, mixed in front of the schema of the same part of a YAML
    suite's test: the runner's JSONL loader does not read the keys that only such a test has (``yaml_only`` in a
    field's metadata), so they are left out of what is loaded and are what ``not_read`` names."""

    dataset = True

    @cached_property  # the schemas are built once: each line's load and checks ask it again
    def not_read(self) -> tuple:
        return tuple(field.data_key or name for name, field in self.load_fields.items() if field.metadata.get("yaml_only"))

    def reads(self, data: dict) -> dict:
        return {key: value for key, value in super().reads(data).items() if key not in self.not_read}


class KindSchema(LintSchema):
    """A schema chosen by its mapping's ``type``. A family of kinds is a subclass that declares ``kinds``; a
    subclass of it that sets ``kind`` declares that kind and registers in its family's ``kinds`` when it is
    defined, in the order of definition (the order messages list the kinds in)."""

    kinds: dict = {}  # kind -> its schema class
    kind = ""  # the 'type' value that chooses this schema
    noun = "kind"  # what a message calls one of the family ("evaluator")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.kind and "kinds" not in vars(cls):
            cls._family().kinds[cls.kind] = cls

    @classmethod
    def _family(cls) -> type:
        """The class of the family ``cls`` belongs to: the nearest that declares ``kinds``."""
        return next(c for c in cls.__mro__ if "kinds" in vars(c))

    @property
    def elsewhere(self) -> Mapping:
        """Each key that a kind of the family reads -> the first kind that reads it, as a message names the kinds
        ("'regex' assertions"), worked out when first read: where a key that this kind does not know belongs (its
        own keys are known, so never asked)."""
        family = self._family()
        return OnDemand(partial(_first_readers, family, tuple(family.kinds.items())))

    @classmethod
    def schemas(cls) -> Mapping:
        """kind -> a schema of each kind of the family ``cls`` belongs to, in the order of ``kinds`` (``KindSchemas``):
        one mapping and one schema per kind for every caller."""
        family = cls._family()
        return _SCHEMAS.setdefault(family, KindSchemas(family))


class KindSchemas(Mapping):
    """kind -> its schema, for each kind of a family, each schema made when first asked for: a file's lint makes those
    of the kinds it holds. A kind defined after a schema was made is made again when next asked for."""

    def __init__(self, family: type):
        self._family, self._made = family, {}

    def __getitem__(self, kind: str) -> KindSchema:
        schema = self._family.kinds[kind]
        if type(self._made.get(kind)) is not schema:
            self._made[kind] = schema()
        return self._made[kind]

    def __contains__(self, kind) -> bool:  # without making the schema
        return kind in self._family.kinds

    def __iter__(self) -> Iterator[str]:
        return iter(self._family.kinds)

    def __len__(self) -> int:
        return len(self._family.kinds)


_SCHEMAS: dict = {}  # a family of kinds -> its schemas (``KindSchema.schemas``)


@lru_cache(maxsize=None)  # per family and its kinds' classes: a kind defined again is read again
def _first_readers(family: type, kinds: tuple) -> dict:
    out: dict = {}
    for kind, schema in family.schemas().items():
        for key in read_keys(schema):
            out.setdefault(key, f"'{kind}' {schema.noun}s")
    return out


def read_keys(schema: Schema) -> tuple:
    """The keys of ``schema``'s fields that the runner reads, as spelled in the file (``read_fields``)."""
    return tuple(key for key, _ in read_fields(schema))


def read_fields(schema: Schema) -> Iterator[tuple]:
    """(key, field) of each field of ``schema`` that the runner reads: not those ``unread`` in their metadata."""
    for name, field in schema.load_fields.items():
        if not field.metadata.get("unread"):
            yield field.data_key or name, field


class OnDemand(Mapping):
    """A mapping made by ``make`` when it is first read: what only a key no schema knows asks for (where the runner
    reads it), so that a file without one never works it out."""

    def __init__(self, make: Callable[[], Mapping]):
        self._make, self._made = make, None

    def _mapping(self) -> Mapping:
        if self._made is None:
            self._made = self._make()
        return self._made

    def __getitem__(self, key):
        return self._mapping()[key]

    def __iter__(self):
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self._mapping())
