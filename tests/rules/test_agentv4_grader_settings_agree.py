"""A 4.42 grader's own settings that AgentV's examples do not use (a preprocessor's command file, a test's own
deprecated rubrics, prompts and their variables, targets, limits, what the loader merges or drops), and the settings
it reads only beside another, checked against what AgentV 4.42.4's loader and runner make of the same file."""
from __future__ import annotations

import subprocess

import pytest

from agentv_runner import HERE, load_tests, require_runner, run_suite
from agreement import one_grader_suite, run_written, scores_of, write_suite
from clirun import run_concise


PREPROCESSORS = ("preprocessors:\n"
                 "  - {type: xlsx, command: [python, scripts/gone.py]}\n"
                 "tests:\n"
                 "  - id: a\n"
                 "    input: q\n"
                 "    criteria: c\n"
                 "    assertions:\n"
                 "      - type: llm-grader\n"
                 "        preprocessors: [{type: pdf, command: [python, scripts/missing.py]}]\n")


def test_a_preprocessor_whose_command_file_is_missing_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, PREPROCESSORS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:36: EV408 [error] preprocessor command file 'scripts/gone.py' not found (looked in: ./); the "
        "runner rejects the file\n"
        "a.eval.yaml:9:55: EV408 [error] preprocessor command file 'scripts/missing.py' not found (looked in: ./); "
        "the runner skips the test\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_the_file_or_skips_the_test_without_a_preprocessor_file(tmp_path):
    write_suite(tmp_path, PREPROCESSORS)
    assert load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["error"] == (
        "Grader '<suite>' in 'a.eval.yaml': preprocessor command file not found: scripts/gone.py")
    (tmp_path / "a.eval.yaml").write_text("tests:\n" + PREPROCESSORS.split("tests:\n")[1])
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["tests"], loaded["logs"]) == ([], [
        "Error: Skipping test 'a': Grader 'llm-grader' in 'a': preprocessor command file not found: "
        "scripts/missing.py"])


APPLIED = ("tests:\n"
           "  - id: a\n"
           "    input: q\n"
           "    assertions:\n"
           "      - {type: contains, value: x, preprocessors: [{type: xlsx, command: [sh, p.sh]}]}\n"
           "      - {type: code-grader, command: [python3, c.py], preprocessors: [{type: xlsx, command: [sh, p.sh]}]}\n"
           "      - {type: rubrics, criteria: [totals], preprocessors: [{type: xlsx, command: [sh, p.sh]}]}\n"
           "  - id: b\n"
           "    input: q\n"
           "    assertions: [{type: is-json, preprocessors: null}]\n"
           "  - id: c\n"
           "    input: q\n"
           "    criteria: c\n"
           "    assertions: [{type: code_judge, command: [python3, c.py], preprocessors: 7}]\n")


def test_preprocessors_that_no_grader_applies_are_errors(tmp_path):
    """Only an llm-grader (rubrics are one) applies preprocessors (graders/llm-grader.ts); a code-grader keeps them
    unread (graders/code-grader.ts does not read them), a contains drops them (below). The loader reads every
    kind's, so one it cannot run still skips the test, but not those of an assertion it drops first (a deprecated
    type)."""
    not_applied = ("assertion are not applied: the runner converts attached files only for an llm-grader or rubrics "
                   "(and the suite's default grader), so this grader gets them unconverted (it still skips the test on "
                   "a preprocessor it cannot run)")
    assert run_concise(write_suite(tmp_path, APPLIED, (("p.sh", "cat\n"), ("c.py", "print(1)\n"))), "--no-cache",
                       "a.eval.yaml") == (1, (
        f"a.eval.yaml:5:36: EV115 [error] 'preprocessors' in contains {not_applied}\n"
        f"a.eval.yaml:6:55: EV115 [error] 'preprocessors' in code-grader {not_applied}\n"
        "a.eval.yaml:10:49: EV110 [error] 'preprocessors' of an assertion must be a list of mappings with 'type' and "
        "'command', found null; the runner skips the test\n"
        "a.eval.yaml:14:25: EV301 [error] assertion type 'code_judge' is deprecated and the runner drops the assertion; "
        "use 'code-grader'\n"), "")


@pytest.mark.runner
def test_the_loader_keeps_preprocessors_for_a_code_grader_and_an_llm_grader_only(tmp_path):
    loaded = load_tests(write_suite(tmp_path, APPLIED, (("p.sh", "cat\n"),)), ["a.eval.yaml"])["a.eval.yaml"]
    test = loaded["tests"][0]
    assert [(grader["type"], "preprocessors" in grader) for grader in test["assertions"]] == [
        ("contains", False), ("code-grader", True), ("llm-grader", True)]
    assert loaded["logs"][0] == "Error: Skipping test 'b': Grader 'is-json' in 'b': preprocessors must be an array"
    assert [test["id"] for test in loaded["tests"]] == ["a", "c"]


INLINE_RUBRICS = ("tests:\n"
                  "  - id: t\n"
                  "    input: q\n"
                  "    criteria: c\n"
                  "    rubrics:\n"
                  "      - {id: a, criteria: via criteria}\n"
                  "      - {id: b, outcome: o, score_ranges: [{score_range: [0, 3], outcome: low}]}\n"
                  "      - {id: c, outcome: o2, min_score: 5}\n")


