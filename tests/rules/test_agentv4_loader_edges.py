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
