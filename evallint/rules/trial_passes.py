"""EV131: an AgentV 4.42 suite's trials under 'pass_at_k', the default strategy, beside a threshold other than the
grader's 0.8. The run counts a trial as passed at a score of 0.8 whatever the threshold says (orchestrator.ts
runEvalCaseWithTrials: scoreToVerdict without it) and stops at the first passed trial, while the test's own verdict
reads the threshold: a stricter one stops the trials at a score that fails the test, a looser one runs every trial
after one that passes it. The run goes as written, so it is a warning."""
from __future__ import annotations

from typing import Iterator

from evallint.diagnostics import KEY
from evallint.rules.common import finding, is_finite_number
from evallint.rules.kept_tests import kept_by_loader

TRIAL_PASS = 0.8  # graders/scoring.ts DEFAULT_THRESHOLD, the score at which a trial counts as passed
OTHER_STRATEGIES = ("mean", "confidence_interval")  # any other value is read as 'pass_at_k' (EV110, EV130)


def repeats(execution) -> bool:
    """Whether a suite's 'execution' runs each test more than once: its trials' 'count' is an integer above 1 (the
    runner ignores trials of another count: EV110)."""
    trials = execution.get("trials") if isinstance(execution, dict) else None
    count = trials.get("count") if isinstance(trials, dict) else None
    return is_finite_number(count) and count == int(count) and count > 1


def check_trial_threshold(suite: dict, place) -> Iterator:
    """EV131 at the suite's threshold when a test without its own uses it, and at each test's own."""
    execution = suite.get("execution")
    if not repeats(execution) or execution["trials"].get("strategy") in OTHER_STRATEGIES:
        return
    tests = [(i, test) for i, test in enumerate(suite.get("tests") if isinstance(suite.get("tests"), list) else ())
             if kept_by_loader(test, suite=suite)]
    own = {i: test["execution"]["threshold"] for i, test in tests if isinstance(test.get("execution"), dict)
           and _threshold(test["execution"].get("threshold")) is not None}
    suites = _threshold(execution.get("threshold"))
    if suites is not None and suites != TRIAL_PASS and any(i not in own for i, _ in tests):
        yield _finding(suites, ("execution", "threshold"))
    for i, threshold in own.items():
        if threshold != TRIAL_PASS:
            yield _finding(threshold, ("tests", i, "execution", "threshold"))


def _threshold(value):
    """A threshold the runner reads: a number from 0 to 1 (another is EV110)."""
    return value if is_finite_number(value) and 0 <= value <= 1 else None


def _finding(threshold, at: tuple):
    if threshold > TRIAL_PASS:
        then = (f"the runner stops at the first trial that scores from {TRIAL_PASS} to {threshold}, which fails the "
                "test, and runs none of the other trials")
    else:
        then = (f"a trial that scores from {threshold} to {TRIAL_PASS} passes the test but not the trial, so the runner "
                "goes on running the other trials")
    return finding("EV131", f"with trials under 'pass_at_k' (the default strategy), a trial counts as passed at "
                   f"{TRIAL_PASS}, not at this threshold {threshold}: {then}; set trials 'strategy: mean', or the "
                   f"threshold {TRIAL_PASS}", at, KEY)
