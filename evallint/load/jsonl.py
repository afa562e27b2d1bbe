"""JSONL datasets: each line parsed as strict JSON (what the runner's
JSON.parse accepts), with a position tree from a small scanner so every
diagnostic points at the value's column on that line. A line that is not
JSON is described by evallint's own scan (``json_error``), not by the
interpreter's json module, whose wording differs between Python versions."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from evallint.diagnostics import Finding, Span
from evallint.load.positions import Loc, MapLoc, SeqLoc
from evallint.load.secret_walk import json_ranges
from evallint.load.secrets import ENV_REF, holds_secret
from evallint.load.yaml12 import MAX_DEPTH

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_WS = " \t\r\n"
_END = ",]} \t\r\n"


class Mark:
    __slots__ = ("line", "column", "index")

    def __init__(self, line: int, column: int, index: int):
        self.line = line
        self.column = column
        self.index = index


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _int(text: str):
    return float(text) if len(text.lstrip("-")) > 4000 else int(text)


def loads(line: str) -> Any:
    return json.loads(line, parse_constant=_reject_constant, parse_int=_int)


_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_LITERALS = {"n": "null", "t": "true", "f": "false"}
_CONSTANTS = ("NaN", "Infinity", "-Infinity")
_ESCAPES = frozenset('"\\/bfnrt')
_HEX = frozenset("0123456789abcdefABCDEF")


class _SyntaxError(Exception):
    def __init__(self, message: str, pos: Optional[int]):
        super().__init__(message)
        self.message = message
        self.pos = pos


def json_error(line: str) -> tuple:
    """(message, 1-based column or None) of the first error in a line that is not strict JSON, or (None, None)
    for valid JSON. evallint's own scan finds it, so the message does not depend on the interpreter's json
    module; the wording is Python 3.11's, except for the byte order mark. The scan keeps a stack instead of
    recursing, so any depth is scanned.

    The messages: "Expecting value", "Expecting property name enclosed in double quotes" (also after a
    trailing comma in an object; in a list that is "Expecting value"), "Expecting ':' delimiter", "Expecting
    ',' delimiter", "Extra data" (after the value), "NaN is not valid JSON" (likewise Infinity and -Infinity,
    no column), "Unexpected byte order mark (U+FEFF)", "Unterminated string starting at", "Invalid control
    character at", "Invalid \\escape" and "Invalid \\uXXXX escape"."""
    if line.startswith("\ufeff"):
        return "Unexpected byte order mark (U+FEFF)", 1
    try:
        end = _skip(line, _scan_value(line, _skip(line, 0)))
    except _SyntaxError as exc:
        return exc.message, None if exc.pos is None else exc.pos + 1
    if end != len(line):
        return "Extra data", end + 1
    return None, None


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _scan_value(text: str, pos: int) -> int:
    """The end of the JSON value that starts at ``pos``. Open containers are kept on a stack of their
    closing characters, not followed by recursion."""
    stack: list = []
    while True:  # a value starts at pos
        char = text[pos:pos + 1]
        if char in ("{", "["):
            close = "}" if char == "{" else "]"
            inner = _skip(text, pos + 1)
            if text[inner:inner + 1] != close:
                stack.append(close)
                pos = _scan_key(text, inner) if close == "}" else inner
                continue
            pos = inner + 1
        else:
            pos = _scan_scalar(text, pos)
        while stack:  # after an item: the end of its container, or ',' and the next item
            pos = _skip(text, pos)
            char = text[pos:pos + 1]
            if char == stack[-1]:
                stack.pop()
                pos += 1
                continue
            if char != ",":
                raise _SyntaxError("Expecting ',' delimiter", pos)
            pos = _skip(text, pos + 1)
            if stack[-1] == "}":
                pos = _scan_key(text, pos)
            break
        if not stack:
            return pos


