"""Evaluators: one schema per kind, chosen by ``type``; composite recurses.

Each field states its type, accepted values, range and whether it is required,
with the rule code of each (``fields.py``). What needs more than one field is a
rule function in ``rules/evaluators.py``, called from ``pre_load``."""
from __future__ import annotations

import os

from marshmallow import ValidationError, post_load, pre_load, validates_schema
from marshmallow import fields as ma

from ..diagnostics import FIRST_KEY
from ..kinds import EVALUATOR_KINDS
from ..model import EVALUATOR_CLASSES, Aggregator, ExpectedTool, FieldSpec, RubricItem
from ..rules import evaluators as rules
from ..rules.common import is_finite_number, is_text
from ..suggest import found, one_of
from .base import LintSchema
from .context import AT
from .fields import Checked, Flag, Items, Number, NumberMap, Problem, Record, Text, choice, missing

TRAJECTORY_MODES = ("any_order", "in_order", "exact")
AGGREGATOR_TYPES = ("weighted_average", "code_judge", "llm_judge")
FIELD_MATCHES = ("exact", "numeric_tolerance", "date")
AGGREGATIONS = ("weighted_average", "all_or_nothing")


def shell_argv(command: str) -> tuple:
    """A legacy string script runs through the platform shell."""
    if os.name == "nt":
        return ("cmd.exe", "/c", command)
    return ("sh", "-lc", command)


def _problem(code: str, text: str, field: str = "_schema", target: str = "value") -> ValidationError:
    return ValidationError(Problem(code, text, target), field_name=field)


def known_keys(schema: LintSchema) -> tuple:
    """The keys a mapping loaded by ``schema`` may hold: its fields, as spelled in the file."""
    return tuple(field.data_key or name for name, field in schema.load_fields.items())


class RubricItemSchema(LintSchema):
    id = Text("EV110", "rubric item 'id' must be a string, {found}", metadata={"description": "Id of the item."})
    description = Text("EV361", "rubric item 'description' must be a non-empty string, {found}", non_empty=True,
                       metadata={"description": "What the answer must do."})
    expected_outcome = Text("EV361", "rubric item 'expected_outcome' must be a non-empty string, {found}",
                            non_empty=True, metadata={"description": "Alias of description."})
    weight = Number("EV361", "rubric item 'weight' must be a finite number >= 0, {found}", minimum=0,
                    metadata={"description": "Weight of the item, >= 0 (default 1.0)."})
    required = Flag("EV361", "rubric item 'required' must be true or false, {found}",
                    metadata={"description": "Whether the item must pass (default true)."})

    @pre_load
    def check(self, data, **kwargs):
        rules.check_keys(data, known_keys(self), "rubric item")
        if "description" in data:  # the alias is read only when the canonical key is absent
            data = {key: value for key, value in data.items() if key != "expected_outcome"}
        return data

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_text(self, data, original, **kwargs):
        if "description" not in original and "expected_outcome" not in original:
            raise _problem("EV361", "rubric item has no 'description' (or 'expected_outcome')", target=FIRST_KEY)


RUBRIC_ITEM = RubricItemSchema()


class RubricItemField(Checked):
    """A rubric item: a non-empty string, or a mapping with a description."""

    def check(self, value):
        if is_text(value):
            return value
        if not isinstance(value, dict):
            raise self.reject(value)
        return RUBRIC_ITEM.load(value)


def rubric_list(**kwargs) -> Items:
    item = RubricItemField("EV361", "a rubric item must be a non-empty string or a mapping with 'description', {found}")
    return Items(item, "EV360", "'rubrics' must be a list of rubric items, {found}", **kwargs)


def rubric_items(items) -> tuple:
    out = []
    for i, item in enumerate(items or ()):
        if isinstance(item, str):
            out.append(RubricItem(id=f"rubric-{i + 1}", description=item))
        else:
            out.append(RubricItem(
                id=item.get("id") or f"rubric-{i + 1}",
                description=item.get("description", item.get("expected_outcome")),
                weight=float(item.get("weight", 1.0)),
                required=item.get("required", True),
            ))
    return tuple(out)


