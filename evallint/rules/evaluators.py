"""EV3xx rules that need more than one field: names across a list, fields that
one mode ignores, composite weights naming members, references to files, and
the warnings. A single value's type, range and accepted values are declared
on the evaluator schemas (``format/agentv2/evaluators.py``), whose ``checks``
these functions are."""
from __future__ import annotations

import re
from typing import Any, Iterator, Optional

from evallint.diagnostics import E, FIRST_KEY, KEY, S, W, Rule
from evallint.load.environment import is_whole_reference
from evallint.rules import shellwords
from evallint.rules.common import (Site, check_unknown_keys, finding, is_finite_number, is_number, is_text, repeats,
                                   takes)
from evallint.rules.expected_fields import expected_data
from evallint.rules.grader_lists import (TEST_LISTS, default_graders, first_list, listed, members_of, normal_type,
                                         repeated_names, test_graders, value_at)
from evallint.rules.kept_tests import kept_by_loader
from evallint.rules.template_vars import FILLED_IN, render, variables
from evallint.suggest import all_of, did_you_mean, found, one_of, quote

# the rules this module finds, explained in evaluators.md beside it
EV301 = Rule("EV301", "unknown-evaluator-type", E, "an evaluator 'type' is missing or unknown")
EV302 = Rule("EV302", "evaluator-missing-name", E, "an evaluator has no 'name'")
EV303 = Rule("EV303", "duplicate-evaluator-name", E, "two evaluators in one list share a 'name'")
EV304 = Rule("EV304", "invalid-weight", E, "an evaluator 'weight' is not a finite number")
EV305 = Rule("EV305", "negative-weight", E, "an evaluator 'weight' is negative")
EV306 = Rule("EV306", "evaluator-not-mapping", E, "'evaluators' is not a list, or an item is not a mapping")
EV307 = Rule("EV307", "turn-grader-setting-unread", E, "a conversation turn's grader written in a form the runner reads "
             "only in a test's own assertions", generations=("4.42",))
EV308 = Rule("EV308", "zero-total-weight", E, "every grader of a test (or of a turn) weighs 0, so that the runner scores "
             "it 0 whatever the answer", generations=("4.42",))
EV309 = Rule("EV309", "constant-grader", W, "a grader whose settings decide its score whatever the answer: a blank "
             "'starts-with' value, an empty 'contains-any' item, a limit of .nan or .inf, a conversation's own 'contains' of "
             "its own words", generations=("4.42",))
EV310 = Rule("EV310", "invalid-trajectory-mode", E, "a tool_trajectory 'mode' is missing or unknown")
EV311 = Rule("EV311", "trajectory-missing-minimums", E, "'mode: any_order' without 'minimums'")
EV312 = Rule("EV312", "trajectory-missing-expected", E, "'mode: in_order'/'exact' without 'expected'")
EV313 = Rule("EV313", "invalid-minimums", E, "'minimums' is not a mapping of tool names to counts >= 0")
EV314 = Rule("EV314", "invalid-expected-tool", E, "an 'expected' tool entry is malformed")
EV315 = Rule("EV315", "trajectory-ignored-field", E, "a tool_trajectory field that the chosen mode ignores")
EV316 = Rule("EV316", "text-matched-as-written", W, "a text grader's value the runner matches as written where it looks "
             "like more: a trailing line break (a block scalar's), a regex literal with flags, a regex written for "
             "another engine ('\\Z', '[[:digit:]]')", generations=("4.42",))
EV317 = Rule("EV317", "custom-grader-setting-ignored", E, "a setting of a custom assertion type, which the runner does "
             "not give its grader", generations=("4.42",))
EV320 = Rule("EV320", "code-judge-missing-script", E, "a code_judge without 'script'")
EV321 = Rule("EV321", "code-judge-invalid-script", E, "a code_judge 'script' that is empty or of the wrong type")
EV322 = Rule("EV322", "code-judge-string-script", S, "a code_judge 'script' written as one shell string", fixable=True,
             generations=("2.2",))