def test_a_tests_own_rubrics_are_read_as_the_runner_reads_them(tmp_path):
    """A test's own 'rubrics' read 'outcome' only (an item with 'criteria' instead is dropped), and their score
    bands and scores unchecked (the runner keeps the test)."""
    assert run_concise(write_suite(tmp_path, INLINE_RUBRICS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:10: EV361 [error] rubric item has no 'outcome' (or 'score_ranges') (a test's own 'rubrics' read "
        "'outcome', not 'criteria'); the runner drops it\n"
        "a.eval.yaml:6:17: EV109 [warning] unknown key 'criteria' in rubric item (known keys: id, min_score, operator, "
        "outcome, required, required_min_score, score_ranges, weight)\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_a_tests_own_rubrics_unchecked_but_drops_one_without_outcome(tmp_path):
    loaded = load_tests(write_suite(tmp_path, INLINE_RUBRICS), ["a.eval.yaml"])["a.eval.yaml"]
    assert [[item["id"] for item in grader["rubrics"]] for test in loaded["tests"]
            for grader in test["assertions"]] == [["b", "c"]]


DROPPED_SETTINGS = ("tests:\n"
                    "  - id: t\n"
                    "    input: q\n"
                    "    criteria: c\n"
                    "    assertions:\n"
                    "      - type: llm-grader\n"
                    "        prompt: Grade it\n"
                    "        rubrics: [\"mentions the refund\", {outcome: polite}]\n"
                    "        model: gpt-4o\n"
                    "        max_steps: 80\n"
                    "        temperature: 2.5\n"
                    "      - {type: contains-any, value: [a, 1]}\n"
                    "      - \"   \"\n"
                    "      - type: field-accuracy\n"
                    "        fields:\n"
                    "          - {path: c, match: date, formats: \"YYYY-MM-DD\"}\n"
                    "          - {path: d, match: date, formats: [1, \"YYYY\"]}\n"
                    "    expected_output: {c: '2026-01-01', d: '2026'}\n")


def test_a_grader_setting_the_loader_drops_is_an_error(tmp_path):
    """A string among an llm-grader's rubrics, its 'model', a step count or temperature out of range, a value of
    contains-any that is no string, a blank criterion, date formats that are no list of strings."""
    assert run_concise(write_suite(tmp_path, DROPPED_SETTINGS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:8:19: EV361 [error] a rubric item must be a mapping with 'outcome' (not a string), found "
        "'mentions the refund'; the runner drops it\n"
        "a.eval.yaml:9:9: EV115 [error] 'model' in llm-grader is not read: the runner grades with the model of the "
        "grader's target, so what it holds is dropped; name a target of that model in 'target'\n"
        "a.eval.yaml:10:20: EV110 [error] 'max_steps' in llm-grader must be an integer from 1 to 50, found 80 (a "
        "number); the runner ignores it\n"
        "a.eval.yaml:11:22: EV110 [error] 'temperature' in llm-grader must be a number from 0 to 2, found 2.5 (a "
        "number); the runner ignores it\n"
        "a.eval.yaml:12:41: EV110 [error] an item of 'value' must be a string, found 1 (a number); the runner drops "
        "it\n"
        "a.eval.yaml:13:9: EV306 [error] a criterion string is blank; the runner skips it (warning 'Skipping empty "
        "string criterion')\n"
        "a.eval.yaml:16:45: EV340 [error] field 'formats' must be a list of date formats, found 'YYYY-MM-DD'; the "
        "runner uses its default formats\n"
        "a.eval.yaml:17:46: EV340 [error] an item of field 'formats' must be a string, found 1 (a number); the "
        "runner drops it\n"), "")


@pytest.mark.runner
def test_the_loader_drops_those_grader_settings(tmp_path):
    loaded = load_tests(write_suite(tmp_path, DROPPED_SETTINGS), ["a.eval.yaml"])["a.eval.yaml"]
    assert loaded["logs"] == ["Warning: Skipping empty string criterion in assert array for 't'",
                              "Warning: Skipping invalid rubric entry at index 0 in evaluator 'llm-grader' (expected "
                              "object)"]
    grader, contains, fields = loaded["tests"][0]["assertions"]
    assert (sorted(grader), [item["outcome"] for item in grader["rubrics"]]) == (
        ["name", "prompt", "rubrics", "type"], ["polite"])
    assert contains["value"] == ["a"]
    assert fields["fields"] == [{"match": "date", "path": "c"}, {"formats": ["YYYY"], "match": "date", "path": "d"}]


SPELLINGS = ("execution:\n"
             "  budget_usd: null\n"
             "  budgetUsd: 5\n"
             "  fail_on_error: true\n"
             "  failOnError: false\n"
             "tests:\n"
             "  - id: t\n"
             "    input: q\n"
             "    criteria: c\n"
             "    assertions:\n"
             "      - {type: token-usage, max_total: null, maxTotal: 7}\n"
             "      - {type: token-usage, max_total: 100, maxTotal: 50}\n"
             "      - type: tool-trajectory\n"
             "        mode: in_order\n"
             "        args_match: superset\n"
             "        argsMatch: exact\n"
             "        expected: [{tool: s, max_duration_ms: null, maxDurationMs: 10}]\n"
             "      - {type: llm-grader, target: judge, max_steps: 10, maxSteps: 20}\n"
             "      - {type: code-grader, command: null, script: [python, x.py]}\n")


def test_of_a_key_and_its_other_spelling_the_runner_reads_the_key_unless_it_is_null(tmp_path):
    """`key ?? alias`: an alias beside a key that is set is ignored (EV108); beside a null key it is read, and the
    null key is no mistake."""
    assert run_concise(write_suite(tmp_path, SPELLINGS, (("x.py", "print(1)\n"),)), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:5:3: EV108 [error] 'failOnError' is ignored because 'fail_on_error' is also present; remove "
        "one of them\n"
        "a.eval.yaml:12:45: EV108 [error] 'maxTotal' is ignored because 'max_total' is also present; remove "
        "one of them\n"
        "a.eval.yaml:16:9: EV108 [error] 'argsMatch' is ignored because 'args_match' is also present; remove "
        "one of them\n"
        "a.eval.yaml:18:58: EV108 [error] 'maxSteps' is ignored because 'max_steps' is also present; remove "
        "one of them\n"), "")


@pytest.mark.runner
def test_the_loader_reads_a_key_before_its_other_spelling_unless_the_key_is_null(tmp_path):
    write_suite(tmp_path, SPELLINGS, (("x.py", "print(1)\n"),))
    loaded = load_tests(tmp_path, ["a.eval.yaml"], suite=True)["a.eval.yaml"]
    assert (loaded["logs"], loaded["suite"]) == ([], {"budgetUsd": 5, "failOnError": True})
    limits, second, trajectory, grader, script = loaded["tests"][0]["assertions"]
    assert (limits["max_total"], second["max_total"], grader["max_steps"], script["command"]) == (
        7, 100, 10, ["python", "x.py"])
    assert (trajectory["argsMatch"], trajectory["expected"]) == ("superset", [{"maxDurationMs": 10, "tool": "s"}])


COMPOSITE = ("tests:\n"
             "  - id: t\n"
             "    input: q\n"
             "    criteria: c\n"
             "    assertions:\n"
             "      - type: composite\n"
             "        aggregator: {type: weighted_average, weights: {correctnes: 3, tone: 2}}\n"
             "        assertions:\n"
             "          - {name: correctness, type: contains, value: a}\n"
             "          - {name: no-apology, type: contains, value: sorry, negate: true}\n"
             "          - {name: tone, type: contains, value: thanks, weight: 1, required: false}\n"
             "      - {type: tool-trajectory, mode: any_order, minimums: {s: 1}, expected: [{tool: s}]}\n"
             "      - {type: tool-trajectory, mode: superset, expected: [{tool: s}], minimums: {s: 1}}\n")


def test_what_a_composite_or_a_trajectory_does_not_apply_is_an_error(tmp_path):
    """A member's negate (its weight and required as the runner does without them are not reported), a weight
    naming no member, a trajectory setting its mode does not read. The loader keeps them all (below); the graders
    do not read them (graders/composite.ts runs each member as it is and weighs it by the aggregator's weights;
    orchestrator.ts negates and gates a test's own graders only; graders/tool-trajectory.ts reads 'minimums' in
    any_order only)."""
    assert run_concise(write_suite(tmp_path, COMPOSITE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:56: EV332 [error] weight for 'correctnes' names no member (did you mean 'correctness'?); the "
        "runner gives each member it does not name a weight of 1; members: 'correctness', 'no-apology', 'tone'\n"
        "a.eval.yaml:10:62: EV333 [error] 'negate' of a composite member is not applied (the runner applies it only "
        "to a test's own graders): the member is scored as it is, not negated\n"
        "a.eval.yaml:12:68: EV315 [error] 'expected' is ignored by mode 'any_order'; it is read only by 'in_order', "
        "'exact', 'subset' and 'superset'\n"
        "a.eval.yaml:13:72: EV315 [error] 'minimums' is ignored by mode 'superset'; it is read only by "
        "'any_order'\n"), "")


@pytest.mark.runner
def test_the_loader_keeps_what_the_graders_do_not_apply(tmp_path):
    loaded = load_tests(write_suite(tmp_path, COMPOSITE), ["a.eval.yaml"])["a.eval.yaml"]
    composite, any_order, superset = loaded["tests"][0]["assertions"]
    assert composite["aggregator"]["weights"] == {"correctnes": 3, "tone": 2}
    assert composite["assertions"][1]["negate"] is True
    assert (any_order["expected"], superset["minimums"]) == ([{"tool": "s"}], {"s": 1})


MEMBER_LISTS = ("tests:\n"
                "  - id: t\n"
                "    input: q\n"
                "    criteria: c\n"
                "    assertions:\n"
                "      - name: nulled\n"
                "        type: composite\n"
                "        aggregator: {type: weighted_average}\n"
                "        assertions: null\n"
                "        assert:\n"
                "          - {name: a, type: contans, value: a}\n"
                "      - name: both\n"
                "        type: composite\n"
                "        aggregator: {type: weighted_average}\n"
                "        assertions: [{name: b, type: contains, value: b}]\n"
                "        evaluators: [{name: c, type: contains, value: c}]\n"
                "      - name: none\n"
                "        type: composite\n"
                "        aggregator: {type: weighted_average}\n"
                "        assertions: null\n"
                "        evaluators: 5\n")


def test_a_composites_members_are_read_from_the_first_list_that_holds_a_value(tmp_path):
    """'assertions ?? assert ?? evaluators': a null list is passed over (its members are checked where they are
    written), a list after the one read is reported, and a list that is no list is one."""
    assert run_concise(write_suite(tmp_path, MEMBER_LISTS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:10:9: EV330 [error] the loader drops every member of 'assert'; the runner drops the composite\n"
        "a.eval.yaml:11:29: EV301 [error] unknown assertion type 'contans' (did you mean 'contains'?); the runner "
        "drops a member whose type is no built-in kind; built-in types: 'contains', 'icontains', 'starts-with', "
        "'ends-with', 'equals', 'contains-any', 'contains-all', 'icontains-any', 'icontains-all', 'regex', 'is-json', "
        "'latency', 'cost', 'token-usage', 'execution-metrics', 'skill-trigger', 'tool-trajectory', 'field-accuracy', "
        "'code-grader', 'llm-grader', 'rubrics', 'rubric', 'inline-assert', 'composite'\n"
        "a.eval.yaml:16:9: EV113 [error] 'evaluators' is ignored because 'assertions' is also set; the runner reads "
        "only the first of 'assertions', 'assert', 'evaluators'\n"
        "a.eval.yaml:21:21: EV330 [error] composite 'evaluators' must be a list of assertions, found 5 (a number)\n"),
        "")


@pytest.mark.runner
def test_the_loader_reads_a_composites_first_members_list_that_holds_a_value(tmp_path):
    loaded = load_tests(write_suite(tmp_path, MEMBER_LISTS), ["a.eval.yaml"])["a.eval.yaml"]
    (both,) = loaded["tests"][0]["assertions"]
    assert [member["name"] for member in both["assertions"]] == ["b"]
    assert loaded["logs"] == ["Warning: Skipping member evaluator with invalid name/type in composite 'nulled'",
                              "Warning: Skipping composite evaluator 'nulled' in 't': no valid member evaluators",
                              "Warning: Skipping composite evaluator 'none' in 't': missing assertions (or evaluators) "
                              "array"]


def test_a_weight_is_not_checked_against_members_the_environment_names(tmp_path):
    write_suite(tmp_path, "tests:\n  - id: t\n    input: q\n    criteria: c\n    assertions:\n      - type: composite\n"
                "        aggregator: {type: weighted_average, weights: {accuracy: 2}}\n"
                "        assertions: [{name: \"${{ MEMBER }}\", type: contains, value: a}]\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


# the first item's score bands make the grader grade the list by scores, reading each item's 'min_score' (a checklist
# ignores it: EV115)
DEPRECATED_SCORES = ("tests:\n"
                     "  - id: t\n"
                     "    input: q\n"
                     "    criteria: c\n"
                     "    assertions:\n"
                     "      - {type: contains, value: a, required: 0.7}\n"
                     "      - {type: contains, value: b, required: 0.7, min_score: 0.5}\n"
                     "      - type: rubrics\n"
                     "        criteria:\n"
                     "          - {id: r, outcome: o, required_min_score: 7, score_ranges: {0: x, 5: y}}\n"
                     "          - {id: s, outcome: p, required_min_score: 7, min_score: 0.5}\n")


def test_a_score_in_its_earlier_form_is_a_warning_as_the_runner_warns(tmp_path):
    assert run_concise(write_suite(tmp_path, DEPRECATED_SCORES), "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:6:46: EV109 [warning] 'required: 0.7' is deprecated (the runner warns); write 'required: true' "
        "and 'min_score: 0.7'\n"
        "a.eval.yaml:7:46: EV109 [warning] 'required: 0.7' is deprecated (the runner warns); write 'required: true'\n"
        "a.eval.yaml:10:53: EV109 [warning] 'required_min_score: 7' is deprecated (the runner warns); write "
        "'min_score: 0.7'\n"), "")


@pytest.mark.runner
def test_the_loader_warns_of_a_score_in_its_earlier_form(tmp_path):
    loaded = load_tests(write_suite(tmp_path, DEPRECATED_SCORES), ["a.eval.yaml"])["a.eval.yaml"]
    assert [log.split(": ", 1)[1].split(" is deprecated")[0] for log in loaded["logs"]] == [
        "Grader 'contains-a' in 't': 'required: 0.7'", "Grader 'contains-b' in 't': 'required: 0.7'",
        "Rubric 'r' in evaluator 'rubrics' in 't': 'required_min_score: 7'"]
    first, second, rubrics = loaded["tests"][0]["assertions"]
    assert (first["min_score"], second["min_score"], [item["min_score"] for item in rubrics["rubrics"]]) == (
        0.7, 0.5, [0.7, 0.5])


NO_ACCESS = ("tests:\n"
             "  - id: t\n"
             "    input: q\n"
             "    criteria: c\n"
             "    assertions:\n"
             "      - {name: a, type: code-grader, command: [python, x.py], target: false}\n"
             "      - {name: b, type: code-grader, command: [python, x.py], target: no}\n"
             "      - {name: c, type: code-grader, command: [python, x.py], target: \"false\"}\n")


def test_no_access_to_the_target_said_as_false_or_no_is_a_warning(tmp_path):
    """The runner gives the script no access, as without 'target', and warns (an empty 'target:' says nothing: EV323)."""
    code, out, _ = run_concise(write_suite(tmp_path, NO_ACCESS, (("x.py", "print(1)\n"),)), "--no-cache", "a.eval.yaml")
    assert (code, out.splitlines()) == (0, [
        f"a.eval.yaml:{line}:63: EV109 [warning] code-grader 'target: {said}' gives the script no calls to the target, "
        "as without it, and the runner warns 'Invalid target config'; remove it"
        for line, said in ((6, "false"), (7, "no"), (8, "false"))])


@pytest.mark.runner
def test_the_loader_warns_of_no_access_said_as_false_or_no(tmp_path):
    loaded = load_tests(write_suite(tmp_path, NO_ACCESS, (("x.py", "print(1)\n"),)), ["a.eval.yaml"])["a.eval.yaml"]
    assert loaded["logs"] == [f"Warning: Invalid target config for evaluator '{name}' in 't': expected object or true"
                              for name in "abc"]
    assert not any("target" in grader for grader in loaded["tests"][0]["assertions"])


SCORE_OUT_OF_RANGE = ("tests:\n"
                      "  - id: t\n"
                      "    input: q\n"
                      "    criteria: c\n"
                      "    assertions:\n"
                      "      - type: rubrics\n"
                      "        criteria:\n"
                      "          - {id: r, outcome: o, required_min_score: 11, score_ranges: {0: x, 5: y}}\n"
                      "          - {id: s, outcome: p, required_min_score: 12, min_score: 0.5}\n")


def test_a_required_min_score_the_runner_reads_out_of_range_is_an_error(tmp_path):
    """Read only without a numeric 'min_score'; then anything but an integer 0-10 makes the runner skip the test."""
    assert run_concise(write_suite(tmp_path, SCORE_OUT_OF_RANGE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:8:53: EV361 [error] rubric item 'required_min_score' must be an integer 0-10, found 11 (a "
        "number); the runner skips the test\n"), "")


@pytest.mark.runner
def test_the_runner_skips_a_test_for_a_required_min_score_out_of_range(tmp_path):
    loaded = load_tests(write_suite(tmp_path, SCORE_OUT_OF_RANGE), ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["tests"], [log.split(":")[0] for log in loaded["logs"]]) == ([], ["Error"])


def test_a_code_graders_command_under_another_name_people_give_it_is_named(tmp_path):
    """'cmd' is 'command' cut short, not a misspelt 'cwd'; the loader drops the grader without a command."""
    write_suite(tmp_path, "tests:\n  - id: t\n    input: hi\n    criteria: c\n    assertions:\n"
                          "      - {type: code-grader, cmd: [python3, check.py]}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:10: EV320 [error] code-grader assertion has no 'command' (an argv list such as [\"python\", "
        "\"check.py\"]); the runner drops it\n"
        "a.eval.yaml:6:29: EV115 [error] unknown key 'cmd' in code-grader assertion (did you mean 'command'?); the "
        "runner does not read it as 'command': it passes it on to the grader in its configuration\n"), "")


# a regex grader's flags and a rubric item's negative weight, which the loader keeps as written; what the runner scores
# each test (the recording grader meets every rubric item)
AS_GRADED = {
    "flag-unknown": ("{type: regex, value: answer, flags: z}", 0),
    "flag-twice": ("{type: regex, value: answer, flags: ii}", 0),
    "flags": ("{type: regex, value: ANSWER, flags: gi}", 1),
    "flag-negated": ("{type: regex, value: answer, flags: z, negate: true}", 1),
    "rubric-negative": ("{type: llm-grader, rubrics: [{id: criterion-1, outcome: Be polite, weight: -2}, "
                        "{id: criterion-2, outcome: Be short}]}", 0),
    "rubric": ("{type: llm-grader, rubrics: [{id: criterion-1, outcome: Be polite, weight: 2}, "
               "{id: criterion-2, outcome: Be short}]}", 1),
    # flags that are no text are not read: the regex matches without them
    "flags-list": ("{type: regex, value: ANSWER, flags: [i]}", 0),
    "flags-null": ("{type: regex, value: answer, flags: null}", 1),
}
GRADED_SUITE = one_grader_suite(AS_GRADED, "hi")


def test_regex_flags_javascript_refuses_and_a_negative_rubric_weight_are_errors(tmp_path):
    write_suite(tmp_path, GRADED_SUITE)
    fails = ("the grader fails when it grades ('Invalid flags supplied to RegExp constructor') and scores 0; flags: d, "
             "g, i, m, s, u, v, y, each once")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:84: EV110 [error] regex 'flags' 'z': 'z' is no flag of a JavaScript regular expression; {fails}\n"
        f"a.eval.yaml:3:82: EV110 [error] regex 'flags' 'ii': 'i' written twice; {fails}\n"
        "a.eval.yaml:5:84: EV110 [error] regex 'flags' 'z': 'z' is no flag of a JavaScript regular expression; the "
        "grader fails when it grades ('Invalid flags supplied to RegExp constructor') and scores 1 (negated); flags: d, "
        "g, i, m, s, u, v, y, each once\n"
        "a.eval.yaml:6:126: EV305 [error] rubric item 'weight' must be >= 0, found -2; the grader weighs the item as "
        "written, so meeting it lowers the score (and a grader whose items weigh 0 or less in all scores 0)\n"
        "a.eval.yaml:8:82: EV110 [error] regex 'flags' must be a string, found a list; the runner ignores them and "
        "matches without flags\n"), "")