class EvaluatorField(Checked):
    """An evaluator entry: the schema is chosen by its ``type``."""

    def __init__(self, **kwargs):
        super().__init__("EV306", "an evaluator must be a mapping with 'type' and 'name', {found}", **kwargs)

    def check(self, value):
        if not isinstance(value, dict):
            raise self.reject(value)
        kind = value.get("type")
        schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
        return (schema or _UNKNOWN).load(value)


class EvaluatorSchema(LintSchema):
    kind = ""
    type = choice(EVALUATOR_KINDS, "EV301", "unknown evaluator type {shown}{hint}; expected one of {choices}",
                  f"evaluator has no 'type' (expected one of {one_of(EVALUATOR_KINDS)})",
                  metadata={"description": "The evaluator kind."})
    name = Text("EV110", "evaluator 'name' must be a non-empty string, {found}", non_empty=True,
                metadata={"description": "Name of the evaluator; results and weights refer to it."})
    weight = Number("EV304", "evaluator 'weight' must be a finite number >= 0, {found}", load_default=1.0, minimum=0,
                    below=("EV305", "evaluator 'weight' must be >= 0, found {value}"),
                    metadata={"description": "Weight in the case score, a number >= 0 (default 1.0)."})

    @pre_load
    def check(self, data, **kwargs):
        at = data.get(AT, ())
        rules.check_name(data, at, self.kind)
        if self.kind and self.kind != "code_judge":  # a code_judge's extra keys are configuration for its script
            rules.check_keys(data, known_keys(self), f"{self.kind} evaluator")
        return self.check_kind(data, at)

    def check_kind(self, data: dict, at: tuple) -> dict:
        return data

    @post_load
    def build(self, data, **kwargs):
        data["name"] = data.get("name") or data["type"]
        return EVALUATOR_CLASSES[data["type"]](**self.model_fields(data))

    def model_fields(self, data: dict) -> dict:
        return data


class _UnknownEvaluatorSchema(EvaluatorSchema):
    """An evaluator without a known ``type``: only what every kind has is checked."""


class LlmJudgeSchema(EvaluatorSchema):
    kind = "llm_judge"
    prompt = Text("EV110", "'prompt' in llm_judge evaluator must be a string, {found}",
                  metadata={"description": "Inline prompt text, or a path to a prompt template file."})
    rubrics = rubric_list(metadata={"description": "Rubric items: strings or {id, description, weight, required}."})
    model = Text("EV110", "'model' in llm_judge evaluator must be a string, {found}",
                 metadata={"description": "Model override for the judge."})

    def check_kind(self, data, at):
        rules.check_prompt(data, at)
        return rules.with_rubric_paths(data, at)

    def model_fields(self, data):
        return {**data, "rubrics": rubric_items(data.get("rubrics"))}


class RubricSchema(EvaluatorSchema):
    kind = "rubric"
    rubrics = rubric_list(required=True, non_empty=True, error_messages=missing("EV360", "rubric evaluator has no 'rubrics' list"),
                          empty="'rubrics' is an empty list; a rubric evaluator needs at least one item",
                          metadata={"description": "Rubric items: strings or {id, description, weight, required}."})
    model = Text("EV110", "'model' in rubric evaluator must be a string, {found}",
                 metadata={"description": "Model override for the judge."})

    def check_kind(self, data, at):
        return rules.with_rubric_paths(data, at)

    def model_fields(self, data):
        return {**data, "rubrics": rubric_items(data.get("rubrics"))}


class ScriptField(Checked):
    """A code_judge script: an argv list of non-empty strings, or a legacy command string."""

    def check(self, value):
        if isinstance(value, str):
            if not is_text(value):
                raise _problem("EV321", "code_judge 'script' is an empty string; give the command as an argv list")
            return value
        if not isinstance(value, list):
            raise self.reject(value)
        if not value:
            raise _problem("EV321", "code_judge 'script' is an empty list; give at least the program to run")
        errors = {i: [Problem("EV321", f"code_judge 'script' tokens must be non-empty strings, {found(token)}")]
                  for i, token in enumerate(value) if not is_text(token)}
        if errors:
            raise ValidationError(errors)
        return value


