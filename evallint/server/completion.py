"""Completion: the keys the mapping at the cursor accepts (those not written yet, nor deprecated), the accepted values of
the key whose value is being typed (an evaluator's ``type``, a trajectory's ``mode``, a message's ``role``,
a target's ``provider``...), and target names from the targets file the runner would use."""
from __future__ import annotations

import json
import os
import re
from typing import Optional

from lsprotocol import types

from evallint import api
from evallint.server.declarations import declarations
from evallint.server.documents import Document, Documents
from evallint.server.hover import describe
from evallint.server.place import YAML, cursor_in

TARGET_KEYS = ("target", "judge_target")
_COLON_FOLLOWS = re.compile(r"[\w$.-]*[\"']?[ \t]*:")  # after the cursor: the rest of the key, then its colon


def _item(label: str, kind, new_text: str, span: types.Range, order: int, detail: Optional[str] = None,
          documentation: Optional[str] = None) -> types.CompletionItem:
    return types.CompletionItem(
        label=label, kind=kind, detail=detail, sort_text=f"{order:04d}", filter_text=label,
        documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=documentation) if documentation else None,
        text_edit=types.TextEdit(range=span, new_text=new_text))


def completion(doc: Document, documents: Documents, position: types.Position) -> Optional[types.CompletionList]:
    result = documents.lint(doc)
    known = declarations(result.kind, result.version) if result is not None else None
    if known is None:
        return None
    positions = documents.positions(doc)
    line, column = positions.cursor(position)  # a position past its line or the document: their end
    lines = positions.lines()
    cursor = cursor_in(known.form, lines, line, column)
    if cursor is None:
        return None
    span = types.Range(start=positions.at(line, cursor.typed_start), end=positions.at(line, column))
    items = []

    def written(text: str) -> str:
        """``text`` as it goes in: quoted in JSON unless the writer opened the quotes."""
        return json.dumps(text) if known.form != YAML and not cursor.quoted else text

    if cursor.key is None:
        colon = _COLON_FOLLOWS.match(lines[line][column:]) is not None
        for order, key in enumerate(known.keys(cursor.path, cursor.siblings)):
            if key.name in cursor.siblings or key.deprecated:
                continue
            new_text = written(key.name) + ("" if colon or cursor.quoted else ": ")
            items.append(_item(key.name, types.CompletionItemKind.Property, new_text, span, order,
                               documentation=describe(key)))
    elif cursor.key in TARGET_KEYS:
        config = documents.configuration(doc.path)
        found = api.target_names(doc.text, doc.path, config, open_files=documents.open_files()) if config else None
        if found is not None:
            where = os.path.relpath(found[0], config.root_of(doc.path)).replace(os.sep, "/")
            for order, name in enumerate(dict.fromkeys(found[1])):
                items.append(_item(name, types.CompletionItemKind.Reference, written(name), span, order,
                                   detail=f"target in {where}"))
    else:
        key = known.key(cursor.path, cursor.key, cursor.siblings)
        for order, value in enumerate(key.values if key is not None else ()):
            items.append(_item(value, types.CompletionItemKind.EnumMember, written(value), span, order,
                               detail=f"{cursor.key}: {key.description}"))
    return types.CompletionList(is_incomplete=False, items=items)

