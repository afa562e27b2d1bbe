"""Evaluators: one schema per kind, chosen by ``type``; composite recurses.

A kind is declared once, by its schema: the ``type`` value that chooses it
(``kind``), the model class it builds (``model``) and a one-line ``summary``.
Defining the class registers it (``EvaluatorSchema.kinds``); the list of kinds,
the model class table, the JSON Schema, docs/format.md's kinds table and the
"expected one of" lists of messages are all read from that registry.

Each field states its type, accepted values, range and whether it is required,
with the rule code of each (``fields.py``). What needs more than one field is a
rule function in ``rules/evaluators.py``, listed in the schema's ``checks``."""
from __future__ import annotations

import os
from typing import Any, Iterator

from marshmallow import fields, validates_schema

from evallint.diagnostics import FIRST_KEY
from evallint.format.base import KindSchema, builds, load
from evallint.format.agentv2.evaluator_parts import (
    AGGREGATIONS,
    AGGREGATOR_TYPES,
    FIELD_MATCHES,
    AggregatorSchema,
    ExpectedToolSchema,
    FieldSpecSchema,
    JudgeAccessField,
    ScriptField,
    field_list,
    rubric_items,
    rubric_list,
    trajectory_fields,
)
from evallint.format.fields import Checked, Items, Number, Record, Text, choice, missing, problem_at
from evallint.format.keys import known_keys
from evallint.load.numbers import as_float
from evallint.rules import evaluators as rules
from evallint.rules.common import Misplaced, is_number
from evallint.suggest import one_of

__all__ = ["AGGREGATIONS", "AGGREGATOR_TYPES", "EVALUATOR_KINDS", "FIELD_MATCHES", "SCHEMAS",
           "TRAJECTORY_MODES", "EvaluatorField", "known_keys", "rubric_items", "rubric_list", "shell_argv"]

TRAJECTORY_MODES = ("any_order", "in_order", "exact")


def shell_argv(command: str) -> tuple:
    """A legacy string script runs through the platform shell."""
    if os.name == "nt":
        return ("cmd.exe", "/c", command)
    return ("sh", "-lc", command)


class EvaluatorField(Checked):
    """An evaluator entry: the schema is chosen by its ``type``."""

    def __init__(self, **kwargs):
        super().__init__("EV306", "an evaluator must be a mapping with 'type' and 'name', {found}", **kwargs)

    def check(self, value):
        if not isinstance(value, dict):
            raise self.reject(value)
        kind = value.get("type")
        schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
        return load(schema or _UNKNOWN, value)

    def holds(self) -> tuple:
        return tuple(SCHEMAS.values())

    def parts(self, value: Any, at: tuple) -> Iterator:
        if isinstance(value, dict):
            kind = value.get("type")
            yield (SCHEMAS.get(kind) if isinstance(kind, str) else None) or _UNKNOWN, value, at

    def json_schema(self) -> dict:
        return {"$ref": "#/definitions/Evaluator"}


def evaluator_list(code: str, template: str, **kwargs) -> Items:
    """A list of evaluators, each named once (EV303)."""
    return Items(EvaluatorField(), code, template, checks=(rules.check_names,), **kwargs)


class EvaluatorSchema(KindSchema):
    """The keys every evaluator has. A subclass that sets ``kind`` declares that kind: it registers in
    ``kinds`` when it is defined, in the order of definition (the order messages list the kinds in)."""

    kinds: dict = {}  # kind -> its schema class: this family of kinds (base.KindSchema)
    kind = ""  # the 'type' value that chooses this schema
    noun = "evaluator"  # what a message calls one
    model_class = "EvaluatorConfig"  # the name of the class of model.py it builds
    summary = ""  # one line, for docs and editors
    open_keys = False  # its other keys are passed through (configuration of a script), not unknown
    at_least_one: tuple = ()  # keys of which it needs one
    misplaced: dict = {}  # keys the runner reads one level down (rules.common.Misplaced)
    checks = (rules.check_evaluator,)
    type = fields.Raw(required=True, metadata={"description": "The evaluator kind."})  # it chose the schema
    name = Text("EV110", "evaluator 'name' must be a non-empty string, {found}", non_empty=True,
                metadata={"description": "Name of the evaluator; results and weights refer to it."})
    weight = Number("EV304", "evaluator 'weight' must be a finite number >= 0, {found}", load_default=1.0, minimum=0,
                    below=("EV305", "evaluator 'weight' must be >= 0, found {value}"),
                    metadata={"description": "Weight in the case score, a number >= 0 (default 1.0)."})

    @builds
    def build(self, data, **kwargs):
        from evallint.format.agentv2 import model  # imported by the loads that build a model only

        data["name"] = data.get("name") or data["type"]
        return getattr(model, self.model_class)(**self.model_fields(data, model))

    def model_fields(self, data: dict, model) -> dict:
        """The fields of its model class, of what it loaded; ``model``: the model module."""
        return data