class JudgeAccessField(Checked):
    """A code_judge's access to the target: ``true``, or a mapping with ``max_calls``."""

    def check(self, value):
        if value is True:
            return True
        if not isinstance(value, dict):
            raise self.reject(value)
        calls = value.get("max_calls")
        if "max_calls" in value and not (is_finite_number(calls) and calls >= 0):
            raise ValidationError({"max_calls": [Problem(
                "EV323", f"code_judge 'target.max_calls' must be a finite number >= 0, {found(calls)}")]})
        return value


class CodeJudgeSchema(EvaluatorSchema):
    kind = "code_judge"
    script = ScriptField("EV321", "code_judge 'script' must be an argv list of strings, {found}", required=True,
                         error_messages=missing(
        "EV320", "code_judge evaluator has no 'script' (an argv list such as [\"python\", \"check.py\"])"),
        metadata={"description": "The command, as an argv list (a string runs through the platform shell)."})
    cwd = Text("EV110", "'cwd' in code_judge evaluator must be a string, {found}",
               metadata={"description": "Working folder of the script."})
    target = JudgeAccessField("EV323", "code_judge 'target' must be true or a mapping with 'max_calls', {found}",
                              metadata={"description": "true, or {max_calls: N}: lets the script call the target."})

    def check_kind(self, data, at):
        rules.check_script(data, at)
        return data

    @post_load(pass_original=True)
    def build(self, data, original, **kwargs):
        config = {key: value for key, value in original.items()
                  if isinstance(key, str) and key not in self.load_fields}
        return super().build({**data, "config": config})

    def model_fields(self, data):
        script = data.get("script", ())
        argv = shell_argv(script) if isinstance(script, str) else tuple(script)
        return {**data, "script": argv}


class ExpectedToolSchema(LintSchema):
    tool = Text("EV314", "expected tool 'tool' must be a non-empty string, {found}", non_empty=True, required=True,
                error_messages=missing("EV314", "expected tool entry has no 'tool' (the tool name)"),
                metadata={"description": "The tool name."})
    args = ma.Raw(allow_none=True, metadata={"description": "Tool arguments to match: 'any', or a mapping compared exactly."})
    input = ma.Raw(allow_none=True, metadata={"description": "The tool arguments (tool call form)."})
    output = ma.Raw(allow_none=True, metadata={"description": "The expected tool result."})

    @pre_load
    def check(self, data, **kwargs):
        rules.check_keys(data, known_keys(self), "expected tool")
        return data

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def args_shape(self, data, original, **kwargs):
        args = original.get("args")
        if "args" in original and not (args == "any" or isinstance(args, dict)):
            raise _problem("EV314", f"expected tool 'args' must be 'any' or a mapping of arguments, {found(args)}",
                           field="args")


class ToolTrajectorySchema(EvaluatorSchema):
    kind = "tool_trajectory"
    mode = choice(TRAJECTORY_MODES, "EV310", "invalid tool_trajectory mode {shown}{hint}; expected one of {choices}",
                  f"tool_trajectory evaluator has no 'mode' (expected one of {one_of(TRAJECTORY_MODES)})",
                  metadata={"description": "How tool calls are compared."})
    minimums = NumberMap("EV313", "'minimums' must be a mapping of tool name to minimum call count, {found}",
                         "minimum count for tool '{name}' must be a finite number >= 0, {found}",
                         metadata={"description": "Tool name -> minimum number of calls (mode any_order)."})
    expected = Items(Record(ExpectedToolSchema, "EV314", "an expected tool must be a mapping with 'tool', {found}"),
                     "EV314", "'expected' must be a list of {{tool, args}} entries, {found}",
                     metadata={"description": "The expected tool calls (modes in_order and exact)."})

    def check_kind(self, data, at):
        rules.check_trajectory(data, at, TRAJECTORY_MODES)
        return data

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def needs(self, data, original, **kwargs):
        mode = data.get("mode")
        if mode == "any_order" and "minimums" not in original:
            raise _problem("EV311", "tool_trajectory mode 'any_order' needs 'minimums' (tool name -> minimum call count)",
                           target=FIRST_KEY)
        if mode in ("in_order", "exact") and "expected" not in original:
            raise _problem("EV312", f"tool_trajectory mode '{mode}' needs 'expected' (the list of tool calls)",
                           target=FIRST_KEY)

    def model_fields(self, data):
        expected = tuple(ExpectedTool(tool=e["tool"], args=e.get("args"), input=e.get("input"), output=e.get("output"))
                         for e in data.get("expected", ()))
        return {**data, "expected": expected}


