"""The checks of AgentV 4.42 suites that need more than one value (``format/agentv4/``): unknown and
misspelt keys, deprecated aliases and what shadows them, tests the loader skips as incomplete, composite
members it drops, keys it rejects as removed. The 2.2 generation's codes are kept for the same mistakes:
EV108 an alias beside the key the runner reads instead, EV109 a key it does not read (and a deprecated
alias it reads with a warning), EV113 a grader list that another one shadows, EV115 a key written for
one it reads (and a removed key it rejects)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator, Optional

from evallint.diagnostics import FIRST_KEY, KEY, VALUE
from evallint.load.case_files import FILE_PREFIX
from evallint.load.environment import is_whole_reference
from evallint.rules import input_files, suite_metadata
from evallint.rules.assertion_settings import custom_settings, misread_settings
from evallint.rules.common import Site, check_unknown_keys, finding, is_text
from evallint.rules.grader_lists import (MEMBER_LISTS, TEST_LISTS, erased, in_turn, is_include, line_defaults,
                                         member_names, member_problems, members_of, shadowed, suite_lists, value_at)
from evallint.rules.grading_targets import run_targets_key, suite_target_names
from evallint.rules.hook_runs import replacing
from evallint.rules.kept_tests import first_test, gradable, graded_by_nothing, kept_by_loader, kept_where_twice
from evallint.rules.structure import DUPLICATE, check_artifact_folders, check_duplicate_ids, shadowed_alias
from evallint.rules.template_vars import filled
from evallint.rules.shared_setup import setup_role
from evallint.rules.workspace_kept import command_of, env_unchecked, inline_hooks, runs_on
from evallint.suggest import all_of, near_misses, quote


# the key the loader reads, then its deprecated spellings in the order it falls back to them (`tests ?? eval_cases ??
# evalcases`), warning about one read without the key
SUITE_ALIASES = (("tests", "eval_cases", "evalcases"),)
TEST_ALIASES = (("criteria", "expected_outcome"),)
REMOVED = {"total_budget_usd": "budget_usd", "totalBudgetUsd": "budget_usd"}
# what the runner does without a file or folder a suite names (the end of the finding's message)
REJECTS = "the runner rejects the suite"


def deprecated_aliases(data: dict, at: tuple, aliases: tuple, where: str) -> Iterator:
    """Of each chain of ``aliases`` (a key, then its deprecated spellings in the order the loader falls back to them):
    EV108 for a spelling beside an earlier one set, which the loader reads; EV109 for one without the key (the loader
    warns); none beside a null key, which the loader reads as absent (`key ?? alias`) without a warning."""
    for canonical, *later in aliases:
        for n, alias in enumerate(later, 1):
            if alias not in data:
                continue
            before = next((key for key in (canonical, *later[:n - 1]) if data.get(key) is not None), None)
            if before is not None:
                yield shadowed_alias(alias, before, at)
            elif canonical not in data:
                yield finding("EV109", f"'{alias}' in {where} is deprecated (the runner warns); write '{canonical}'",
                              at + (alias,), KEY)


def check_suite(data: dict, place) -> Iterator:
    """Unknown keys, deprecated aliases, shadowed default graders, metadata the loader rejects, its tests."""
    keys = place.keys
    if isinstance(data.get("name"), str):  # then the loader reads the suite's metadata: a near miss drops it
        keys = replace(keys, read=keys.read + suite_metadata.METADATA)
    yield from check_unknown_keys(data, keys, (), "eval suite", skip=near_tests(data), notes={
        "evaluators": " (the runner reads a suite's default graders from 'assertions')"})
    yield from deprecated_aliases(data, (), SUITE_ALIASES, "eval suite")
    if "assert" in data and "assertions" not in data:
        yield finding("EV109", "'assert' at the top level is deprecated (the runner warns); write 'assertions'",
                      ("assert",), KEY)
    yield from shadowed(data, (), suite_lists(data))
    yield from erased(data)
    yield from suite_metadata.check_metadata(data)
    if isinstance(data.get("target"), str):
        yield Site("target", data["target"], ("target",), runs_on(data, "target"))
    elif run_targets_key(data) is None and isinstance(data.get("tests"), (list, str)):
        yield Site("default_target", "default", ())  # the name the agentv command uses, written nowhere
    yield from _tests(data, place)
    yield from workspace_file(data, (), data)


def _tests(data: dict, place) -> Iterator:
    """An empty list of tests, duplicate test ids, the tests' targets, the files of tests the suite names."""
    key = next((k for k in ("tests", "eval_cases", "evalcases") if k in data), "tests")
    tests = data.get(key)
    if tests == []:
        yield finding("EV111", f"'{key}' is an empty list; this suite runs nothing", (key,))
    if isinstance(tests, list):
        yield from check_duplicate_ids(kept_where_twice(tests, data), key, DUPLICATE, "test")
        yield from check_artifact_folders(tests, key, lambda test: kept_by_loader(test, suite=data))
        yield from check_test_targets(data, tests, key)
        yield from () if getattr(place.schema, "of_file", False) else _file_items(tests, key, data)
    if isinstance(tests, str) and tests.startswith(FILE_PREFIX):
        yield finding("EV401", f"'{key}' names a path as written, not a 'file://' reference: the runner looks for "
                      f"{quote(tests)} and does not find it; {REJECTS}; write {quote(tests[len(FILE_PREFIX):])}", (key,))
    elif isinstance(tests, str) and tests.strip():  # a file or folder of tests ('cases': of case files)
        yield Site("local_file", tests, (key,), {"what": "file of tests", "folder": True, "cases": True, "then": REJECTS,
                                                 "tests_file": True, "suite": data})


