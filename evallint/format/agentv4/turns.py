"""A 4.42 test's turns: what each sends in a conversation and what grades it (orchestrator.ts
runConversationMode plays them; the loader copies them as written, yaml-parser.ts parseTurns)."""
from __future__ import annotations

from typing import Any, Iterator

from evallint.diagnostics import FIRST_KEY, KEY
from evallint.format.agentv4.assertions import METRICS
from evallint.format.agentv4.graders import KINDS, SCHEMAS, assertion_list
from evallint.format.agentv4.messages import ExpectedOutputField
from evallint.format.base import LintSchema
from evallint.format.fields import Checked, Items, Record, missing
from evallint.rules.js_regex import refused_flags
from evallint.rules.common import Misplaced, finding
from evallint.rules.evaluators import check_keys
from evallint.rules.grader_lists import in_dropped_turn, normal_type, turn_test, value_at
from evallint.rules.template_vars import filled
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
    for i, grader in enumerate(graders if isinstance(graders, list) and not in_dropped_turn(place) else ()):
        kind = grader.get("type") if isinstance(grader, dict) else None
        if isinstance(kind, str) and (kind in LOADER_KINDS or kind != normal_type(kind) and normal_type(kind) in KINDS):
            meant = "an llm-grader with 'rubrics'" if normal_type(kind) in LOADER_KINDS else f"'{normal_type(kind)}'"
            yield finding("EV301", f"turn grader type {quote(kind)} is not read in a turn: the runner takes a turn's "
                          "graders as written, and its registry has no grader of that type, so the grader fails "
                          f"('Unknown grader type') and scores 0; write {meant}", place.at + ("assertions", i, "type"))


# the kinds the run gives a turn's grader no data for, and an execution-metrics grader's limits on that data: the
# run grades a turn without its duration, cost and token usage (orchestrator.ts runConversationMode)
NO_DATA_KINDS = ("latency", "cost", "token-usage")
NO_DATA_LIMITS = ("max_tokens", "max_cost_usd", "max_duration_ms")
NO_DATA = "the runner grades a conversation, its turns and its transcript, without the run's duration, cost and token usage"
# the keys the loader renames for a test's own graders (loaders/grader-parser.ts), which a turn's grader reads only
# as its own code spells them: written -> read
TRAJECTORY_RENAMED = {"args_match": "argsMatch"}
EXPECTED_TOOL_RENAMED = {"args_match": "argsMatch", "max_duration_ms": "maxDurationMs"}
METRICS_RENAMED = {camel: key for key, camel, _ in METRICS}
# the limits on the run's data that a test's own execution-metrics grader reads (the loader reads either spelling)
LIMITS_READ = NO_DATA_LIMITS + tuple(camel for camel, key in METRICS_RENAMED.items() if key in NO_DATA_LIMITS)
SCORED_BY = ("id", "weight")  # what a rubric item's verdict is matched and weighed by, with no default in a turn
PASSED_ON = "the runner passes a turn's graders on as written"


def check_turn_grader_settings(turn: dict, place) -> Iterator:
    """EV307 for what a turn's grader (or a member of a turn's composite) does not get as a test's own grader does:
    the loader passes a turn's graders on as written (yaml-parser.ts parseTurns), so nothing expands, renames or
    fills in their settings, and the run grades a turn without the run's duration, cost and token usage
    (orchestrator.ts runConversationMode). Not in a turn the runner never plays (EV121)."""
    graders = turn.get("assertions")
    for i, grader in enumerate(graders if isinstance(graders, list) and not in_dropped_turn(place) else ()):
        yield from _turn_grader(grader, turn, place.at + ("assertions", i))


def _turn_grader(grader: Any, turn: dict, at: tuple) -> Iterator:
    kind = grader.get("type") if isinstance(grader, dict) else None
    if isinstance(grader, dict) and "include" in grader and kind is None:
        yield finding("EV307", f"an include in a turn is not expanded: {PASSED_ON}, so this one is a grader of no "
                      "type, which fails ('Unknown grader type') and scores 0; write the template's assertions here",
                      at + ("include",), KEY)
    elif kind in NO_DATA_KINDS:
        yield from no_data(grader, at, "a turn's", ())
    elif kind == "execution-metrics":
        yield from _metrics(grader, at)
        yield from no_data(grader, at, "a turn's", NO_DATA_LIMITS)
    elif kind == "tool-trajectory":
        yield from _trajectory(grader, at)
    elif kind == "llm-grader" and isinstance(grader.get("rubrics"), list):
        yield from _rubric_items(grader["rubrics"], at + ("rubrics",))
    elif kind == "field-accuracy" and not (isinstance(turn.get("expected_output"), dict)
                                           and turn["expected_output"].get("role") == "assistant"):
        yield finding("EV307", "a turn's field-accuracy grader finds no expected data and scores 0: the runner passes a "
                      "turn's 'expected_output' on as written, and the grader reads only a message {role: assistant, "
                      "content: {...}} there; write the turn's expected output so", at + ("type",))
    elif kind == "composite":
        yield from _composite(grader, turn, at)
    elif kind == "regex" and "flags" in grader and not isinstance(grader["flags"], str):
        text = _as_text(grader["flags"])
        yield from refused_flags(text, "a turn's regex 'flags' that are no text are read as the text "
                                 f"{quote(text)}", grader, at + ("flags",))


