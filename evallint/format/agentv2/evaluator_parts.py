"""The parts inside an evaluator, declared like the evaluators themselves:
rubric items, code_judge scripts and target access, expected tool calls,
composite aggregators and field_accuracy fields; AgentV 4.42's graders are
made of them too, so they lie apart from the evaluator kinds."""
from __future__ import annotations

from typing import Any, Iterator

from marshmallow import ValidationError, validates_schema
from marshmallow import fields as ma

from evallint.diagnostics import FIRST_KEY
from evallint.format.base import LintSchema, load
from evallint.format.fields import (
    Checked, Flag, Items, Number, NumberMap, Problem, Record, Text, choice, missing, problem_at,
)
from evallint.load.environment import is_whole_reference
from evallint.rules import evaluators as rules
from evallint.rules.common import is_finite_number, is_text
from evallint.suggest import found, one_of

AGGREGATOR_TYPES = ("weighted_average", "code_judge", "llm_judge")
FIELD_MATCHES = ("exact", "numeric_tolerance", "date")


class RubricItemSchema(LintSchema):
    checks = (rules.check_keys("rubric item"),)
    id = Text("EV110", "rubric item 'id' must be a string, {found}", metadata={"description": "Id of the item."})
    description = Text("EV361", "rubric item 'description' must be a non-empty string, {found}", non_empty=True,
                       metadata={"description": "What the answer must do."})
    expected_outcome = Text("EV361", "rubric item 'expected_outcome' must be a non-empty string, {found}",
                            non_empty=True, metadata={"description": "Alias of description."})
    weight = Number("EV361", "rubric item 'weight' must be a finite number >= 0, {found}", minimum=0,
                    metadata={"description": "Weight of the item, >= 0 (default 1.0)."})
    required = Flag("EV361", "rubric item 'required' must be true or false, {found}",
                    metadata={"confusable": ("mandatory",), "description": "Whether the item must pass (default true)."})

    def reads(self, data):
        if "description" in data:  # the alias is read only when the canonical key is absent
            return {key: value for key, value in data.items() if key != "expected_outcome"}
        return data

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_text(self, data, original, **kwargs):
        if "description" not in original and "expected_outcome" not in original:
            raise problem_at("EV361", "rubric item has no 'description' (or 'expected_outcome')", target=FIRST_KEY)


RUBRIC_ITEM = RubricItemSchema()


