"""EV132: the AgentV 4.42 run settings that never act on a conversation test (orchestrator.ts runConversationMode).
The result of a conversation carries no cost, so neither the suite's 'budget_usd' nor trials' 'cost_limit_usd'
counts what one costs; and the run catches its target's failure in each turn, which it scores 0, so a failing
target never ends a conversation in the execution error that 'fail_on_error' halts the run on and that skips (or
fails) a test depending on it (a failure of its workspace's setup still does). The run goes as written, so it is a
warning."""
from __future__ import annotations

from typing import Iterator

from evallint.diagnostics import KEY
from evallint.rules.common import finding, is_finite_number
from evallint.rules.grader_lists import first_list, plays_turns
from evallint.rules.trial_passes import repeats
from evallint.rules.kept_tests import kept_by_loader
from evallint.suggest import quote

TURN_ERRORS = "when its target fails, the runner scores that turn 0 and goes on"


def check_conversation_limits(suite: dict, place) -> Iterator:
    """EV132 at each of the suite's run settings that cannot act on its conversation tests (those the loader keeps)."""
    tests = suite.get("tests") if isinstance(suite.get("tests"), list) else []
    talks = [test["id"] for test in tests if plays_turns(test) and isinstance(test.get("id"), str)
             and kept_by_loader(test, suite=suite)]
    if not talks:
        return
    named = f"the conversation test {quote(talks[0])}" if len(talks) == 1 else \
        f"the conversation tests {quote(talks[0])} and {len(talks) - 1} more"
    execution = suite.get("execution") if isinstance(suite.get("execution"), dict) else {}
    trials = execution.get("trials") if isinstance(execution.get("trials"), dict) else {}
    budget = _first(execution, ("budget_usd", "budgetUsd"), _positive)
    if budget:
        yield finding("EV132", f"{quote(budget)} never counts the cost of {named}: the runner reports no cost for a "
                      "conversation, so the budget stops the run on the other tests' costs alone",
                      ("execution", budget), KEY)
    limit = _first(trials, ("cost_limit_usd", "costLimitUsd"), _positive)
    if limit and repeats(execution):
        yield finding("EV132", f"trials {quote(limit)} never stops the trials of {named}: the runner reports no cost "
                      "for a conversation, so every trial runs", ("execution", "trials", limit), KEY)
    halts = _first(execution, ("fail_on_error", "failOnError"), lambda value: value is True)
    if halts:
        yield finding("EV132", f"{quote(halts)} never halts the run on a failure of the target of {named}: "
                      f"{TURN_ERRORS}", ("execution", halts), KEY)
    yield from _waiting_on(tests, set(talks))


def _waiting_on(tests: list, talks: set) -> Iterator:
    """EV132 at each 'depends_on' id that names a conversation test, of a test that a failed dependency skips or
    fails (on_dependency_failure 'skip', the default, or 'fail')."""
    for i, test in enumerate(tests):
        ids = test.get("depends_on") if isinstance(test, dict) else None
        if not isinstance(ids, list) or test.get("on_dependency_failure") == "run":
            continue
        for j, name in enumerate(ids):
            if isinstance(name, str) and name in talks:
                yield finding("EV132", f"'depends_on' names the conversation test {quote(name)}, which a failure of its "
                              f"target never fails in the way this test waits for: {TURN_ERRORS}, so this test runs "
                              "though the target failed", ("tests", i, "depends_on", j))


def _first(mapping: dict, keys: tuple, holds) -> str:
    """The first of ``keys`` the runner reads in ``mapping`` ('a ?? b': ``first_list``) when what it holds is
    ``holds``; else ''."""
    path = first_list(mapping, tuple((key,) for key in keys))
    return path[0] if path is not None and holds(mapping[path[0]]) else ""


def _positive(value) -> bool:
    return is_finite_number(value) and value > 0
