"""What a schema declares of its keys, for the rules (``rules/common.Keys``): the keys it knows, those the runner
reads, other names people give them, their defaults, and the keys the runner reads one level down, in what a field
holds, and not here."""
from __future__ import annotations

from marshmallow import Schema, fields

from evallint.format.base import KindSchema, OnDemand, read_fields, read_keys
from evallint.format.fields import held
from evallint.rules.common import Keys, Misplaced
from evallint.suggest import any_of


def known_keys(schema) -> tuple:
    """The keys a mapping loaded by ``schema`` may hold: its fields, as spelled in the file."""
    return tuple(field.data_key or name for name, field in schema.load_fields.items())


_KEYS: dict = {}


def keys_of(schema) -> Keys:
    """What the rules need to know of the keys ``schema`` declares, from each field's metadata: ``unread`` (the runner
    never reads it), ``confusable`` (other names people give it), ``opposite`` (names of its negation) and
    ``default`` (what the runner uses without it; a nested mapping is the default when every entry it reads holds its
    default); and the keys read one level down."""
    kind = type(schema)
    if kind not in _KEYS:
        named = {name: {(f.data_key or key): f.metadata[name] for key, f in schema.load_fields.items()
                        if name in f.metadata} for name in ("confusable", "opposite")}
        default = {}
        for name, field in schema.load_fields.items():
            key, meta = field.data_key or name, field.metadata
            if "default" in meta:
                default[key] = meta["default"]
            elif isinstance(field, fields.Nested) and isinstance(field.schema, Schema):
                default[key] = keys_of(field.schema)
        _KEYS[kind] = Keys(known_keys(schema), read_keys(schema), named["confusable"], default,
                           OnDemand(lambda: _read_below(schema)), named["opposite"])
    return _KEYS[kind]


_NO_DEFAULT = object()
# keys that name a mapping or choose its kind: one written a level up is more likely a label of that level
# (a test's 'name') than a setting of what it holds
NAMING_KEYS = frozenset({"name", "type", "id"})


def _read_below(schema) -> dict:
    """key -> where it belongs, for each key that ``schema`` does not declare and that the runner reads in
    what a field of ``schema`` holds (but for the ``NAMING_KEYS``), with what the runner uses there without it
    when every mapping that reads it says the same. Another name of a key of ``schema`` is about this level (a
    test's 'outcome' beside its 'criteria' is left from an earlier format), unless a kind chosen below reads
    it as its setting: then it is about this level only while that key is absent (``Keys.stands_for``), and a
    test's 'prompt' beside its 'input' is a grader's prompt written a level up."""
    holders: dict = {}  # key -> {field key: whether it holds a list}
    defaults: dict = {}  # key -> the defaults declared where it is read (_NO_DEFAULT: none)
    settings: set = set()  # the keys a kind chosen by 'type' (a grader) reads
    for name, field in schema.load_fields.items():
        if field.metadata.get("not_below"):  # a key written beside it more likely means something else
            continue
        for child in held(field):
            if isinstance(child, KindSchema):
                settings.update(key for key, _ in read_fields(child))
            for key, child_field in read_fields(child):
                holders.setdefault(key, {})[field.data_key or name] = _is_list(field)
                defaults.setdefault(key, []).append(child_field.metadata.get("default", _NO_DEFAULT))
        for key in getattr(field, "keys_read", ()):  # a mapping the runner reads by keys no schema declares
            holders.setdefault(key, {})[field.data_key or name] = False
            defaults.setdefault(key, []).append(_NO_DEFAULT)
    other_names = set().union(*(f.metadata.get("confusable", ()) for f in schema.load_fields.values()))
    here = set(known_keys(schema)) | (other_names - settings)
    return {key: Misplaced(_places(places), object, **_one_default(defaults[key]))
            for key, places in holders.items() if key not in here and key not in NAMING_KEYS}


def _one_default(declared: list) -> dict:
    first = declared[0]
    return {"default": first} if first is not _NO_DEFAULT and all(d == first for d in declared) else {}


def _places(places: dict) -> str:
    """"in each item of 'assertions' or 'assert', or in 'execution'": where the runner reads a key."""
    lists = [key for key, many in places.items() if many]
    mappings = [key for key, many in places.items() if not many]
    parts = ([f"in each item of {any_of(lists)}"] if lists else []) + ([f"in {any_of(mappings)}"] if mappings else [])
    return ", or ".join(parts)


def _is_list(field) -> bool:
    return isinstance(field, fields.List) or bool(getattr(field, "many", False))
