"""The glob patterns of an AgentV 4.42.4 suite's ``file://`` items of 'tests', matched as the runner's fast-glob
matches them: a reference is a pattern when it holds ``*``, ``?`` or ``{``; ``*`` and ``?`` match within one
name, ``**`` any number of folders, ``{a,b}`` either word (``{1..3}`` an item of the range; ``{a}`` is itself),
``[...]`` a character of the class; a name that
starts with a dot is matched only by a pattern part that starts with one."""
from __future__ import annotations

import math
import os
import re
from functools import lru_cache
from typing import Optional

GLOB_CHARACTERS = ("*", "?", "{")


def is_glob(reference: str) -> bool:
    return any(c in reference for c in GLOB_CHARACTERS)


def matches(path: str, pattern: str) -> bool:
    """Whether the absolute, normalized ``path`` is matched by the absolute ``pattern``."""
    return _compiled(pattern.replace(os.sep, "/")).fullmatch(path.replace(os.sep, "/")) is not None


def static_folder(pattern: str) -> str:
    """The folder of ``pattern`` above its first part that holds a glob character: where its matches are."""
    parts = pattern.replace(os.sep, "/").split("/")
    fixed = []
    for part in parts[:-1]:
        if is_glob(part) or "[" in part:
            break
        fixed.append(part)
    return os.path.normpath("/".join(fixed) or "/")


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern:
    parts = pattern.split("/")
    out = []
    for i, part in enumerate(parts):
        if part == "**":
            out.append("(?:[^/.][^/]*/)*" if i < len(parts) - 1 else "(?:[^/.][^/]*(?:/[^/.][^/]*)*)?")
            continue
        start = "" if part.startswith(".") or not part else "(?!\\.)"
        out.append(start + _part(part) + ("/" if i < len(parts) - 1 else ""))
    return re.compile("".join(out))


RANGE_LIMIT = 1000  # fast-glob refuses a range of numbers without a step whose last is this far above its first
_RANGE = re.compile(r"(-?[0-9]{1,7}|[A-Za-z])\.\.(-?[0-9]{1,7}|[A-Za-z])(?:\.\.(-?[0-9]{1,7}))?")
_NUMBER_RANGE = re.compile(r"\{(-?[0-9]+)\.\.(-?[0-9]+)\}")
# a range of more items (reversed or with a step, which fast-glob expands) is matched as any number: the pattern
# may then match a file the runner's does not, never miss one it matches
_MANY = 1000


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


def _braces(body: str) -> str:
    """The regular expression of ``{body}``, as fast-glob's brace expansion reads it: either word of a list
    (``{a,b}``, braces nested in a word), an item of a range (``{1..3}``, ``{01..10}`` padded, ``{a..c}``, with a
    step: ``{0..10..5}``; none of a range fast-glob refuses), else the braces as written (``{1}``)."""
    words = _words(body)
    if len(words) > 1:
        return "(?:" + "|".join(_part(word) for word in words) + ")"
    found = _RANGE.fullmatch(body)
    if found is None:
        return re.escape("{") + _part(body) + re.escape("}")
    low, high, step = found.groups()
    if low.isalpha() != high.isalpha():
        return re.escape("{" + body + "}")
    if refused_range("{" + body + "}"):
        return "(?!)"
    step = abs(int(step or 1)) or 1
    first, last = (ord(low), ord(high)) if low.isalpha() else (int(low), int(high))
    numbers = range(first, last + 1, step) if first <= last else range(first, last - 1, -step)  # from the first
    if len(numbers) > _MANY:
        return "-?[0-9]+"
    # padded when a number or the step is written with a leading zero, to the longest of them
    written = (low, high, found.group(3) or "")
    width = max(map(len, written)) if any(re.match(r"-?0[0-9]", text) for text in written) else 0
    items = [chr(n) for n in numbers] if low.isalpha() else [str(n).zfill(width) for n in numbers]
    return "(?:" + "|".join(re.escape(item) for item in items) + ")"


def _words(body: str) -> list:
    """``body`` cut at its commas outside nested braces."""
    words, depth, start = [], 0, 0
    for at, c in enumerate(body):
        depth += 1 if c == "{" else -1 if c == "}" else 0
        if c == "," and depth == 0:
            words.append(body[start:at])
            start = at + 1
    return words + [body[start:]]


def _closing(part: str, start: int) -> int:
    """Where the brace that opens at ``start`` closes (-1: it does not)."""
    depth = 0
    for at in range(start, len(part)):
        depth += 1 if part[at] == "{" else -1 if part[at] == "}" else 0
        if depth == 0:
            return at
    return -1


def _part(part: str) -> str:
    """The regular expression of one name's pattern."""
    out, i = [], 0
    while i < len(part):
        c = part[i]
        if c == "*":
            if not out or out[-1] != "[^/]*":  # a run of stars matches what one does: one keeps the match linear
                out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "{" and _closing(part, i) > 0:
            end = _closing(part, i)
            out.append(_braces(part[i + 1:end]))
            i = end
        elif c == "[" and "]" in part[i + 1:]:
            end = part.index("]", i + 1)
            body = part[i + 1:end]
            out.append("[" + ("^" + re.escape(body[1:]) if body.startswith(("!", "^")) else re.escape(body)) + "]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)