def _file_items(tests: list, key: str, suite: dict) -> Iterator:
    """The 'file://' items of a suite's tests (a file of tests' are EV102), files the runner reads, each with the id
    and place of each test of the list it keeps (of the suite's mapping ``suite``), which the files' tests must not
    share (EV104), and the suite, whose input files decide which of the files' tests it keeps."""
    items = [(at, item) for at, item in enumerate_at(tests, key) if isinstance(item, str) and item.startswith(FILE_PREFIX)]
    ids = tuple((test["id"], (key, i, "id")) for i, test in enumerate(tests if items else ())
                if isinstance(test, dict) and isinstance(test.get("id"), str) and kept_by_loader(test, suite=suite))
    for at, item in items:
        yield Site("local_file", item[len(FILE_PREFIX):], at, {"what": "file of tests", "then": REJECTS, "glob": True,
                                                               "file_item": True, "tests_file": True, "ids": ids,
                                                               "suite": suite})


def workspace_file(data: dict, at: tuple, document) -> Iterator:
    """A workspace written as the path of a file that sets it, which the loader reads (a blank one is no file:
    EV110); with why the run never checks the 'env' it sets, if it does not (``env_unchecked``: ``document`` is
    the suite)."""
    if isinstance(data.get("workspace"), str) and data["workspace"].strip():
        merged = {"inherited": _inherited_cwds(document, at)} if at else \
            {"replacing": replacing(first_test(document.get("tests"), document))}
        yield Site("local_file", data["workspace"], at + ("workspace",), {"what": "workspace file", "then": REJECTS,
                                                                          "workspace": True,
                                                                          "env_unchecked": env_unchecked(document, at),
                                                                          **merged, **setup_role(document, at)})
    elif isinstance(data.get("workspace"), str) and not is_whole_reference(data["workspace"]):
        yield finding("EV110", f"'workspace' {quote(data['workspace'])} names no workspace file; {REJECTS} (write "
                      "the workspace's settings, or leave 'workspace' out)", at + ("workspace",))


def enumerate_at(items: Any, key: str) -> list:
    """(data path, item) of each item of the list under ``key``."""
    return [((key, i), item) for i, item in enumerate(items)] if isinstance(items, list) else []


def _target_name(value: Any) -> Any:
    return value.strip() if isinstance(value, str) and value.strip() else None


def test_target_key(execution: dict) -> Any:
    """The key of a test's execution that names its own target: 'target', or a near miss of it holding a name
    (the runner reads neither; a name is no list of 'targets')."""
    return next((k for k in execution if k == "target" or (isinstance(k, str) and k != "targets"
                                                            and isinstance(execution[k], str)
                                                            and near_misses(k, ("target",)))), None)


