"""The upgrade's changes as text edits on one file (a ``Document``): renaming a key, rewriting a scalar, putting
a key first in a mapping. Each is a ``Fix`` whose ``change`` says what it does to the data, so that the text
with the edits made is parsed again and compared with the data changed as declared (``report/fixcheck.py``)
before anything is written; everything outside the edits stays byte for byte."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Optional

from evallint.diagnostics import KEY, VALUE, Edit, Fix
from evallint.load.positions import Index, MapLoc, SeqLoc
from evallint.load.yaml_scalars import resolve_plain
from evallint.report.fixes import line_ending
from evallint.suggest import yaml_boolean

# a plain scalar the upgrade writes must not need quotes in block or flow context
_PLAIN = re.compile(r"[A-Za-z0-9_./-][A-Za-z0-9_./:+-]*\Z")


@dataclass
class Document:
    """One file as the upgrade reads it: its text, its data and the position tree of the data. A JSONL
    dataset is one mapping whose 'evalcases' are its lines (``load/jsonl.py``), so one path names a place in
    either kind of file."""

    text: str
    data: Any
    index: Index
    jsonl: bool = False
    parsed: Any = None  # what the parser made of the text (yaml12.Parsed, jsonl.Dataset): the edits' check starts from it

    def key_span(self, path: tuple):
        return self.index.locate(path, KEY)

    def value_span(self, path: tuple):
        return self.index.locate(path, VALUE)

    def value(self, path: tuple) -> Any:
        node = self.data
        for part in path:
            node = node[part]
        return node

    def loc(self, path: tuple):
        loc = self.index.root
        for part in path:
            if isinstance(loc, MapLoc):
                loc = loc.values.get(part)
            else:
                items = getattr(loc, "items", [])
                loc = items[part] if isinstance(part, int) and 0 <= part < len(items) else None
            if loc is None:
                return None
        return loc


def _scalar(text: str, value: str, quote: str) -> str:
    """``value`` written as a scalar in the style of ``quote`` (the first character of the scalar it
    replaces), or plain when it reads back as the same string."""
    if quote == "'":
        return "'" + value.replace("'", "''") + "'"
    if quote == '"':
        return json.dumps(value, ensure_ascii=False)
    if _PLAIN.match(value) and isinstance(resolve_plain(value), str):
        return value
    return json.dumps(value, ensure_ascii=False)


def rename(doc: Document, path: tuple, new: str) -> Optional[Fix]:
    """Rename the key at ``path`` to ``new``; None when the key is not written as plain or simply quoted
    text (an escaped, tagged or complex key is left as it is)."""
    span = doc.key_span(path)
    old = doc.text[span.start:span.end]
    name = path[-1]
    if old in (name, f'"{name}"', f"'{name}'") and (doc.jsonl or old == name or "\\" not in old):
        written = new if old == name else old[0] + new + old[0]
        return Fix((Edit(span.start, span.end, written),), f"rename '{name}' to '{new}'",
                   change=("rename", path, new))
    return None


def set_text(doc: Document, path: tuple, value: str) -> Optional[Fix]:
    """Rewrite the string at ``path`` as ``value``, in the quoting style it is written in; None for a
    block scalar, a tagged value or an alias, whose text is not simply the string."""
    span = doc.value_span(path)
    old = doc.text[span.start:span.end]
    if not old or old[0] in "|>!&*":
        return None
    quote = old[0] if old[0] in "'\"" else ""
    if doc.jsonl:
        quote = '"'
    elif not quote and old != doc.value(path):
        return None  # a plain scalar written over several lines: its text is not the string
    return Fix((Edit(span.start, span.end, _scalar(doc.text, value, quote)),),
               f"write {json.dumps(value)}", change=("set", path, value))


def put_before(doc: Document, path: tuple, before: str, key: str, value: Any) -> Optional[Fix]:
    """Write ``key: value`` in the mapping at ``path`` just before its key ``before``: on a line of its own
    in a block mapping, before the entry in a flow mapping or a JSON line. ``value`` is a boolean or a mapping
    of one key to a boolean, written in flow style. None when the key shares its line with other content."""
    span = doc.key_span(path + (before,))
    written = _flow(value, doc.jsonl)
    if doc.jsonl:
        text = f'"{key}": {written}, '
    elif doc.text[doc.value_span(path).start] == "{":
        text = f"{key}: {written}, "
    else:
        line_start = doc.text.rfind("\n", 0, span.start) + 1
        lead = doc.text[line_start:span.start]
        if lead.strip(" -"):
            return None
        text = f"{key}: {written}{line_ending(doc.text)}{' ' * len(lead)}"
    return Fix((Edit(span.start, span.start, text),), f"write '{key}: {_flow(value, False)}'",
               change=("insert_before", path + (key,), (value, before)))


def _flow(value: Any, jsonl: bool) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f'{json.dumps(k) if jsonl else k}: {_flow(v, jsonl)}' for k, v in value.items()) + "}"
    if isinstance(value, str):
        return json.dumps(value) if jsonl else value
    return yaml_boolean(value is True)


def content_end(loc, text: str) -> int:
    """Where the text of a node ends: a block collection's end mark runs on to the next token, past the
    comments and blank lines that follow its last item; its last scalar's does not, nor a flow collection's."""
    while isinstance(loc, (SeqLoc, MapLoc)) and text[loc.span().start] not in "[{":
        if isinstance(loc, SeqLoc) and loc.items:
            loc = loc.items[-1]
        elif isinstance(loc, MapLoc) and loc.values:
            loc = list(loc.values.values())[-1]
        else:
            break
    return loc.end.index


def line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def lines_through(text: str, start: int, end: int) -> int:
    """The end of the line that holds the last character before ``end`` that is not white space."""
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    newline = text.find("\n", end)
    return len(text) if newline < 0 else newline + 1


def drop(doc: Document, path: tuple) -> Optional[Fix]:
    """Take the entry at ``path`` (a key and its value, or a list item) out of what the runner reads: in block
    style its lines become comments, so its text stays for the user to see; in flow style (and in a JSON line)
    it is deleted with its comma. None where neither can be done cleanly (the first key of a list item's
    mapping, an entry sharing its line with another)."""
    parent = doc.loc(path[:-1])
    start = (doc.key_span(path) if isinstance(parent, MapLoc) else doc.value_span(path)).start
    value = doc.loc(path)
    end = content_end(value, doc.text) if value is not None else doc.value_span(path).end
    if doc.jsonl or doc.text[parent.span().start] in "{[":
        return deleted(doc, path, start, end)
    first = line_start(doc.text, start)
    if isinstance(parent, SeqLoc):  # a list item goes from its dash
        start = doc.text.rfind("-", first, start)
    lead = doc.text[first:start]
    if start < first or lead.strip():
        return None
    stop = lines_through(doc.text, start, end)
    if doc.text[end:stop].strip() and not doc.text[end:stop].lstrip().startswith("#"):
        return None  # another entry on the value's last line
    column = len(lead)
    edits, at = [], first
    while at < stop:
        nl = doc.text.find("\n", at, stop)
        line_end = stop if nl < 0 else nl
        line = doc.text[at:line_end]
        if line.strip() and not line[:column].strip():
            edits.append(Edit(at + column, at + column, "# "))
        at = line_end + 1
    return Fix(tuple(edits), f"comment out {_entry(path)}", change=("delete", path, None))


def _entry(path: tuple) -> str:
    return f"item {path[-1] + 1}" if isinstance(path[-1], int) else f"'{path[-1]}'"


def deleted(doc: Document, path: tuple, start: int, end: int) -> Optional[Fix]:
    """Delete a flow entry from ``start`` to ``end`` with the comma before it (after it, for the first)."""
    before = doc.text[:start].rstrip(" \t\r\n")
    if before.endswith(","):
        return Fix((Edit(len(before) - 1, end, ""),), f"delete {_entry(path)}", change=("delete", path, None))
    after = end + len(doc.text[end:]) - len(doc.text[end:].lstrip(" \t\r\n"))
    if doc.text[after:after + 1] == ",":
        rest = after + 1 + len(doc.text[after + 1:]) - len(doc.text[after + 1:].lstrip(" \t"))
        return Fix((Edit(start, rest, ""),), f"delete {_entry(path)}", change=("delete", path, None))
    return None
