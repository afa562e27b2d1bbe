"""What the problems of an AgentV 4.42 suite's default graders say: the loader parses the suite's graders with each
test's (loaders/grader-parser.ts), so a problem for which it skips a test skips each test that gets them."""
from __future__ import annotations

from typing import Any

from evallint.format.agentv4.assertions import SKIPS
from evallint.format.fields import Problem

SKIPS_EACH = "skips each test that gets the suite's graders (all but those with 'execution: {skip_defaults: true}')"


def said_of_suite_defaults(messages: dict) -> dict:
    """A suite's marshmallow ``messages`` with each problem of its default graders that skips a test saying that
    it skips every test that gets them: the loader parses the suite's graders with each test's (grader-parser.ts)."""
    lists = {key: messages[key] for key in ("assertions", "assert") if key in messages}
    execution = messages.get("execution")
    if isinstance(execution, dict):
        lists["execution"] = {**execution, **said_of_suite_defaults({key: execution[key] for key in (
            "assertions", "assert", "evaluators") if key in execution})}
    return {**messages, **{key: _each_test(value) for key, value in lists.items()}}


def _each_test(messages: Any) -> Any:
    if isinstance(messages, dict):
        return {key: _each_test(value) for key, value in messages.items()}
    if isinstance(messages, list):
        return [_each_test(message) for message in messages]
    if isinstance(messages, Problem) and messages.endswith(SKIPS):
        return Problem(messages.code, messages[:-len(SKIPS)] + SKIPS_EACH, messages.target, messages.fix)
    return messages
