"""The Agent Skills evals file (``evals.json``) as AgentV 4.42.4 loads it from a '.json' file: an object whose
'evals' array holds eval cases, each made a test of one user message ('prompt'), an expected answer
('expected_output'), files copied into the workspace and given to the agent ('files', from the file's folder)
and one llm-grader per assertion text ('assertions'). Its loader checks little: it rejects the file for what
it cannot read at all, skips a case without a prompt and ignores any other key."""
from __future__ import annotations

from typing import Any, Iterator

from marshmallow import ValidationError, fields

from evallint.format.base import LintSchema, builds
from evallint.format.fields import Checked, MappingOr, Problem, Text, describe, missing
from evallint.load.jsonl import REJECTS
from evallint.rules import agent_skills as rules

SKIPS = "the runner skips it"  # what the runner does with an eval case that is no object


class ListOfText(Checked):
    """A list of strings, read by the loader only when it has a length above zero: another string then makes it
    do what ``text`` says, a value without a length is ignored (``EV110`` for both, and for an item that is no
    string, with ``item`` and what it makes the runner do)."""

    def __init__(self, key: str, item: str, text: str, **kwargs: Any):
        super().__init__("EV110", f"'{key}' must be a list of strings, {{found}}; the runner ignores it", **kwargs)
        self.key, self.item, self.text = key, item, text

    def check(self, value: Any) -> Any:
        if isinstance(value, str) and value:
            raise ValidationError(Problem("EV110", describe(f"'{self.key}' must be a list of strings, {{found}}; "
                                                            f"{self.text}", value)))
        if not isinstance(value, list):
            raise self.reject(value)
        errors = {i: [Problem("EV110", describe(self.item, entry))] for i, entry in enumerate(value)
                  if not isinstance(entry, str)}
        if errors:
            raise ValidationError(errors)
        return value

    def json_schema(self) -> dict:
        return {"type": "array", "items": {"type": "string"}}


class SkillsEvalSchema(LintSchema):
    definition = "AgentSkillsEval"
    checks = (rules.check_eval,)
    id = fields.Raw(allow_none=True, metadata={
        "description": "The eval's id, a number or a string (the runner makes it the test's id as text).",
        "json": {"type": ["number", "string"]}, "required": True})
    prompt = fields.Raw(allow_none=True, metadata={
        "description": "What the agent is asked: the test's user message. Without it the runner skips the eval.",
        "json": {"type": "string", "minLength": 1}, "confusable": ("input", "question"), "required": True})
    expected_output = Text("EV110", "'expected_output' must be a string, {found}; the runner sends it to the graders "
                           "as the expected answer as it is", metadata={
                               "description": "The expected answer, and the criteria the graders judge by.",
                               "confusable": ("expected", "expected_outcome")})
    files = ListOfText("files", "an item of 'files' must be a string (a path from the file's folder), {found}; the "
                       "runner fails on it and rejects the file", "the runner reads each of its characters as a file name",
                       metadata={"description": "Files from this file's folder, copied into the workspace and "
                                                "given to the agent."})
    assertions = ListOfText("assertions", "an item of 'assertions' must be a string, {found}; the runner's llm-grader "
                            "does not read it as its prompt and judges with its default prompt",
                            "the runner fails on it and rejects the file", metadata={
                                "description": "What the answer must do: each text is judged by an llm-grader.",
                                "confusable": ("assert", "assertion", "criteria")})
    should_trigger = fields.Raw(allow_none=True, metadata={
        "description": "Whether the skill should be used (written by 'agentv convert'; the loader does not read it).",
        "json": {"type": "boolean"}, "unread": True})

    def reads(self, data):
        """A case without a prompt is skipped: the runner reads nothing else of it."""
        if rules.has_prompt(data):
            return data
        return {key: data[key] for key in ("id", "prompt") if key in data}

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        from evallint.format.agentv4.model import Assertion, Message, Test  # imported by the loads that build a model only

        if not rules.has_prompt(original):
            return None
        expected = original.get("expected_output")
        texts = data.get("assertions") or ()
        return Test(
            id=rules.runner_id(original), criteria=expected if isinstance(expected, str) else "",
            input=(Message(role="user", content=original["prompt"]),),
            expected_output=(Message(role="assistant", content=expected),) if expected else (),
            assertions=tuple(Assertion(type="llm-grader", name=f"assertion-{i}", settings={"prompt": text})
                             for i, text in enumerate(texts, 1)),
            input_files=tuple(data.get("files") or ()))


def _eval_item() -> MappingOr:
    """An item of 'evals': an eval case; null makes the loader fail, another value is skipped."""
    item = MappingOr(SkillsEvalSchema(), "EV102", "an eval case must be an object with 'id' and 'prompt', {found}; "
                     + SKIPS)
    item.error_messages = {**item.error_messages, "null": Problem(
        "EV102", "an eval case must be an object with 'id' and 'prompt', found null; the runner fails on it and "
                 "rejects the file")}
    return item


class EvalsField(Checked):
    """'evals': a non-empty list of eval cases, else the loader rejects the file."""

    def __init__(self, **kwargs: Any):
        super().__init__("EV101", f"'evals' must be a list of eval cases, {{found}}; {REJECTS}", **kwargs)
        self.items = fields.List(_eval_item())

    def check(self, value: Any) -> list:
        if not isinstance(value, list):
            raise self.reject(value)
        if not value:
            raise ValidationError(Problem("EV101", f"'evals' is an empty list; {REJECTS}"))
        return self.items.deserialize(value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        for i, item in enumerate(value if isinstance(value, list) else ()):
            yield self.items.inner, item, at + (i,)

    def json_schema(self) -> dict:
        from evallint.format.jsonschema import ref

        return {"type": "array", "minItems": 1, "items": ref(SkillsEvalSchema.definition)}


class SkillsFileSchema(LintSchema):
    checks = (rules.check_file,)
    skill_name = fields.Raw(allow_none=True, metadata={"description": "The skill's name, kept in each test's "
                                                                     "metadata.", "json": {"type": "string"}})
    evals = EvalsField(required=True, error_messages=missing("EV101", f"no 'evals' list; {REJECTS}"),
                       metadata={"description": "The eval cases.", "confusable": ("eval", "tests")})

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        from evallint.format.agentv4.model import Suite, Test  # imported by the loads that build a model only

        skill = original.get("skill_name")
        metadata = {"skill_name": skill} if skill not in (None, False, 0, "") else {}
        tests = tuple(test if not metadata else _with_metadata(test, metadata) for test in data["evals"]
                      if isinstance(test, Test))
        return Suite(path="", tests=tests, metadata=metadata)


def _with_metadata(test, metadata: dict):
    from dataclasses import replace

    return replace(test, metadata=metadata)


SKILLS_SCHEMA = SkillsFileSchema()
