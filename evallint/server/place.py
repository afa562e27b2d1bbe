"""Where the cursor is in a block-style YAML text, read from indentation alone, so that a buffer in the
middle of an edit (a key half typed, no colon yet) still says which mapping the cursor is in: the keys and
list items from the top down to it, the other keys of that mapping, and the key or value being typed.
Flow collections (``{...}``, ``[...]``) and multi-line strings are not read: there the cursor is nowhere."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

ITEM = "-"  # a list item in a path

_LINE = re.compile(r"(?P<indent>[ ]*)(?P<dashes>(?:-[ ]+)*)(?P<rest>.*)")
_KEY = re.compile(r"(?P<key>[$\w][\w$.-]*|\"[^\"]*\"|'[^']*')[ \t]*:(?=[ \t]|$)[ \t]*(?P<value>.*)")
_TYPING_KEY = re.compile(r"[$\w][\w$.-]*\Z|\Z")


@dataclass
class Line:
    indent: int
    dashes: list  # columns of the '- ' that open list items on the line
    content: int  # column of what follows them
    key: Optional[str] = None
    value: str = ""  # the text after 'key:', comment included


def read_line(text: str) -> Optional[Line]:
    """A line's structure; None for a blank or comment line."""
    match = _LINE.match(text)
    rest = match.group("rest")
    if not rest.strip() and not match.group("dashes") or rest.lstrip().startswith("#") and not match.group("dashes"):
        return None
    indent = len(match.group("indent"))
    dashes, column = [], indent
    for part in re.findall(r"-[ ]+", match.group("dashes")):
        dashes.append(column)
        column += len(part)
    line = Line(indent, dashes, column)
    found = _KEY.match(rest)
    if found:
        line.key = _unquoted(found.group("key"))
        line.value = found.group("value")
    return line


def _unquoted(key: str) -> str:
    return key[1:-1] if key[:1] in "\"'" else key


def _owner(lines: list, number: int, column: int, in_list: bool) -> Optional[list]:
    """The path of the node that holds what starts at ``column`` on line ``number``: a mapping's key
    there, or (``in_list``) a list item's dash. None when the lines above do not say."""
    path: list = []
    for n in range(number - 1, -1, -1):
        line = read_line(lines[n])
        if line is None or line.indent > column:
            continue
        if in_list:
            if line.dashes and line.dashes[0] == column:
                continue  # an earlier item of the same list
            if line.key is not None and line.content <= column:
                path.insert(0, line.key)
            else:
                return None
        elif line.key is not None and line.content == column:
            if not line.dashes:
                continue  # a key of the same mapping
        elif line.dashes and line.key is None and line.content <= column and line.dashes[-1] < column:
            pass  # a bare '-' whose item starts on the next line
        elif line.key is not None and line.content < column:
            path.insert(0, line.key)
        else:
            return None
        path[0:0] = [ITEM] * len(line.dashes)
        column, in_list = (line.dashes[0], True) if line.dashes else (line.content, False)
    return path


def _siblings(lines: list, number: int, column: int, first: bool) -> dict:
    """The keys (with their values' text) of the mapping whose keys start at ``column``, around line
    ``number``; ``first``: that line opens the mapping (it is a list item's first line)."""
    out = {}
    for step in (-1, 1):
        n = number + step
        if step < 0 and first:
            continue
        while 0 <= n < len(lines):
            line = read_line(lines[n])
            n += step
            if line is None or line.indent > column:
                continue
            if line.key is None or line.content != column or step > 0 and line.dashes:
                break  # the mapping ends: a shallower line, or the next list item
            out.setdefault(line.key, line.value.split(" #")[0].strip())
            if line.dashes:  # the first line of a list item: the mapping starts there
                break
    return out


@dataclass
class Cursor:
    """Where the cursor is: in the mapping at ``path``, on a key (``key`` None) whose first ``typed``
    characters are before it, or in the value of ``key``, typed so far as ``typed``. ``name`` is the whole
    key written on the line (None when there is none yet), between columns ``key_start`` and ``key_end``."""

    path: list
    key: Optional[str]
    typed: str
    typed_start: int  # column where what is typed starts
    siblings: dict = field(default_factory=dict)
    name: Optional[str] = None
    key_start: int = 0
    key_end: int = 0


def cursor_at(lines: list, number: int, column: int) -> Optional[Cursor]:
    """The cursor on line ``number`` at ``column`` (code points), in ``lines`` (without their endings)."""
    if not 0 <= number < len(lines):
        return None
    text = lines[number]
    before = text[:column]
    line = read_line(text) or Line(len(before) - len(before.lstrip(" ")), [], len(before) - len(before.lstrip(" ")))
    if column < line.content or re.search(r"[{\[]", text[line.content:column]):
        return None  # in the indentation, or in a flow collection
    path = _path(lines, number, line)
    if path is None:
        return None
    siblings = _siblings(lines, number, line.content, bool(line.dashes))
    key_match = _KEY.match(text[line.content:])
    if key_match is not None:
        key_end = line.content + len(key_match.group("key"))
        value_start = line.content + key_match.start("value")
        siblings.pop(line.key, None)
        name, spans = line.key, (line.content, key_end)
        if column <= key_end:
            return Cursor(path, None, before[line.content:], line.content, siblings, name, *spans)
        if column >= value_start:
            return Cursor(path, line.key, before[value_start:], value_start, siblings, name, *spans)
        return Cursor(path, line.key, "", column, siblings, name, *spans)
    typing = before[line.content:]
    if _TYPING_KEY.match(typing) is None:
        return None
    siblings.pop(typing, None)
    return Cursor(path, None, typing, line.content, siblings)


def _path(lines: list, number: int, line: Line) -> Optional[list]:
    """The path of the mapping whose key starts at ``line.content`` on line ``number``."""
    if line.dashes:
        owner = _owner(lines, number, line.dashes[0], True)
        return None if owner is None else owner + [ITEM] * len(line.dashes)
    return _owner(lines, number, line.content, False)
