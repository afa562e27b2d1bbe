"""EV1xx: suite and case structure, and the alias / shorthand forms of a case."""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Optional

from evallint.diagnostics import E, FIRST_KEY, KEY, W, Rule
from evallint.load.files import EVALCASES_NEAR_MISSES
from evallint.load.numbers import js_trim
from evallint.rules.common import Misplaced, Site, check_unknown_keys, execution_of, finding
from evallint.rules.evaluators import check_inline_rubric_text
from evallint.suggest import did_you_mean, found, one_of, quote

# the rules this module finds, explained in structure.md beside it
EV012 = Rule("EV012", "unknown-schema", W, "'$schema' is not a known AgentV schema id", generations=("2.2",))
EV101 = Rule("EV101", "missing-evalcases", E, "no 'evalcases' list")
EV102 = Rule("EV102", "case-not-mapping", E, "an 'evalcases' item is not a mapping")
EV103 = Rule("EV103", "invalid-case-id", E, "a case 'id' is missing, empty or not a string", fixable=True)
EV104 = Rule("EV104", "duplicate-case-id", E, "two cases share an 'id'")
EV105 = Rule("EV105", "missing-input", E, "a case has no input messages")
EV106 = Rule("EV106", "missing-expected-outcome", E, "a case has neither 'expected_outcome' nor 'outcome'")
EV107 = Rule("EV107", "invalid-expected-outcome", E, "'expected_outcome' is not a non-empty string")
EV108 = Rule("EV108", "alias-shadowed", E, "an alias and its canonical key are both present; the alias is ignored")
EV110 = Rule("EV110", "invalid-field-type", E, "a known field has the wrong type")
EV111 = Rule("EV111", "empty-evalcases", W, "'evalcases' is an empty list (or AgentV 4.42's tests, or a folder of tests or "
             "a subfolder of one, gives no test)")
EV112 = Rule("EV112", "invalid-input-shape", E, "'input' or 'expected_output' has a shape the shorthand does not accept")
EV113 = Rule("EV113", "evaluators-shadowed", E, "a list of evaluators the runner does not read because another takes its place")
EV114 = Rule("EV114", "unknown-evaluator-kind", E, "a suite- or case-level 'evaluator' is not an evaluator kind")
EV116 = Rule("EV116", "ignored-target", E, "a case's own target, or a root 'target' beside 'execution.target'")
EV117 = Rule("EV117", "description-not-text", W, "a 'description' that is not a string (the runner never reads it)")
EV118 = Rule("EV118", "graders-run-twice", W, "a JSONL dataset line's 'execution.evaluators', read both as its graders "
             "and as its default graders", generations=("4.42",))
EV119 = Rule("EV119", "template-without-assertions", E, "an assertion template with no 'assertions' list",
             generations=("4.42",))
EV121 = Rule("EV121", "conversation-setting-ignored", E, "a test's 'turns', 'aggregation', 'on_turn_failure' or "
             "'window_size' without 'mode: conversation', that mode without turns, a turn's 'expected_output' no "
             "grader of the turn reads, or a conversation test's 'criteria' that nothing grades",
             generations=("4.42",))
EV122 = Rule("EV122", "unknown-dependency", E, "a 'depends_on' id naming no test of the suite, the test itself, or "
             "closing a cycle, for which the run fails", generations=("4.42",))
EV123 = Rule("EV123", "workspace-env-ignored", E, "a workspace 'env' that the run never checks: the suite's when the "
             "first test has a workspace of its own, a test's beside the suite's or on a test but the first",
             generations=("4.42",))
EV124 = Rule("EV124", "hook-never-runs", E, "a workspace's 'before_all' or 'after_all' hook that the run never runs: "
             "a later test's when the tests share a workspace folder, the suite's that the first test's own replaces, "
             "and every 'after_all' when they share none; a target's hook when no test has a workspace",
             generations=("4.42",))
EV125 = Rule("EV125", "workspace-setting-ignored", E, "a later test's workspace 'template', 'isolation', 'mode', 'path' "
             "or 'repos' that the run never reads: the tests share the folder the first test's workspace sets up",
             generations=("4.42",))
EV126 = Rule("EV126", "artifact-folder-shared", W, "two test ids of a suite that name one artifact folder: equal once "
             "trimmed, with / \\ : * ? \" < > | made '_'", generations=("4.42",))
