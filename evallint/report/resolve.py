"""Findings (data paths) become Diagnostics (lines and columns) here, and only here."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from evallint.config import Config
from evallint.diagnostics import Diagnostic, Finding, Related, Span, yaml_path_text
from evallint.load.positions import Index, LineMap


CASES_KEYS = ("evalcases", "tests")  # the list of cases of a suite of AgentV 2.2 and of 4.42.4


def case_id_of(data: Any, path: tuple) -> Optional[str]:
    """The id of the case a finding at ``path`` is in: a string id, or the id the runner gives an Agent Skills
    eval ('evals') that has one; None for another finding."""
    if len(path) >= 2 and path[0] == "evals" and isinstance(path[1], int) and isinstance(data, dict):
        cases = data.get("evals")
        if isinstance(cases, list) and path[1] < len(cases) and isinstance(cases[path[1]], dict) \
                and "id" in cases[path[1]]:
            from evallint.rules.agent_skills import runner_id

            return runner_id(cases[path[1]])
        return None
    if len(path) >= 2 and path[0] in CASES_KEYS and isinstance(path[1], int) and isinstance(data, dict):
        cases, at = data.get(path[0]), path[1]
    elif path and isinstance(path[0], int) and isinstance(data, list):  # a file of AgentV 4.42.4 tests
        cases, at = data, path[0]
    else:
        return None
    if isinstance(cases, list) and at < len(cases) and isinstance(cases[at], dict):
        cid = cases[at].get("id")
        if isinstance(cid, str):
            return cid
    return None


def _narrow(span: Span, needle: str, text: str) -> Span:
    """The offsets of ``needle`` inside a value's span, found in the source text
    (lines and columns come from the offsets, like every other span's)."""
    at = text.find(needle, span.start, max(span.end, span.start + 1) + len(needle))
    if at < 0:
        return span
    return Span(span.line, span.column, span.end_line, span.end_column, at, at + len(needle))


def to_diagnostics(findings: Iterable[Finding], *, path: str, index: Index, data: Any, config: Config,
                   text: str = "", fixer=None) -> list[Diagnostic]:
    out = []
    lines = LineMap(text) if text else None
    file_ignores = config.file_ignores(path)
    for f in findings:
        if not config.enabled(f.code, file_ignores):
            continue
        span = f.span if f.span is not None else index.locate(f.path, f.target)
        if lines is not None:
            needle = f.extra.get("needle")
            span = lines.span(_narrow(span, needle, text) if needle else span)
        message = f.message
        related: tuple = ()
        ref = f.extra.get("ref")
        if ref is not None:
            first = index.locate(ref, "value")
            if lines is not None:
                first = lines.span(first)
            message = message.replace("{ref_line}", str(first.line + 1))
            related = (Related(path, first.line + 1, first.column + 1, first.end_line + 1, first.end_column + 1,
                               "first occurrence"),)
        elsewhere = f.extra.get("elsewhere")
        if elsewhere is not None:  # another file as a whole: (its path, what it is)
            related += (Related(elsewhere[0], 1, 1, 1, 1, elsewhere[1]),)
        end_line, end_column = span.end_line, span.end_column
        if (end_line, end_column) <= (span.line, span.column):
            end_line, end_column = span.line, span.column + 1
        fix = fixer(f, span, text, index) if (fixer is not None and f.fix is not None) else None
        if f.fix == ("quote",) and text:
            from evallint.report.fixes import quote_message

            message = quote_message(message, span, text, fix)
        out.append(Diagnostic(
            code=f.code,
            severity=config.severity_of(f.code),
            message=message,
            path=path,
            line=span.line + 1,
            column=span.column + 1,
            end_line=end_line + 1,
            end_column=end_column + 1,
            yaml_path=yaml_path_text(index.written(f.path)),
            case_id=case_id_of(data, f.path),
            fix=fix,
            related=related,
        ))
    return out
