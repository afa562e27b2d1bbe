"""The eval suite and its cases: where evaluator precedence and inline rubrics
are applied."""
from __future__ import annotations

from typing import Optional

from marshmallow import ValidationError, fields, validates_schema

from evallint.diagnostics import FIRST_KEY
from evallint.format.base import LintSchema, builds
from evallint.format.agentv2.evaluators import EVALUATOR_KINDS, evaluator_list, rubric_items, rubric_list
from evallint.format.fields import CaseId, Checked, Items, Problem, Record, Text, missing
from evallint.format.agentv2.messages import ExpectedOutputField, InputField, MessageList
from evallint.rules import dataset_lines
from evallint.rules.structure import case_reads, check_case, check_execution, check_suite, missing_cases
from evallint.suggest import did_you_mean, one_of


def _evaluators(items) -> tuple:
    return tuple(e for e in items or () if e is not None)


def _text(value) -> Optional[str]:
    return value if isinstance(value, str) else None


class ExecutionSchema(LintSchema):
    definition = "Execution"
    checks = (check_execution,)
    target = Text("EV110", "'target' in execution must be a string, {found}",
                  metadata={"description": "Name of a target in the nearest targets.yaml.", "default": "default"})
    evaluators = evaluator_list("EV306", "'evaluators' must be a list of evaluators, {found}",
                                metadata={"description": "The evaluators."})


def _execution(**kwargs) -> Record:
    return Record(ExecutionSchema, "EV110", "'execution' must be a mapping with 'target' and/or 'evaluators', {found}",
                  **kwargs)


class KindName(Checked):
    """A default evaluator kind: a string (else ``code``) naming a registered kind, else EV114 (the runner falls
    back to llm_judge)."""

    def check(self, value):
        if not isinstance(value, str):
            raise self.reject(value)
        if value not in EVALUATOR_KINDS:
            raise ValidationError(Problem("EV114", f"unknown evaluator kind '{value}'{did_you_mean(value, EVALUATOR_KINDS)}"
                                                   f"; the runner falls back to 'llm_judge' (known kinds: "
                                                   f"{one_of(EVALUATOR_KINDS)})"))
        return value

    def json_schema(self) -> dict:
        return {"enum": list(EVALUATOR_KINDS)}


def _evaluator_kind() -> KindName:
    return KindName("EV110", "'evaluator' must be the name of an evaluator kind, {found}",
                    metadata={"description": "Default evaluator kind (the runner falls back to llm_judge)."})


class CaseSchema(LintSchema):
    definition = "Case"
    checks = (check_case,)
    id = CaseId(required=True, error_messages=missing("EV103", "eval case has no 'id'; every case needs a unique "
                                                               "string id"),
                metadata={"description": "Unique id of the case (a string)."})
    conversation_id = Text("EV110", "'conversation_id' in eval case must be a string, {found}",
                           metadata={"description": "Groups cases that belong to one conversation."})
    description = fields.Raw(allow_none=True, metadata={  # never read by the runner: EV117 for another type
        "description": "What the case checks, for people reading it.", "unread": True, "json": {"type": "string"}})
    expected_outcome = Text("EV107", "'expected_outcome' must be a non-empty string describing the goal, {found}",
                            non_empty=True, metadata={"description": "The goal the answer must meet; a case "
                                                                     "without it is skipped by the runner."})
    outcome = Text("EV107", "'outcome' must be a non-empty string describing the goal, {found}", non_empty=True,
                   metadata={"description": "Alias of expected_outcome (ignored when both are present)."})
    input_messages = MessageList("input_messages", metadata={"description": "The conversation sent to the agent."})
    expected_messages = MessageList("expected_messages", metadata={"description": "The expected answer, as messages."})
    execution = _execution(metadata={"description": "The case's own target and evaluators."})
    evaluators = evaluator_list("EV306", "'evaluators' must be a list of evaluators, {found}",
                                metadata={"description": "The case's evaluators (ignored when execution.evaluators "
                                                         "is set)."})
    rubrics = rubric_list(metadata={"description": "Inline rubrics: a rubric evaluator in front of the case's "
                                                   "evaluators."})
    evaluator = _evaluator_kind()
    # the shorthands, read in place of their canonical keys
    input = InputField(metadata={"description": "Alias of input_messages: a string is one user message, a list is "
                                                "the messages."})
    expected_output = ExpectedOutputField(metadata={
        "description": "Alias of expected_messages: a string, a mapping (structured output, or one message with "
                       "'role'), or a list."})

    def reads(self, data):
        return case_reads(data)

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_outcome(self, data, original, **kwargs):
        if "expected_outcome" not in original and "outcome" not in original:
            raise ValidationError(Problem("EV106", "eval case has no 'expected_outcome' (or 'outcome'); the runner "
                                                   "skips such a case", FIRST_KEY))

    @builds
    def build(self, data, **kwargs):
        from evallint.format.agentv2 import model  # imported by the loads that build a model only

        rubric = None
        if data.get("rubrics"):
            rubric = model.RubricEvaluator(type="rubric", name="rubric", rubrics=rubric_items(data["rubrics"], model))
        fields = {
            "id": data.get("id", ""),
            "expected_outcome": data.get("expected_outcome", data.get("outcome", "")),
            "input_messages": tuple(data.get("input_messages", data.get("input", ()))),
            "expected_messages": tuple(data.get("expected_messages", data.get("expected_output", ()))),
            "conversation_id": data.get("conversation_id"),
            "description": _text(data.get("description")),
            "evaluator": data.get("evaluator"),  # KindName keeps only a known kind
        }
        execution = data.get("execution") or {}
        own = execution["evaluators"] if "evaluators" in execution else data.get("evaluators")
        return model.CaseDraft(fields, _evaluators(own), own is None, rubric, isinstance(data.get("execution"), dict))