def _as_text(value: Any) -> str:
    """``value`` as JavaScript's String() writes it, which RegExp does with the flags a turn's regex grader passes
    on as written: a list's items joined by commas, null as 'null' (as an empty item, '')."""
    if isinstance(value, list):
        return ",".join("" if item is None else _as_text(item) for item in value)
    if isinstance(value, bool) or value is None:
        return str(value).lower().replace("none", "null")
    return "[object Object]" if isinstance(value, dict) else str(value)


def _composite(grader: dict, turn: dict, at: tuple) -> Iterator:
    """A turn's composite: its members are made from their settings as written, as the turn's graders are, and an
    aggregator of a type the grader does not know as written is a weighted average (graders/composite.ts)."""
    members = grader.get("assertions")
    elsewhere = next((key for key in ("assert", "evaluators") if isinstance(grader.get(key), list)), None)
    if members is None and elsewhere:
        yield finding("EV307", f"a turn's composite reads its members only from 'assertions', not {quote(elsewhere)}: "
                      f"{PASSED_ON}, so the composite finds no members, fails and scores 0; write 'assertions'",
                      at + (elsewhere,), KEY)
    for i, member in enumerate(members if isinstance(members, list) else ()):
        kind = member.get("type") if isinstance(member, dict) else None
        if kind in LOADER_KINDS:  # a kind only the loader turns into an llm-grader
            yield finding("EV307", f"a turn's composite member of type {quote(kind)} makes the whole composite fail "
                          f"('Unsupported grader type in composite') and score 0: {PASSED_ON}; write an llm-grader with "
                          "'rubrics'", at + ("assertions", i, "type"))
        yield from _turn_grader(member, turn, at + ("assertions", i))
    aggregator = grader.get("aggregator")
    kind = aggregator.get("type") if isinstance(aggregator, dict) else None
    meant = normal_type(kind) if isinstance(kind, str) else None
    if meant != kind and meant in ("code-grader", "llm-grader"):
        yield finding("EV307", f"a turn's aggregator type {quote(kind)} is not read: {PASSED_ON}, and the composite "
                      f"averages its members' scores instead; write {quote(meant)}", at + ("aggregator", "type"))


def _metrics(grader: dict, at: tuple) -> Iterator:
    """An execution-metrics grader reads its limits only in snake case, and those on tokens, cost and duration
    always fail in a turn."""
    for key in grader:
        read = METRICS_RENAMED.get(key)
        if read is not None and read not in grader:
            then = ", which always fails there" if read in NO_DATA_LIMITS else ""
            yield finding("EV307", f"{quote(key)} is not read in a turn's execution-metrics: {PASSED_ON}, and the "
                          f"grader reads only {quote(read)}{then}; write {quote(read)} here", at + (key,), KEY)


def no_data(grader: dict, at: tuple, whose: str, limits: tuple,
             fix: str = "grade it in a test without 'mode: conversation'") -> Iterator:
    """EV307 for a grader of the run's duration, cost or token usage in a conversation (``whose``: a turn's, or a
    conversation test's own, graded on the transcript), and an execution-metrics grader's ``limits`` on them: the
    runner grades both without that data (orchestrator.ts runConversationMode), so they always fail."""
    negated, kind = grader.get("negate") is True, grader.get("type")
    if kind in NO_DATA_KINDS:
        yield finding("EV307", f"{whose} {quote(kind)} grader always scores {'1 (negated)' if negated else '0'}: "
                      f"{NO_DATA}; {fix}", at + ("type",))
    for key in (key for key in grader if key in limits):
        then = ", so the negated grader always passes" if negated else ""
        yield finding("EV307", f"{whose} execution-metrics {quote(key)} always fails{then}: {NO_DATA}; {fix}",
                      at + (key,), KEY)


def _renamed(mapping: dict, at: tuple, renamed: dict, where: str) -> Iterator:
    for key, read in renamed.items():
        if key in mapping and read not in mapping:
            yield finding("EV307", f"{quote(key)} is not read in a turn's {where}: {PASSED_ON}, and the grader reads "
                          f"only {quote(read)}; write {quote(read)} here", at + (key,), KEY)


def _trajectory(grader: dict, at: tuple) -> Iterator:
    yield from _renamed(grader, at, TRAJECTORY_RENAMED, "tool-trajectory")
    expected = grader.get("expected")
    for i, item in enumerate(expected if isinstance(expected, list) else ()):
        if isinstance(item, dict):
            yield from _renamed(item, at + ("expected", i), EXPECTED_TOOL_RENAMED, "expected tool call")


