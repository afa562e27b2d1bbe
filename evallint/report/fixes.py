"""Fixes as data: text edits computed from node positions on the original
text, so everything outside them stays byte for byte (docs/format.md#fixes).

Rules attach a recipe to a finding (``("quote",)``, ``("rename_key", "input")``,
...); ``make_fix`` turns it into edits once the finding's span is known, and
``apply_edits`` applies non-overlapping edits bottom-up."""
from __future__ import annotations

import re
from typing import Optional

from evallint.diagnostics import VALUE, Edit, Finding, Fix, Span
from evallint.load import yaml11
from evallint.load.positions import Index
from evallint.load.yaml12 import resolve_plain
from evallint.suggest import yaml_boolean


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


# A node's properties: anchors (&name) and tags (!tag) written before its content, each followed by white space.
_PROPERTIES = re.compile(r"(?:[&!]\S*\s+)*")
# A line with nothing but properties and a comment, or blank: it adds no key or value.
_NO_CONTENT_LINE = re.compile(r"[ \t]*(?:[&!]\S*[ \t]+)*(?:[&!]\S*)?[ \t]*(?:#.*)?\r?\n?\Z")


def _content(span: Span, text: str) -> tuple:
    """Where the node's content starts, past its properties (a node's span starts at its first property),
    and whether a tag is among them."""
    props = _PROPERTIES.match(text, span.start, span.end)
    start = props.end() if props else span.start
    return start, any(token.startswith("!") for token in text[span.start:start].split())


def _fix_quote(span: Span, text: str, path: tuple) -> Optional[Fix]:
    start, tagged = _content(span, text)
    raw = text[start:span.end]
    if tagged or isinstance(resolve_plain(raw), str):
        return None  # a tag would still decide the type; an alias or quoted text is no number written out
    return Fix((Edit(start, span.end, _quote(raw, '"')),), f"quote {raw} as a string", change=("set", path, raw))


def quote_message(message: str, span: Span, text: str, fix: Optional[Fix]) -> str:
    """The message of a finding whose recipe is ``quote``, its ``{written}`` the value as the file writes it
    and its ``{remedy}`` what the fix writes (what to write when there is no fix: a tagged value)."""
    start, _ = _content(span, text)
    remedy = f"the fix writes {fix.edits[0].replacement}" if fix is not None else "write it as a string"
    return message.replace("{written}", text[start:span.end]).replace("{remedy}", remedy)


def _fix_boolean(span: Span, text: str, value: bool, path: tuple) -> Optional[Fix]:
    """A YAML 1.1 word for a boolean written as YAML 1.2's ``value``; not a quoted or tagged word, which the
    author made text on purpose."""
    start, tagged = _content(span, text)
    raw = text[start:span.end]
    if tagged or yaml11.boolean(raw) is None:
        return None
    written = yaml_boolean(value)
    return Fix((Edit(start, span.end, written),), f"write {raw} as {written}", change=("set", path, value))


def _fix_rename(span: Span, text: str, new: str, path: tuple) -> Optional[Fix]:
    start, _ = _content(span, text)
    old = text[start:span.end]
    if not path or old != path[-1]:
        return None  # quoted, complex or escaped keys: left to the user
    return Fix((Edit(start, span.end, new),), f"rename '{old}' to '{new}'", change=("rename", path, new))


def _fix_flow_list(span: Span, text: str, tokens: list, path: tuple) -> Optional[Fix]:
    start, tagged = _content(span, text)
    raw = text[start:span.end]
    if tagged or not raw or "\n" in raw or raw[0] in "|>":
        return None
    style = "'" if raw[0] == "'" else '"'
    items = ", ".join(_quote(token, style) for token in tokens)
    return Fix((Edit(start, span.end, f"[{items}]"),), "split the command into an argv list", safe=False,
               change=("set", path, list(tokens)))


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _fix_move_target(span: Span, value: Span, text: str, path: tuple) -> Optional[Fix]:
    """Indent the whole entry, key to the last line of its value (a value on the next line, a block
    scalar), two more spaces under a new ``execution:`` line."""
    start = _line_start(text, span.start)
    indent = text[start:span.start]
    if indent.strip(" ") or path != ("target",):
        return None  # only a key that begins its line, in a block mapping
    end = max(value.end, span.end)
    if text[end - 1] != "\n":  # a block scalar's span ends past its last line break; others end on their line
        newline = text.find("\n", end)
        end = len(text) if newline < 0 else newline + 1
    lines = lines_of(text[start:end])
    moved = "".join("  " + line if line.strip("\r\n") else line for line in lines)
    eol = line_ending(text)
    return Fix((Edit(start, end, f"{indent}execution:{eol}{moved}"),), "move 'target' under 'execution'",
               change=("nest", path, "execution"))


def _header_end(text: str) -> int:
    """The end of the leading comments, directives and '---' lines (with a comment, anchor or tag at most)."""
    offset = 0
    for line in lines_of(text):
        stripped = line.strip()
        marker = stripped == "---" or (stripped.startswith(("--- ", "---\t")) and _NO_CONTENT_LINE.match(stripped[4:]))
        if stripped.startswith(("#", "%")) or marker:
            offset += len(line)
            continue
        break
    return offset


def _fix_insert_schema(span: Span, text: str, schema: str) -> Optional[Fix]:
    """A new first key, in the first key's column: after the leading comment block, or right above the
    first key when a line with the mapping's anchor or tag comes before it."""
    key_line = _line_start(text, span.start)
    indent = text[key_line:span.start]
    offset = _header_end(text)
    if indent.strip(" ") or offset > key_line:
        return None  # the first key shares its line with something else ('--- key:', '{key:')
    between = lines_of(text[offset:key_line])
    if not all(_NO_CONTENT_LINE.match(line) for line in between):
        return None  # a flow mapping at the top ('{' on a line of its own): not edited line by line
    if any(line.strip() and not line.strip().startswith("#") for line in between):
        offset = key_line  # properties of the mapping are written above it: the key goes below them
    eol = line_ending(text)
    prefix = "" if offset == 0 or text[offset - 1] == "\n" else eol
    return Fix((Edit(offset, offset, f"{prefix}{indent}$schema: {schema}{eol}"),), f"insert '$schema: {schema}'",
               change=("insert", ("$schema",), schema))


def make_fix(finding: Finding, span: Span, text: str, index: Optional[Index] = None) -> Optional[Fix]:
    """The fix of ``finding`` at ``span``; ``index`` gives the data path as the file writes it and the
    spans of other nodes."""
    recipe = finding.fix
    if not recipe or not text:
        return None
    path = index.written(finding.path) if index is not None else finding.path
    kind = recipe[0]
    if kind == "quote":
        return _fix_quote(span, text, path)
    if kind == "rename_key":
        return _fix_rename(span, text, recipe[1], path)
    if kind == "boolean":
        return _fix_boolean(span, text, recipe[1], path)
    if kind == "flow_list":
        return _fix_flow_list(span, text, recipe[1], path)
    if kind == "move_target" and index is not None:
        return _fix_move_target(span, index.locate(finding.path, VALUE), text, path)
    if kind == "insert_schema":
        return _fix_insert_schema(span, text, recipe[1])
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
