"""JSON Schemas (draft-07) for editors. The eval suite's schema is generated from
the marshmallow schemas that load it: each declared field gives its type,
accepted values, range, requiredness and description, and a mapping accepts
exactly its declared keys (so `additionalProperties` is false exactly where
EV109 warns). The targets and config schemas come from the rule data their
checks use."""
from __future__ import annotations

from typing import Any

from marshmallow import fields as ma

from evallint import __version__
from evallint.format.evaluator_parts import RUBRIC_ITEM, AggregatorSchema, ExpectedToolSchema, FieldSpecSchema
from evallint.format.evaluators import EVALUATOR_KINDS
from evallint.format.evaluators import SCHEMAS as EVALUATOR_SCHEMAS
from evallint.format.fields import OneOf
from evallint.format.messages import ContentBlockSchema, MessageSchema, ToolCallSchema
from evallint.format.project import CONFIG_SCHEMA, TARGETS_SCHEMA, TargetSchema
from evallint.format.suite import SUITE_SCHEMA, CaseSchema, ExecutionSchema
from evallint.rules import structure as st
from evallint.rules import targets as tg
from evallint.rules.references import TEMPLATE_VARIABLES

DRAFT = "http://json-schema.org/draft-07/schema#"
BASE_URI = f"https://raw.githubusercontent.com/agentv-evallint/evallint/v{__version__}/evallint/jsonschemas"

# The definition each nested schema is exported as.
DEFINITIONS = {CaseSchema: "Case", MessageSchema: "Message", ToolCallSchema: "ToolCall",
               ExpectedToolSchema: "ExpectedTool", FieldSpecSchema: "Field", AggregatorSchema: "Aggregator",
               ExecutionSchema: "Execution"}

# The keys that are no fields of their own: a case's shorthands, read in place of their canonical keys.
SHORTHAND_DOCS = {
    "input": ("Alias of input_messages: a string is one user message, a list is the messages.",
              {"oneOf": [{"type": "string", "minLength": 1}, {"type": "array", "minItems": 1,
                                                                "items": {"$ref": "#/definitions/Message"}}]}),
    "expected_output": ("Alias of expected_messages: a string, a mapping (structured output, or one message with "
                        "'role'), or a list.", {"oneOf": [{"type": "string"}, {"type": "object"}, {"type": "array"}]}),
}

DOCS = {
    "$schema": "The AgentV schema id of this file.",
    "type": "The kind.",
}


def _doc(key: str, **schema: Any) -> dict:
    return {"title": key, "description": DOCS.get(key, key.replace("_", " ")), **schema}


STRING = {"type": "string"}
TEXT = {"type": "string", "minLength": 1}


def _ref(name: str) -> dict:
    return {"$ref": f"#/definitions/{name}"}


def field_schema(field: ma.Field) -> dict:
    """The JSON Schema of one declared field."""
    if "json" in field.metadata:  # the shape editors may expect of a value evallint passes through
        return dict(field.metadata["json"])
    if hasattr(field, "json_schema"):
        return field.json_schema()
    for validator in field.validators:
        if isinstance(validator, OneOf):
            return {"enum": list(validator.choices)}
    if isinstance(field, ma.List):
        out = {"type": "array", "items": field_schema(field.inner)}
        if getattr(field, "non_empty", False):
            out["minItems"] = 1
        return out
    if isinstance(field, ma.Nested):
        one = _ref(DEFINITIONS[type(field.schema)])
        return {"type": "array", "items": one} if field.many else one
    if isinstance(field, ma.String):
        return dict(STRING)
    return {}


def schema_object(schema, *, closed: bool = True, overrides: Any = None, extra: Any = None) -> dict:
    """A JSON object of a marshmallow schema's declared fields: ``overrides`` replace a field's shape,
    ``extra`` adds keys that are no fields ({key: (description, shape)})."""
    properties = {}
    required = []
    for name, field in schema.load_fields.items():
        key = field.data_key or name
        shape = (overrides or {}).get(key) or field_schema(field)
        properties[key] = {"title": key, "description": field.metadata["description"], **shape}
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


