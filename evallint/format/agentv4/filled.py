"""Where a test's vars fill in a value the loader reads (``rules/template_vars.py``), a problem of that value
says so: the value it quotes is not the one written at its place."""
from __future__ import annotations

from typing import Any

from evallint.format.fields import Problem


def said_filled(messages: Any, written: dict, filled: dict, at: tuple = ()) -> Any:
    """marshmallow's nested ``messages`` with each problem of a value that the test's vars change (``written``
    and ``filled`` differ at its path) saying so."""
    if isinstance(messages, dict):
        return {key: said_filled(value, written, filled, at + (key,)) for key, value in messages.items()}
    if isinstance(messages, list):
        return [said_filled(message, written, filled, at) for message in messages]
    if isinstance(messages, Problem) and _held(written, at) != _held(filled, at):
        return Problem(messages.code, f"with the test's vars filled in, {messages}", messages.target, messages.fix)
    return messages


_NOTHING = object()  # no value at a path


def _held(data: Any, path: tuple) -> Any:
    for step in path:
        if isinstance(data, dict) and step in data:
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return _NOTHING
    return data
