"""Code actions: each fix evallint has for a diagnostic (an unsafe one marked as such, never preferred),
"disable EVxxx for this line", and ``source.fixAll.evallint``, which applies every safe fix as ``--fix``
does. Edits are the fixes' own, so the text they make is byte for byte the one ``--fix`` writes."""
from __future__ import annotations

import os
from typing import Optional

from lsprotocol import types

from evallint import api
from evallint.server.diagnostics import overlaps, to_lsp
from evallint.server.documents import Document, Documents

FIX_ALL = "source.fixAll.evallint"
KINDS = [types.CodeActionKind.QuickFix, FIX_ALL]


def wanted(kind: str, only: Optional[list]) -> bool:
    """Whether the client asked for actions of ``kind`` (a kind covers the kinds below it: 'source'
    covers 'source.fixAll.evallint')."""
    return not only or any(kind == o or kind.startswith(o + ".") for o in only)


def _edit(doc: Document, documents: Documents, edits) -> types.WorkspaceEdit:
    positions = documents.positions(doc)
    return types.WorkspaceEdit(changes={doc.uri: [
        types.TextEdit(range=positions.range(e.start, e.end), new_text=e.replacement) for e in edits]})


def _fix_action(doc, documents, d, diagnostic: types.Diagnostic) -> types.CodeAction:
    fix = d.fix
    title = fix.description[:1].upper() + fix.description[1:] + f" ({d.code})"
    if not fix.safe:
        title += " [unsafe: may change what the runner does]"
    return types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                            is_preferred=fix.safe, edit=_edit(doc, documents, fix.edits))


def _disable_action(doc, documents, config, d, diagnostic) -> Optional[types.CodeAction]:
    edit = api.disable_edit(doc.text, doc.path, config, d, open_files=documents.open_files())
    if edit is None:
        return None
    return types.CodeAction(title=f"Disable {d.code} for this line", kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic], is_preferred=False, edit=_edit(doc, documents, [edit]))


def _fix_all(doc, documents, config) -> Optional[types.CodeAction]:
    fixed = api.fixed_text(doc.text, doc.path, config, open_files=documents.open_files())
    if fixed == doc.text:
        return None
    # one edit from the first changed character to the last: the rest of the buffer is left alone
    head = len(os.path.commonprefix([fixed, doc.text]))  # character by character, as documented
    tail = len(os.path.commonprefix([fixed[head:][::-1], doc.text[head:][::-1]]))
    positions = documents.positions(doc)
    shift = positions.shift  # the edit's offsets are into the buffer, byte order mark included
    span = positions.range(head - shift, len(doc.text) - tail - shift)
    edit = types.TextEdit(range=span, new_text=fixed[head:len(fixed) - tail])
    return types.CodeAction(title="Fix all safe evallint problems", kind=FIX_ALL,
                            edit=types.WorkspaceEdit(changes={doc.uri: [edit]}))


def code_actions(doc: Document, documents: Documents, params: types.CodeActionParams) -> list:
    result = documents.lint(doc)
    config = documents.configuration(doc.path)
    if result is None or result.kind is None or config is None:
        return []
    only = params.context.only
    out: list = []
    if wanted(types.CodeActionKind.QuickFix, only):
        positions = documents.positions(doc)
        for d in result.diagnostics:
            diagnostic = to_lsp(d, positions, documents.range_in)
            if not overlaps(diagnostic.range, params.range):
                continue
            if d.fix is not None:
                out.append(_fix_action(doc, documents, d, diagnostic))
            action = _disable_action(doc, documents, config, d, diagnostic)
            if action is not None:
                out.append(action)
    if wanted(FIX_ALL, only):
        action = _fix_all(doc, documents, config)
        if action is not None:
            out.append(action)
    return out