def _scan_key(text: str, pos: int) -> int:
    """Past a key, its ':' and the whitespace before its value."""
    if text[pos:pos + 1] != '"':
        raise _SyntaxError("Expecting property name enclosed in double quotes", pos)
    pos = _skip(text, _scan_string(text, pos))
    if text[pos:pos + 1] != ":":
        raise _SyntaxError("Expecting ':' delimiter", pos)
    return _skip(text, pos + 1)


def _scan_scalar(text: str, pos: int) -> int:
    """Past the string, number, true, false or null at ``pos``."""
    char = text[pos:pos + 1]
    if char == '"':
        return _scan_string(text, pos)
    literal = _LITERALS.get(char)
    if literal is not None and text.startswith(literal, pos):
        return pos + len(literal)
    for constant in _CONSTANTS:
        if text.startswith(constant, pos):
            raise _SyntaxError(f"{constant} is not valid JSON", None)
    match = _NUMBER.match(text, pos)
    if match:
        return match.end()
    raise _SyntaxError("Expecting value", pos)


def _scan_string(text: str, pos: int) -> int:
    """Past the string whose opening quote is at ``pos``."""
    begin, pos = pos, pos + 1
    while True:
        if pos >= len(text):
            raise _SyntaxError("Unterminated string starting at", begin)
        char = text[pos]
        if char == '"':
            return pos + 1
        if char <= "\x1f":
            raise _SyntaxError("Invalid control character at", pos)
        if char != "\\":
            pos += 1
            continue
        if pos + 1 >= len(text):
            raise _SyntaxError("Unterminated string starting at", begin)
        escape = text[pos + 1]
        if escape != "u":
            if escape not in _ESCAPES:
                raise _SyntaxError("Invalid \\escape", pos)
            pos += 2
            continue
        digits = text[pos + 2:pos + 6]
        if pos + 6 >= len(text) or not set(digits) <= _HEX:
            raise _SyntaxError("Invalid \\uXXXX escape", pos + 1)
        pos += 6