class AggregatorSchema(LintSchema):
    type = choice(AGGREGATOR_TYPES, "EV331", "unknown aggregator type {shown}{hint}; expected one of {choices}",
                  f"aggregator has no 'type' (expected one of {one_of(AGGREGATOR_TYPES)})",
                  metadata={"description": "How member scores combine."})
    weights = NumberMap("EV332", "aggregator 'weights' must be a mapping of member name to weight, {found}",
                        "weight for '{name}' must be a finite number >= 0, {found}",
                        metadata={"description": "Member name -> weight (weighted_average)."})
    path = Text("EV110", "'path' in aggregator must be a string, {found}",
                metadata={"description": "The script or command that aggregates (code_judge)."})
    prompt = Text("EV110", "'prompt' in aggregator must be a string, {found}",
                  metadata={"description": "Inline prompt text, or a path to a prompt template file (llm_judge)."})
    model = Text("EV110", "'model' in aggregator must be a string, {found}",
                 metadata={"description": "Model override for the judge (llm_judge)."})

    @pre_load
    def check(self, data, **kwargs):
        rules.check_keys(data, known_keys(self), "aggregator")
        rules.check_aggregator(data)
        return data

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def code_judge_path(self, data, original, **kwargs):
        if original.get("type") == "code_judge" and not is_text(original.get("path")):
            if "path" in original:
                raise _problem("EV331", f"code_judge aggregator 'path' must be a non-empty string, "
                               f"{found(original['path'])}", field="path")
            raise _problem("EV331", "code_judge aggregator has no 'path' (the script or command that aggregates)",
                           target=FIRST_KEY)


class CompositeSchema(EvaluatorSchema):
    kind = "composite"
    evaluators = Items(EvaluatorField(), "EV330", "composite 'evaluators' must be a non-empty list of evaluators, "
                       "{found_list}", non_empty=True, required=True,
                       error_messages=missing("EV330", "composite evaluator has no 'evaluators' list of members"),
                       metadata={"description": "Member evaluators."})
    aggregator = Record(AggregatorSchema, "EV331", "composite 'aggregator' must be a mapping with 'type', {found}",
                        required=True, error_messages=missing(
                            "EV331", f"composite evaluator has no 'aggregator' (a mapping whose 'type' is one of "
                            f"{one_of(AGGREGATOR_TYPES)})"),
                        metadata={"description": "How member scores combine."})

    def check_kind(self, data, at):
        return rules.check_composite(data, at)

    def model_fields(self, data):
        agg = data.get("aggregator")
        return {**data, "evaluators": tuple(data.get("evaluators", ())),
                "aggregator": Aggregator(**agg) if agg else None}


