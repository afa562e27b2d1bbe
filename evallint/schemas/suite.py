"""The eval suite and its cases: where evaluator precedence and inline rubrics
are applied."""
from __future__ import annotations

from dataclasses import dataclass

from marshmallow import fields, post_load, pre_load

from ..rules.datasets import check_sidecar
from ..rules.structure import check_case, check_suite
from ..model import EvalCase, EvalSuite, RubricEvaluator
from .base import LintSchema
from .context import AT
from .evaluators import EvaluatorField, rubric_items, rubric_list
from .messages import MessageList


@dataclass
class _CaseDraft:
    fields: dict  # the EvalCase's fields but its evaluators and target, which the suite may supply
    evaluators: tuple  # its own
    target: object  # its own, or None
    inherits: bool  # no evaluators of its own: the suite's apply
    rubric: object  # the inline rubric evaluator, or None


def _evaluators(items) -> tuple:
    return tuple(e for e in items or () if e is not None)


class ExecutionSchema(LintSchema):
    target = fields.String(metadata={"description": "Name of the target in targets.yaml."})
    evaluators = fields.List(EvaluatorField(), metadata={"description": "Evaluators for every case."})


class CaseSchema(LintSchema):
    id = fields.String(metadata={"description": "Unique id of the case."})
    conversation_id = fields.String()
    description = fields.String()
    expected_outcome = fields.String(metadata={"description": "The goal; alias: outcome."})
    input_messages = MessageList(metadata={"description": "Alias: input."})
    expected_messages = MessageList(metadata={"description": "Alias: expected_output."})
    execution = fields.Nested(ExecutionSchema, metadata={"description": "The case's own target and evaluators."})
    evaluators = fields.List(EvaluatorField())
    rubrics = rubric_list()
    evaluator = fields.String()

    @pre_load
    def check(self, data, **kwargs):
        return check_case(data, data.get(AT, ()))

    @post_load
    def build(self, data, **kwargs):
        rubric = None
        if data.get("rubrics"):
            rubric = RubricEvaluator(type="rubric", name="rubric", rubrics=rubric_items(data["rubrics"]))
        fields = {
            "id": data.get("id", ""),
            "expected_outcome": data.get("expected_outcome", ""),
            "input_messages": tuple(data.get("input_messages", ())),
            "expected_messages": tuple(data.get("expected_messages", ())),
            "conversation_id": data.get("conversation_id"),
            "description": data.get("description"),
            "evaluator": data.get("evaluator"),
        }
        execution = data.get("execution") or {}
        own = execution["evaluators"] if "evaluators" in execution else data.get("evaluators")
        return _CaseDraft(fields, _evaluators(own), execution.get("target"), own is None, rubric)


class SuiteSchema(LintSchema):
    description = fields.String()
    dataset = fields.String()
    target = fields.String(metadata={"description": "Legacy spelling of execution.target."})
    evaluator = fields.String()
    execution = fields.Nested(ExecutionSchema)
    evalcases = fields.Nested(CaseSchema, many=True)

    @pre_load
    def check(self, data, **kwargs):
        return check_suite(data)

    @post_load
    def build(self, data, **kwargs):
        execution = data.get("execution") or {}
        suite_evaluators = _evaluators(execution.get("evaluators"))
        target = execution.get("target", data.get("target"))
        cases = []
        for draft in data.get("evalcases", ()):  # each case is built once, knowing the suite's settings
            evaluators = suite_evaluators if draft.inherits else draft.evaluators
            if draft.rubric is not None:
                evaluators = (draft.rubric,) + evaluators
            cases.append(EvalCase(**draft.fields, evaluators=evaluators, target=draft.target or target))
        return EvalSuite(path="", cases=tuple(cases), description=data.get("description"),
                               dataset=data.get("dataset"), target=target, evaluator=data.get("evaluator"))


SUITE_SCHEMA = SuiteSchema()


class SidecarSchema(LintSchema):
    """`dataset.yaml` beside `dataset.jsonl`: suite metadata, no cases."""

    description = fields.String()
    dataset = fields.String()
    evaluator = fields.String()
    execution = fields.Nested(ExecutionSchema)

    @pre_load
    def check(self, data, **kwargs):
        return check_sidecar(data)

    @post_load
    def build(self, data, **kwargs):
        return data


SIDECAR_SCHEMA = SidecarSchema()