class LlmJudgeSchema(EvaluatorSchema):
    checks = EvaluatorSchema.checks + (rules.check_prompt,)
    kind = "llm_judge"
    model_class = "LlmJudgeEvaluator"
    summary = "An LLM grades the answer against the expected outcome, a prompt or rubrics."
    prompt = Text("EV110", "'prompt' in llm_judge evaluator must be a string, {found}",
                  metadata={"description": "Inline prompt text, or a path to a prompt template file."})
    rubrics = rubric_list(metadata={"description": "Rubric items: strings or {id, description, weight, required}."})
    model = Text("EV110", "'model' in llm_judge evaluator must be a string, {found}",
                 metadata={"description": "Model override for the judge."})

    def model_fields(self, data, model):
        return {**data, "rubrics": rubric_items(data.get("rubrics"), model)}


class RubricSchema(EvaluatorSchema):
    checks = EvaluatorSchema.checks + (rules.check_rubric_strings,)
    kind = "rubric"
    model_class = "RubricEvaluator"
    summary = "An LLM grades the answer item by item against a rubric."
    rubrics = rubric_list(required=True, non_empty=True,
                          error_messages=missing("EV360", "rubric evaluator has no 'rubrics' list"),
                          empty="'rubrics' is an empty list; a rubric evaluator needs at least one item",
                          metadata={"description": "Rubric items: {id, description, weight, required} (the runner "
                                                   "drops plain strings here)."})
    model = Text("EV110", "'model' in rubric evaluator must be a string, {found}",
                 metadata={"description": "Model override for the judge."})

    def model_fields(self, data, model):
        return {**data, "rubrics": rubric_items(data.get("rubrics"), model)}


class CodeJudgeSchema(EvaluatorSchema):
    checks = EvaluatorSchema.checks + (rules.check_script,)
    kind = "code_judge"
    model_class = "CodeJudgeEvaluator"
    summary = "A script grades the answer."
    open_keys = True
    script = ScriptField("EV321", "code_judge 'script' must be an argv list of strings, {found}", required=True,
                         error_messages=missing(
        "EV320", "code_judge evaluator has no 'script' (an argv list such as [\"python\", \"check.py\"])"),
        metadata={"description": "The command, as an argv list (a string runs through the platform shell)."})
    cwd = Text("EV110", "'cwd' in code_judge evaluator must be a string, {found}",
               metadata={"description": "Working folder of the script.",
                         "confusable": ("workdir", "working_dir", "working_directory", "dir", "directory")})
    target = JudgeAccessField("EV323", "code_judge 'target' must be true or a mapping with 'max_calls', {found}",
                              metadata={"description": "true, or {max_calls: N}: lets the script call the target."})

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        config = {key: value for key, value in original.items()
                  if isinstance(key, str) and key not in self.load_fields}
        return super().build({**data, "config": config})

    def model_fields(self, data, model):
        script = data.get("script", ())
        argv = shell_argv(script) if isinstance(script, str) else tuple(script)
        return {**data, "script": argv}


class ToolTrajectorySchema(EvaluatorSchema):
    checks = EvaluatorSchema.checks + (rules.check_trajectory,)
    kind = "tool_trajectory"
    model_class = "ToolTrajectoryEvaluator"
    summary = "The agent's tool calls are compared with the expected ones."
    mode, minimums, expected = trajectory_fields("tool_trajectory evaluator", TRAJECTORY_MODES, ExpectedToolSchema,
                                                 "modes in_order and exact")

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def needs(self, data, original, **kwargs):
        mode = data.get("mode")
        if mode == "any_order" and "minimums" not in original:
            raise problem_at("EV311", "tool_trajectory mode 'any_order' needs 'minimums' (tool name -> minimum call count)",
                           target=FIRST_KEY)
        if mode in ("in_order", "exact") and "expected" not in original:
            raise problem_at("EV312", f"tool_trajectory mode '{mode}' needs 'expected' (the list of tool calls)",
                           target=FIRST_KEY)

    def model_fields(self, data, model):
        expected = tuple(model.ExpectedTool(tool=e["tool"], args=e.get("args"), output=e.get("output"))
                         for e in data.get("expected", ()))
        return {**data, "expected": expected}