EV127 = Rule("EV127", "dependency-setting-unused", W, "a test's 'on_dependency_failure' without 'depends_on': it depends "
             "on no test, so the runner never reads it", generations=("4.42",))
EV128 = Rule("EV128", "repo-never-cloned", E, "a workspace repo without a 'repo' or a 'path', outside a Docker "
             "workspace: the runner never clones it", generations=("4.42",))
EV129 = Rule("EV129", "case-workspace-folder-unused", W, "a folder of tests' case whose own 'workspace' sets no "
             "'template' beside its subfolder's 'workspace' folder, which the runner then never uses", generations=("4.42",))
EV120 = Rule("EV120", "boolean-word", W, "a boolean written as a YAML 1.1 word ('yes', 'off'), as text ('false') or as 0 or "
             "1, which the runner reads as no boolean and replaces by its default, here what it says", generations=("4.42",),
             fixable=True)
EV130 = Rule("EV130", "default-in-another-case", W, "a setting's word in another case ('Mean', 'Skip'), which the runner "
             "does not read and replaces by its default, here what it says", generations=("4.42",))
EV131 = Rule("EV131", "trial-pass-not-threshold", W, "a threshold other than 0.8 beside trials under 'pass_at_k': the "
             "runner counts a trial as passed at 0.8, and stops at the first that passes", generations=("4.42",))
EV132 = Rule("EV132", "conversation-outside-run-limits", W, "a budget, a trials cost limit, 'fail_on_error' or a "
             "'depends_on' that never acts on a conversation test, whose cost and target errors the runner never sees",
             generations=("4.42",))
EV133 = Rule("EV133", "test-hook-changes-nothing", W, "a test's workspace hook of 'reset: none' alone, over the suite's "
             "hook with a command: merged key by key, it leaves the suite's command to run for the test",
             generations=("4.42",))
EV134 = Rule("EV134", "after-each-before-grading", W, "a workspace's 'after_each' hook beside a code-grader: the runner "
             "resets the workspace and runs the hook before it grades the answer", generations=("4.42",))

EVAL_SCHEMA = "agentv-eval-v2"
KNOWN_SCHEMAS = (EVAL_SCHEMA, "agentv-targets-v2.2", "agentv-config-v2")
# canonical key -> alias; the canonical key wins when both are present
ALIASES = (("expected_outcome", "outcome"), ("input_messages", "input"), ("expected_messages", "expected_output"))
# keys the runner reads one level up or down from where they are written (its loader reads a suite's
# 'evaluator', 'dataset', 'execution.target' and 'execution.evaluators', and a case's 'evaluator', 'rubrics',
# 'evaluators' and 'execution.evaluators')
_SUITE_EVALUATORS = Misplaced("under 'execution:' (as 'execution.evaluators')", list)
_CASE_RUBRICS = Misplaced("in an eval case (as the case's 'rubrics')", list)
MISPLACED_IN_SUITE = {"evaluators": _SUITE_EVALUATORS, "rubrics": _CASE_RUBRICS}
MISPLACED_IN_EXECUTION = {
    "evaluator": Misplaced("at the top level of the file (as 'evaluator')", str, default="llm_judge"),
    "dataset": Misplaced("at the top level of the file (as 'dataset')", str),
    "rubrics": _CASE_RUBRICS,
}
MISPLACED_IN_CASE_EXECUTION = {
    "evaluator": Misplaced("in the eval case itself (as the case's 'evaluator')", str),
    "rubrics": Misplaced("in the eval case itself (as the case's 'rubrics')", list),
}


def is_known_schema(value: Any) -> bool:
    return isinstance(value, str) and (value in KNOWN_SCHEMAS or value.startswith("agentv-targets-v2"))


def check_schema_id(data: dict) -> Iterator:
    """EV012: a '$schema' that is no known AgentV schema id."""
    if "$schema" in data and not is_known_schema(data["$schema"]):
        value = data["$schema"]
        yield finding("EV012", f"unknown '$schema' {quote(value)}{did_you_mean(value, KNOWN_SCHEMAS)}; known AgentV "
                      f"schema ids: {one_of(KNOWN_SCHEMAS)} (or another 'agentv-targets-v2*')", ("$schema",))


