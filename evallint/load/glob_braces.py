"""The braces of the glob patterns of an AgentV 4.42.4 suite's ``file://`` items of 'tests', read as fast-glob's brace
expansion reads them (the 'braces' package): the words of a list (``{a,b}``), the items of a range (``{1..3}``), and the
ranges it refuses to expand."""
from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Optional

RANGE_LIMIT = 1000  # fast-glob refuses a range of numbers without a step whose last is this far above its first
_RANGE = re.compile(r"(-?[0-9]{1,7}|[A-Za-z])\.\.(-?[0-9]{1,7}|[A-Za-z])(?:\.\.(-?[0-9]{1,7}))?")
_NUMBER_RANGE = re.compile(r"\{(-?[0-9]+)\.\.(-?[0-9]+)\}")
# a range of more items (reversed or with a step, which fast-glob expands) is matched as any number: the pattern
# may then match a file the runner's does not, never miss one it matches
MANY = 1000


def refused_range(pattern: str) -> Optional[str]:
    """The first brace range of ``pattern`` that fast-glob refuses to expand, so that the runner rejects the suite
    ('expanded array length exceeds range limit'): one of numbers, without a step, whose last is ``RANGE_LIMIT`` or
    more above its first, as doubles (a reversed or stepped one is never refused, nor one of a number beyond a
    double's range). Braces after a '$' or in a character class are no range."""
    for found in _NUMBER_RANGE.finditer(pattern):
        before = pattern[:found.start()]
        if before.endswith("$") or before.rfind("[") > before.rfind("]"):
            continue
        low, high = float(found.group(1)), float(found.group(2))
        if math.isfinite(low) and math.isfinite(high) and high - low >= RANGE_LIMIT:
            return found.group(0)
    return None


TOO_MANY = "too many"  # a range of more than ``MANY`` items


def range_items(body: str):
    """The items of the range ``{body}`` (``{1..3}``, ``{01..10}`` padded, ``{a..c}``, with a step: ``{0..10..5}``),
    in fast-glob's order; none for one fast-glob refuses; ``TOO_MANY``; None when ``body`` is no range."""
    found = _RANGE.fullmatch(body)
    if found is None or found.group(1).isalpha() != found.group(2).isalpha():
        return None
    low, high, step = found.groups()
    if refused_range("{" + body + "}"):
        return []
    step = abs(int(step or 1)) or 1
    first, last = (ord(low), ord(high)) if low.isalpha() else (int(low), int(high))
    numbers = range(first, last + 1, step) if first <= last else range(first, last - 1, -step)  # from the first
    if len(numbers) > MANY:
        return TOO_MANY
    # padded when a number or the step is written with a leading zero, to the longest of them
    written = (low, high, found.group(3) or "")
    width = max(map(len, written)) if any(re.match(r"-?0[0-9]", text) for text in written) else 0
    return [chr(n) for n in numbers] if low.isalpha() else [str(n).zfill(width) for n in numbers]


def list_words(body: str) -> list:
    """``body`` cut at its commas outside nested braces."""
    words, depth, start = [], 0, 0
    for at, c in enumerate(body):
        depth += 1 if c == "{" else -1 if c == "}" else 0
        if c == "," and depth == 0:
            words.append(body[start:at])
            start = at + 1
    return words + [body[start:]]


def closing(text: str, start: int) -> int:
    """Where the brace of ``text`` that opens at ``start`` closes (-1: it does not)."""
    return _pairs(text).get(start, -1)


@lru_cache(maxsize=64)
def _pairs(text: str) -> dict:
    """{where a brace of ``text`` opens: where it closes} of each that closes, from one reading of ``text``."""
    pairs, opened = {}, []
    for at, c in enumerate(text):
        if c == "{":
            opened.append(at)
        elif c == "}" and opened:
            pairs[opened.pop()] = at
    return pairs


BRACES_LONGEST = 10000  # the longest pattern holding braces that fast-glob's brace expansion reads ('braces')
LONGEST = 65536  # the longest pattern its matcher reads ('picomatch')


def refused_length(pattern: str) -> Optional[str]:
    """The error fast-glob throws for the absolute ``pattern`` because of its length in JavaScript's characters
    (UTF-16 code units), so that the runner rejects the suite: of one holding a '{' and a '}' after it, longer than
    ``BRACES_LONGEST``, or of any longer than ``LONGEST``; None when it reads it."""
    length = len(pattern.encode("utf-16-le", "surrogatepass")) // 2
    opened = pattern.find("{")
    if length > BRACES_LONGEST and opened >= 0 and pattern.find("}", opened) > 0:
        return f"Input length ({length}), exceeds max characters ({BRACES_LONGEST})"
    if length > LONGEST:
        return f"Input length: {length}, exceeds maximum allowed length: {LONGEST}"
    return None
