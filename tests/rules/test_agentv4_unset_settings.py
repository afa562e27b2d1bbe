"""Execution settings the runner reads as unset: a null one, which it takes for one not written, and a word of
another case whose default is that word (EV130, a warning), which it does not read."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import write_suite
from clirun import run_concise

NULLS = ("execution:\n"
         "  threshold: null\n  workers: null\n  fail_on_error: null\n  cache: null\n"
         "  trials: {count: 2, strategy: null, cost_limit_usd: null}\n"
         "tests:\n"
         "  - {id: t, input: hi, criteria: c, execution: {threshold: null}}\n")
CASES = ("execution:\n  trials: {count: 2, strategy: Pass_At_K}\n"
         "tests:\n"
         "  - {id: setup, input: hi, criteria: c}\n"
         "  - {id: login, input: hi, criteria: c, depends_on: [setup], on_dependency_failure: Skip}\n"
         "  - {id: late, input: hi, criteria: c, depends_on: [setup], on_dependency_failure: Run}\n")


@pytest.mark.parametrize("text", [NULLS, "execution:\ntests:\n  - {id: t, input: hi, criteria: c}\n"])
def test_a_null_execution_setting_is_one_not_written(tmp_path, text):
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml") == (0, "", "")


def test_the_default_in_another_case_is_a_warning_and_another_word_an_error(tmp_path):
    said = "the runner takes the value only as written, so it uses its default"
    assert run_concise(write_suite(tmp_path, CASES), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:32: EV130 [warning] 'Pass_At_K' is not read: {said}, 'pass_at_k', which is what 'Pass_At_K' "
        "says; write 'pass_at_k'\n"
        f"a.eval.yaml:5:85: EV130 [warning] 'Skip' is not read: {said}, 'skip', which is what 'Skip' says; write 'skip'\n"
        "a.eval.yaml:6:84: EV110 [error] invalid on_dependency_failure 'Run' (did you mean 'run'?); the runner ignores "
        "it; expected one of 'skip', 'fail', 'run'\n"), "")


@pytest.mark.runner
def test_the_loader_takes_nulls_and_words_of_another_case_for_unset(tmp_path):
    loaded = load_tests(write_suite(tmp_path, NULLS), ["a.eval.yaml"])["a.eval.yaml"]
    assert ([test["id"] for test in loaded["tests"]], loaded["logs"]) == (["t"], [])
    loaded = load_tests(write_suite(tmp_path, CASES), ["a.eval.yaml"])["a.eval.yaml"]
    assert [test.get("on_dependency_failure") for test in loaded["tests"]] == [None, None, None]
    assert loaded["logs"] == ["Warning: Invalid trials.strategy: 'Pass_At_K'. Must be one of: pass_at_k, mean, "
                              "confidence_interval. Defaulting to pass_at_k."]
