"""Secret-looking values: which keys hold secrets, and where in a file's text their literal values are, so
that no snippet or message ever shows one, whatever finding sits on its line and whichever rules are
selected (EV512 reports them; masking does not depend on it)."""
from __future__ import annotations

import re
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
    line in block style, up to the next ',', '}' or ']' in flow style, the quoted string when quoted, the
    more-indented lines of a block scalar or of a scalar that goes on below its key, and for an alias
    (``api_key: *a``) the value its anchor (``&a``) stands before."""
    lines = None
    spans: list = []
    line, counted, done = 0, 0, -1
    for match in _CANDIDATE.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        if line == done:
            continue
        if lines is None:
            lines = text.split("\n")
        spans += _line_spans(lines, line)
        done = line
    aliases = {lines[n][start + 1:end] for n, start, end in spans if lines[n][start:start + 1] == "*"}
    for name in sorted(aliases):
        spans += _anchored_spans(text, lines, name)
    return spans


def _anchored_spans(text: str, lines: list, name: str) -> list:
    """The spans of the values written after the anchor ``&name``."""
    spans = []
    for match in re.finditer(rf"&{re.escape(name)}(?=[ \t])[ \t]*", text):
        n = text.count("\n", 0, match.start())
        start = match.end() - (text.rfind("\n", 0, match.start()) + 1)
        line = lines[n]
        end = _value_end(line, start, flow="{" in line[:start] or "[" in line[:start])
        if end > start:
            spans.append((n, start, end))
    return spans


def _line_spans(lines: list, n: int) -> list:
    """The spans of the secret values whose keys are on line ``n``."""
    line = lines[n]
    spans = []
    for match in _KEY.finditer(line):
        if not is_secret_key(match.group(2)):
            continue
        start = match.end()
        while start < len(line) and line[start] in " \t":
            start += 1
        end = _value_end(line, start, flow="{" in line[:match.start()] or "[" in line[:match.start()])
        while end > start and line[end - 1] in " \t":
            end -= 1
        value = line[start:end]
        below_too = value in ("", "|", ">", "|-", ">-", "|+", ">+")  # the value is on the lines below
        if not below_too and not ENV_REF.match(value.strip("'\"")):
            spans.append((n, start, end))
        flow = "{" in line[:match.start()] or "[" in line[:match.start()]
        if below_too or not flow and value and not ENV_REF.match(value.strip("'\"")):
            # the lines more indented than the key: a block scalar's, or a value that goes on there
            below = n + 1
            while below < len(lines) and (not lines[below].strip()
                                          or len(lines[below]) - len(lines[below].lstrip(" ")) > match.start(1)):
                if lines[below].strip() and not (value == "" and _starts_structure(lines[below])):
                    spans.append((below, len(lines[below]) - len(lines[below].lstrip(" ")),
                                  len(lines[below].rstrip("\r"))))
                below += 1
    return spans


def _starts_structure(line: str) -> bool:
    """A line below an empty value that opens a mapping or list (not a secret's text)."""
    stripped = line.strip()
    return stripped.startswith("- ") or bool(_KEY.match(stripped))


def _value_end(line: str, start: int, flow: bool) -> int:
    if start < len(line) and line[start] in "'\"":
        quote = line[start]
        close = line.find(quote, start + 1)
        while quote == '"' and close > 0 and line[close - 1] == "\\":
            close = line.find(quote, close + 1)
        return len(line) if close < 0 else close + 1
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