@pytest.mark.runner
def test_the_runner_grades_with_the_flags_and_weights_as_written(tmp_path):
    ran = run_written(tmp_path, GRADED_SUITE)
    assert (ran["error"], ran["scores"]) == (None, scores_of(AS_GRADED))


# settings the loader reads as absent (a null, 'required: 0'), names it takes as written, and the empty name, for which
# it drops the grader (so the composite's member it would be)
AS_ABSENT = ("tests:\n"
             "  - id: a\n"
             "    input: q\n"
             "    criteria: c\n"
             "    assertions:\n"
             "      - {type: contains, value: answer, required: 0, negate: null}\n"
             "      - {type: contains, value: answer, required: null, name: null}\n"
             "      - {type: skill-trigger, skill: s, should_trigger: null}\n"
             "      - {name: '  ', type: contains, value: answer}\n"
             "      - {name: '', type: contains, value: answer, weight: -1}\n"
             "      - {type: composite, aggregator: {type: weighted_average}, assertions: [{name: '', type: is-json}]}\n")


def test_a_setting_the_loader_reads_as_absent_is_no_error_and_an_empty_name_drops_the_grader(tmp_path):
    unread = "the runner drops the assertion before it reads its weight (and skips the test once it keeps it)"
    assert run_concise(write_suite(tmp_path, AS_ABSENT), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:10:16: EV110 [error] assertion 'name' is empty; the runner drops the assertion; write a name\n"
        f"a.eval.yaml:10:59: EV305 [error] assertion 'weight' must be >= 0, found -1; {unread}\n"
        "a.eval.yaml:11:65: EV330 [error] the loader drops every member of 'assertions'; the runner drops the composite\n"
        "a.eval.yaml:11:85: EV110 [error] assertion 'name' is empty; the runner drops the assertion; write a name\n"),
        "")