def _rubric_items(items: list, at: tuple) -> Iterator:
    """A turn's rubric items: the grader matches its verdicts by 'id' and weighs them by 'weight', which no loader
    fills in there (an item without them scores the grader 0), and shows it only 'outcome'."""
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            yield finding("EV307", f"a turn's rubric item must be a mapping with 'id', 'weight' and 'outcome': "
                          f"{PASSED_ON}, so the grader matches no verdict to this one and scores 0", at + (i,))
            continue
        # an absent weight makes the total no number (one of another type is EV361's)
        missing = [key for key in SCORED_BY if key not in item or key == "id" and not _holds(item, key)]
        ranges = item.get("score_ranges")
        if isinstance(ranges, dict):
            yield finding("EV307", f"a turn's rubric item's 'score_ranges' must be a list of ranges: {PASSED_ON}, so the "
                          "mapping shorthand is not expanded and the grader scores the item as a plain criterion",
                          at + (i, "score_ranges"))
        if missing:
            yield finding("EV307", f"a turn's rubric item needs {' and '.join(map(quote, missing))}: {PASSED_ON}, with "
                          "no defaults filled in, so the grader matches no verdict to this item (or weighs it as "
                          "nothing) and scores 0", at + (i,), FIRST_KEY)
        elif not _holds(item, "outcome") and not isinstance(ranges, list):  # score bands need no outcome
            written = next((f" ({quote(key)} is not read there)" for key in ("criteria", "description") if key in item),
                           "")
            yield finding("EV307", f"a turn's rubric item needs 'outcome'{written}: {PASSED_ON}, so the grader is "
                          "shown 'undefined' as this criterion", at + (i,), FIRST_KEY)


def _holds(item: dict, key: str) -> bool:
    value = item.get(key)
    if key == "weight":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, str) and value != ""


def check_turn_expectation(turn: dict, place) -> Iterator:
    """EV121 for the expected output of a turn that the runner plays (its test in conversation mode) and that none of
    the turn's graders reads (``reads_turn_expected``; a type that is no built-in kind may, and one only the loader
    knows is EV301): the runner grades the turn without it. Without graders, the turn's grader is the test's default
    llm-grader, which reads none."""
    test = turn_test(place)
    turn = value_at(filled(test), place.at[-2:]) if isinstance(test, dict) else None  # its vars filled in
    if in_dropped_turn(place) or not isinstance(turn, dict) or turn.get("expected_output") in (None, ""):
        return
    graders = turn.get("assertions")
    if not isinstance(graders, list) or not any(_reads_turn_expected(grader) for grader in graders):
        yield finding("EV121", "a turn's 'expected_output' is not shown to its graders: only a code-grader or "
                      "field-accuracy reads the turn's (an llm-grader, the turn's criteria or the test's when the turn "
                      "has none, gets the test's expected output as its reference answer); write what the answer "
                      "must say in the turn's 'assertions'", place.at + ("expected_output",), KEY)


def _reads_turn_expected(grader: Any) -> bool:
    """Whether a turn's grader may read the turn's expected output (``reads_turn_expected``): a composite through a
    member that does, a type that is no built-in kind (a custom one) or one only the loader knows (EV301) may; an
    entry of no type (an include) fails and reads nothing."""
    kind = grader.get("type") if isinstance(grader, dict) else None
    if kind == "composite":
        members = grader.get("assertions")
        return not isinstance(members, list) or any(_reads_turn_expected(member) for member in members)
    return isinstance(kind, str) and (kind not in SCHEMAS or kind in LOADER_KINDS or SCHEMAS[kind].reads_turn_expected)


# a conversation test's keys written in a turn, where the runner reads none of them
TEST_KEYS = {key: Misplaced("in the conversation's test itself, for every turn", kind) for key, kind in (
    ("vars", dict), ("input_files", list), ("execution", dict), ("window_size", (int, float)), ("on_turn_failure", str),
    ("aggregation", str))}


class TurnSchema(LintSchema):
    """A turn of a conversation: what is sent, and what it is graded by (the loader copies it; the run reads
    it)."""

    checks = (check_keys("turn", TEST_KEYS), check_turn_graders, check_turn_grader_settings, check_turn_expectation)
    input = TurnInputField(required=True, error_messages=missing(
        "EV105", "a turn has no 'input'; the runner sends a user message with no content in its place"),
        metadata={"description": "What the user says in this turn.", "confusable": ("input_messages",)})
    expected_output = ExpectedOutputField(metadata={"description": "The expected answer of this turn.",
                                                    "confusable": ("expected_messages", "output", "answer")})
    assertions = assertion_list("assertions", turn=True, metadata={
        "description": "The turn's graders: criteria strings or assertions.",
        "confusable": ("asserts", "graders", "checks", "rubric", "judge", "outcome", "expected_outcome")})


def turns_field() -> Items:
    """'turns': the loader reads a value that is no mapping as a turn with nothing in it, and fails on a null."""
    turn = Record(TurnSchema, "EV110", "a turn must be a mapping with 'input', {found}; the runner reads it as a turn "
                  "with nothing in it and sends a user message with no content",
                  null="a turn must be a mapping with 'input', found null; the loader fails on it and rejects the file")
    return Items(turn, "EV110", "'turns' must be a list of {{input, expected_output, assertions}}, {found}",
                 metadata={"description": "The turns of a conversation.", "yaml_only": True})
