"""EV134: an AgentV 4.42 workspace's 'after_each' hook beside a code-grader. The run resets the workspace as the
hook's 'reset' says and runs its command after the agent answers and before it grades the answer (orchestrator.ts:
the target's 'after_each', the reset, the workspace's 'after_each', then the graders), so a code-grader that
inspects the workspace finds it as the hook leaves it. The file changes an llm-grader is shown are taken before.
The run goes as written, so it is a warning."""
from __future__ import annotations

from typing import Any, Iterator, Optional

from evallint.diagnostics import KEY
from evallint.rules.common import finding
from evallint.rules.grader_lists import members_of, normal_type, plays_turns, test_graders
from evallint.rules.kept_tests import kept_by_loader
from evallint.rules.workspace_kept import command_of
from evallint.suggest import quote


def check_after_each(hooks: dict, place) -> Iterator:
    """EV134 at the 'after_each' of a suite's workspace hooks (of a test's), when a test it runs for (that test)
    gets a code-grader; the caller asks only of hooks that are on."""
    hook = hooks.get("after_each")
    if not isinstance(hook, dict) or not _changes_the_workspace(hook):
        return
    document = place.document if isinstance(place.document, dict) else {}
    tests = document.get("tests") if isinstance(document.get("tests"), list) else []
    if place.at == ("workspace", "hooks"):
        graded = next((test for test in tests if _hooks_on(test) and _code_grader(document, test)), None)
    elif len(place.at) == 4 and place.at[0] == "tests" and isinstance(place.at[1], int) and place.at[1] < len(tests):
        test = tests[place.at[1]]
        graded = test if _code_grader(document, test) else None
    else:
        return
    if graded is not None:
        what = "resets the workspace" if command_of(hook) is None else "runs its command"
        yield finding("EV134", f"'after_each' {what} before the runner grades the answer, not after: the code-grader of "
                      f"test {quote(graded['id'])} that inspects the workspace finds it as the hook leaves it; do in "
                      "'after_each' only what the grading does not need, and check the agent's work in the grader",
                      place.at + ("after_each",), KEY)


def _changes_the_workspace(hook: dict) -> bool:
    return command_of(hook) is not None or hook.get("reset") in ("fast", "strict")


def _hooks_on(test: Any) -> bool:
    """Whether a test runs the suite's hooks: its own workspace does not turn them off."""
    own = test.get("workspace") if isinstance(test, dict) else None
    hooks = own.get("hooks") if isinstance(own, dict) else None
    return not (isinstance(hooks, dict) and hooks.get("enabled") is False)


def _code_grader(document: dict, test: Any) -> Optional[dict]:
    """The first code-grader (a composite's member too) that a test the loader keeps, not played as a conversation,
    gets; None without one."""
    if not isinstance(test, dict) or not isinstance(test.get("id"), str) or plays_turns(test) \
            or not kept_by_loader(test, suite=document):
        return None
    pending = list(test_graders(document, test))
    while pending:
        grader = pending.pop(0)
        kind = normal_type(grader["type"]) if isinstance(grader, dict) and isinstance(grader.get("type"), str) else None
        if kind == "code-grader":
            return grader
        if kind == "composite":
            pending += members_of(grader)[1]
    return None
