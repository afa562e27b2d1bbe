"""Numbers as the runner reads them: JavaScript holds every number as a double."""
from __future__ import annotations

import math
import re
from typing import Optional


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


# JavaScript's white space and line terminators: what String.prototype.trim() and Number() cut from a text
JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000\ufeff"


def js_trim(text: str) -> str:
    """``text`` as String.prototype.trim() leaves it (Python's ``strip()`` cuts other characters, such as \\x1c, and
    keeps a byte order mark)."""
    return text.strip(JS_WHITESPACE)


_JS_SPACE = "[" + "".join(f"\\u{ord(char):04x}" for char in JS_WHITESPACE) + "]*"
# a text JavaScript's Number() makes a number of: a decimal, or a hexadecimal, octal or binary literal without a
# sign, or nothing (0), between white space; written for Python's re and a JSON Schema's pattern alike
NUMBER_TEXT = (_JS_SPACE + r"(?:([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)|0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)"
               r"|0[bB]([01]+))?" + _JS_SPACE)
_NUMBER_TEXT = re.compile(NUMBER_TEXT + r"\Z")


def js_number(text: str) -> Optional[float]:
    """What Number() makes of ``text`` when that is finite; None for NaN or an infinity."""
    match = _NUMBER_TEXT.match(text)
    if match is None:
        return None
    decimal, *based = match.groups()
    try:
        number = float(decimal) if decimal else next((float(int(digits, base)) for digits, base in zip(based, (16, 8, 2))
                                                      if digits), 0.0)
    except OverflowError:  # a literal beyond a double's range, which Number() makes Infinity
        return None
    return number if math.isfinite(number) else None