class _Scanner:
    """Positions of a line already known to be valid JSON, and the index ranges of its secret values (the
    scalars under a key that ``holds_secret``, however deep, but no keys) in ``secrets``."""

    def __init__(self, text: str, line: int, offset: int, findings: list, secrets: list):
        self.text = text
        self.line = line
        self.offset = offset
        self.pos = 0
        self.findings = findings
        self.secrets = secrets

    def mark(self, pos: int) -> Mark:
        return Mark(self.line, pos, self.offset + pos)

    def skip(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _WS:
            pos += 1
        self.pos = pos

    def separator(self) -> None:
        """Past the ',' after an item, if there is one."""
        self.skip()
        if self.text[self.pos] == ",":
            self.pos += 1
            self.skip()

    def string(self) -> tuple:
        match = _STRING.match(self.text, self.pos)
        start, self.pos = self.pos, match.end()
        return json.loads(match.group(0)), Loc(self.mark(start), self.mark(self.pos))

    def value(self, hidden: bool = False) -> Loc:
        """The position tree of the value at ``pos``; ``hidden``: it is under a secret key."""
        self.skip()
        char = self.text[self.pos]
        if char == "{":
            return self.mapping(hidden)
        if char == "[":
            return self.sequence(hidden)
        if char == '"':
            value, loc = self.string()
        else:
            start = self.pos
            while self.pos < len(self.text) and self.text[self.pos] not in _END:
                self.pos += 1
            value, loc = self.text[start:self.pos], Loc(self.mark(start), self.mark(self.pos))
        if hidden and not ENV_REF.match(value.strip()):
            self.secrets.append((loc.start.index, loc.end.index))
        return loc

    def mapping(self, hidden: bool) -> MapLoc:
        loc = MapLoc(self.mark(self.pos))
        self.pos += 1
        self.skip()
        while self.text[self.pos] != "}":
            key, key_loc = self.string()
            if loc.first is None:
                loc.first = key_loc
            self.skip()
            self.pos += 1  # ':'
            value = self.value(hidden or holds_secret(key))
            if key in loc.keys:
                first = loc.keys[key].start
                self.findings.append(Finding(
                    "EV003", f"duplicate key '{key}' (first defined on line {first.line + 1}, column {first.column + 1}); "
                    "JSON.parse keeps only the last one", span=key_loc.span()))
            loc.keys[key] = key_loc
            loc.values[key] = value
            self.separator()
        self.pos += 1
        loc.end = self.mark(self.pos)
        return loc

    def sequence(self, hidden: bool) -> SeqLoc:
        loc = SeqLoc(self.mark(self.pos))
        self.pos += 1
        self.skip()
        while self.text[self.pos] != "]":
            loc.items.append(self.value(hidden))
            self.separator()
        self.pos += 1
        loc.end = self.mark(self.pos)
        return loc


@dataclass
class Dataset:
    cases: list = field(default_factory=list)  # the line objects, in order
    locs: list = field(default_factory=list)  # their position trees
    lines: list = field(default_factory=list)  # 0-based line of each case
    findings: list = field(default_factory=list)
    secrets: list = field(default_factory=list)  # (start, end) index ranges of the secret values of the cases

    def secret_ranges(self, text: str) -> list:
        """The index ranges of the values of ``text`` (the file parsed) never shown: those of its cases, and
        those of the lines that gave no case (no JSON, no object), read as far as JSON's grammar goes."""
        return self.secrets + json_ranges(text, set(self.lines))

    def root(self) -> MapLoc:
        root = MapLoc(Mark(0, 0, 0))
        seq = SeqLoc(Mark(0, 0, 0))
        seq.items = self.locs
        root.values["evalcases"] = seq
        root.keys["evalcases"] = Loc(Mark(0, 0, 0))
        return root


def parse_jsonl(text: str) -> Dataset:
    """The cases of a dataset, their position trees and the file-level findings."""
    out = Dataset()
    offset = 0
    for number, raw in enumerate(text.split("\n")):
        line = raw[:-1] if raw.endswith("\r") else raw
        start = offset
        offset += len(raw) + 1
        if not line.strip():
            continue
        lead = len(line) - len(line.lstrip(_WS))
        try:
            value = loads(line)
            too_deep = _too_deep(value, MAX_DEPTH)
        except (ValueError, RecursionError):
            reason, column = json_error(line)  # evallint's own words, whatever the interpreter's json says
            if reason is not None:
                where = f" at column {column}" if column else ""
                # at the column the message names (one character, or just past the line's end), else the whole line
                at = column - 1 if column else 0
                end = at + 1 if column else max(1, len(line))
                out.findings.append(Finding("EV701", f"Line {number + 1}: invalid JSON: {reason}{where}",
                                            span=Span(number, at, number, end, start + at, start + end)))
                continue
            too_deep = True  # valid JSON, nested deeper than the interpreter's json module follows
        if too_deep:
            out.findings.append(Finding("EV006", f"Line {number + 1}: nesting is deeper than the limit of {MAX_DEPTH} levels",
                                        span=Span(number, lead, number, lead + 1, start + lead, start + lead + 1)))
            continue
        if not isinstance(value, dict):
            kind = "a list" if isinstance(value, list) else f"{json.dumps(value)[:40]}"
            out.findings.append(Finding("EV702", f"Line {number + 1}: each line must be a JSON object (an eval case), "
                                        f"found {kind}", span=Span(number, lead, number, len(line), start + lead,
                                                                   start + len(line))))
            continue
        out.locs.append(_Scanner(line, number, start, out.findings, out.secrets).value())
        out.cases.append(value)
        out.lines.append(number)
    return out


def _too_deep(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def first_object(text: str) -> Optional[Any]:
    """The first non-blank line's JSON value, or None when it is not JSON."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end]
        if line.strip():
            try:
                return loads(line)
            except (ValueError, RecursionError):
                return None
        start = end + 1
    return None
