"""Checks shared by several rule families: unknown keys, numbers, text."""
from __future__ import annotations

import math
from typing import Any, Collection, Optional

from evallint.diagnostics import KEY
from evallint.rules.collect import report
from evallint.suggest import did_you_mean

def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_finite_number(value: Any) -> bool:
    return is_number(value) and not (isinstance(value, float) and (math.isnan(value) or math.isinf(value)))


def is_text(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def check_unknown_keys(mapping: dict, known: Collection[str], at: tuple, where: str, skip: Collection[str] = (),
                       code: str = "EV109", notes: Optional[dict] = None) -> None:
    """Report each key not in ``known`` (nor in ``skip``) at the key, with a "did you mean" or the list of
    known keys; ``notes`` adds a sentence for particular keys. Keys that are no strings are evallint's own
    (``collect.AT``) or reported elsewhere."""
    for key in mapping:
        if not isinstance(key, str) or key in known or key in skip:
            continue
        hint = did_you_mean(key, known) or " (known keys: " + ", ".join(sorted(known)) + ")"
        note = (notes or {}).get(key, "")
        report(code, f"unknown key '{key}' in {where}{hint}{note}", at + (key,), KEY)
