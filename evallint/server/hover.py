"""Hover: on a key, its description and accepted values; on a diagnostic, its rule's explanation (what
``evallint rule CODE`` prints)."""
from __future__ import annotations

from typing import Optional

from lsprotocol import types

from evallint import api
from evallint.server.declarations import Key, declarations
from evallint.server.diagnostics import overlaps
from evallint.server.documents import Document, Documents
from evallint.server.place import cursor_in


def describe(key: Key) -> str:
    """A key's documentation, in markdown."""
    out = f"**`{key.name}`**: {key.description}"
    if key.values:
        out += "\n\nAccepted values: " + ", ".join(f"`{v}`" for v in key.values)
    return out


def hover(doc: Document, documents: Documents, position: types.Position) -> Optional[types.Hover]:
    result = documents.lint(doc)
    if result is None or result.kind is None:
        return None
    positions = documents.positions(doc)
    line, column = positions.cursor(position)  # a position past its line or the document: their end
    parts = []
    span = None
    known = declarations(result.kind, result.version)
    if known is not None:
        cursor = cursor_in(known.form, positions.lines(), line, column)
        key = known.key(cursor.path, cursor.name, cursor.siblings) if cursor and cursor.name else None
        if key is not None:
            parts.append(describe(key))
            key_line = line if cursor.key_line is None else cursor.key_line
            span = types.Range(start=positions.at(key_line, cursor.key_start), end=positions.at(key_line, cursor.key_end))
    here = types.Range(start=positions.at(line, column), end=positions.at(line, column))
    explained = set()
    for d in result.diagnostics:
        if d.code not in explained and overlaps(positions.evallint_range(d.line, d.column, d.end_line, d.end_column),
                                                here):
            explained.add(d.code)
            parts.append(api.explain_rule(d.code) or d.code)
    if not parts:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
                       range=span)