def check_test_targets(data: dict, tests: list, key: str) -> Iterator:
    """A test's 'execution.target' (or 'Target'), which the loader does not read: EV116 when it names another
    target than the suite's, else EV109 (the run is the same); a test's 'execution.targets' (``_test_targets``)."""
    suite = suite_target_names(data)
    used = (suite[0] if len(suite) == 1 else None) or _target_name(value_at(data, ("execution", "target"))) \
        or _target_name(data.get("target")) or "default"
    for i, test in enumerate(tests):
        execution = test.get("execution") if isinstance(test, dict) else None
        if isinstance(execution, dict):
            yield from _test_targets(execution.get("targets"), suite, used, (key, i, "execution", "targets"))
        name = test_target_key(execution) if isinstance(execution, dict) else None
        if name is None:
            continue
        at = (key, i, "execution", name)
        if _target_name(execution[name]) in (None, used):
            meant = "" if name == "target" else " (did you mean 'target'?)"
            yield finding("EV109", f"unknown key '{name}' in a test's execution{meant}; the runner ignores a test's "
                          "target (it names the suite's target here, so the run is the same)", at, KEY)
        else:
            yield finding("EV116", f"a test's 'execution.{name}' {quote(execution[name])} is ignored: the runner "
                          f"runs every test against the suite's target '{used}' (a test may list "
                          "'execution.targets' of a suite that runs on several)", at, KEY)


def _test_targets(names: Any, suite: list, used: str, at: tuple) -> Iterator:
    """EV116 for a test's 'execution.targets' the run does not follow (apps/cli run-eval.ts): with several suite
    targets, it runs the test on those of them the list names, never on another; with one (or none: 'execution.target',
    'default'), it runs every test on it, whatever the list says. The command line's --target stands for the suite's."""
    if not (isinstance(names, list) and names) or not all(isinstance(name, str) for name in names):
        return
    if len(suite) < 2:
        if any(name.strip() != used for name in names):
            yield finding("EV116", f"a test's 'execution.targets' is ignored: the runner reads it only when the suite "
                          f"runs on several targets ('execution.targets'), and runs this test on the suite's target "
                          f"'{used}'", at, KEY)
        return
    kept = [name for name in names if name.strip() in suite]
    for j, name in enumerate(names):
        if name.strip() not in suite:
            never = "" if kept else "; it never runs this test"
            yield finding("EV116", f"target {quote(name)} is none of the suite's targets ({all_of(suite)}): the runner "
                          f"runs a test only on the suite's targets its 'targets' names{never}", at + (j,))


def _inherited_cwds(document, at: tuple) -> dict:
    """hook name -> the 'cwd' of the suite's inline hook of that name (with a command), which a test's workspace file
    hook without a 'cwd' takes (yaml-parser.ts mergeWorkspaceConfigs), when ``at`` is a test's; {} otherwise."""
    return {name: hook["cwd"] for name, hook in (inline_hooks(document).items() if at else ())
            if isinstance(hook, dict) and is_text(hook.get("cwd")) and command_of(hook) is not None}


def near_tests(data: dict) -> list:
    """The keys of a suite without tests that are near misses of 'tests' (EV101 says which)."""
    if any(key in data for key in ("tests", "eval_cases", "evalcases")):
        return []
    return [key for key in data if isinstance(key, str) and near_misses(key, ("tests",))]


def check_execution(execution: dict, place, misplaced: Optional[dict] = None) -> Iterator:
    """Unknown keys (``misplaced``: those a test's 'execution' reads), removed keys (the loader rejects the file),
    the target as a reference."""
    for key, new in REMOVED.items():
        if key in execution:
            yield finding("EV115", f"'{key}' is a removed key and the runner rejects the file; write '{new}'",
                          place.at + (key,), KEY)
    yield from check_unknown_keys(execution, place.keys, place.at, "execution", skip=tuple(REMOVED), misplaced=misplaced)
    if isinstance(execution.get("target"), str):
        yield Site("target", execution["target"], place.at + ("target",), runs_on(place.document, "execution.target"))


def check_test_execution(execution: dict, place, misplaced: Optional[dict] = None) -> Iterator:
    """Unknown keys (``misplaced``: those only the suite's 'execution' reads; a target of the test's own, written in
    any case, is ``check_test_targets``')."""
    yield from check_unknown_keys(execution, place.keys, place.at, "a test's execution",
                                  skip=(test_target_key(execution),), misplaced=misplaced)


