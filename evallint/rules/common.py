"""Checks shared by several rule families: unknown keys, field types, numbers."""
from __future__ import annotations

import math
from typing import Any, Collection, Optional

from evallint.diagnostics import KEY
from evallint.rules.collect import AT, CONTENT_AT, report
from evallint.suggest import did_you_mean, found

# (known keys, keys skipped) -> every key a mapping may hold without a finding, its data path's keys too
_ACCEPTED: dict = {}


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_finite_number(value: Any) -> bool:
    return is_number(value) and not (isinstance(value, float) and (math.isnan(value) or math.isinf(value)))


def is_text(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def check_unknown_keys(mapping: dict, known: Collection[str], at: tuple, where: str, skip: Collection[str] = (),
                       code: str = "EV109", notes: Optional[dict] = None) -> None:
    """Report each key not in ``known`` at the key, with a "did you mean" or the
    list of known keys; ``notes`` adds a sentence for particular keys."""
    try:
        accepted = _ACCEPTED.get((known, skip))
    except TypeError:  # a list of keys: looked at key by key
        accepted = None
    else:
        if accepted is None:
            if len(_ACCEPTED) >= 256:
                _ACCEPTED.clear()
            accepted = _ACCEPTED[(known, skip)] = frozenset(known) | frozenset(skip) | {AT, CONTENT_AT}
    if accepted is not None and accepted.issuperset(mapping):
        return  # the usual case, answered in one call: every key known
    for key in mapping:
        if key not in known and key not in skip and isinstance(key, str):
            break
    else:
        return  # every key known (or no string)
    known = tuple(known)
    for key in mapping:
        if key in known or key in skip or not isinstance(key, str):
            continue
        hint = did_you_mean(key, known)
        if not hint:
            hint = " (known keys: " + ", ".join(sorted(known)) + ")"
        note = (notes or {}).get(key, "")
        report(code, f"unknown key '{key}' in {where}{hint}{note}", at + (key,), KEY)


def check_string(mapping: dict, key: str, at: tuple, where: str) -> bool:
    """EV110 unless ``mapping[key]`` is a string; True when usable."""
    if key not in mapping:
        return False
    value = mapping[key]
    if isinstance(value, str):
        return True
    report("EV110", f"'{key}' in {where} must be a string, {found(value)}", at + (key,))
    return False