@pytest.mark.runner
def test_the_loader_reads_a_null_as_absent_and_drops_a_grader_named_empty(tmp_path):
    loaded = load_tests(write_suite(tmp_path, AS_ABSENT), ["a.eval.yaml"])["a.eval.yaml"]
    graders = loaded["tests"][0]["assertions"]
    assert [(g["name"], g.get("required"), g.get("negate"), g.get("should_trigger")) for g in graders] == [
        ("contains-answer", None, None, None), ("contains-answer", None, None, None),
        ("skill-trigger-s", None, None, None), ("  ", None, None, None)]
    assert loaded["logs"] == ["Warning: Skipping evaluator with missing name in 'a'",
                              "Warning: Skipping member evaluator with invalid name/type in composite 'composite'",
                              "Warning: Skipping composite evaluator 'composite' in 'a': no valid member evaluators"]


# the target a grader grades with, and settings that apply only with one
GRADER_TARGETS = ("tests:\n"
                  "  - {id: unknown, input: q, assertions: [{type: llm-grader, prompt: check, target: nosuch}]}\n"
                  "  - {id: known, input: q, assertions: [{type: llm-grader, prompt: check, target: judge}]}\n"
                  "  - {id: rubrics, input: q, assertions: [{type: rubrics, criteria: [polite], target: jduge}]}\n"
                  "  - {id: unset, input: q, assertions: [{type: llm-grader, prompt: check, temperature: 0.5}]}\n")
JUDGE = ((".agentv/targets.yaml", "targets:\n  - {name: default, provider: mock}\n  - {name: judge, provider: mock}\n"),)


def test_a_grader_target_the_targets_file_does_not_define_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, GRADER_TARGETS, JUDGE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:84: EV409 [error] target 'nosuch' is not defined in .agentv/targets.yaml, so the grader fails "
        "and scores 0; its targets: 'default', 'judge'\n"
        "a.eval.yaml:4:86: EV409 [error] target 'jduge' is not defined in .agentv/targets.yaml, so the grader fails "
        "and scores 0 (did you mean 'judge'?); its targets: 'default', 'judge'\n"
        "a.eval.yaml:5:74: EV115 [error] 'temperature' in llm-grader applies only with a 'target': without one the "
        "grader runs on the run's grader target with its own settings, so what it holds is dropped\n"), "")


@pytest.mark.runner
def test_the_runner_fails_a_grader_whose_target_it_does_not_find(tmp_path):
    (tmp_path / "repo").mkdir()
    (tmp_path / "home").mkdir()
    ran = run_suite(write_suite(tmp_path / "repo", GRADER_TARGETS, JUDGE), "a.eval.yaml", tmp_path / "home", "default")
    assert (ran["error"], ran["scores"]) == (None, {"unknown": 0, "known": 1, "rubrics": 0, "unset": 1})


# an llm-grader aggregator's prompt: the members' results go only where it writes {{EVALUATOR_RESULTS_JSON}} exactly
AGGREGATOR_PROMPTS = "tests:\n" + "".join(
    f"  - {{id: {name}, input: q, criteria: c, assertions: [{{type: composite, aggregator: {{type: llm-grader, "
    f"prompt: '{prompt}'}}, assertions: [{{name: m, type: contains, value: answer}}]}}]}}\n"
    for name, prompt in (("spaced", "Judge {{ EVALUATOR_RESULTS_JSON }}"), ("none", "Judge the members"),
                         ("exact", "Judge {{EVALUATOR_RESULTS_JSON}}")))


def test_an_aggregator_prompt_without_the_results_placeholder_as_the_runner_fills_it_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, AGGREGATOR_PROMPTS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:111: EV405 [error] aggregator prompt writes '{{ EVALUATOR_RESULTS_JSON }}', which the runner "
        "does not fill: it puts the members' results only where a prompt writes {{EVALUATOR_RESULTS_JSON}} exactly, "
        "so the aggregator never sees them; write {{EVALUATOR_RESULTS_JSON}}\n"
        "a.eval.yaml:3:109: EV405 [error] aggregator prompt has no {{EVALUATOR_RESULTS_JSON}}: it puts the members' "
        "results only where a prompt writes {{EVALUATOR_RESULTS_JSON}} exactly, so the aggregator never sees them; add "
        "{{EVALUATOR_RESULTS_JSON}} to the prompt\n"), "")


@pytest.mark.runner
def test_the_runner_gives_an_aggregator_the_results_only_in_place_of_the_placeholder(tmp_path):
    ran = run_written(tmp_path, AGGREGATOR_PROMPTS)
    assert {g["test"]: '"verdict": "pass"' in g["prompt"] for g in ran["graded"]} == {
        "spaced": False, "none": False, "exact": True}


# settings that only another setting makes the runner read: each is an error where it is written
UNREAD = ("execution:\n  cache_path: .cache\n"
          "tests:\n"
          "  - id: a\n    input: q\n    criteria: c\n    assertions:\n"
          "      - {type: composite, aggregator: {type: threshold, threshold: 0.5, weights: {m: 2}}, assertions: "
          "[{name: m, type: contains, value: answer}]}\n"
          "      - {type: field-accuracy, fields: [{path: a, match: exact, tolerance: 0.5}, {path: b, match: date, "
          "formats: [YYYY]}]}\n"
          "      - {type: execution-metrics, max_tokens: 100, exploration_tolerance: 0.1}\n"
          "      - {type: contains, value: zzz, min_score: 0.5}\n"
          "      - {type: contains, value: zzz, min_score: 0.5, required: true}\n"
          "    expected_output: {a: 1, b: '2026'}\n")


def test_a_setting_the_runner_reads_only_beside_another_is_an_error_without_it(tmp_path):
    assert run_concise(write_suite(tmp_path, UNREAD), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:3: EV115 [error] 'cache_path' is read only with 'cache': without it the runner ignores the path "
        "(and caches as its command line says); add 'cache: true'\n"
        "a.eval.yaml:8:73: EV115 [error] 'weights' is read only by a 'weighted_average' aggregator: the runner drops it "
        "from this 'threshold' one\n"
        "a.eval.yaml:9:65: EV115 [error] 'tolerance' is read only with 'match: numeric_tolerance': this field is "
        "compared with 'match: exact', so the runner ignores it\n"
        "a.eval.yaml:10:52: EV115 [error] 'exploration_tolerance' is read only with 'target_exploration_ratio': without "
        "it the runner checks no exploration ratio, so it ignores the tolerance\n"
        "a.eval.yaml:11:38: EV115 [error] 'min_score' applies only to a required assertion: without 'required: true' "
        "the runner never gates the test on this grader, so it ignores the score; add 'required: true'\n"), "")


@pytest.mark.runner
def test_the_runner_reads_these_settings_only_beside_the_other(tmp_path):
    (tmp_path / "cached.eval.yaml").write_text(UNREAD.replace("  cache_path", "  cache: true\n  cache_path"))
    loaded = load_tests(write_suite(tmp_path, UNREAD), ["a.eval.yaml", "cached.eval.yaml"], suite=True)
    assert ("cacheConfig" in loaded["a.eval.yaml"]["suite"], loaded["cached.eval.yaml"]["suite"]["cacheConfig"]) == (
        False, {"cachePath": ".cache", "enabled": True})
    composite = loaded["a.eval.yaml"]["tests"][0]["assertions"][0]
    assert composite["aggregator"] == {"threshold": 0.5, "type": "threshold"}
    # the test scores the mean of its graders' scores, but 0 when a required one scores below its min_score
    gated = UNREAD.replace("execution:\n  cache_path: .cache\n", "")
    ungated = gated.replace(", required: true}", "}")
    for name in ("gated", "ungated"):
        (tmp_path / name).mkdir()
    scores = [run_written(tmp_path / name, text)["scores"]["a"] for name, text in (("gated", gated), ("ungated", ungated))]
    assert scores[0] == 0 and scores[1] > 0


LIMITS = ("tests:\n  - id: a\n    input: q\n    criteria: c\n    assertions:\n"
          "      - {type: execution-metrics, max_tool_calls: -1, max_tokens: 100}\n"
          "      - {type: token-usage, max_total: -1, max_input: 100}\n")