def check_test(test: dict, place) -> Iterator:
    """Unknown keys, deprecated aliases, shadowed grader lists, and what makes the loader skip the test as
    incomplete: no input (EV105), nothing to grade by (EV106)."""
    at = place.at
    yield from check_unknown_keys(test, place.keys, at, "test", instead={
        "description": ": the runner does not read a test's description; put it in the test's 'metadata' or a comment"})
    yield from workspace_file(test, at, place.document)
    dataset = place.schema.dataset
    rendered = test if dataset else filled(test)  # a dataset line's vars are not read
    yield from input_files.check(rendered, at)
    # an empty criteria (or one that is no string) is passed over for 'expected_outcome', which the runner reads
    reads_criteria = isinstance(test.get("criteria"), str) and test["criteria"] != ""
    yield from deprecated_aliases(test if reads_criteria else {k: v for k, v in test.items() if k != "criteria"}, at,
                        TEST_ALIASES, "a test")
    yield from shadowed(test, at, TEST_LISTS, line_defaults(test) if dataset else None)
    yield from _no_input(test, rendered, at)
    empty = graded_by_nothing(rendered, place.document, dataset) if "input" in test else None
    if not (gradable(test, dataset) and gradable(rendered, dataset)):
        yield _nothing_to_grade(test, rendered, at, dataset)
    elif empty is not None:
        yield _graded_by_nothing(empty, at)


def _graded_by_nothing(empty: tuple, at: tuple):
    """EV106: what the test is graded by, at ``empty``, is empty (``kept_tests.graded_by_nothing``)."""
    key = empty[-1]
    said = {"criteria": "'criteria' is blank", "expected_outcome": "'expected_outcome' is blank",
            "expected_output": "'expected_output' is empty"}
    what = f"{said[key]} and the test has nothing else to grade it by (graders, criteria, an expected answer)" \
        if key in said else \
        "test has no 'criteria' or 'expected_output', and its grader list is empty"
    return finding("EV106", f"{what}: the runner keeps it, but grades it with its default llm-grader against empty "
                   "criteria, so its score means nothing; add criteria or graders", at + empty,
                   VALUE if key in said else KEY)


# what the runner reads of a test only in conversation mode (orchestrator.ts runConversationMode)
CONVERSATION = ("turns", "aggregation", "on_turn_failure", "window_size")


def check_conversation(test: dict, place) -> Iterator:
    """EV121 for each conversation setting of a test without 'mode' (a mode that is no mode is EV110), and for
    'mode: conversation' without turns, in a test the loader keeps (orchestrator.ts plays the turns only when both
    are there): the runner runs the test once, on its input alone."""
    read = filled(test)
    if read.get("mode") == "conversation" and read.get("turns") in (None, []) \
            and gradable(read, place.schema.dataset):
        yield finding("EV121", "'mode: conversation' is ignored without turns: the runner runs the test once, on its "
                      "input alone; add its 'turns'", place.at + ("mode",))
    if read.get("mode") is not None:
        return
    for key in CONVERSATION:
        if test.get(key) not in (None, []):  # no turn: the test runs the same in either mode
            dropped = ", and drops every turn and its assertions" if key == "turns" else ""
            yield finding("EV121", f"'{key}' is ignored without 'mode: conversation': the runner runs the test once, on "
                          f"its input alone{dropped}; add 'mode: conversation'", place.at + (key,), KEY)


def _no_input(test: dict, rendered: dict, at: tuple) -> Iterator:
    """EV105: no input the loader reads, as written or once the test's vars are filled in (``rendered``)."""
    if "input" not in test:
        yield finding("EV105", "test has no 'input'; the runner skips it (the suite's input does not count)", at,
                      FIRST_KEY)
    elif input_files.no_paths(rendered.get("input_files")):
        yield finding("EV105", "'input_files' names no file, so the runner finds no input and skips this test; remove "
                      "it or name the files", at + ("input_files",))
    elif rendered.get("input_files") is not None and not isinstance(rendered["input"], str):  # null: the suite's
        filled_in = "" if not isinstance(test["input"], str) else \
            f"once its vars are filled in, 'input' {quote(test['input'])} is no longer a string, and "
        yield finding("EV105", f"{filled_in}with 'input_files', the runner reads only a string 'input' and skips this "
                      "test (put the files in the messages as 'type: file' blocks instead)", at + ("input",))