EV323 = Rule("EV323", "invalid-target-access", E, "a code_judge 'target' that is neither true nor a mapping with max_calls >= 0")
EV330 = Rule("EV330", "composite-invalid-members", E, "a composite without a non-empty 'evaluators' list")
EV331 = Rule("EV331", "composite-invalid-aggregator", E, "a composite 'aggregator' that is missing or malformed")
EV332 = Rule("EV332", "composite-unknown-weight", E, "a weighted_average weight that names no member or is not a number >= 0")
EV333 = Rule("EV333", "composite-member-setting-ignored", E,
             "a composite member's setting that the runner does not apply to the member")
EV340 = Rule("EV340", "field-accuracy-invalid-fields", E, "field_accuracy 'fields' missing, empty or malformed")
EV341 = Rule("EV341", "field-invalid-match", E, "a field 'match' that is missing or unknown")
EV342 = Rule("EV342", "field-invalid-aggregation", E, "a field_accuracy 'aggregation' that is unknown")
EV343 = Rule("EV343", "field-missing-tolerance", W, "'match: numeric_tolerance' without a numeric 'tolerance' >= 0")
EV350 = Rule("EV350", "latency-invalid-threshold", E, "a latency evaluator without a 'threshold' >= 0")
EV351 = Rule("EV351", "cost-invalid-budget", E, "a cost evaluator without a 'budget' >= 0")
EV352 = Rule("EV352", "token-usage-invalid-limits", E, "a token_usage evaluator without valid limits")
EV360 = Rule("EV360", "rubric-missing-rubrics", E, "a rubric evaluator without a non-empty 'rubrics' list")
EV361 = Rule("EV361", "invalid-rubric-item", E, "a rubric item that is malformed")
EV362 = Rule("EV362", "duplicate-rubric-id", E, "two rubric items share an 'id'")
EV363 = Rule("EV363", "rubric-item-needs-full-marks", W, "a required rubric item without score bands in a list that has "
             "some: it fails the grader's verdict below 10/10", generations=("4.42",))

_SHELL_SYNTAX = re.compile(r"[|&;<>()$`\\\"'*?\[\]#~=%{}!\n]")


def check_names(items: Any, place) -> Iterator:
    """EV303: two evaluators of one list with the same (non-empty) name."""
    for at, name, first in repeated_names(items, place.at):
        if name:
            yield finding("EV303", f"duplicate evaluator name '{name}' (first used on line {{ref_line}}); "
                          "results are keyed by name, so one hides the other", at, ref=first)


def check_evaluator(ev: dict, place) -> Iterator:
    """EV302 for an evaluator without a name; unknown keys (for a kind whose other keys configure a script,
    near misses only; a key another kind reads says so)."""
    kind = place.schema.kind
    if "name" not in ev:
        this = f"this '{kind}' evaluator" if kind else "this evaluator"
        yield finding("EV302", "evaluator has no 'name'; the reference runner drops an evaluator without one, so "
                      f"{this} never runs", place.at, FIRST_KEY)
    if place.schema.open_keys:
        yield from check_unknown_keys(ev, place.keys, place.at, f"{kind} evaluator", report_unknown=False)
    elif kind:
        yield from check_unknown_keys(ev, place.keys, place.at, f"{kind} evaluator", elsewhere=place.schema.elsewhere,
                                      misplaced=place.schema.misplaced)


def check_keys(where: str, misplaced: Optional[dict] = None):
    """The check of a mapping inside an evaluator: its unknown keys, ``where`` naming it in messages; ``misplaced``:
    the keys the runner reads in another place (``check_unknown_keys``)."""
    def check(data: dict, place) -> Iterator:
        return check_unknown_keys(data, place.keys, place.at, where, misplaced=misplaced)
    return check


def check_prompt(ev: dict, place) -> Iterator:
    if isinstance(ev.get("prompt"), str):
        yield Site("prompt", ev["prompt"], place.at + ("prompt",))


def check_rubric_strings(ev: dict, place) -> Iterator:
    """EV361: a ``type: rubric`` evaluator reads only mapping items; the runner drops a string item, and skips
    the evaluator when none is left ("no valid rubrics found")."""
    items = ev.get("rubrics")
    for i, item in enumerate(items if isinstance(items, list) else ()):
        if is_text(item):  # an empty one is EV361 of the item itself
            yield finding("EV361", f"rubric item {quote(item)} is a string; a 'rubric' evaluator reads only mappings "
                          "with 'id' and 'description', so the runner drops it (write it as {id: ..., description: "
                          "...} or use type 'llm_judge', which takes strings)", place.at + ("rubrics", i))