class RubricItemField(Checked):
    """A rubric item: a non-empty string, or a mapping with a description."""

    def check(self, value):
        if is_text(value):
            return value
        if not isinstance(value, dict):
            raise self.reject(value)
        return load(RUBRIC_ITEM, value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        if isinstance(value, dict):
            yield RUBRIC_ITEM, value, at

    def json_schema(self) -> dict:
        return {"$ref": "#/definitions/RubricItem"}


def rubric_list(**kwargs) -> Items:
    item = RubricItemField("EV361", "a rubric item must be a non-empty string or a mapping with 'description', {found}")
    return Items(item, "EV360", "'rubrics' must be a list of rubric items, {found}", checks=(rules.check_rubric_ids,),
                 **kwargs)


def rubric_items(items, model) -> tuple:
    """The model's rubric items of a loaded rubric list; ``model``: the model module."""
    out = []
    for i, item in enumerate(items or ()):
        if isinstance(item, str):
            out.append(model.RubricItem(id=f"rubric-{i + 1}", description=item))
        else:
            out.append(model.RubricItem(
                id=item.get("id") or f"rubric-{i + 1}",
                description=item.get("description", item.get("expected_outcome")),
                weight=float(item.get("weight", 1.0)),
                required=item.get("required", True),
            ))
    return tuple(out)


class ScriptField(Checked):
    """A code_judge script: an argv list of non-empty strings, or a legacy command string. ``what`` names it
    in messages (AgentV 4.42's commands are the same)."""

    def __init__(self, code: str, template: str, *, what: str = "code_judge 'script'", then: str = "", **kwargs: Any):
        super().__init__(code, template, **kwargs)
        self.what, self.then = what, then  # ``then``: what the runner does with a bad command ('; it ...')

    def check(self, value):
        what, then = self.what, self.then
        if isinstance(value, str):
            if not is_text(value):
                raise problem_at(self.code, f"{what} is an empty string{then}; give the command as an argv list")
            return value
        if not isinstance(value, list):
            raise self.reject(value)
        if not value:
            raise problem_at(self.code, f"{what} is an empty list{then}; give at least the program to run")
        errors = {i: [Problem(self.code, f"{what} tokens must be non-empty strings, {found(token)}{then}")]
                  for i, token in enumerate(value) if not is_text(token)}
        if errors:
            raise ValidationError(errors)
        return value

    def json_schema(self) -> dict:
        text = {"type": "string", "minLength": 1}
        return {"oneOf": [{"type": "array", "minItems": 1, "items": text}, text]}


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

    def json_schema(self) -> dict:
        calls = {"title": "max_calls", "description": "How many calls to the target the script may make, >= 0.",
                 "type": "number", "minimum": 0}
        return {"oneOf": [{"const": True}, {"type": "object", "properties": {"max_calls": calls},
                                            "additionalProperties": False}]}


class ExpectedToolSchema(LintSchema):
    definition = "ExpectedTool"
    checks = (rules.check_keys("expected tool"),)
    tool = Text("EV314", "expected tool 'tool' must be a non-empty string, {found}", non_empty=True, required=True,
                error_messages=missing("EV314", "expected tool entry has no 'tool' (the tool name)"),
                metadata={"description": "The tool name."})
    args = ma.Raw(allow_none=True, metadata={
        "description": "Tool arguments to match: 'any', or a mapping compared exactly.",
        "json": {"oneOf": [{"const": "any"}, {"type": "object"}]},
        # a tool call's 'input' is not read here: the arguments go unchecked
        "confusable": ("input", "arguments", "params", "parameters")})
    output = ma.Raw(allow_none=True, metadata={"description": "The expected tool result.",
                                               "confusable": ("result", "response")})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def args_shape(self, data, original, **kwargs):
        args = original.get("args")
        if "args" in original and not (args == "any" or isinstance(args, dict) or is_whole_reference(args)):
            raise problem_at("EV314", f"expected tool 'args' must be 'any' or a mapping of arguments, {found(args)}",
                           field="args")


class AggregatorSchema(LintSchema):
    definition = "Aggregator"
    checks = (rules.check_aggregator,)
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

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def code_judge_path(self, data, original, **kwargs):
        if original.get("type") == "code_judge" and not is_text(original.get("path")):
            if "path" in original:
                raise problem_at("EV331", f"code_judge aggregator 'path' must be a non-empty string, "
                               f"{found(original['path'])}", field="path")
            raise problem_at("EV331", "code_judge aggregator has no 'path' (the script or command that aggregates)",
                           target=FIRST_KEY)


class FieldSpecSchema(LintSchema):
    definition = "Field"
    checks = (rules.check_field,)
    path = Text("EV340", "field 'path' must be a non-empty string, {found}", non_empty=True, required=True,
                error_messages=missing("EV340", "field has no 'path' (for example 'invoice.total')"),
                metadata={"description": "Path of the field (for example invoice.total or items[0].name)."})
    match = choice(FIELD_MATCHES, "EV341", "invalid field match {shown}{hint}; expected one of {choices}",
                   f"field has no 'match' (expected one of {one_of(FIELD_MATCHES)})",
                   metadata={"description": "How the field is compared."})
    # passed through as written; "json" is the shape an editor may expect
    required = Flag("EV340", "field 'required' must be true or false, {found}; the runner drops any other value and "
                             "the field is required", metadata={"description": "Whether the field must be present."})
    weight = ma.Raw(allow_none=True, metadata={"description": "Weight of the field.",
                                               "json": {"type": "number", "minimum": 0}})
    tolerance = ma.Raw(allow_none=True, metadata={"description": "Allowed difference for numeric_tolerance, >= 0.",
                                                  "json": {"type": "number", "minimum": 0}})
    relative = Flag("EV340", "field 'relative' must be true or false, {found}; the runner drops any other value and "
                             "the tolerance is absolute", metadata={"description": "Whether the tolerance is relative."})
    formats = ma.Raw(allow_none=True, metadata={"description": "Accepted date formats.",
                                                "json": {"type": "array", "items": {"type": "string"}}})


AGGREGATIONS = ("weighted_average", "all_or_nothing")  # how a field accuracy grader combines its fields


def trajectory_fields(what: str, modes: tuple, expected_tool: type, expected_modes: str, drops: bool = False) -> tuple:
    """The 'mode', 'minimums' and 'expected' fields of a tool trajectory grader, ``what`` it is ('tool_trajectory
    evaluator'): its ``modes``, the schema of an ``expected_tool``, the modes that read 'expected'; ``drops``: the
    runner drops the grader for a bad mode, and a bad minimum."""
    kind, noun = what.split(" ")
    then, dropped = (f"; the runner drops the {noun}", "; the runner drops it") if drops else ("", "")
    return (choice(modes, "EV310", f"invalid {kind} mode {{shown}}{{hint}}{then}; expected one of {{choices}}",
                   f"{what} has no 'mode' (expected one of {one_of(modes)}){dropped}",
                   metadata={"description": "How tool calls are compared."}),
            NumberMap("EV313", "'minimums' must be a mapping of tool name to minimum call count, {found}",
                      "minimum count for tool '{name}' must be a finite number >= 0, {found}" + dropped,
                      metadata={"description": "Tool name -> minimum number of calls (mode any_order)."}),
            Items(Record(expected_tool, "EV314", "an expected tool must be a mapping with 'tool', {found}"),
                  "EV314", "'expected' must be a list of {{tool, args}} entries, {found}",
                  metadata={"description": f"The expected tool calls ({expected_modes})."}))


def field_list(what: str, spec_schema: type) -> Items:
    """The 'fields' of a field accuracy grader, ``what`` it is ('field_accuracy evaluator'), each loaded by
    ``spec_schema``."""
    return Items(Record(spec_schema, "EV340", "a field must be a mapping with 'path' and 'match', {found}"),
                 "EV340", f"{what.split(' ')[0]} 'fields' must be a non-empty list of fields, {{found_list}}",
                 non_empty=True, required=True, data_key="fields",
                 error_messages=missing("EV340", f"{what} has no 'fields' list"),
                 metadata={"description": "Fields of structured output to compare."})
