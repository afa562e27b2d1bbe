"""evallint's diagnostics as the protocol's: range, severity, code with a link to the rule's section of
docs/rules.md, source, and the related places (the first duplicate, the targets file)."""
from __future__ import annotations

import os
from typing import Callable

from lsprotocol import types
from pygls.uris import from_fs_path

from evallint import api
from evallint.diagnostics import Diagnostic, Severity
from evallint.server.positions import Positions

SOURCE = "evallint"
SEVERITIES = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning}


def to_lsp(d: Diagnostic, positions: Positions, range_in: Callable[..., types.Range]) -> types.Diagnostic:
    """``range_in(path, line, column, end_line, end_column)``: the range of a place in another file (a
    related place), as ``Documents.range_in`` gives it."""
    url = api.rule_url(d.code)
    return types.Diagnostic(
        range=positions.evallint_range(d.line, d.column, d.end_line, d.end_column),
        severity=SEVERITIES.get(d.severity, types.DiagnosticSeverity.Error),
        code=d.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source=SOURCE,
        message=d.message,
        related_information=[_related(r, d, positions, range_in) for r in d.related] or None,
    )


def _related(r, d: Diagnostic, positions: Positions, range_in) -> types.DiagnosticRelatedInformation:
    if os.path.abspath(r.path) == os.path.abspath(d.path):
        span = positions.evallint_range(r.line, r.column, r.end_line, r.end_column)
    else:
        span = range_in(r.path, r.line, r.column, r.end_line, r.end_column)
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=from_fs_path(os.path.abspath(r.path)), range=span), message=r.message)


def overlaps(a: types.Range, b: types.Range) -> bool:
    """Whether two ranges share a position (touching counts: a cursor at a diagnostic's end is on it)."""
    def key(p: types.Position) -> tuple:
        return p.line, p.character

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)
