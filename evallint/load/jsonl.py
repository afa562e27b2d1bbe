"""JSONL datasets and JSON documents (an Agent Skills ``evals.json``): each line, or the whole text, parsed
as strict JSON (what the runner's JSON.parse accepts), with a position tree from a small scanner so every
diagnostic points at the value's line and column. Text that is not JSON is reported with the json module's
error (``json.JSONDecodeError``), worded the same on every Python version (``json_error``)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from evallint.diagnostics import E, Finding, Rule, Span
from evallint.load.numbers import JS_WHITESPACE, decimal_int, js_trim
from evallint.load.positions import LineMap, Loc, MapLoc, SeqLoc
from evallint.load.secret_walk import JSON_STRING, json_ranges
from evallint.load.environment import is_reference
from evallint.load.secrets import holds_secret
from evallint.load.source import PEEK
from evallint.load.yaml12 import MAX_DEPTH, Parsed

# the rules this module finds, explained in jsonl.md beside it
EV701 = Rule("EV701", "invalid-json-line", E,
             "a JSONL line (of a dataset or a file of tests) or an evals.json file that is not valid JSON")
EV702 = Rule("EV702", "line-not-object", E, "a JSONL line (of a dataset or a file of tests) whose JSON is not an object")

_STRING = re.compile(JSON_STRING, re.S)
_WS = " \t\r\n"
_END = ",]} \t\r\n"

CASES_KEY = "evalcases"  # the key the lines are found under, as a suite holds its cases


class Mark:
    __slots__ = ("line", "column", "index")

    def __init__(self, line: int, column: int, index: int):
        self.line = line
        self.column = column
        self.index = index


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def loads(line: str) -> Any:
    return json.loads(line, parse_constant=_reject_constant, parse_int=decimal_int)


# Python 3.13 names a trailing comma, at the comma; the versions before it name what they expect after the
# comma, at the closing bracket. evallint words it as they do, the same on every Python.
_TRAILING_COMMA = {
    "Illegal trailing comma before end of object": "Expecting property name enclosed in double quotes",
    "Illegal trailing comma before end of array": "Expecting value",
}
_BOM = "Unexpected UTF-8 BOM (decode using utf-8-sig)"


def json_error(error: json.JSONDecodeError) -> tuple:
    """The message and 1-based column of the json module's error on one line, in evallint's words."""
    reason, at = error_at(error)
    return reason, at + 1


def error_at(error: json.JSONDecodeError) -> tuple:
    """The message and 0-based offset of the json module's error in the text parsed, in evallint's words."""
    if error.msg in _TRAILING_COMMA:
        after = error.doc[error.pos + 1:].lstrip(_WS)
        return _TRAILING_COMMA[error.msg], len(error.doc) - len(after)
    if error.msg == _BOM:
        return "Unexpected byte order mark (U+FEFF)", 0
    return error.msg, error.pos


class _Scanner:
    """Positions of a line already known to be valid JSON, and the index ranges of its secret values (the
    scalars under a key that ``holds_secret``, however deep, but no keys) in ``secrets``."""

    def __init__(self, text: str, line: int, offset: int, findings: list, secrets: list,
                 lines: Optional[LineMap] = None):
        self.text, self.line, self.offset, self.pos = text, line, offset, 0
        self.findings, self.secrets, self.lines = findings, secrets, lines

    def mark(self, pos: int) -> Mark:
        """The mark of ``pos``: on the line scanned, or, for a text of several lines (``lines``), where it is."""
        if self.lines is not None:
            return Mark(*self.lines.position(self.offset + pos), self.offset + pos)
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
        if hidden and not is_reference(value.strip()):
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
    """A ``.jsonl`` file parsed: its line objects with their positions, and what the parse found."""

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
        root.values[CASES_KEY] = seq
        root.keys[CASES_KEY] = Loc(Mark(0, 0, 0))
        return root


def parse_jsonl(text: str) -> Dataset:
    """The cases of a dataset, their position trees and the file-level findings."""
    out = Dataset()
    offset = 0
    for number, raw in enumerate(text.split("\n")):
        line = _trimmed(raw)
        start = offset
        offset += len(raw) + 1
        if not line.strip(" "):
            continue
        value, finding = _read_line(line, number, start)
        if finding is not None:
            out.findings.append(finding)
            continue
        if not isinstance(value, dict):
            lead = len(line) - len(line.lstrip(_WS))
            kind = "a list" if isinstance(value, list) else f"{json.dumps(value)[:40]}"
            out.findings.append(Finding("EV702", f"Line {number + 1}: each line must be a JSON object (an eval case), "
                                        f"found {kind}", span=Span(number, lead, number, len(line), start + lead,
                                                                   start + len(line))))
            continue
        out.locs.append(_Scanner(line, number, start, out.findings, out.secrets).value())
        out.cases.append(value)
        out.lines.append(number)
    return out


def _trimmed(line: str) -> str:
    """A line as the runner parses it, which trims JavaScript's white space from it first (a byte order mark, a
    no-break space, a form feed among them) and none else: what it trims made spaces, which JSON reads as white
    space, so that every column stays where it is."""
    body = js_trim(line)
    lead = len(line) - len(line.lstrip(JS_WHITESPACE))
    return " " * lead + body + " " * (len(line) - lead - len(body)) if body else ""


def _read_line(line: str, number: int, start: int) -> tuple:
    """(the JSON value of line ``number``, which starts at offset ``start``; None) or (None, why it is not
    read: EV701, not JSON, or EV006, nested deeper than the limit)."""
    try:
        value = loads(line)
    except json.JSONDecodeError as error:
        reason, at = error_at(error)
        # at the column the message names: one character, or just past the line's end
        return None, Finding("EV701", f"Line {number + 1}: invalid JSON: {reason} at column {at + 1}",
                             span=Span(number, at, number, at + 1, start + at, start + at + 1))
    except ValueError as error:  # NaN, Infinity or -Infinity (``loads``): the whole line
        return None, Finding("EV701", f"Line {number + 1}: invalid JSON: {error}",
                             span=Span(number, 0, number, len(line), start, start + len(line)))
    except RecursionError:  # the json module stops deeper than the limit, before the line's end
        too_deep = True
    else:
        too_deep = _too_deep(value, MAX_DEPTH)
    if too_deep:
        lead = len(line) - len(line.lstrip(_WS))
        return None, Finding("EV006", f"Line {number + 1}: nesting is deeper than the limit of {MAX_DEPTH} levels",
                             span=Span(number, lead, number, lead + 1, start + lead, start + lead + 1))
    return value, None


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


REJECTS = "the runner rejects the file"
_DEEP = object()  # the json module stopped deeper than the limit


def parse_json(text: str, bom: bool = False) -> Parsed:
    """A whole text read as one JSON document, as ``JSON.parse`` reads a file (``bom``: the file starts with a
    UTF-8 byte order mark, which it refuses): the data, its position tree and its findings (EV701 not JSON,
    EV006 nested deeper than the limit, EV003 a duplicate key); ``ok`` False when there is no data."""
    lines = LineMap(text)
    problem: Optional[tuple] = ("Unexpected byte order mark (U+FEFF)", 0) if bom else None
    value = None
    if problem is None:
        try:
            value = loads(text)
        except json.JSONDecodeError as error:
            problem = error_at(error)
        except ValueError as error:  # NaN, Infinity or -Infinity (``loads``): at the start of the text
            problem = (str(error), len(text) - len(text.lstrip(_WS)))
        except RecursionError:
            value = _DEEP
    if problem is not None:
        reason, at = problem
        line, column = lines.position(at)
        finding = Finding("EV701", f"invalid JSON: {reason} at line {line + 1}, column {column + 1}; {REJECTS}",
                          span=Span(line, column, line, column + 1, at, at + 1))
        return Parsed(findings=[finding], ok=False, secrets=json_ranges(text, set()))
    if value is _DEEP or _too_deep(value, MAX_DEPTH):
        at = len(text) - len(text.lstrip(_WS))
        line, column = lines.position(at)
        finding = Finding("EV006", f"nesting is deeper than the limit of {MAX_DEPTH} levels",
                          span=Span(line, column, line, column + 1, at, at + 1))
        return Parsed(findings=[finding], ok=False, secrets=json_ranges(text, set()))
    findings: list = []
    secrets: list = []
    root = _Scanner(text, 0, 0, findings, secrets, lines).value()
    return Parsed(data=value, root=root, findings=findings, secrets=secrets)


def first_object(line: str) -> Optional[Any]:
    """The JSON value of a file's first line that holds more than whitespace, or None when it is not JSON."""
    try:
        return loads(line)
    except (ValueError, RecursionError):
        return None


def line_in_head(head: bytes) -> Optional[bytes]:
    """The first line of ``head`` (a file's first bytes, ``PEEK`` of them when it goes on) that holds more than
    whitespace; None when it goes on past ``head``."""
    body = (head[3:] if head.startswith(b"\xef\xbb\xbf") else head).lstrip(b" \t\r\n")
    end = body.find(b"\n")
    if end < 0 and len(head) >= PEEK:
        return None
    return body if end < 0 else body[:end]


def first_line(text: str) -> str:
    """The first line of ``text`` that holds more than whitespace, '' when none does."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if text[start:end].strip():
            return text[start:end]
        start = end + 1
    return ""