def check_inline_rubric_text(case: dict, at: tuple) -> Iterator:
    """EV361: a case's inline rubric item is read by its 'description' only; one with 'expected_outcome' in its
    place is dropped by the runner."""
    items = case.get("rubrics")
    for i, item in enumerate(items if isinstance(items, list) else ()):
        if isinstance(item, dict) and "expected_outcome" in item and "description" not in item:
            yield finding("EV361", "inline rubric item has 'expected_outcome' but no 'description'; the runner reads "
                          "only 'description' here and drops the item (rename the key)",
                          at + ("rubrics", i, "expected_outcome"), KEY)


def check_rubric_ids(items: Any, place) -> Iterator:
    """EV362: two rubric items of one list with the same id."""
    for at, rid, first in repeats((place.at + (i, "id"), item["id"]) for i, item in
                                  enumerate(items if isinstance(items, list) else ())
                                  if isinstance(item, dict) and isinstance(item.get("id"), str)):
        yield finding("EV362", f"duplicate rubric id '{rid}' (first used on line {{ref_line}}); scores of the two items "
                      "are merged", at, ref=first)


def usable_script(script: Any) -> bool:
    if isinstance(script, str):
        return is_text(script)
    return isinstance(script, list) and bool(script) and all(is_text(token) for token in script)


def check_script(ev: dict, place) -> Iterator:
    """EV322 for a command string; the script and its folder as references."""
    at, script = place.at, ev.get("script")
    if is_text(script):
        plain = not _SHELL_SYNTAX.search(script) and len(script) <= shellwords.MAX_COMMAND
        fix = ("flow_list", shellwords.split(script)) if plain else None
        yield finding("EV322", f"code_judge 'script' {quote(script)} is one string, run through the platform shell "
                      "('sh -lc'); an argv list is portable and needs no quoting", at + ("script",), fix=fix)
    cwd = ev.get("cwd") if isinstance(ev.get("cwd"), str) else None
    if cwd is not None:
        yield Site("cwd", cwd, at + ("cwd",))
    if usable_script(script):
        yield Site("script", script, at + ("script",), {"cwd": cwd})


def check_trajectory(ev: dict, place, modes: tuple = ("any_order", "in_order", "exact"),
                     compared: tuple = ("expected",)) -> Iterator:
    """EV315 for what the mode does not read: the first of ``modes`` ('any_order') counts calls against
    'minimums', the others compare them with the ``compared`` settings."""
    mode = ev.get("mode")
    counting, comparing = modes[0], modes[1:]
    if "minimums" in ev and mode in comparing:
        yield finding("EV315", f"'minimums' is ignored by mode '{mode}'; it is read only by '{counting}'",
                      place.at + ("minimums",), KEY)
    for key in compared:
        if key in ev and mode == counting:
            yield finding("EV315", f"'{key}' is ignored by mode '{counting}'; it is read only by {all_of(comparing)}",
                          place.at + (key,), KEY)


# the settings AgentV 2.2 does not give a composite's member of each kind: it runs the member's llm_judge with
# its default prompt and no rubrics
MEMBER_IGNORED = {"llm_judge": ("prompt", "rubrics"), "rubric": ("rubrics",)}


def check_members(ev: dict, place) -> Iterator:
    """EV333 for a member's setting that the runner does not give it."""
    members = ev.get("evaluators")
    for i, member in enumerate(members if isinstance(members, list) else ()):
        kind = member.get("type") if isinstance(member, dict) else None
        for key in MEMBER_IGNORED.get(kind, ()) if isinstance(kind, str) else ():
            if key in member:
                yield finding("EV333", f"'{key}' of a composite member ({quote(kind)}) is not used: the runner "
                              "judges a member with the default prompt and no rubrics, since it gives a member none "
                              "of its settings", place.at + ("evaluators", i, key), KEY)