def check_suite(data: dict, place) -> Iterator:
    """EV012, unknown keys, EV117, EV116, EV111 and duplicate case ids (EV104); the target as a reference."""
    yield from check_schema_id(data)
    yield from check_unknown_keys(data, place.keys, (), "eval suite",
                                  skip=[k for k in data if k in EVALCASES_NEAR_MISSES], misplaced=MISPLACED_IN_SUITE)
    yield from check_description(data, (), "eval suite")
    if isinstance(data.get("target"), str):
        yield Site("target", data["target"], ("target",))
    yield from check_ignored_targets(data, place.sidecar)
    cases = data.get("evalcases")
    if cases == []:
        yield finding("EV111", "'evalcases' is an empty list; this suite runs nothing", ("evalcases",))
    if isinstance(cases, list):
        yield from check_duplicate_ids(cases)


def check_description(data: dict, at: tuple, where: str) -> Iterator:
    """EV117: a 'description' that is no string; the runner never reads it, so the run is the same."""
    if "description" in data and not isinstance(data["description"], str):
        yield finding("EV117", f"'description' in {where} should be a string, {found(data['description'])}; the "
                      "runner never reads it, so nothing changes in the run", at + ("description",))


def _target_name(value: Any) -> Optional[str]:
    """The target the runner uses for ``value``: trimmed, 'default' when empty; None for no string."""
    return (value.strip() or "default") if isinstance(value, str) else None


def check_ignored_targets(data: dict, sidecar: Optional[str]) -> Iterator:
    """EV116: a target the runner never reads, when it names another target than the one used: a root
    ``target`` beside ``execution.target``, and a case's own ``execution.target`` or ``target`` (the runner
    uses the suite's for every case). A case's ``target`` naming the suite's target is EV109: the run is the
    same. ``sidecar``: the sidecar file name of a JSONL dataset, which has no top level of its own."""
    execution = execution_of(data)
    used = _target_name(execution.get("target"))
    root = _target_name(data.get("target"))
    if used is not None and root is not None and root != used:
        yield finding("EV116", f"root 'target' {quote(data['target'])} is ignored: the runner uses 'execution.target' "
                      f"{quote(execution['target'])}; remove one of them", ("target",), KEY)
    used = used or root or "default"
    whole, setting = (("dataset", f"in its sidecar '{sidecar}'") if sidecar else ("suite", "at the top of the file"))
    cases = data.get("evalcases")
    for i, case in enumerate(cases if isinstance(cases, list) else ()):
        if not isinstance(case, dict):
            continue
        own = execution_of(case)
        for at, value in ((("execution", "target"), own.get("target")), (("target",), case.get("target"))):
            name = _target_name(value)
            if at == ("target",) and "target" in case and name in (None, used):
                same = f" (it names the {whole}'s target here, so the run is the same)" if name else ""
                yield finding("EV109", f"unknown key 'target' in eval case; the runner ignores a case's target{same}",
                              ("evalcases", i, "target"), KEY)
            elif name is not None and name != used:
                yield finding("EV116", f"a case's target {quote(value)} is ignored: the runner runs every case of the "
                              f"{whole} against the {whole}'s target '{used}'; set 'execution.target' {setting}, or "
                              f"move the case to a {whole} of its own", ("evalcases", i) + at, KEY)


def missing_cases(data: dict) -> tuple:
    """(message, data path, target) of EV101 for a suite without 'evalcases'."""
    near = [k for k in data if k in EVALCASES_NEAR_MISSES]
    if near:
        return (f"no 'evalcases' list: found '{near[0]}' (did you mean 'evalcases'?); the runner finds no cases in "
                "this file", near[0], KEY)
    return "no 'evalcases' list; the runner finds no cases in this file", "_schema", FIRST_KEY


OVERWRITE = "results of the two cases overwrite each other"  # what AgentV 2.2's runner does with a duplicate id
# what AgentV 4.42.4's run does with two tests of one id that the loader keeps (orchestrator.ts validateDependencyGraph)
DUPLICATE = "the run stops before any test runs ('Duplicate test ID')"


def check_duplicate_ids(cases: list, key: str = "evalcases", then: str = OVERWRITE, what: str = "case") -> Iterator:
    """EV104: a ``what`` id used before in ``cases`` (the list under ``key``); ``then``: what the runner does."""
    seen: dict = {}
    for i, case in enumerate(cases):
        cid = case.get("id") if isinstance(case, dict) else None
        if not isinstance(cid, str) or not cid:
            continue
        at = (key, i, "id")
        if cid in seen:
            yield finding("EV104", f"duplicate {what} id '{cid}' (first used on line {{ref_line}}); {then}", at,
                          ref=seen[cid])
        else:
            seen[cid] = at