class CompositeSchema(EvaluatorSchema):
    checks = EvaluatorSchema.checks + (rules.check_weights, rules.check_members)
    kind = "composite"
    model_class = "CompositeEvaluator"
    summary = "Member evaluators' scores combined by an aggregator."
    misplaced = {"weights": Misplaced("under 'aggregator:' (as 'aggregator.weights')", dict)}
    evaluators = evaluator_list("EV330", "composite 'evaluators' must be a non-empty list of evaluators, "
                                "{found_list}", non_empty=True, required=True,
                       error_messages=missing("EV330", "composite evaluator has no 'evaluators' list of members"),
                       metadata={"description": "Member evaluators."})
    aggregator = Record(AggregatorSchema, "EV331", "composite 'aggregator' must be a mapping with 'type', {found}",
                        required=True, error_messages=missing(
                            "EV331", f"composite evaluator has no 'aggregator' (a mapping whose 'type' is one of "
                            f"{one_of(AGGREGATOR_TYPES)})"),
                        metadata={"description": "How member scores combine."})

    def model_fields(self, data, model):
        agg = data.get("aggregator")
        return {**data, "evaluators": tuple(data.get("evaluators", ())),
                "aggregator": model.Aggregator(**agg) if agg else None}


class FieldAccuracySchema(EvaluatorSchema):
    kind = "field_accuracy"
    model_class = "FieldAccuracyEvaluator"
    summary = "Fields of structured output compared with the expected ones."
    misplaced = {key: Misplaced(f"in each of its 'fields' (as a field's '{key}')", kind)
                 for key, kind in (("match", str), ("tolerance", (int, float)), ("relative", bool))}
    field_specs = field_list("field_accuracy evaluator", FieldSpecSchema)
    aggregation = choice(AGGREGATIONS, "EV342", "invalid aggregation {value}{hint}; expected one of {choices} "
                         "(the runner silently drops anything else)", metadata={"description": "How field scores combine."})

    def model_fields(self, data, model):
        specs = tuple(model.FieldSpec(
            path=f["path"], match=f.get("match", "exact"), required=f.get("required", True),
            weight=as_float(f["weight"]) if is_number(f.get("weight")) else 1.0,
            tolerance=f.get("tolerance"), relative=f.get("relative", False),
            formats=tuple(f.get("formats") or ()) if isinstance(f.get("formats"), list) else (),
        ) for f in data.pop("field_specs", ()))
        return {**data, "fields": specs}


def _limit(code: str, kind: str, key: str, unit: str = "", **kwargs) -> Number:
    required = {"required": True, "error_messages": missing(code, f"{kind} evaluator has no '{key}' ({unit})")} \
        if unit else {}
    return Number(code, f"{kind} '{key}' must be a finite number >= 0, {{found}}", minimum=0, **required, **kwargs)


class LatencySchema(EvaluatorSchema):
    kind = "latency"
    model_class = "LatencyEvaluator"
    summary = "The answer's latency against a threshold."
    threshold = _limit("EV350", "latency", "threshold", "milliseconds, a number >= 0",
                       metadata={"description": "Latency threshold in milliseconds, >= 0."})


class CostSchema(EvaluatorSchema):
    kind = "cost"
    model_class = "CostEvaluator"
    summary = "The run's cost against a budget."
    budget = _limit("EV351", "cost", "budget", "a number >= 0", metadata={"description": "Cost budget, >= 0."})


class TokenUsageSchema(EvaluatorSchema):
    kind = "token_usage"
    model_class = "TokenUsageEvaluator"
    summary = "Token counts against limits."
    at_least_one = ("max_total", "max_input", "max_output")
    max_total = _limit("EV352", "token_usage", "max_total", metadata={"description": "Maximum total tokens."})
    max_input = _limit("EV352", "token_usage", "max_input", metadata={"description": "Maximum input tokens."})
    max_output = _limit("EV352", "token_usage", "max_output", metadata={"description": "Maximum output tokens."})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def sets_one(self, data, original, **kwargs):
        if not any(key in original for key in self.at_least_one):
            raise problem_at("EV352", f"token_usage evaluator sets none of {one_of(self.at_least_one)}",
                             target=FIRST_KEY)


SCHEMAS = EvaluatorSchema.schemas()
EVALUATOR_KINDS = tuple(SCHEMAS)


class _UnknownEvaluatorSchema(EvaluatorSchema):
    """An evaluator without a known ``type``: only what every kind has is checked, and its type against the
    registered kinds."""

    type = choice(EVALUATOR_KINDS, "EV301", "unknown evaluator type {shown}{hint}; expected one of {choices}",
                  f"evaluator has no 'type' (expected one of {one_of(EVALUATOR_KINDS)})",
                  metadata={"description": "The evaluator kind."})


_UNKNOWN = _UnknownEvaluatorSchema()
