"""A 4.42 test's turns: what each sends in a conversation and what grades it (orchestrator.ts
runConversationMode plays them; the loader copies them as written, yaml-parser.ts parseTurns)."""
from __future__ import annotations

from typing import Any, Iterator

from evallint.format.agentv4.assertions import normal_type
from evallint.format.agentv4.graders import KINDS, assertion_list
from evallint.format.agentv4.messages import ExpectedOutputField
from evallint.format.base import LintSchema
from evallint.format.fields import Checked, Items, Record, missing
from evallint.rules.common import finding
from evallint.rules.evaluators import check_keys
from evallint.suggest import quote


class TurnInputField(Checked):
    """A turn's input: the run sends it as the user's next message, anything but a string as its JSON text
    (orchestrator.ts runConversationMode), which is what a number or a boolean says as written."""

    def __init__(self, **kwargs: Any):
        super().__init__("EV112", "a turn's 'input' must be a string, {found}; the runner sends anything else as its "
                                  "JSON text in one user message (roles, blocks and files as text): write what the user "
                                  "says", **kwargs)

    def check(self, value: Any) -> Any:
        if not isinstance(value, (str, int, float)):
            raise self.reject(value)
        return value

    def json_schema(self) -> dict:
        return {"type": ["string", "number", "boolean"]}


# the kinds that only the loader reads (it makes llm-graders of them): the run's registry has none of them
# (registry/builtin-graders.ts), and a turn's graders reach it as written
LOADER_KINDS = ("rubrics", "rubric")


def check_turn_graders(turn: dict, place) -> Iterator:
    """EV301 for a turn's grader whose type the run's registry does not know as written: the loader does not read
    a turn's graders (yaml-parser.ts parseTurns), so neither its shorthand kinds nor another spelling of a kind
    ('llm_grader') are read, and the run fails the grader ('Unknown grader type')."""
    graders = turn.get("assertions")
    for i, grader in enumerate(graders if isinstance(graders, list) else ()):
        kind = grader.get("type") if isinstance(grader, dict) else None
        if isinstance(kind, str) and (kind in LOADER_KINDS or kind != normal_type(kind) and normal_type(kind) in KINDS):
            meant = "an llm-grader with 'rubrics'" if normal_type(kind) in LOADER_KINDS else f"'{normal_type(kind)}'"
            yield finding("EV301", f"turn grader type {quote(kind)} is not read in a turn: the runner takes a turn's "
                          "graders as written, and its registry has no grader of that type, so the grader fails "
                          f"('Unknown grader type') and scores 0; write {meant}", place.at + ("assertions", i, "type"))


class TurnSchema(LintSchema):
    """A turn of a conversation: what is sent, and what it is graded by (the loader copies it; the run reads
    it)."""

    checks = (check_keys("turn"), check_turn_graders)
    input = TurnInputField(required=True, error_messages=missing(
        "EV105", "a turn has no 'input'; the runner sends a user message with no content in its place"),
        metadata={"description": "What the user says in this turn.", "confusable": ("input_messages",)})
    expected_output = ExpectedOutputField(metadata={"description": "The expected answer of this turn."})
    assertions = assertion_list("assertions", metadata={"description": "The turn's graders: criteria strings or "
                                                                       "assertions."})


def turns_field() -> Items:
    """'turns': the loader reads a value that is no mapping as a turn with nothing in it, and fails on a null."""
    turn = Record(TurnSchema, "EV110", "a turn must be a mapping with 'input', {found}; the runner reads it as a turn "
                  "with nothing in it and sends a user message with no content",
                  null="a turn must be a mapping with 'input', found null; the loader fails on it and rejects the file")
    return Items(turn, "EV110", "'turns' must be a list of {{input, expected_output, assertions}}, {found}",
                 metadata={"description": "The turns of a conversation.", "yaml_only": True})
