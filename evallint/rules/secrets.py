"""Secret-looking values: which keys hold secrets, and where in a file's text their literal values are, so
that no snippet or message ever shows one, whatever finding sits on its line and whichever rules are
selected (EV512 reports them; masking does not depend on it)."""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

ENV_REF = re.compile(r"\$\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}\Z")
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
# a key and its colon, in block or flow style, the key plain or quoted
_KEY = re.compile(r"""(?:^|(?<=[\s{,\[-]))(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\1[ \t]*:(?=[ \t]|$)""")


def _name(key: str) -> str:
    return _CAMEL.sub(lambda m: "_" + m.group(1).lower(), key).lower()


def is_secret_key(key: str) -> bool:
    name = _name(key)
    return (name in ("api_key", "apikey") or name.endswith("_key") or ("token" in name and "tokens" not in name)
            or "secret" in name or "password" in name or "passwd" in name)


def is_strong_secret_key(key: str) -> bool:
    """Keys whose value is a secret even when it is written as a number."""
    name = _name(key)
    return name in ("api_key", "apikey") or name.endswith("_key") or "secret" in name or "pass" in name


def is_literal_secret(key: str, value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip()) and not ENV_REF.match(value.strip())
    return isinstance(value, (int, float)) and not isinstance(value, bool) and is_strong_secret_key(key)


# where a secret-like key may be: a cheap scan of the whole text, then only those lines are read closely
_CANDIDATE = re.compile(r"(?i)(?:key|token|secret|passw)[A-Za-z0-9_.-]*[\"']?[ \t]*:")


def secret_spans(text: str) -> list:
    """(line index, start, end) of each literal value written under a secret-looking key, found in the text
    itself (so a duplicate key, a line that does not parse or a JSON line is covered too): the rest of the
    line in block style, up to the next ',', '}' or ']' in flow style, the quoted string when quoted (to its
    closing quote, on whatever line), the more-indented lines of a block scalar or of a scalar that goes on
    below its key, and for an alias (``api_key: *a``) the value its anchor (``&a``) stands before. Each line
    is read as a value's continuation once at most, so the work is linear in the text."""
    lines = None
    spans: list = []
    aliases: set = set()
    below = [0]  # the first line that no value's continuation has been looked for in yet
    line, counted, done = 0, 0, -1
    for match in _CANDIDATE.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        if line == done:
            continue
        if lines is None:
            lines = text.split("\n")
        spans += _line_spans(lines, line, aliases, below)
        done = line
    if aliases:
        below = [0]  # the anchors come in the order of the text too
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        for match in _ANCHOR.finditer(text):
            if match.group(1) in aliases:
                n = bisect_right(starts, match.start()) - 1
                flow = _after_flow_opening(lines[n], match.start() - starts[n])
                indent = len(lines[n]) - len(lines[n].lstrip(" "))
                spans += _value_spans(lines, n, match.end() - starts[n], indent, flow, below)
    return spans


_ALIAS = re.compile(r"\*([^\s,\[\]{}]+)")
_ANCHOR = re.compile(r"(?:(?<=[\s\[{,:-])|^)&([^\s,\[\]{}]+)", re.M)  # not inside a word or a string's text


def _after_flow_opening(line: str, column: int) -> bool:
    """Whether a '{' or '[' comes before ``column`` of ``line``: what starts there is in flow style."""
    return "{" in line[:column] or "[" in line[:column]


def _line_spans(lines: list, n: int, aliases: set, below: list) -> list:
    """The spans of the secret values whose keys are on line ``n``; the names of the aliases they are
    go to ``aliases``."""
    line = lines[n]
    spans = []
    for match in _KEY.finditer(line):
        if not is_secret_key(match.group(2)):
            continue
        flow = _after_flow_opening(line, match.start())
        alias = _ALIAS.match(line, len(line) - len(line[match.end():].lstrip(" \t")))
        if alias:
            aliases.add(alias.group(1))
        spans += _value_spans(lines, n, match.end(), match.start(1), flow, below)
    return spans


def _value_spans(lines: list, n: int, start: int, column: int, flow: bool, below: list) -> list:
    """The spans of the value that starts at ``start`` of line ``n`` (after its key or anchor, blanks
    included), whose continuation lines are indented past ``column``."""
    line = lines[n]
    while start < len(line) and line[start] in " \t":
        start += 1
    end = _value_end(line, start, flow)
    while end > start and line[end - 1] in " \t":
        end -= 1
    value = line[start:end]
    spans = []
    block = value in ("", "|", ">", "|-", ">-", "|+", ">+")  # the value is on the lines below
    literal = not ENV_REF.match(value.strip("'\""))
    if not block and literal:
        spans.append((n, start, end))
    quote = value[:1] if value[:1] in ("'", '"') and not _closed(value) else ""
    if quote:  # a quoted value that goes on: to its closing quote, however indented
        for k in range(n + 1, len(lines)):
            close = _closing(lines[k], quote)
            text_start = len(lines[k]) - len(lines[k].lstrip(" \t"))
            spans.append((k, text_start, close if close >= 0 else len(lines[k].rstrip("\r"))))
            if close >= 0:
                break
        return spans
    if block or not flow and value and literal:
        # the lines more indented than the key: a block scalar's, or a value that goes on there
        k = max(n + 1, below[0])
        while k < len(lines) and (not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip(" ")) > column):
            if lines[k].strip() and not (value == "" and _starts_structure(lines[k])):
                spans.append((k, len(lines[k]) - len(lines[k].lstrip(" ")), len(lines[k].rstrip("\r"))))
            k += 1
        below[0] = max(below[0], k)
    return spans


def _closed(value: str) -> bool:
    """Whether a quoted value, as written on its line, ends with its closing quote."""
    return len(value) > 1 and _closing(value[1:], value[0]) == len(value) - 1


def _closing(text: str, quote: str) -> int:
    """The index just past the quote that closes a ``quote`` string going on in ``text``; -1 when it does
    not close there (a doubled single quote, or an escaped double quote, does not close it)."""
    i = 0
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            if quote == "'" and text[i + 1:i + 2] == "'":
                i += 2
                continue
            return i + 1
        i += 1
    return -1


def _starts_structure(line: str) -> bool:
    """A line below an empty value that opens a mapping or list (not a secret's text)."""
    stripped = line.strip()
    return stripped.startswith("- ") or bool(_KEY.match(stripped))


def _value_end(line: str, start: int, flow: bool) -> int:
    if start < len(line) and line[start] in "'\"":
        close = _closing(line[start + 1:], line[start])
        return len(line) if close < 0 else start + 1 + close
    end = len(line.rstrip("\r"))
    comment = line.find(" #", start)
    if comment >= 0:
        end = min(end, comment)
    if flow:
        for stop in ",}]":
            at = line.find(stop, start)
            if 0 <= at < end:
                end = at
    return end