class SuiteSchema(LintSchema):
    checks = (check_suite,)
    jsonl = False  # a JSONL dataset with its sidecar's settings ('dataset' is a key of the suite)
    schema_id = fields.Raw(data_key="$schema", metadata={"description": "The AgentV schema id of this file."})
    description = fields.Raw(allow_none=True, metadata={  # never read by the runner: EV117 for another type
        "description": "What this suite checks, for people reading it.", "unread": True, "json": {"type": "string"}})
    dataset = Text("EV110", "'dataset' in eval suite must be a string, {found}",
                   metadata={"description": "Dataset name; defaults to the file name without its extension."})
    target = Text("EV110", "'target' in eval suite must be a string, {found}",
                  metadata={"description": "Name of a target (legacy spelling of execution.target).", "default": "default"})
    evaluator = _evaluator_kind()
    execution = _execution(metadata={"description": "Defaults for every case: the target and the evaluators."})
    evalcases = Items(Record(CaseSchema, "EV102", "an eval case must be a mapping with 'id', 'expected_outcome' and "
                                                  "'input', {found}"),
                      "EV101", "'evalcases' must be a list of cases, {found}",
                      # required: has_cases says so, naming a near miss of the key when there is one
                      metadata={"description": "The eval cases.", "required": True})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_cases(self, data, original, **kwargs):
        if "evalcases" not in original:
            message, field, target = missing_cases(original)
            raise ValidationError(Problem("EV101", message, target), field_name=field)

    @builds
    def build(self, data, **kwargs):
        from evallint.format.agentv2.model import EvalCase, EvalSuite  # imported by the loads that build a model only

        execution = data.get("execution") or {}
        suite_evaluators = _evaluators(execution.get("evaluators"))
        target = execution.get("target", data.get("target"))
        cases = []
        for draft in data.get("evalcases", ()):  # each case is built once, knowing the suite's settings
            # a dataset line's 'execution' stands in for the sidecar's: the sidecar's evaluators do not reach it
            inherits = draft.inherits and not (self.jsonl and draft.execution)
            evaluators = suite_evaluators if inherits else draft.evaluators
            if draft.rubric is not None:
                evaluators = (draft.rubric,) + evaluators
            cases.append(EvalCase(**draft.fields, evaluators=evaluators, target=target))  # a case's own is ignored
        return EvalSuite(path="", cases=tuple(cases), description=_text(data.get("description")),
                         dataset=data.get("dataset"), target=target, evaluator=data.get("evaluator"))


class DatasetSuiteSchema(SuiteSchema):
    """A JSONL dataset, read as a suite whose cases are its lines and whose settings are its sidecar's."""

    checks = SuiteSchema.checks + (dataset_lines.check_sidecar_evaluators,)
    jsonl = True


SUITE_SCHEMA = SuiteSchema()
DATASET_SUITE_SCHEMA = DatasetSuiteSchema()