def check_weights(ev: dict, place) -> Iterator:
    """EV332 for an aggregator weight naming no member of the composite."""
    members, agg = ev.get("evaluators"), ev.get("aggregator")
    weights = agg.get("weights") if isinstance(agg, dict) else None
    if not (isinstance(members, list) and members and isinstance(weights, dict)):
        return
    names = {m.get("name") for m in members if isinstance(m, dict) and isinstance(m.get("name"), str)}
    names |= {m.get("type") for m in members if isinstance(m, dict) and "name" not in m
              and isinstance(m.get("type"), str)}
    known = sorted(n for n in names if isinstance(n, str))
    for name in weights:
        if name not in names:
            yield finding("EV332", f"weight for '{name}' names no member evaluator{did_you_mean(name, known)}; "
                          f"members: {one_of(known)}", place.at + ("aggregator", "weights", name), KEY)


def check_aggregator(agg: dict, place) -> Iterator:
    """Unknown keys; the aggregator's script or prompt as a reference."""
    yield from check_unknown_keys(agg, place.keys, place.at, "aggregator")
    kind = agg.get("type")
    if kind == "code_judge" and is_text(agg.get("path")):
        yield Site("script", agg["path"], place.at + ("path",), {"cwd": None})
    if kind == "llm_judge" and isinstance(agg.get("prompt"), str):
        yield Site("aggregator_prompt", agg["prompt"], place.at + ("prompt",))


# a field's settings that only one way of matching reads (graders/field-accuracy.ts)
MATCH_READS = {"tolerance": "numeric_tolerance", "relative": "numeric_tolerance", "formats": "date"}


def check_match_settings(spec: dict, place) -> Iterator:
    """EV115 for an AgentV 4.42 field's setting that its 'match' does not read."""
    match = spec.get("match")
    for key, reader in MATCH_READS.items() if "match" in spec and takes(place.schema, "match", match) else ():
        if spec.get(key) is not None and match != reader:
            yield finding("EV115", f"'{key}' is read only with 'match: {reader}': this field is compared with "
                          f"'match: {match}', so the runner ignores it", place.at + (key,), KEY)


def check_field_expectations(test: dict, place) -> Iterator:
    """EV340 for a field-accuracy grader of a test (its own, a composite's member, or the suite's default it gets)
    that has no 'expected_output', or one without expected fields: the grader reads the fields' expected values from
    the test's expected answer (graders/field-accuracy.ts), finds none, and scores 0. A conversation's graders read
    each turn's instead. A JSONL dataset line's defaults are its sidecar's, or its own 'execution''s."""
    written, dataset = test.get("expected_output"), place.schema.dataset
    expected = written if dataset else render(written, variables(test))  # the JSONL loader fills in no vars
    if test.get("mode") == "conversation" or expected is not None and expected_data(expected) is not None:
        return
    by_default = _grades_fields({"assertions": default_graders(place.document, test, dataset)})
    if _grades_fields(test):
        said = "the test has a field-accuracy grader"
    elif by_default and not dataset:
        said = "the test gets the suite's field-accuracy grader"
    elif by_default:
        own = isinstance(test.get("execution"), dict)  # a line's own 'execution' replaces its sidecar's
        said = "the line's 'execution' gives it a default field-accuracy grader" if own else \
            f"the line gets the field-accuracy grader of its sidecar '{place.sidecar}'"
    else:
        return
    if not kept_by_loader(test, dataset, place.document):  # a skipped test's graders never run (EV105, EV106 say why)
        return
    if expected is not None:
        filled = FILLED_IN if expected != written else ""
        yield finding("EV340", f"{filled}{said}, but its 'expected_output' holds no JSON of the expected fields: the grader "
                      "reads them from the last assistant message that holds JSON, finds none, and scores 0; give the "
                      "expected fields as a mapping (or as JSON text)", place.at + ("expected_output",))
        return
    yield finding("EV340", f"{said} but has no 'expected_output': the grader reads the fields' expected values from the "
                  "test's expected answer, finds none, and scores 0; give the test an 'expected_output' (the expected "
                  "fields, as JSON)", place.at, FIRST_KEY)