def _evaluator(kind: str) -> dict:
    declared = EVALUATOR_SCHEMAS[kind]
    schema = schema_object(declared, closed=not declared.open_keys, overrides={"type": {"const": kind}})
    schema["title"] = f"{kind} evaluator"
    return schema


def _definitions() -> dict:
    kinds = {kind: _evaluator(kind) for kind in EVALUATOR_KINDS}
    case = schema_object(CaseSchema(), extra=SHORTHAND_DOCS)
    case["allOf"] = [{"anyOf": [{"required": [canonical]}, {"required": [alias]}]}
                     for canonical, alias in st.ALIASES if canonical != "expected_messages"]
    return {
        "Case": case, "Message": schema_object(MessageSchema()), "ToolCall": schema_object(ToolCallSchema()),
        "ContentBlock": schema_object(ContentBlockSchema(), closed=False),
        "RubricItem": {"oneOf": [TEXT, schema_object(RUBRIC_ITEM)]},
        "ExpectedTool": schema_object(ExpectedToolSchema()), "Field": schema_object(FieldSpecSchema()),
        "Aggregator": schema_object(AggregatorSchema()), "Execution": schema_object(ExecutionSchema()),
        "Evaluator": {
            "title": "evaluator", "description": f"One of: {', '.join(EVALUATOR_KINDS)} (chosen by 'type').",
            "type": "object", "required": ["type"],
            "properties": {"type": _doc("type", enum=list(EVALUATOR_KINDS))},
            "allOf": [{"if": {"properties": {"type": {"const": k}}}, "then": _ref(f"Evaluator_{k}")} for k in kinds],
        },
        **{f"Evaluator_{k}": schema for k, schema in kinds.items()},
    }


def eval_schema() -> dict:
    suite = schema_object(SUITE_SCHEMA, overrides={"$schema": {"type": "string", "enum": [st.EVAL_SCHEMA]}})
    return {"$schema": DRAFT, "$id": f"{BASE_URI}/eval.schema.json",
            "title": "AgentV eval suite (agentv-eval-v2)",
            "description": f"Generated by evallint {__version__}. Template variables of prompt files: "
                           f"{', '.join(TEMPLATE_VARIABLES)}.",
            **suite, "definitions": _definitions()}


def targets_schema() -> dict:
    setting_names = sorted({name for names in tg.SETTINGS.values() for name in names} | {"provider_batching"})
    settings = {name: (DOCS.get(name, name.replace("_", " ")), {"type": "boolean"} if name == "provider_batching"
                       else {}) for name in setting_names}
    target = schema_object(TargetSchema(), closed=False, extra=settings)
    target["allOf"] = []
    for provider, names in tg.SETTINGS.items():
        allowed = set(names) | set(tg.COMMON_SETTINGS)
        camel = {_camel(n) for n in allowed}
        providers = [provider] + [a for a, p in tg.ALIASES.items() if p == provider and a != provider]
        target["allOf"].append({"if": {"properties": {"provider": {"enum": providers}}},
                                "then": {"propertyNames": {"enum": sorted(allowed | camel)}}})
    schema = schema_object(TARGETS_SCHEMA, overrides={"targets": {"type": "array", "items": target}},
                           extra={"$schema": (DOCS["$schema"], {"type": "string", "pattern": "^agentv-targets-v2"})})
    return {"$schema": DRAFT, "$id": f"{BASE_URI}/targets.schema.json",
            "title": "AgentV targets (.agentv/targets.yaml)", **schema}


def config_schema() -> dict:
    schema = schema_object(CONFIG_SCHEMA, extra={"$schema": (DOCS["$schema"], {"type": "string",
                                                                              "enum": ["agentv-config-v2"]})})
    return {"$schema": DRAFT, "$id": f"{BASE_URI}/config.schema.json",
            "title": "AgentV project config (.agentv/config.yaml)", **schema}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


SCHEMAS = {"eval": eval_schema, "targets": targets_schema, "config": config_schema}
