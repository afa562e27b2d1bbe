"""Fixes as data: text edits computed from node positions on the original
text, so everything outside them stays byte for byte (docs/format.md#fixes).

Rules attach a recipe to a finding (``("quote",)``, ``("rename_key", "input")``,
...); ``make_fix`` turns it into edits once the finding's span is known, and
``apply_edits`` applies non-overlapping edits bottom-up."""
from __future__ import annotations

from typing import Optional

from evallint.diagnostics import Edit, Finding, Fix, Span


def lines_of(text: str) -> list:
    """Lines with their endings, broken at '\n' only (not at NEL, LS or PS as str.splitlines does)."""
    parts = text.split("\n")
    out = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def line_ending(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _quote(value: str, style: str) -> str:
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _fix_quote(span: Span, text: str) -> Optional[Fix]:
    raw = text[span.start:span.end]
    if not raw or raw[0] in "'\"" or "\n" in raw:
        return None
    return Fix((Edit(span.start, span.end, _quote(raw, '"')),), f"quote {raw} as a string")


def _fix_rename(span: Span, text: str, new: str) -> Optional[Fix]:
    old = text[span.start:span.end]
    if not old or old[0] in "'\"?":
        return None  # quoted or complex keys: left to the user
    return Fix((Edit(span.start, span.end, new),), f"rename '{old}' to '{new}'")


def _fix_flow_list(span: Span, text: str, tokens: list) -> Optional[Fix]:
    raw = text[span.start:span.end]
    if not raw or "\n" in raw or raw[0] in "|>":
        return None
    style = "'" if raw[0] == "'" else '"'
    items = ", ".join(_quote(token, style) for token in tokens)
    return Fix((Edit(span.start, span.end, f"[{items}]"),), "split the command into an argv list", safe=False)


def _fix_move_target(span: Span, text: str) -> Optional[Fix]:
    if span.column != 0:
        return None  # only a top-level key of a block mapping
    eol = line_ending(text)
    return Fix((Edit(span.start, span.start, "execution:" + eol + "  "),), "move 'target' under 'execution'")


def _fix_insert_schema(text: str, schema: str) -> Optional[Fix]:
    eol = line_ending(text)
    offset = 0
    for line in lines_of(text):
        stripped = line.strip()
        if stripped.startswith("#") or stripped.startswith("%") or stripped == "---":
            offset += len(line)
            continue
        break
    body = text[offset:].lstrip()
    if body.startswith("{"):
        return None  # a flow mapping at the top: not edited line by line
    prefix = "" if offset == 0 or text[offset - 1] == "\n" else eol
    return Fix((Edit(offset, offset, f"{prefix}$schema: {schema}{eol}"),), f"insert '$schema: {schema}'")


def make_fix(finding: Finding, span: Span, text: str) -> Optional[Fix]:
    recipe = finding.fix
    if not recipe or not text:
        return None
    kind = recipe[0]
    if kind == "quote":
        return _fix_quote(span, text)
    if kind == "rename_key":
        return _fix_rename(span, text, recipe[1])
    if kind == "flow_list":
        return _fix_flow_list(span, text, recipe[1])
    if kind == "move_target":
        return _fix_move_target(span, text)
    if kind == "insert_schema":
        return _fix_insert_schema(text, recipe[1])
    return None


def choose(fixes: list) -> list:
    """Non-overlapping edits of the given fixes, in order; a fix is taken whole or not at all."""
    taken: list = []
    edits: list = []
    for fix in sorted(fixes, key=lambda f: min(e.start for e in f.edits)):
        if any(_overlaps(e, other) for e in fix.edits for other in edits):
            continue
        taken.append(fix)
        edits.extend(fix.edits)
    return taken


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.start == a.end == b.start == b.end:
        return True  # two insertions at one place: order would be arbitrary
    return a.start < b.end and b.start < a.end or (a.start == a.end and b.start < a.start < b.end) \
        or (b.start == b.end and a.start < b.start < a.end)


def apply_edits(text: str, fixes: list) -> str:
    edits = sorted((e for fix in fixes for e in fix.edits), key=lambda e: (e.start, e.end), reverse=True)
    for edit in edits:
        text = text[:edit.start] + edit.replacement + text[edit.end:]
    return text
