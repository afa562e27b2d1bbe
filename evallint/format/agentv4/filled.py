"""Where a test's vars fill in a value the loader reads (``rules/template_vars.py``), a problem of that value
says so: the value it quotes is not the one written at its place."""
from __future__ import annotations

from typing import Any

from evallint.format.fields import Problem
from evallint.rules.grader_lists import value_at

NOTHING = object()  # no value at a path (a null is one)


def said_filled(messages: Any, written: dict, filled: dict, at: tuple = ()) -> Any:
    """marshmallow's nested ``messages`` with each problem of a value that the test's vars change (``written``
    and ``filled`` differ at its path) saying so."""
    if isinstance(messages, dict):
        return {key: said_filled(value, written, filled, at + (key,)) for key, value in messages.items()}
    if isinstance(messages, list):
        return [said_filled(message, written, filled, at) for message in messages]
    if isinstance(messages, Problem) and value_at(written, at, NOTHING) != value_at(filled, at, NOTHING):
        return Problem(messages.code, f"with the test's vars filled in, {messages}", messages.target, messages.fix)
    return messages
