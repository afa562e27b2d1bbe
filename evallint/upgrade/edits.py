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
from evallint.load.positions import Index, MapLoc
from evallint.load.yaml_scalars import resolve_plain
from evallint.report.fixes import line_ending

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

    def key_span(self, path: tuple):
        return self.index.locate(path, KEY)

    def value_span(self, path: tuple):
        return self.index.locate(path, VALUE)

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
    elif not quote and old != doc_value(doc, path):
        return None  # a plain scalar written over several lines: its text is not the string
    return Fix((Edit(span.start, span.end, _scalar(doc.text, value, quote)),),
               f"write {json.dumps(value)}", change=("set", path, value))


def doc_value(doc: Document, path: tuple) -> Any:
    node = doc.data
    for part in path:
        node = node[part]
    return node


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
    return "true" if value is True else "false"