def test_a_bad_limit_drops_an_execution_metrics_grader_whole_and_only_itself_of_token_usage(tmp_path):
    assert run_concise(write_suite(tmp_path, LIMITS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:51: EV352 [error] execution-metrics 'max_tool_calls' must be a finite number >= 0, found -1 (a "
        "number); the runner drops the assertion, whatever its other limits\n"
        "a.eval.yaml:7:40: EV352 [error] token-usage 'max_total' must be a finite number >= 0, found -1 (a number); the "
        "runner drops the limit (and the assertion without another)\n"), "")


# graders with a bad weight: the loader reads the weight of a token-usage grader with a limit left, and drops a
# tool-trajectory grader without a mode (or a token-usage one without a valid limit) before it reads its weight
TOKEN_WEIGHTS = ("tests:\n  - {id: kept, input: q, assertions: [{type: token-usage, max_total: x, max_input: 5, weight: x}]}\n"
                 "  - {id: dropped, input: q, criteria: c, assertions: [{type: token-usage, max_total: x, weight: x}]}\n"
                 "  - {id: modeless, input: q, criteria: c, assertions: [{type: tool-trajectory, weight: x}]}\n")


def test_a_bad_weight_skips_the_test_only_of_a_grader_the_loader_keeps(tmp_path):
    drops = "token-usage 'max_total' must be a finite number >= 0, found 'x'; the runner drops the limit (and the assertion "
    weight = "assertion 'weight' must be a finite number >= 0, found 'x'; the runner"
    unread = "drops the assertion before it reads its weight (and skips the test once it keeps it)"
    assert run_concise(write_suite(tmp_path, TOKEN_WEIGHTS), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:70: EV352 [error] {drops}without another)\n"
        f"a.eval.yaml:2:95: EV304 [error] {weight} skips the test\n"
        f"a.eval.yaml:3:86: EV352 [error] {drops}without another)\n"
        f"a.eval.yaml:3:97: EV304 [error] {weight} {unread}\n"
        "a.eval.yaml:4:57: EV310 [error] tool-trajectory assertion has no 'mode' (expected one of 'any_order', "
        "'in_order', 'exact', 'subset', 'superset'); the runner drops it\n"
        f"a.eval.yaml:4:88: EV304 [error] {weight} {unread}\n"), "")


@pytest.mark.runner
def test_the_loader_reads_the_weight_only_of_a_grader_it_keeps(tmp_path):
    loaded = load_tests(write_suite(tmp_path, TOKEN_WEIGHTS), ["a.eval.yaml"])["a.eval.yaml"]
    assert [test["id"] for test in loaded["tests"]] == ["dropped", "modeless"]
    assert "Error: Skipping test 'kept': Invalid weight for evaluator 'token-usage' in 'kept': must be a number" in \
        loaded["logs"]


def test_caching_with_several_trials_is_an_error(tmp_path):
    """orchestrator.ts turns caching off when 'trials.count' is above 1 (and warns so)."""
    suite = "execution:\n  cache: true\n  trials: {count: 3}\ntests:\n  - {id: a, input: q, criteria: c}\n"
    assert run_concise(write_suite(tmp_path, suite), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:10: EV115 [error] 'cache: true' is ignored with 'trials.count' above 1: the runner turns caching "
        "off, as cached answers would make the trials alike (it warns so)\n"), "")


# a field-accuracy grader reads the expected fields from the test's expected answer
FIELDS = ("assertions:\n  - {type: field-accuracy, fields: [{path: a, match: exact}]}\ntests:\n"
          "  - {id: given, input: q, expected_output: {a: 1}}\n"
          "  - {id: skips, input: q, criteria: c, execution: {skip_defaults: true}}\n"
          "  - {id: member, input: q, criteria: c, execution: {skip_defaults: true}, assertions: [{type: composite, "
          "aggregator: {type: weighted_average}, assertions: [{name: f, type: field-accuracy, fields: [{path: a, "
          "match: exact}]}]}]}\n"
          "  - {id: gets, input: q, criteria: c}\n")


def test_a_field_accuracy_grader_of_a_test_without_an_expected_output_is_an_error(tmp_path):
    then = ("has no 'expected_output': the grader reads the fields' expected values from the test's expected answer, "
            "finds none, and scores 0; give the test an 'expected_output' (the expected fields, as JSON)\n")
    assert run_concise(write_suite(tmp_path, FIELDS), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:6:6: EV340 [error] the test has a field-accuracy grader but {then}"
        f"a.eval.yaml:7:6: EV340 [error] the test gets the suite's field-accuracy grader but {then}"), "")


@pytest.mark.runner
def test_the_runner_scores_a_field_accuracy_grader_without_expected_fields_0(tmp_path):
    assert run_written(tmp_path, FIELDS)["scores"] == {"given": 0, "skips": 1, "member": 0, "gets": 0}


# a dataset's lines, graded by the field-accuracy grader of the sidecar's 'execution' or of their own
FIELD_LINES = ('{"id": "sidecar", "input": "q", "criteria": "c"}\n'
               '{"id": "given", "input": "q", "expected_output": "{\\"a\\": 1}"}\n'
               '{"id": "own", "input": "q", "criteria": "c", "execution": {"assertions": [{"type": "field-accuracy", '
               '"fields": [{"path": "a", "match": "exact"}]}]}}\n'
               '{"id": "skips", "input": "q", "criteria": "c", "execution": {"skip_defaults": true}}\n'
               '{"id": "text", "input": "q", "expected_output": "Paris"}\n')
FIELD_SIDECAR = "execution:\n  assertions:\n    - {type: field-accuracy, fields: [{path: a, match: exact}]}\n"


def test_a_field_accuracy_grader_of_a_dataset_line_without_expected_fields_is_an_error(tmp_path):
    write_suite(tmp_path, "", (("d.jsonl", FIELD_LINES), ("d.yaml", FIELD_SIDECAR)))
    then = ("has no 'expected_output': the grader reads the fields' expected values from the test's expected answer, "
            "finds none, and scores 0; give the test an 'expected_output' (the expected fields, as JSON)\n")
    assert run_concise(tmp_path, "--no-cache", "d.jsonl") == (1, (
        f"d.jsonl:1:2: EV340 [error] the line gets the field-accuracy grader of its sidecar 'd.yaml' but {then}"
        f"d.jsonl:3:2: EV340 [error] the line's 'execution' gives it a default field-accuracy grader but {then}"
        "d.jsonl:3:46: EV113 [error] this line's 'execution' replaces the one of its sidecar 'd.yaml', so the "
        "sidecar's default graders ('execution.assertions') do not apply to it; list them in the line's own "
        "'execution', or write 'skip_defaults: true' there if that is meant\n"
        "d.jsonl:5:49: EV340 [error] the line gets the field-accuracy grader of its sidecar 'd.yaml', but its "
        "'expected_output' holds no JSON of the expected fields: the grader reads them from the last assistant message "
        "that holds JSON, finds none, and scores 0; give the expected fields as a mapping (or as JSON text)\n"), "")


@pytest.mark.runner
def test_the_loader_gives_a_dataset_line_the_field_accuracy_grader_of_its_execution(tmp_path):
    write_suite(tmp_path, "", (("d.jsonl", FIELD_LINES), ("d.yaml", FIELD_SIDECAR)))
    loaded = load_tests(tmp_path, ["d.jsonl"])["d.jsonl"]
    assert {test["id"]: ([grader["type"] for grader in test.get("assertions") or ()], test["expected_output"])
            for test in loaded["tests"]} == {
        "sidecar": (["field-accuracy"], []), "given": (["field-accuracy"], [{"role": "assistant", "content": '{"a": 1}'}]),
        "own": (["field-accuracy"], []), "skips": ([], []),
        "text": (["field-accuracy"], [{"role": "assistant", "content": "Paris"}])}


# a dataset's line graded by its sidecar's grader of weight 0, and one by its own 'execution''s grader of weight 1
ZERO_LINES = ('{"id": "zero", "input": "q", "criteria": "c"}\n'
              '{"id": "own", "input": "q", "criteria": "c", "execution": {"assertions": [{"type": "contains", '
              '"value": "answer"}]}}\n')
ZERO_SIDECAR = "execution:\n  assertions:\n    - {type: contains, value: answer, weight: 0}\n"


def test_a_dataset_line_whose_graders_all_weigh_0_is_an_error(tmp_path):
    write_suite(tmp_path, "", (("d.jsonl", ZERO_LINES), ("d.yaml", ZERO_SIDECAR)))
    assert run_concise(tmp_path, "--no-cache", "d.jsonl") == (1, (
        "d.jsonl:1:2: EV308 [error] every grader of this test weighs 0: the runner scores it by their weighted mean, "
        "which it makes 0 when the weights add up to 0, so it fails whatever the answer; give a grader a weight above "
        "0\n"
        "d.jsonl:2:46: EV113 [error] this line's 'execution' replaces the one of its sidecar 'd.yaml', so the "
        "sidecar's default graders ('execution.assertions') do not apply to it; list them in the line's own "
        "'execution', or write 'skip_defaults: true' there if that is meant\n"), "")


@pytest.mark.runner
def test_the_runner_scores_a_dataset_line_whose_graders_all_weigh_0_0(tmp_path):
    (tmp_path / "repo").mkdir()
    write_suite(tmp_path / "repo", "", (("d.jsonl", ZERO_LINES), ("d.yaml", ZERO_SIDECAR)))
    assert run_suite(tmp_path / "repo", "d.jsonl", tmp_path)["scores"] == {"zero": 0, "own": 1}


# expected outputs, each with whether a field-accuracy grader finds the expected fields in it
EXPECTED_FIELDS = {"Paris": False, "'  '": False, "'0'": False, "[{role: assistant, content: Paris}]": False,
                   '"```json\\n{\\"a\\": 1}\\n```"': True, "'The answer is {\"a\": 1}.'": True,
                   "[{role: assistant, content: '{\"a\": 1}'}, {role: assistant, content: Paris}]": True,
                   "{a: 1}": True, '"\\ufeff{\\"a\\": 1}"': True}
