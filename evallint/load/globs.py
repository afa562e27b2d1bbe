"""The glob patterns of an AgentV 4.42.4 suite's ``file://`` items of 'tests', matched as the runner's fast-glob
matches them: a reference is a pattern when it holds ``*``, ``?`` or ``{``; ``*`` and ``?`` match within one
name, ``**`` any number of folders, ``{a,b}`` either word (``{1..3}`` a number of the range; ``{a}`` is itself),
``[...]`` a character of the class; a name that
starts with a dot is matched only by a pattern part that starts with one."""
from __future__ import annotations

import os
import re
from functools import lru_cache

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


def _braces(body: str) -> str:
    """The regular expression of ``{body}``: either word of a list (``{a,b}``), a number of a range (``{1..3}``),
    else the braces as written (``{1}``), as fast-glob's brace expansion reads them."""
    numbers = re.fullmatch(r"(-?[0-9]+)\.\.(-?[0-9]+)", body)
    if numbers:
        low, high = sorted(int(n) for n in numbers.groups())
        return "(?:" + "|".join(str(n) for n in range(low, min(high, low + 1000) + 1)) + ")"
    if "," not in body:
        return re.escape("{" + body + "}")
    return "(?:" + "|".join(_part(word) for word in body.split(",")) + ")"


def _part(part: str) -> str:
    """The regular expression of one name's pattern."""
    out, i = [], 0
    while i < len(part):
        c = part[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "{" and "}" in part[i:]:
            end = part.index("}", i)
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