class FieldSpecSchema(LintSchema):
    path = Text("EV340", "field 'path' must be a non-empty string, {found}", non_empty=True, required=True,
                error_messages=missing("EV340", "field has no 'path' (for example 'invoice.total')"),
                metadata={"description": "Path of the field (for example invoice.total or items[0].name)."})
    match = choice(FIELD_MATCHES, "EV341", "invalid field match {shown}{hint}; expected one of {choices}",
                   f"field has no 'match' (expected one of {one_of(FIELD_MATCHES)})",
                   metadata={"description": "How the field is compared."})
    required = ma.Raw(allow_none=True, metadata={"description": "Whether the field must be present."})
    weight = ma.Raw(allow_none=True, metadata={"description": "Weight of the field."})
    tolerance = ma.Raw(allow_none=True, metadata={"description": "Allowed difference for numeric_tolerance, >= 0."})
    relative = ma.Raw(allow_none=True, metadata={"description": "Whether the tolerance is relative."})
    formats = ma.Raw(allow_none=True, metadata={"description": "Accepted date formats."})

    @pre_load
    def check(self, data, **kwargs):
        rules.check_keys(data, known_keys(self), "field")
        rules.check_tolerance(data)
        return data


class FieldAccuracySchema(EvaluatorSchema):
    kind = "field_accuracy"
    field_specs = Items(Record(FieldSpecSchema, "EV340", "a field must be a mapping with 'path' and 'match', {found}"),
                        "EV340", "field_accuracy 'fields' must be a non-empty list of fields, {found_list}",
                        non_empty=True, required=True, data_key="fields",
                        error_messages=missing("EV340", "field_accuracy evaluator has no 'fields' list"),
                        metadata={"description": "Fields of structured output to compare."})
    aggregation = choice(AGGREGATIONS, "EV342", "invalid aggregation {value}{hint}; expected one of {choices} "
                         "(the runner silently drops anything else)", metadata={"description": "How field scores combine."})

    def check_kind(self, data, at):
        return rules.with_paths(data, at, "fields")

    def model_fields(self, data):
        specs = tuple(FieldSpec(
            path=f["path"], match=f.get("match", "exact"), required=bool(f.get("required", False)),
            weight=float(f.get("weight", 1.0)) if isinstance(f.get("weight"), (int, float)) else 1.0,
            tolerance=f.get("tolerance"), relative=bool(f.get("relative", False)),
            formats=tuple(f.get("formats") or ()) if isinstance(f.get("formats"), list) else (),
        ) for f in data.pop("field_specs", ()))
        return {**data, "fields": specs}


def _limit(kind: str, key: str, unit: str = "", **kwargs) -> Number:
    required = {"required": True, "error_messages": missing(kind_code(kind), f"{kind} evaluator has no '{key}' ({unit})")} \
        if unit else {}
    return Number(kind_code(kind), f"{kind} '{key}' must be a finite number >= 0, {{found}}", minimum=0,
                  **required, **kwargs)


def kind_code(kind: str) -> str:
    return {"latency": "EV350", "cost": "EV351", "token_usage": "EV352"}[kind]


class LatencySchema(EvaluatorSchema):
    kind = "latency"
    threshold = _limit("latency", "threshold", "milliseconds, a number >= 0",
                       metadata={"description": "Latency threshold in milliseconds, >= 0."})


class CostSchema(EvaluatorSchema):
    kind = "cost"
    budget = _limit("cost", "budget", "a number >= 0", metadata={"description": "Cost budget, >= 0."})


class TokenUsageSchema(EvaluatorSchema):
    kind = "token_usage"
    max_total = _limit("token_usage", "max_total", metadata={"description": "Maximum total tokens."})
    max_input = _limit("token_usage", "max_input", metadata={"description": "Maximum input tokens."})
    max_output = _limit("token_usage", "max_output", metadata={"description": "Maximum output tokens."})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def sets_one(self, data, original, **kwargs):
        keys = ("max_total", "max_input", "max_output")
        if not any(key in original for key in keys):
            raise _problem("EV352", f"token_usage evaluator sets none of {one_of(keys)}", target=FIRST_KEY)


SCHEMAS = {
    "llm_judge": LlmJudgeSchema(),
    "rubric": RubricSchema(),
    "code_judge": CodeJudgeSchema(),
    "tool_trajectory": ToolTrajectorySchema(),
    "composite": CompositeSchema(),
    "field_accuracy": FieldAccuracySchema(),
    "latency": LatencySchema(),
    "cost": CostSchema(),
    "token_usage": TokenUsageSchema(),
}
_UNKNOWN = _UnknownEvaluatorSchema()