EXPECTED_FIELDS_SUITE = ("assertions:\n  - {type: field-accuracy, fields: [{path: a, match: exact}]}\ntests:\n" + "".join(
    f"  - id: t{i}\n    input: q\n    expected_output: {text}\n" for i, text in enumerate(EXPECTED_FIELDS)))


def test_a_field_accuracy_grader_of_an_expected_output_without_expected_fields_is_an_error(tmp_path):
    then = ("the test gets the suite's field-accuracy grader, but its 'expected_output' holds no JSON of the expected "
            "fields: the grader reads them from the last assistant message that holds JSON, finds none, and scores 0; "
            "give the expected fields as a mapping (or as JSON text)\n")
    assert run_concise(write_suite(tmp_path, EXPECTED_FIELDS_SUITE), "--no-cache", "a.eval.yaml") == (1, "".join(
        f"a.eval.yaml:{6 + 3 * i}:22: EV340 [error] {then}" for i in range(4)), "")


def test_an_expected_output_of_json_nested_deeper_than_python_reads_holds_fields(tmp_path):
    """JavaScript's JSON.parse reads it (no crash, and no EV340)."""
    deep = "[" * 50000 + "1" + "]" * 50000
    suite = EXPECTED_FIELDS_SUITE.split("tests:\n")[0] + f"tests:\n  - {{id: t, input: q, expected_output: '{deep}'}}\n"
    assert run_concise(write_suite(tmp_path, suite), "--no-cache", "a.eval.yaml") == (0, "", "")


# the score AgentV 4.42.4's field-accuracy grader gives each test of a file for the answer '{"a": 1}'
FIELD_SCORES = """
import { FieldAccuracyGrader, loadTestSuite } from "@agentv/core";
const [file, root] = process.argv.slice(1);
const grader = new FieldAccuracyGrader({config: {name: "f", type: "field-accuracy", fields: [{path: "a", match: "exact"}]}});
for (const test of (await loadTestSuite(file, root)).tests) {
  console.log((await grader.evaluate({evalCase: test, candidate: '{"a": 1}'})).score);
}
"""


@pytest.mark.runner
def test_the_field_accuracy_grader_scores_an_expected_output_without_expected_fields_0(tmp_path):
    write_suite(tmp_path, EXPECTED_FIELDS_SUITE)
    done = subprocess.run([require_runner(), "--input-type=module", "-e", FIELD_SCORES, str(tmp_path / "a.eval.yaml"),
                           str(tmp_path)], capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert done.stdout.split() == [str(int(finds)) for finds in EXPECTED_FIELDS.values()]


# a code-grader's config that is no mapping or sets a key of its own, a preprocessor a later one of its type replaces
MERGED = ("tests:\n  - id: a\n    input: q\n    criteria: c\n    assertions:\n"
          "      - {type: code-grader, command: [sh, c.sh], config: strict}\n"
          "      - {type: code-grader, command: [sh, c.sh], level: 1, config: {level: 2}}\n"
          "      - type: llm-grader\n"
          "        preprocessors: [{type: xlsx, command: [sh, c.sh]}, {type: ' XLSX', command: [sh, d.sh]}]\n")
SCRIPTS = (("c.sh", "cat >/dev/null\n"), ("d.sh", "cat >/dev/null\n"))


def test_a_setting_the_loader_merges_away_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, MERGED, SCRIPTS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:58: EV110 [error] 'config' in code-grader must be a mapping, found 'strict'; the runner drops "
        "it\n"
        "a.eval.yaml:7:50: EV108 [error] 'level' is ignored because 'config' also sets it: the runner gives the script "
        "'config' merged over the grader's other keys, so 'level' is config's; remove one of them\n"
        "a.eval.yaml:9:26: EV108 [error] this preprocessor is ignored because a later one of the list converts the "
        "same type (' XLSX'): the runner keeps the last of each type\n"), "")


@pytest.mark.runner
def test_the_loader_merges_a_code_graders_config_over_its_keys_and_keeps_the_last_preprocessor_of_a_type(tmp_path):
    loaded = load_tests(write_suite(tmp_path, MERGED, SCRIPTS), ["a.eval.yaml"])["a.eval.yaml"]
    strict, level, grader = loaded["tests"][0]["assertions"]
    assert ("config" in strict, level["config"], [p["command"] for p in grader["preprocessors"]]) == (
        False, {"level": 2}, [["sh", "d.sh"]])


UNKNOWN_VARIABLE = ("tests:\n  - id: a\n    input: q\n    criteria: c\n    assertions:\n"
                    "      - {type: llm-grader, prompt: 'Grade {{ answer }} carefully'}\n")


def test_an_inline_prompts_unknown_variable_is_a_warning(tmp_path):
    assert run_concise(write_suite(tmp_path, UNKNOWN_VARIABLE), "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:6:43: EV406 [warning] inline prompt uses unknown variable '{{ answer }}', which reaches the grader "
        "as written; known: 'expected_output', 'criteria', 'metadata', 'metadata_json', 'rubrics', 'rubrics_json', "
        "'input', 'output', 'file_changes', 'tool_calls'\n"), "")


@pytest.mark.runner
def test_the_runner_sends_an_inline_prompts_unknown_variable_as_written(tmp_path):
    (graded,) = run_written(tmp_path, UNKNOWN_VARIABLE)["graded"]
    assert "Grade {{ answer }} carefully" in graded["prompt"]


RUBRICS_TEMPLATE = ("tests:\n  - id: a\n    input: q\n    criteria: c\n    assertions:\n"
                    "      - {type: llm-grader, prompt: 'Grade {{ output }}', rubrics: [{id: r1, outcome: polite}]}\n"
                    "      - {type: llm-grader, prompt: 'Grade {{ output }} by {{ rubrics }}', rubrics: [{id: r1, "
                    "outcome: polite}]}\n")


def test_an_inline_template_that_leaves_out_its_graders_rubrics_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, RUBRICS_TEMPLATE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:36: EV405 [error] inline prompt uses neither '{{ rubrics }}' nor '{{ rubrics_json }}': it is the "
        "whole grader prompt, so the grader never sees the rubrics it is scored on; add '{{ rubrics }}' (a prompt with "
        "a template variable is one)\n"), "")


@pytest.mark.runner
def test_the_runner_sends_an_inline_template_as_the_whole_grader_prompt(tmp_path):
    prompts = [graded["prompt"] for graded in run_written(tmp_path, RUBRICS_TEMPLATE)["graded"]]
    assert [("polite" in prompt, prompt.startswith("Grade answer")) for prompt in prompts] == [(False, True), (True, True)]


RUBRICS_FILES = (("judge.md", "Grade {{ output }}\n"), ("judge2.md", "Grade {{ output }} by {{ rubrics_json }}\n"))
RUBRICS_FILE_TEMPLATE = RUBRICS_TEMPLATE.replace("'Grade {{ output }}'", "file://judge.md").replace(
    "'Grade {{ output }} by {{ rubrics }}'", "file://judge2.md")


def test_a_template_file_that_leaves_out_its_graders_rubrics_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, RUBRICS_FILE_TEMPLATE, RUBRICS_FILES), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:36: EV405 [error] prompt template 'judge.md' uses neither '{{ rubrics }}' nor "
        "'{{ rubrics_json }}': it is the whole grader prompt, so the grader never sees the rubrics it is scored on; add "
        "'{{ rubrics }}'\n"), "")


@pytest.mark.runner
def test_the_runner_sends_a_template_file_as_the_whole_grader_prompt(tmp_path):
    prompts = [graded["prompt"] for graded in run_written(tmp_path, RUBRICS_FILE_TEMPLATE, RUBRICS_FILES)["graded"]]
    assert [("polite" in prompt, prompt.startswith("Grade answer")) for prompt in prompts] == [(False, True), (True, True)]


# tests kept for an empty grader list alone, and one the suite's default grader grades
EMPTY_GRADERS = ("assertions:\n  - {type: contains, value: answer}\ntests:\n"
                 "  - {id: empty, input: hi, assertions: [], execution: {skip_defaults: true}}\n"
                 "  - {id: nulled, input: hi, assert: null, execution: {skip_defaults: true}}\n"
                 "  - {id: defaults, input: hi, assertions: []}\n")


