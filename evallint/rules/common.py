"""Checks shared by several rule families: unknown keys, field types, numbers."""
from __future__ import annotations

import math
from typing import Any, Collection, Optional

from ..diagnostics import KEY
from ..suggest import did_you_mean, found
from ..schemas.context import report


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
    for key in mapping:
        if key not in known and key not in skip and isinstance(key, str):
            break
    else:
        return  # the usual case: every key known, nothing built
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
