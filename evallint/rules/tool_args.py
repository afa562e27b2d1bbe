"""How an AgentV 4.42 tool-trajectory grader compares an expected call's arguments by a list of field paths
('args_match'): the fields such a list names that compare nothing (EV314, declared with the other evaluator rules in
``evaluators.py``)."""
from __future__ import annotations

import re
from typing import Iterator, Optional

from evallint.rules.common import finding
from evallint.rules.grader_lists import named_by_parts, value_at
from evallint.suggest import quote


def check_args_fields(ev: dict, place, modes: tuple = ()) -> Iterator:
    """EV314 for a field an AgentV 4.42 tool-trajectory's list 'args_match' (its own, or an expected call's in its
    place) names in no expected call's args that the list is used for: the grader compares a listed field only where
    the expected args hold it, reading its path split at '.' alone (tool-trajectory.ts getNestedValue), so such a
    field compares nothing. A mode written in the list (``modes``) is the list field's own finding."""
    for at, held in _args_fields_held(ev).items():
        for j, field in enumerate(value_at(ev, at)):
            if not held[j] and field not in modes:
                dotted = _BRACKETS.sub(r".\1", field)
                spelt = f" (it splits a path at '.' alone: write {quote(dotted)})" if dotted != field else ""
                yield finding("EV314", f"args_match field {quote(field)} names no argument of the expected calls it is "
                              "used for: the grader compares a listed field only where the expected args hold it, so "
                              f"it compares nothing{spelt}", place.at + at + (j,))


def _args_fields_held(ev: dict) -> dict:
    """{where a list 'args_match' is written: whether an expected call it is used for holds each of its fields}."""
    seen: dict = {}
    own = next((key for key in ("args_match", "argsMatch") if isinstance(ev.get(key), list)), None)
    expected = ev.get("expected")
    for i, item in enumerate(expected if isinstance(expected, list) else ()):
        at = _list_used(item, i, own) if isinstance(item, dict) and isinstance(item.get("args"), dict) else None
        fields = value_at(ev, at) if at else None
        if not isinstance(fields, list):
            continue
        held = seen.setdefault(at, [False] * len(fields))
        for j, field in enumerate(fields):
            held[j] = held[j] or not isinstance(field, str) or \
                named_by_parts(item["args"], field.split("."), _NO_ARG) is not _NO_ARG  # getNestedValue splits at '.
    return seen


def _list_used(item: dict, i: int, own: Optional[str]) -> Optional[tuple]:
    """Where the list 'args_match' used for the expected call ``item`` (the i-th) is written: its own, else the
    assertion's (``own``: its key); None when the call uses a mode."""
    key = next((key for key in ("args_match", "argsMatch") if key in item), None)
    if key is not None:
        return ("expected", i, key) if isinstance(item[key], list) else None
    return (own,) if own else None


_NO_ARG = object()
_BRACKETS = re.compile(r"\[(\d+)\]")

