"""Numbers as the runner reads them: JavaScript holds every number as a double."""
from __future__ import annotations

import math


def as_float(value: int | float) -> float:
    """``value`` as a double: an integer beyond the double's range is infinite, as the runner's parser makes
    it (Python's ``float`` raises instead)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def decimal_int(text: str) -> int | float:
    """A decimal integer's text as a number: beyond Python's digit limit for ``int``, a float (the runner
    holds every number as a double anyway)."""
    return float(text) if len(text.lstrip("+-")) > 4000 else int(text, 10)
