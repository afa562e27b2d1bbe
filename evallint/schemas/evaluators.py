"""One schema per evaluator kind, chosen by ``type``; composite recurses."""
from __future__ import annotations

import os

from marshmallow import fields as ma
from marshmallow import post_load, pre_load

from ..rules.evaluators import check_evaluator
from ..model import EVALUATOR_CLASSES, Aggregator, ExpectedTool, FieldSpec, RubricItem
from .base import LintSchema
from .context import AT


def shell_argv(command: str) -> tuple:
    """A legacy string script runs through the platform shell."""
    if os.name == "nt":
        return ("cmd.exe", "/c", command)
    return ("sh", "-lc", command)


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


class EvaluatorField(ma.Field):
    """An evaluator entry: the schema is chosen by its ``type``."""

    def _deserialize(self, value, attr, data, **kwargs):
        kind = value.get("type") if isinstance(value, dict) else None
        schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
        return (schema or _UNKNOWN).load(value)


class EvaluatorSchema(LintSchema):
    kind = ""
    type = ma.String(metadata={"description": "The evaluator kind."})
    name = ma.String(metadata={"description": "Name of the evaluator; results are keyed by it."})
    weight = ma.Float(load_default=1.0, metadata={"description": "Weight in the case score, a number >= 0."})

    @pre_load
    def check(self, data, **kwargs):
        kind, clean = check_evaluator(data, data.get(AT, ()))
        if kind is None:
            return {}
        return clean

    @post_load
    def build(self, data, **kwargs):
        if "type" not in data:
            return None
        data["name"] = data.get("name") or data["type"]
        return EVALUATOR_CLASSES[data["type"]](**self.model_fields(data))

    def model_fields(self, data: dict) -> dict:
        return data


class _UnknownEvaluatorSchema(EvaluatorSchema):
    pass


class LlmJudgeSchema(EvaluatorSchema):
    prompt = ma.String(metadata={"description": "Inline prompt text or a path to a prompt template file."})
    rubrics = ma.List(ma.Raw(), metadata={"description": "Rubric items."})
    model = ma.String(metadata={"description": "Model override for the judge."})

    def model_fields(self, data):
        return {**data, "rubrics": rubric_items(data.get("rubrics"))}


class RubricSchema(EvaluatorSchema):
    rubrics = ma.List(ma.Raw(), metadata={"description": "Rubric items: strings or {id, description, weight, required}."})
    model = ma.String()

    def model_fields(self, data):
        return {**data, "rubrics": rubric_items(data.get("rubrics"))}


class CodeJudgeSchema(EvaluatorSchema):
    script = ma.Raw(metadata={"description": "An argv list (or a legacy shell string)."})
    cwd = ma.String(metadata={"description": "Working directory of the script."})
    target = ma.Raw(metadata={"description": "true, or {max_calls: N}: lets the script call the target."})
    config = ma.Dict(metadata={"description": "Any other key: configuration passed to the script."})

    def model_fields(self, data):
        script = data.get("script", ())
        argv = shell_argv(script) if isinstance(script, str) else tuple(script)
        return {**data, "script": argv}


class ToolTrajectorySchema(EvaluatorSchema):
    mode = ma.String(metadata={"description": "any_order, in_order or exact."})
    minimums = ma.Dict(keys=ma.String(), values=ma.Raw(), metadata={"description": "Tool -> minimum calls."})
    expected = ma.List(ma.Raw(), metadata={"description": "Expected tool calls: {tool, args}."})

    def model_fields(self, data):
        expected = tuple(ExpectedTool(tool=e["tool"], args=e.get("args"), input=e.get("input"),
                                            output=e.get("output")) for e in data.get("expected", ()))
        return {**data, "expected": expected}


class CompositeSchema(EvaluatorSchema):
    evaluators = ma.List(EvaluatorField(), metadata={"description": "Member evaluators."})
    aggregator = ma.Dict(metadata={"description": "How member scores combine."})

    def model_fields(self, data):
        members = tuple(e for e in data.get("evaluators", ()) if e is not None)
        agg = data.get("aggregator")
        return {**data, "evaluators": members, "aggregator": Aggregator(**agg) if agg else None}


class FieldAccuracySchema(EvaluatorSchema):
    field_specs = ma.List(ma.Raw(), data_key="fields", metadata={"description": "Fields to compare."})
    aggregation = ma.String(metadata={"description": "weighted_average or all_or_nothing."})

    def model_fields(self, data):
        specs = tuple(FieldSpec(
            path=f["path"], match=f.get("match", "exact"), required=bool(f.get("required", False)),
            weight=float(f.get("weight", 1.0)) if isinstance(f.get("weight"), (int, float)) else 1.0,
            tolerance=f.get("tolerance"), relative=bool(f.get("relative", False)),
            formats=tuple(f.get("formats") or ()) if isinstance(f.get("formats"), list) else (),
        ) for f in data.pop("field_specs", ()))
        return {**data, "fields": specs}


class LatencySchema(EvaluatorSchema):
    threshold = ma.Float(metadata={"description": "Milliseconds, >= 0."})


class CostSchema(EvaluatorSchema):
    budget = ma.Float(metadata={"description": "Budget, >= 0."})


class TokenUsageSchema(EvaluatorSchema):
    max_total = ma.Float()
    max_input = ma.Float()
    max_output = ma.Float()


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