def test_a_test_kept_for_an_empty_grader_list_alone_is_an_error(tmp_path):
    then = ("test has no 'criteria' or 'expected_output', and its grader list is empty: the runner keeps it, but grades "
            "it with its default llm-grader against empty criteria, so its score means nothing; add criteria or graders\n")
    assert run_concise(write_suite(tmp_path, EMPTY_GRADERS), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:4:28: EV106 [error] {then}a.eval.yaml:5:29: EV106 [error] {then}"), "")


@pytest.mark.runner
def test_the_runner_grades_a_test_of_an_empty_grader_list_against_empty_criteria(tmp_path):
    graded = {g["test"]: g["prompt"] for g in run_written(tmp_path, EMPTY_GRADERS)["graded"]}
    assert sorted(graded) == ["empty", "nulled"] and all("[[ ## criteria ## ]]\n\n\n" in p for p in graded.values())


# what the runner takes as written, or as absent, though a check of the same settings reports its near misses
AS_WRITTEN_SETTINGS = (
    "workspace:\n  template: ws\n  hooks:\n"
    "    before_each: {reset: fast, timeout_ms: 0}\n"
    "    after_each: {command: 'sh check.sh ^a$ cost$ it is'}\n"
    "    before_all: {reset: none, command: [sh, check.sh]}\n"
    "    after_all: {reset: null, command: [sh, check.sh]}\n"
    "execution:\n  cache: true\n  trials: {count: 2.5}\n"
    "tests:\n"
    "  - id: a\n    input: q\n    criteria: c\n    assertions:\n"
    "      - {type: rubrics, criteria: ['   '], temperature: 0.2}\n"
    "      - {type: composite, aggregator: {type: llm-grader, prompt: ''}, assertions: [{name: m, type: contains, "
    "value: answer}]}\n"
    "      - {type: execution-metrics, max_tool_calls: null, max_tokens: 100}\n"
    "  - {id: b, input: q, criteria: c, workspace: {template: ws, isolation: shared, repos: []}}\n")
WORKSPACE = (("ws/a.txt", "a\n"), ("check.sh", "cat >/dev/null\n"))


def test_settings_the_runner_takes_as_written_are_no_error(tmp_path):
    """A blank rubric criterion is kept; an empty aggregator prompt is the default one; a null limit is none; a
    hook's timeout without a command times nothing; a '$' before no name is no shell's; a reset of none (or null) is what
    before_all does; trials of no whole count are ignored, and caching with them; a later test's workspace that
    says what the first test's does."""
    assert run_concise(write_suite(tmp_path, AS_WRITTEN_SETTINGS, WORKSPACE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:10:19: EV110 [error] trials 'count' must be a positive integer, found 2.5 (a number); the runner "
        "ignores the trials\n"
        "a.eval.yaml:16:44: EV115 [error] unknown key 'temperature' in rubrics assertion: it belongs to 'llm-grader' "
        "assertions (is 'type' right?); the runner does not read it here, so what it holds is dropped\n"), "")


@pytest.mark.runner
def test_the_loader_keeps_what_it_takes_as_written(tmp_path):
    loaded = load_tests(write_suite(tmp_path, AS_WRITTEN_SETTINGS, WORKSPACE), ["a.eval.yaml"])["a.eval.yaml"]
    rubrics, composite, metrics = loaded["tests"][0]["assertions"]
    assert (rubrics["rubrics"][0]["outcome"], composite["aggregator"], metrics.get("max_tool_calls")) == (
        "   ", {"type": "llm-grader"}, None)


def test_a_grader_target_is_looked_up_as_written_among_the_targets_the_suite_adds(tmp_path):
    """With two targets or more, the command line adds a target of each item's name that stands for another
    (apps/cli eval/targets.ts), which a grader may name; a grader's target is not trimmed."""
    suite = ("execution:\n  targets: [{name: fast, use_target: judge}, default]\ntests:\n  - id: a\n    input: q\n"
             "    assertions:\n      - {type: llm-grader, target: fast, prompt: Is it good?}\n"
             "      - {type: llm-grader, target: ' judge ', prompt: Is it good?}\n")
    assert run_concise(write_suite(tmp_path, suite, JUDGE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:8:36: EV409 [error] target ' judge ' is not defined in .agentv/targets.yaml, so the grader fails "
        "and scores 0 (did you mean 'judge'?); its targets: 'default', 'judge'\n"), "")


# tests whose graders all weigh 0, and those with one that weighs more
ZERO_WEIGHTS = ("assertions:\n  - {type: contains, value: answer, weight: 0}\ntests:\n"
                "  - {id: defaults, input: q, criteria: c}\n"
                "  - {id: own, input: q, execution: {skip_defaults: true}, assertions: [{type: regex, value: an, "
                "weight: -0.0}]}\n"
                "  - {id: weighed, input: q, assertions: [{type: contains, value: answer}]}\n"
                "  - id: conv\n    mode: conversation\n    input: hi\n    execution: {skip_defaults: true}\n    turns:\n"
                "      - {input: q, assertions: [{type: contains, value: answer, weight: 0}]}\n"
                "      - {input: q, assertions: [{type: contains, value: answer, weight: 1}]}\n")


def test_a_test_or_turn_whose_graders_all_weigh_0_is_an_error(tmp_path):
    then = ("weighs 0: the runner scores it by their weighted mean, which it makes 0 when the weights add up to 0, so it "
            "fails whatever the answer; give a grader a weight above 0\n")
    assert run_concise(write_suite(tmp_path, ZERO_WEIGHTS), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:4:6: EV308 [error] every grader of this test {then}"
        f"a.eval.yaml:5:59: EV308 [error] every grader of this test {then}"
        f"a.eval.yaml:12:20: EV308 [error] every grader of this turn {then}"), "")


@pytest.mark.runner
def test_the_runner_scores_a_test_or_turn_whose_graders_all_weigh_0_0(tmp_path):
    assert run_written(tmp_path, ZERO_WEIGHTS)["scores"] == {"defaults": 0, "own": 0, "weighed": 1, "conv": 0.5}


# graders whose settings decide their score, each with what the runner scores its test (the recording target answers
# 'answer 1', in 5 ms, for $0.001); a value that is only white space is kept, and 'contains' looks for it
CONSTANT = {
    "space": ("{type: contains, value: ' '}", 1), "starts": ("{type: starts-with, value: '  '}", 1),
    "ends": ("{type: ends-with, value: ' ', negate: true}", 0), "any": ("{type: contains-any, value: [zzz, '']}", 1),
    "nan": ("{type: latency, threshold: .nan}", 0), "inf": ("{type: latency, threshold: .inf}", 1),
    "budget": ("{type: cost, budget: .inf, negate: true}", 0),
}
CONSTANT_SUITE = one_grader_suite(CONSTANT)


def test_a_grader_whose_settings_decide_its_score_is_a_warning(tmp_path):
    trims = "is white space alone, which the grader trims (as it trims the answer) to nothing, and every answer"
    assert run_concise(write_suite(tmp_path, CONSTANT_SUITE), "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:3:68: EV309 [warning] starts-with 'value' '  ' {trims} starts with nothing, so the grader passes "
        "whatever the answer\n"
        f"a.eval.yaml:4:64: EV309 [warning] ends-with 'value' ' ' {trims} ends with nothing, so the grader fails "
        "whatever the answer (negated)\n"
        "a.eval.yaml:5:72: EV309 [warning] contains-any 'value' holds an empty item, which every answer contains, so "
        "the grader passes whatever the answer\n"
        "a.eval.yaml:6:65: EV309 [warning] latency 'threshold' .nan is no limit: every run's duration is beyond it, so "
        "the grader fails whatever the answer\n"
        "a.eval.yaml:7:65: EV309 [warning] latency 'threshold' .inf is no limit: every run's duration is within it, so "
        "the grader passes whatever the answer\n"
        "a.eval.yaml:8:62: EV309 [warning] cost 'budget' .inf is no limit: every run's cost is within it, so the grader "
        "fails whatever the answer (negated)\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_grader_whose_settings_decide_its_score_as_written(tmp_path):
    assert run_written(tmp_path, CONSTANT_SUITE)["scores"] == scores_of(CONSTANT)


# a test's legacy 'evaluator' of each kind: the run's registry holds llm-grader alone
EVALUATORS = ("tests:\n  - {id: script, input: hi, criteria: Says hi politely, evaluator: code-grader}\n"
              "  - {id: plain, input: hi, criteria: Says hi politely}\n"
              "  - {id: snake, input: hi, criteria: Says hi politely, evaluator: llm_grader}\n")


def test_an_evaluator_of_another_kind_than_llm_grader_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, EVALUATORS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:68: EV114 [error] grader kind 'code-grader' is no default the runner grades by: its registry "
        "holds 'llm-grader' alone, so it falls back to that; give the test an assertion of type 'code-grader' instead\n"),
        "")


@pytest.mark.runner
def test_the_runner_grades_a_test_of_any_evaluator_with_llm_grader(tmp_path):
    graded = {g["test"]: g["prompt"] for g in run_written(tmp_path, EVALUATORS)["graded"]}
    assert sorted(graded) == ["plain", "script", "snake"] and all("Says hi politely" in p for p in graded.values())


# a key the runner does not read that asks for what the grader does not do, each with what the runner scores its
# test (the recording target answers 'answer N' and uses no skill): a negation's name, a case setting, 'values'
MISREAD = {
    "not-trigger": ("{type: skill-trigger, skill: s, should_not_trigger: true}", 0),
    "trigger": ("{type: skill-trigger, skill: s, trigger: false}", 0),
    "not": ("{type: contains, value: answer, not: true}", 1),
    "ignore-case": ("{type: contains, value: ANSWER, ignore_case: true}", 0),
    "mind-case": ("{type: icontains, value: ANSWER, case_sensitive: true}", 1),
    "regex-case": ("{type: regex, value: ANSWER, case-insensitive: true}", 0),
    "starts-case": ("{type: starts-with, value: ANSWER, ignoreCase: true}", 0),
    "values": ("{type: contains-all, value: [answer], values: [answer, zzz]}", 1),
    # what these hold asks for what the grader does anyway
    "not-trigger-false": ("{type: skill-trigger, skill: s, should_not_trigger: false, negate: true}", 1),
    "same-case": ("{type: contains, value: answer, ignore_case: false, values: [answer]}", 1),
    "regex-flags": ("{type: regex, value: ANSWER, flags: i, ignore_case: true}", 1),
    "folded-values": ("{type: icontains-any, value: [Answer], values: [answer]}", 1),
}
MISREAD_SUITE = one_grader_suite(MISREAD)