def check_total_weight(test: dict, place) -> Iterator:
    """EV308 for a test the loader keeps whose graders (its own and the suite's it gets) all weigh 0, and for a turn
    of a conversation whose graders do: the score is their weighted mean, which the runner makes 0 when the weights
    add up to 0 (orchestrator.ts computeWeightedMean), so the test fails whatever the answer. A grader without a
    weight weighs 1, a criteria string of the list too."""
    path = first_list(test, TEST_LISTS)
    own = value_at(test, path) if path else None  # where the finding goes: the test's own list, when it holds one
    dataset = place.schema.dataset
    graders = test_graders(place.document, test, dataset)
    if _weigh_nothing(graders) and kept_by_loader(test, dataset, place.document) and test.get("mode") != "conversation":
        yield finding("EV308", f"{_NOTHING.format('this test')}; give a grader a weight above 0",
                      place.at + (path if own else ()), KEY if own else FIRST_KEY)
    turns = test.get("turns") if test.get("mode") == "conversation" else None
    for i, turn in enumerate(turns if isinstance(turns, list) else ()):
        if isinstance(turn, dict) and _weigh_nothing(listed(turn.get("assertions"))):
            yield finding("EV308", f"{_NOTHING.format('this turn')}; give a grader a weight above 0",
                          place.at + ("turns", i, "assertions"), KEY)


_NOTHING = ("every grader of {} weighs 0: the runner scores it by their weighted mean, which it makes 0 when the weights "
            "add up to 0, so it fails whatever the answer")


def _weigh_nothing(graders: list) -> bool:
    return bool(graders) and all(isinstance(g, dict) and is_number(g.get("weight")) and g["weight"] == 0 for g in graders)


def _grades_fields(test: dict) -> bool:
    """Whether the grader list the loader reads of ``test`` holds a field-accuracy grader, or a composite of one."""
    path = first_list(test, TEST_LISTS)
    graders = value_at(test, path) if path else None
    stack = list(graders) if isinstance(graders, list) else []
    while stack:
        grader = stack.pop()
        if isinstance(grader, dict) and isinstance(grader.get("type"), str) and normal_type(grader["type"]) == \
                "field-accuracy":
            return True
        if isinstance(grader, dict) and grader.get("type") == "composite":
            stack += members_of(grader)[1]
    return False


def check_exploration(ev: dict, place) -> Iterator:
    """EV115 for an AgentV 4.42 execution-metrics 'exploration_tolerance' without 'target_exploration_ratio': the
    grader reads the tolerance only to compare the run's ratio with that one (graders/execution-metrics.ts); EV352
    for a target ratio above 1 by more than the tolerance (0.2 by default), which the run's ratio, a share from 0 to
    1, never comes within."""
    target = next((key for key in ("target_exploration_ratio", "targetExplorationRatio") if ev.get(key) is not None),
                  None)
    for key in ("exploration_tolerance", "explorationTolerance"):
        if ev.get(key) is not None and target is None:
            yield finding("EV115", f"'{key}' is read only with 'target_exploration_ratio': without it the runner "
                          "checks no exploration ratio, so it ignores the tolerance", place.at + (key,), KEY)
    tolerance = next((ev[key] for key in ("exploration_tolerance", "explorationTolerance") if key in ev), 0.2)
    if target is not None and is_finite_number(ev[target]) and is_finite_number(tolerance) \
            and ev[target] - tolerance > 1:
        yield finding("EV352", f"'{target}' is {ev[target]}, but the run's exploration ratio is a share from 0 to 1, "
                      f"never within {tolerance} of it: the grader fails whatever the agent does; write a share "
                      f"such as {min(ev[target] / 100, 1):g}", place.at + (target,))


def check_field(spec: dict, place) -> Iterator:
    """Unknown keys; EV343: ``match: numeric_tolerance`` without a usable tolerance."""
    yield from check_unknown_keys(spec, place.keys, place.at, "field")
    if spec.get("match") != "numeric_tolerance":
        return
    tolerance = spec.get("tolerance")
    if "tolerance" not in spec:
        yield finding("EV343", "'match: numeric_tolerance' needs a numeric 'tolerance' >= 0; this field has none",
                      place.at, FIRST_KEY)
    elif not (is_finite_number(tolerance) and tolerance >= 0 or is_whole_reference(tolerance)):
        yield finding("EV343", "'tolerance' must be a finite number >= 0 for 'match: numeric_tolerance', "
                      f"{found(tolerance)}", place.at + ("tolerance",))
