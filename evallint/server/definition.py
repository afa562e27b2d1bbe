"""Goto definition: from a target name (``target``, ``judge_target``) to its entry in the targets file the
runner would use, and from a file reference (a prompt, a script, a ``type: file`` block's value) to that
file; where each leads is what the reference checks resolve."""
from __future__ import annotations

from typing import Optional

from lsprotocol import types
from pygls.uris import from_fs_path

from evallint import api
from evallint.server.documents import Document, Documents


def definition(doc: Document, documents: Documents, position: types.Position) -> Optional[list]:
    config = documents.configuration(doc.path)
    if config is None:
        return None
    positions = documents.positions(doc)
    offset = positions.offset(position)
    for ref in api.references_in(doc.text, doc.path, config, open_files=documents.open_files()):
        at = ref.at
        if ref.leads_to is None or not (positions.from_evallint(at.line, at.column) <= offset
                                        <= positions.from_evallint(at.end_line, at.end_column)):
            continue
        place = ref.leads_to
        span = documents.range_in(place.path, place.line, place.column, place.end_line, place.end_column)
        return [types.Location(uri=from_fs_path(place.path), range=span)]
    return None
