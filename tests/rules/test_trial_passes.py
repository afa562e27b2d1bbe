"""EV131: trials under 'pass_at_k' beside a threshold other than 0.8, checked against AgentV 4.42.4's runEvaluation
given the suite's trials and threshold as the agentv command gives them."""
from __future__ import annotations

import json

import pytest

from agreement import run_written, write_suite
from clirun import run_concise

# (the suite's execution, a test's own execution or ''): a stricter threshold, a looser one, each in both places
TRIALS = "execution:\n  trials: {count: 3%s}\n%s" + "tests:\n  - {id: t, input: hi, criteria: c%s}\n"
STRICT_SAYS = ("the runner stops at the first trial that scores from 0.8 to 0.95, which fails the test, and runs none "
               "of the other trials")
LOOSE_SAYS = ("a trial that scores from 0.5 to 0.8 passes the test but not the trial, so the runner goes on running "
              "the other trials")


def _said(threshold: str, then: str) -> str:
    return (f"EV131 [warning] with trials under 'pass_at_k' (the default strategy), a trial counts as passed at 0.8, "
            f"not at this threshold {threshold}: {then}; set trials 'strategy: mean', or the threshold 0.8\n")


@pytest.mark.parametrize("text,expected", [
    (TRIALS % ("", "  threshold: 0.95\n", ""), "a.eval.yaml:3:3: " + _said("0.95", STRICT_SAYS)),
    (TRIALS % (", strategy: pass_at_k", "", ", execution: {threshold: 0.5}"), "a.eval.yaml:4:49: " + _said("0.5", LOOSE_SAYS)),
    (TRIALS % (", strategy: mean", "  threshold: 0.95\n", ""), ""),
    (TRIALS % ("", "  threshold: 0.8\n", ", execution: {threshold: 0.8}"), ""),
    (TRIALS % ("", "  threshold: 0.95\n", ", execution: {threshold: 0.8}"), ""),  # the test's own applies
    ("execution:\n  trials: {count: 1}\n  threshold: 0.95\ntests:\n  - {id: t, input: hi, criteria: c}\n", ""),
])
def test_a_threshold_other_than_a_trials_pass_under_pass_at_k_is_a_warning(tmp_path, text, expected):
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml") == (0, expected, "")


# what the recording grader scores each trial
GRADE = json.dumps({"score": 0.85, "assertions": [{"text": "ok", "passed": True}], "overall_reasoning": "r"})


@pytest.mark.runner
@pytest.mark.parametrize("settings,trials,score", [
    (("", "  threshold: 0.95\n", ""), 1, 0.85),  # stopped at a trial that fails the test
    ((", strategy: mean", "  threshold: 0.95\n", ""), 3, 0.85),
    (("", "  threshold: 0.8\n", ""), 1, 0.85),
])
def test_the_runner_stops_pass_at_k_trials_at_a_score_of_0_8_whatever_the_threshold(tmp_path, settings, trials, score):
    ran = run_written(tmp_path, TRIALS % settings, grade=GRADE)
    assert (ran["error"], len(ran["graded"]), ran["scores"]) == (None, trials, {"t": score})
