"""Edge cases of a 4.42 suite where evallint is checked against what AgentV 4.42.4's loader does with the same
files: a blank id, a null grader list alone, a folder of tests, a file of tests that several suites name."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import model_tests, runner_tests, write_suite
from clirun import run_concise

BLANK_IDS = ("tests:\n"
             "  - {id: ' ', input: hi, criteria: c}\n"
             "  - {id: ' x ', input: hi, criteria: c}\n")


def test_an_id_of_spaces_is_kept_as_written_only_an_empty_one_is_refused(tmp_path):
    assert run_concise(write_suite(tmp_path, BLANK_IDS), "--no-cache", "a.eval.yaml") == (0, "", "")
    assert [test[0] for test in model_tests(tmp_path, "a.eval.yaml")] == [" ", " x "]
    write_suite(tmp_path, BLANK_IDS + "  - {id: '', input: hi, criteria: c}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:4:10: EV103 [error] case 'id' is an empty string; every case needs a unique string id\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_a_test_whose_id_is_only_spaces_and_skips_an_empty_one(tmp_path):
    write_suite(tmp_path, BLANK_IDS)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")
    write_suite(tmp_path, BLANK_IDS + "  - {id: '', input: hi, criteria: c}\n")
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert ([test["id"] for test in loaded["tests"]], loaded["logs"]) == ([" ", " x "], [
        "Error: Skipping incomplete test: . Missing required fields: id, input, and at least one of "
        "criteria/expected_output/assertions/turns"])


NULL_LISTS_ALONE = (
    "tests:\n"
    "  - {id: nothing-else, input: hi, assertions: null}\n"
    "  - {id: with-criteria, input: hi, criteria: c, assert: null}\n"
    "  - {id: evaluators-after, input: hi, assertions: null, evaluators: [{type: contains, value: x}]}\n"
    "  - {id: last-list-null, input: hi, criteria: c, evaluators: null}\n"
    "  - {id: not-graded, input: hi, execution: {evaluators: null}}\n")


def test_a_null_grader_list_alone_is_absent_but_for_the_last_one_the_loader_tries(tmp_path):
    """A null 'assertions' or 'assert' holds no grader and is no list the runner skips (no EV306), yet makes the
    test complete; only a null in the last list of the loader's '??' chain is what it reads, and warns of."""
    assert run_concise(write_suite(tmp_path, NULL_LISTS_ALONE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:5:62: EV306 [error] 'evaluators' must be a list of assertions, found null; the runner skips "
        "them\n"
        "a.eval.yaml:6:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
        "runner skips it as incomplete\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_a_test_whose_only_grader_list_is_null(tmp_path):
    write_suite(tmp_path, NULL_LISTS_ALONE)
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert ([(test["id"], [a["name"] for a in test.get("assertions") or ()]) for test in loaded["tests"]],
            loaded["logs"]) == ([("nothing-else", []), ("with-criteria", []), ("evaluators-after", ["contains-x"]),
                                 ("last-list-null", [])], [
        "Warning: Skipping evaluators for 'last-list-null': expected array",
        "Error: Skipping incomplete test: not-graded. Missing required fields: id, input, and at least one of "
        "criteria/expected_output/assertions/turns"])
    write_suite(tmp_path, NULL_LISTS_ALONE.rsplit("  - ", 2)[0])  # the tests evallint finds no error in
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")


NULL_LINES = ('{"id": "l1", "input": "hi", "criteria": "c", "execution": {"evaluators": null}}\n'
              '{"id": "l2", "input": "hi", "assert": null}\n'
              '{"id": "l3", "input": "hi", "criteria": "c", "assertions": null}\n')


def test_a_dataset_lines_null_list_is_reported_only_where_the_loader_reads_it(tmp_path):
    """A line's 'execution.evaluators' is the last list of its default graders' chain: null there is what the
    loader reads, and warns of; a null 'assert' makes the line complete."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "d.jsonl").write_text(NULL_LINES)
    assert run_concise(tmp_path, "--no-cache", "d.jsonl") == (1, (
        "d.jsonl:1:74: EV306 [error] 'execution.evaluators' must be a list of assertions, found null; the runner "
        "skips them\n"), "")


@pytest.mark.runner
def test_the_runner_warns_of_a_dataset_lines_null_default_list_alone(tmp_path):
    (tmp_path / "d.jsonl").write_text(NULL_LINES)
    loaded = load_tests(tmp_path, ["d.jsonl"])["d.jsonl"]
    assert ([test["id"] for test in loaded["tests"]], loaded["logs"]) == (
        ["l1", "l2", "l3"], ["Warning: Skipping evaluators for 'l1': expected array"])
