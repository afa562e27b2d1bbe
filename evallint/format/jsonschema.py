"""JSON Schema (draft-07) of marshmallow schemas declared with ``fields.py``'s vocabulary: each field gives its
type, accepted values, range, requiredness and description, and a mapping accepts exactly its declared keys (so
`additionalProperties` is false exactly where EV109 warns). A nested schema is exported as a definition under
the name its class declares (``LintSchema.definition``). In a file the runner reads after replacing its
environment references (``interpolated``), a number, a boolean or a word may be written as one whole reference
(``environment.py``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import fields as ma

from evallint.load.environment import REFERENCE
from evallint.format.fields import MappingOr, NumberMap, OneOf

DRAFT = "http://json-schema.org/draft-07/schema#"
STRING = {"type": "string"}
TEXT = {"type": "string", "minLength": 1}


SPECIAL = "^$\\.*+?()[]{}|/"  # the characters a pattern escapes


def folded(choices) -> str:
    """A pattern (ECMA 262, as JSON Schema's) of a string that is one of ``choices`` in any case, with white space
    around it: what the runner takes after trimming and lower-casing."""
    def letters(choice: str) -> str:
        return "".join(f"[{c.lower()}{c.upper()}]" if c.lower() != c.upper() else "\\" + c if c in SPECIAL else c
                       for c in choice)

    return "^\\s*(" + "|".join(letters(choice) for choice in choices) + ")\\s*$"


def ref(name: str) -> dict:
    return {"$ref": f"#/definitions/{name}"}


# a string that is one environment reference as a whole: a definition of each document that takes one
WHOLE_REFERENCE = {"EnvironmentReference": {
    "title": "environment reference", "type": "string", "pattern": f"^{REFERENCE.pattern}$",
    "description": "'${{ NAME }}': the runner puts the variable's value here before it reads the file."}}


def field_schema(field: ma.Field, interpolated: bool = False) -> dict:
    """The JSON Schema of one declared field (``interpolated``: in a file whose references the runner replaces)."""
    shape = _shape(field, interpolated)
    scalar = getattr(field, "scalar", False) or any(isinstance(v, OneOf) for v in field.validators)
    return {"anyOf": [shape, ref("EnvironmentReference")]} if interpolated and scalar and shape else shape


def _shape(field: ma.Field, interpolated: bool) -> dict:
    if "json" in field.metadata:  # the shape editors may expect of a value evallint passes through
        return dict(field.metadata["json"])
    if isinstance(field, NumberMap):
        count = {"type": "number", "minimum": 0}
        return {"type": "object", "additionalProperties": {"anyOf": [count, ref("EnvironmentReference")]}
                if interpolated else count}
    if isinstance(field, MappingOr) and field.accepted_shape is not None:
        return {"oneOf": [dict(field.accepted_shape), schema_object(field.schema, interpolated=interpolated)]}
    if hasattr(field, "json_schema"):
        return field.json_schema()
    for validator in field.validators:
        if isinstance(validator, OneOf):
            return {"enum": list(validator.choices)}
    if isinstance(field, ma.List):
        out = {"type": "array", "items": field_schema(field.inner, interpolated)}
        if getattr(field, "non_empty", False):
            out["minItems"] = 1
        return out
    if isinstance(field, ma.Nested):  # a schema without a definition name of its own is written in place
        one = (ref(field.schema.definition) if field.schema.definition
               else schema_object(field.schema, interpolated=interpolated))
        return {"type": "array", "items": one} if field.many else one
    if isinstance(field, ma.String):
        return dict(STRING)
    return {}


def schema_object(schema, *, closed: bool = True, overrides: Any = None, extra: Any = None,
                  interpolated: bool = False) -> dict:
    """A JSON object of a marshmallow schema's declared fields: ``overrides`` replace a field's shape,
    ``extra`` adds keys that are no fields ({key: (description, shape)}); ``interpolated`` as for
    ``field_schema``."""
    properties = {}
    required = []
    for name, field in schema.load_fields.items():
        key = field.data_key or name
        shape = (overrides or {}).get(key) or field_schema(field, interpolated)
        description = field.metadata.get("description") or f"Alias of {field.metadata['alias_of']}."
        properties[key] = {"title": key, "description": description, **shape}
        if field.metadata.get("deprecated"):  # read, but not to be written: editors strike it through
            properties[key]["deprecated"] = True
        if field.required or field.metadata.get("required"):
            required.append(key)
    for key, (description, shape) in (extra or {}).items():
        properties[key] = {"title": key, "description": description, **shape}
    out: dict = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    if closed:
        out["additionalProperties"] = False
    return out


def kinds(schemas: Mapping, name: str, interpolated: bool = False) -> tuple:
    """A kind chosen by a mapping's ``type`` (evaluators, assertions): the conditions that send each ``type``
    value to its kind's definition, and those definitions (``NAME_kind``), each closed unless its schema passes
    its other keys on; ``interpolated`` as for ``field_schema``."""
    definitions = {}
    for kind, declared in schemas.items():
        schema = schema_object(declared, closed=not declared.open_keys, overrides={"type": {"const": kind}},
                               interpolated=interpolated)
        schema["title"] = f"{kind} {name.lower()}"
        definitions[f"{name}_{kind}"] = schema
    choose = [{"if": {"properties": {"type": {"const": kind}}}, "then": ref(f"{name}_{kind}")} for kind in schemas]
    return choose, definitions