# what the runner makes of a test id for the folder of its results (run-artifacts.ts safeArtifactPathSegment)
UNSAFE_IN_FOLDER = re.compile(r'[/\\:*?"<>|]')


def artifact_folder(test_id: str) -> str:
    """The folder the runner writes a test's results to, named after its id."""
    return UNSAFE_IN_FOLDER.sub("_", js_trim(test_id)) or "unknown"


SHARED_FOLDER = ("the runner keeps both tests, but writes each test's results to a folder named after its id, trimmed, "
                 "with / \\ : * ? \" < > | made '_', so one's overwrite the other's; give them ids that differ otherwise")


def check_artifact_folders(tests: list, key: str, kept: Callable[[Any], bool]) -> Iterator:
    """EV126: a test id of ``tests`` (the list under ``key``) that differs from an earlier one's but names the same
    artifact folder, among the tests the loader keeps (``kept``, asked of such tests only)."""
    by_folder: dict = {}
    for i, test in enumerate(tests):
        test_id = test.get("id") if isinstance(test, dict) else None
        if isinstance(test_id, str) and test_id:
            by_folder.setdefault(artifact_folder(test_id), []).append((i, test_id, test))
    for named in by_folder.values():
        if len({test_id for _, test_id, _ in named}) > 1:
            yield from _shared_folder([(i, test_id) for i, test_id, test in named if kept(test)], key)


def _shared_folder(named: list, key: str) -> Iterator:
    """EV126 for each (index, id) of ``named`` whose id differs from the first's: they name one artifact folder."""
    first_index, first = named[0] if named else (None, None)
    for i, test_id in named[1:]:
        if test_id != first:
            yield finding("EV126", f"test id {quote(test_id)} names the artifact folder of test {quote(first)} (line "
                          f"{{ref_line}}): {SHARED_FOLDER}", (key, i, "id"), ref=(key, first_index, "id"))


def check_execution(execution: dict, place) -> Iterator:
    """Unknown keys (what the runner reads elsewhere, as the suite's or the case's); the target as a
    reference."""
    misplaced = MISPLACED_IN_CASE_EXECUTION if place.at[:1] == ("evalcases",) else MISPLACED_IN_EXECUTION
    yield from check_unknown_keys(execution, place.keys, place.at, "execution", misplaced=misplaced)
    if isinstance(execution.get("target"), str):
        yield Site("target", execution["target"], place.at + ("target",))


def _evaluators_shadowed(case: dict) -> bool:
    """The case's 'evaluators' beside its 'execution.evaluators', which the runner reads instead."""
    execution = case.get("execution")
    return "evaluators" in case and isinstance(execution, dict) and "evaluators" in execution


def case_reads(case: dict) -> dict:
    """The case as the runner reads it: an alias beside its canonical key is not read, nor are shadowed
    'evaluators'."""
    ignored = {alias for canonical, alias in ALIASES if canonical in case and alias in case}
    if _evaluators_shadowed(case):
        ignored.add("evaluators")
    return {key: value for key, value in case.items() if key not in ignored} if ignored else case


def shadowed_alias(alias: str, key: str, at: tuple):
    """EV108 for ``alias`` written beside ``key``: the runner reads the key."""
    return finding("EV108", f"'{alias}' is ignored because '{key}' is also present; remove one of them",
                   at + (alias,), KEY)


def check_case(case: dict, place) -> Iterator:
    """Unknown keys, EV117, shadowed aliases (EV108) and evaluators (EV113), no input (EV105), inline rubric
    items read by their description only (EV361)."""
    at = place.at
    yield from check_unknown_keys(case, place.keys, at, "eval case", skip=("target",))  # EV116 or EV109
    yield from check_description(case, at, "eval case")
    for canonical, alias in ALIASES:
        if canonical in case and alias in case:
            yield shadowed_alias(alias, canonical, at)
    if "input_messages" not in case and "input" not in case:
        yield finding("EV105", "eval case has no 'input_messages' (or 'input'); there is nothing to send", at,
                      FIRST_KEY)
    if _evaluators_shadowed(case):
        yield finding("EV113", "'evaluators' is ignored because 'execution.evaluators' is also set on this case",
                      at + ("evaluators",), KEY)
    yield from check_inline_rubric_text(case, at)