def _nothing_to_grade(test: dict, rendered: dict, at: tuple, dataset: bool):
    """EV106 for a test the loader finds nothing to grade by (``gradable``), as written or once its vars are
    filled in (``rendered``)."""
    if not dataset and gradable(test):
        changed = [f"'{key}' {quote(test[key])} becomes {quote(rendered[key])}" for key in
                   ("criteria", "expected_outcome", "expected_output") if rendered.get(key) != test.get(key)]
        return finding("EV106", "once its vars are filled in, the test has no 'criteria', 'expected_output', "
                       f"'assertions' or 'turns' ({', '.join(changed)}); the runner skips it as incomplete", at,
                       FIRST_KEY)
    if not dataset:
        return finding("EV106", "test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the runner skips "
                       "it as incomplete", at, FIRST_KEY)
    if "assertions" in test:
        return finding("EV106", "a dataset line's 'assertions' do not count: in a JSONL line the runner needs "
                       "'criteria', 'expected_output' or an 'assert' key, and skips this line as incomplete; write "
                       "'assert' instead of 'assertions'", at + ("assertions",), KEY)
    return finding("EV106", "dataset line has no 'criteria', 'expected_output' or 'assert'; the runner skips it "
                   "as incomplete", at, FIRST_KEY)


def check_assertion(ev: dict, place) -> Iterator:
    """Unknown keys (for a kind that carries its other keys to the grader, near misses only; a key another
    kind reads says so; one asking for what the grader does not do, ``misread_settings``); a code-grader's
    deprecated 'script'."""
    schema = place.schema
    where = f"{schema.kind or 'custom'} assertion"
    misread = dict(misread_settings(ev, schema, place.at))
    yield from misread.values()
    included = ("include",) if "include" in ev and not in_turn(place) else ()  # beside other keys: check_include's
    skip = tuple(misread) + included
    if schema.open_keys and not schema.kind:  # a custom type: the runner gives its script no configuration
        yield from check_unknown_keys(ev, place.keys, place.at, where, report_unknown=False, skip=skip)
        yield from custom_settings(ev, place.keys, place.at, skip)
    elif schema.open_keys:
        yield from check_unknown_keys(ev, place.keys, place.at, where, report_unknown=False, carried=True, skip=skip)
    elif schema.kind:
        yield from check_unknown_keys(ev, place.keys, place.at, where, elsewhere=schema.elsewhere, skip=skip)
    if schema.kind == "code-grader":
        yield from deprecated_aliases(ev, place.at, (("command", "script"),), "a code-grader")


def check_members(ev: dict, place) -> Iterator:
    """A composite member the loader drops: one without a string 'name' (EV302), or whose 'type' is not a
    built-in kind as written (EV301; a near miss of one is reported by the member's own type); a members list
    it does not read because an earlier one is set (EV113); a member named as an earlier one, whose result an
    aggregator that reads the results by name takes in place of the earlier one's (EV303)."""
    yield from shadowed(ev, place.at, MEMBER_LISTS)
    key, members = members_of(ev)
    for i, member in enumerate(members):
        if not isinstance(member, dict) or is_include(member):
            continue  # a member that is no mapping is the member field's own finding
        at = place.at + (key, i)
        for code, message, about in member_problems(member, place.schema.kinds, place.schema.misspelt):
            yield finding(code, message, *((at, FIRST_KEY) if about is None else (at + (about,),)))
    yield from member_names(ev.get("aggregator"), members, place.at + (key,))


def required_by_default(item: dict) -> bool:
    """Whether the runner makes a rubric item required when its 'required' is absent or no boolean: a checklist
    item, without 'score_ranges', is; an item with score bands is not."""
    return "score_ranges" not in item


def check_rubric_item_keys(item: dict, place) -> Iterator:
    """Unknown keys of a rubric item; the runner defaults 'required' to true only for a checklist item
    (``required_by_default``)."""
    keys = place.keys
    if not required_by_default(item):
        keys = replace(keys, default={k: v for k, v in keys.default.items() if k != "required"})
    return check_unknown_keys(item, keys, place.at, "rubric item")
