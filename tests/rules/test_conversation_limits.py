"""EV132: the run settings that never act on a conversation test, checked against AgentV 4.42.4's runEvaluation given
the suite's budget, trials and fail_on_error as the agentv command gives them, on a target that costs $0.001 a call."""
from __future__ import annotations

import pytest

from agreement import run_written, write_suite
from clirun import run_concise

CONVERSATION = "mode: conversation, input: hi, turns: [{input: q, assertions: [Says hi]}]"
LIMITS = ("execution:\n  budget_usd: 0.001\n  fail_on_error: true\n  trials: {count: 2, strategy: mean, cost_limit_usd: 0.001}\n"
          "tests:\n"
          f"  - {{id: c1, {CONVERSATION}}}\n"
          f"  - {{id: c2, {CONVERSATION}}}\n"
          "  - {id: p1, input: hi, criteria: c, depends_on: [c1]}\n"
          "  - {id: p2, input: hi, criteria: c, depends_on: [c1], on_dependency_failure: run}\n")
TURN_ERRORS = "when its target fails, the runner scores that turn 0 and goes on"


def test_a_run_setting_that_never_acts_on_a_conversation_test_is_a_warning(tmp_path):
    named = "the conversation tests 'c1' and 1 more"
    assert run_concise(write_suite(tmp_path, LIMITS), "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:2:3: EV132 [warning] 'budget_usd' never counts the cost of {named}: the runner reports no cost for "
        "a conversation, so the budget stops the run on the other tests' costs alone\n"
        f"a.eval.yaml:3:3: EV132 [warning] 'fail_on_error' never halts the run on a failure of the target of {named}: "
        f"{TURN_ERRORS}\n"
        f"a.eval.yaml:4:38: EV132 [warning] trials 'cost_limit_usd' never stops the trials of {named}: the runner reports "
        "no cost for a conversation, so every trial runs\n"
        "a.eval.yaml:8:51: EV132 [warning] 'depends_on' names the conversation test 'c1', which a failure of its target "
        f"never fails in the way this test waits for: {TURN_ERRORS}, so this test runs though the target failed\n"), "")


def test_a_dependency_that_is_no_name_beside_a_conversation_is_ev110_alone(tmp_path):
    text = LIMITS.replace("depends_on: [c1]}", "depends_on: [c1, {a: 1}, [x]]}", 1)
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "--select", "EV110", "a.eval.yaml") == (1, (
        "a.eval.yaml:8:55: EV110 [error] an item of 'depends_on' must be a string, found a mapping; the runner drops it\n"
        "a.eval.yaml:8:63: EV110 [error] an item of 'depends_on' must be a string, found a list; the runner drops it\n"),
        "")


@pytest.mark.parametrize("text", [
    LIMITS.replace("mode: conversation, ", ""),  # no conversation: the turns are not played (EV121)
    "execution:\n  fail_on_error: false\n  trials: {count: 1, cost_limit_usd: 0.001}\ntests:\n"
    f"  - {{id: c1, {CONVERSATION}}}\n",
])
def test_run_settings_of_a_suite_without_a_conversation_or_that_cannot_act_are_no_finding(tmp_path, text):
    assert "EV132" not in run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml")[1]


@pytest.mark.runner
def test_the_runner_counts_no_cost_of_a_conversation_test(tmp_path):
    """Each conversation calls its target once in each of its two trials, at $0.001 a call: neither the budget nor the
    trials' cost limit, both $0.001, stops it; a plain test's first trial reaches both."""
    ran = run_written(tmp_path, LIMITS)
    assert ran["error"] is None
    assert [sent["test"] for sent in ran["sent"]] == ["c1/turn-1", "c1/turn-1", "c2/turn-1", "c2/turn-1", "p1"]
    assert ran["failed"] == {"p2": "Suite budget exceeded ($0.0010 / $0.0010)"}