def test_a_key_the_runner_does_not_read_asking_for_what_the_grader_does_not_do_is_an_error(tmp_path):
    no_case = "has no case setting and minds case whatever it says;"
    assert run_concise(write_suite(tmp_path, MISREAD_SUITE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:78: EV115 [error] unknown key 'should_not_trigger' in skill-trigger assertion (did you mean "
        "'should_trigger: false'? it says the opposite); the runner does not read it, so what it holds is dropped\n"
        "a.eval.yaml:3:74: EV115 [error] unknown key 'trigger' in skill-trigger assertion (did you mean "
        "'should_trigger'?); the runner does not read it, so what it holds is dropped\n"
        "a.eval.yaml:4:70: EV115 [error] unknown key 'not' in contains assertion (did you mean 'negate'?); the runner "
        "does not read it, so what it holds is dropped\n"
        f"a.eval.yaml:5:78: EV115 [error] 'ignore_case' is not read: contains {no_case} use type 'icontains' to ignore "
        "it\n"
        "a.eval.yaml:6:77: EV115 [error] 'case_sensitive' is not read: icontains has no case setting and ignores case "
        "whatever it says; use type 'contains' to mind case\n"
        f"a.eval.yaml:7:74: EV115 [error] 'case-insensitive' is not read: regex {no_case} add 'i' to its 'flags' to "
        "ignore it\n"
        f"a.eval.yaml:8:81: EV115 [error] 'ignoreCase' is not read: starts-with {no_case} write a 'regex' with "
        "'flags: i' to ignore it\n"
        "a.eval.yaml:9:79: EV115 [error] 'values' is not read beside 'value': the runner checks 'value' alone, so "
        "'zzz' is never looked for; put it in 'value'\n"
        "a.eval.yaml:10:84: EV109 [warning] unknown key 'should_not_trigger' in skill-trigger assertion (did you mean "
        "'should_trigger: true'? it says the opposite); what it holds is what the runner uses anyway\n"
        "a.eval.yaml:11:76: EV109 [warning] unknown key 'ignore_case' in contains assertion (known keys: min_score, "
        "name, negate, preprocessors, required, type, value, weight)\n"
        "a.eval.yaml:11:96: EV109 [warning] unknown key 'values' in contains assertion (did you mean 'value'?)\n"
        "a.eval.yaml:12:85: EV109 [warning] unknown key 'ignore_case' in regex assertion (known keys: flags, min_score, "
        "name, negate, preprocessors, required, type, value, weight)\n"
        "a.eval.yaml:13:87: EV109 [warning] unknown key 'values' in icontains-any assertion (did you mean 'value'?)\n"), "")


@pytest.mark.runner
def test_the_runner_grades_without_the_keys_it_does_not_read(tmp_path):
    assert run_written(tmp_path, MISREAD_SUITE)["scores"] == scores_of(MISREAD)


# criterion strings that name a grader type, in the suite's, a test's and a turn's list, and one that does not
KIND_CRITERIA = ("assertions:\n  - contains\ntests:\n  - id: a\n    input: hi\n"
                 "    assertions: [llm_judge, Is-Json, must mention X]\n"
                 "  - {id: conv, mode: conversation, input: hi, turns: [{input: q, assertions: [rubrics]}]}\n")


def test_a_criterion_string_that_names_a_grader_type_is_an_error(tmp_path):
    def then(kind):
        return (f"names the grader type '{kind}', but a string in an assertion list is a criterion: the runner has its "
                f"default grader judge the answer against these words, and no grader of type '{kind}' runs; write "
                f"'- type: {kind}' with its settings\n")
    assert run_concise(write_suite(tmp_path, KIND_CRITERIA), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:5: EV306 [error] criterion 'contains' {then('contains')}"
        f"a.eval.yaml:6:18: EV306 [error] criterion 'llm_judge' {then('llm-grader')}"
        f"a.eval.yaml:6:29: EV306 [error] criterion 'Is-Json' {then('is-json')}"
        f"a.eval.yaml:7:79: EV306 [error] criterion 'rubrics' {then('rubrics')}"), "")


@pytest.mark.runner
def test_the_runner_grades_a_criterion_string_that_names_a_grader_type_as_words(tmp_path):
    ran = run_written(tmp_path, KIND_CRITERIA)
    prompts = {graded["test"]: graded["prompt"] for graded in ran["graded"] if "llm_judge" in graded["prompt"]
               or "rubrics\n" in graded["prompt"]}
    assert "- [rubric-1] (REQUIRED): llm_judge\n- [rubric-2] (REQUIRED): Is-Json\n" in prompts["a"]
    assert "- [criterion-1]: rubrics\n" in prompts["conv/turn-1"]
    assert sum("(REQUIRED): contains\n" in graded["prompt"] for graded in ran["graded"]) == 2


# text graders whose value the runner matches as written, each with what the runner scores its test (the recording
# target answers 'answer N'): a block scalar's line break, which starts-with trims; a regex literal with flags
AS_WRITTEN = {
    "block": ("contains", "|\n          answer\n", 0), "folded": ("icontains-any", "\n          - zzz\n          - >\n"
                                                                  "            ANSWER\n", 0),
    "kept": ("contains", "|-\n          answer\n", 1), "trimmed": ("starts-with", "|\n          answer\n", 1),
    "literal": ("regex", "/ANSWER/i\n", 0), "path": ("regex", "/answer/\n", 0),
}
AS_WRITTEN_SUITE = "tests:\n" + "".join(f"  - id: {test_id}\n    input: q\n    assertions:\n      - type: {kind}\n"
                                        f"        value: {value}" for test_id, (kind, value, _) in AS_WRITTEN.items())


def test_a_text_grader_value_matched_as_written_where_it_looks_like_more_is_a_warning(tmp_path):
    breaks = ("ends with a line break (as a '|' or '>' block scalar ends), which the grader looks for too, so it matches "
              "only where a line break follows the text in the answer; leave it out ('|-' or '>-' in a block scalar)\n")
    assert run_concise(write_suite(tmp_path, AS_WRITTEN_SUITE), "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:6:16: EV316 [warning] contains value 'answer\\n' {breaks}"
        f"a.eval.yaml:14:13: EV316 [warning] icontains-any item 'ANSWER\\n' {breaks}"
        "a.eval.yaml:32:16: EV316 [warning] regex '/ANSWER/i' is written as a JavaScript literal, but the runner takes "
        "'value' as the pattern alone, so the grader looks for the slashes and 'i' as text; write 'value: ANSWER' and "
        "'flags: i'\n"), "")


@pytest.mark.runner
def test_the_runner_matches_a_text_graders_value_as_written(tmp_path):
    assert run_written(tmp_path, AS_WRITTEN_SUITE)["scores"] == {test_id: score for test_id, (_, _, score)
                                                                in AS_WRITTEN.items()}


# regexes written for other engines, with what the runner scores each test (the recording target answers 'answer N'):
# what JavaScript's RegExp without the 'u' flag reads as the characters written, and the same with the flag or in
# JavaScript's own words
FOREIGN_REGEXES = {"end": ("'^answer.*\\Z'", "", 0), "start": ("'\\Aanswer'", "", 0),
                   "posix": ("'^answer [[:digit:]]+$'", "", 0), "property": ("'^\\p{Ll}+ '", "", 0),
                   "unicode": ("'^\\p{Ll}+ '", "\n        flags: u", 1), "plain": ("'^answer.*$'", "", 1)}
FOREIGN_SUITE = "tests:\n" + "".join(f"  - id: {test_id}\n    input: q\n    assertions:\n      - type: regex\n"
                                     f"        value: {value}{flags}\n"
                                     for test_id, (value, flags, _) in FOREIGN_REGEXES.items())


def test_a_regex_written_for_another_engine_is_a_warning(tmp_path):
    def then(piece, meaning, write, engines="PCRE and Python"):
        return (f"holds '{piece}', {meaning} in {engines}, which JavaScript's RegExp (the grader's) reads as the "
                f"characters written, so the grader looks for them; write {write}\n")
    assert run_concise(write_suite(tmp_path, FOREIGN_SUITE), "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:6:16: EV316 [warning] regex '^answer.*\\Z' " + then("\\Z", "the end of the text", "'$'") +
        "a.eval.yaml:11:16: EV316 [warning] regex '\\Aanswer' " + then("\\A", "the start of the text", "'^'") +
        "a.eval.yaml:16:16: EV316 [warning] regex '^answer [[:digit:]]+$' " + then(
            "[:digit:]", "a POSIX class", "a class such as '[0-9]' or '\\d'", "POSIX and PCRE") +
        "a.eval.yaml:21:16: EV316 [warning] regex '^\\p{Ll}+ ' " + then("\\p", "a Unicode property", "'flags: u'", "PCRE")),
        "")


@pytest.mark.runner
def test_the_runner_reads_a_regex_written_for_another_engine_as_javascript_does(tmp_path):
    assert run_written(tmp_path, FOREIGN_SUITE)["scores"] == {test_id: score for test_id, (_, _, score)
                                                             in FOREIGN_REGEXES.items()}
