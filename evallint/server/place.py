"""Where the cursor is in a YAML text, read from indentation alone, so that a buffer in the middle of an
edit (a key half typed, no colon yet) still says which mapping the cursor is in: the keys and list items
from the top down to it, the other keys of that mapping, and the key or value being typed. A flow
collection (``{...}``, ``[...]``) that opens on the cursor's line, a JSON line of a dataset included, is
read from PyYAML's tokens (``yaml.scan``) up to the end of the line, or up to what PyYAML cannot read yet (a
quoted scalar being typed is read to the end of the line). Multi-line strings and flow collections over
several lines are not read as such, but for a JSON document (an Agent Skills evals file), which is one flow
collection read the same way from its first line to its end."""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from typing import Optional

import yaml

from evallint.load.yaml12 import LOADER

ITEM = "-"  # a list item in a path
YAML, JSON_LINES, JSON = "yaml", "json lines", "json"  # how a kind of file is written
_QUOTES = ('"', "'")

_LINE = re.compile(r"(?P<indent>[ ]*)(?P<dashes>(?:-[ ]+)*)(?P<rest>.*)")
_KEY = re.compile(r"(?P<key>[$\w][\w$.-]*|\"[^\"]*\"|'[^']*')[ \t]*:(?=[ \t]|$)[ \t]*(?P<value>.*)")
_TYPING_KEY = re.compile(r"[$\w][\w$.-]*\Z|\Z")


@dataclass
class Line:
    """The structure of one line of YAML as typed: its indent, list dashes, key and value."""

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
    quoted: bool = False  # what is typed follows an opening quote (in a flow collection)
    key_line: Optional[int] = None  # the line of the key when it is not the cursor's (in a JSON document)


def cursor_in(form: str, lines: list, number: int, column: int) -> Optional[Cursor]:
    """The cursor on line ``number`` at ``column`` of a text written in ``form`` (YAML, JSON_LINES, JSON)."""
    if form == JSON:
        return _in_json(lines, number, column)
    return cursor_at(lines, number, column, json_lines=form == JSON_LINES)


def cursor_at(lines: list, number: int, column: int, json_lines: bool = False) -> Optional[Cursor]:
    """The cursor on line ``number`` at ``column`` (code points), in ``lines`` (without their endings);
    ``json_lines``: each line is a collection of its own (a dataset)."""
    if not 0 <= number < len(lines):
        return None
    text = lines[number]
    if json_lines:
        return _in_flow(text, len(text) - len(text.lstrip()), column, [])
    before = text[:column]
    line = read_line(text) or Line(len(before) - len(before.lstrip(" ")), [], len(before) - len(before.lstrip(" ")))
    if column < line.content:
        return None  # in the indentation
    path = _path(lines, number, line)
    flow = _flow_start(text, line)
    if flow is not None and column > flow:
        return None if path is None else _in_flow(text, flow, column, path + ([line.key] if line.key is not None else []))
    if path is None or re.search(r"[{\[]", text[line.content:column]):
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


def _flow_start(text: str, line: Line) -> Optional[int]:
    """The column of the '{' or '[' that opens the line's value or list item, if one does."""
    start = len(text) - len(line.value) if line.key is not None else line.content
    return start if text[start:start + 1] in ("{", "[") else None


@dataclass
class _Frame:
    """A flow collection, at ``path`` below where the flow starts. ``last``: what its current entry holds so
    far ('key' without its colon, 'colon', 'value'; None after the opening or a comma); ``key``: the key
    token of the value that comes next; ``keys``: the keys of a mapping with their values' text."""

    kind: str  # '{' or '['
    path: list
    last: Optional[str] = None
    key: Optional["_Token"] = None
    keys: dict = field(default_factory=dict)


@dataclass
class _Token:
    """A key or value of a flow collection, as typed: where it is and what it belongs to."""

    start: int
    end: int
    text: str  # as written, quotes included
    frame: _Frame
    owner: Optional["_Token"]  # for a value in a mapping, its key's token; None for a key
    quoted: bool
    closed: bool  # its closing quote is written

    @property
    def name(self) -> str:
        return self.text[1:len(self.text) - self.closed] if self.quoted else self.text


def _on(token: _Token, column: int) -> bool:
    """Whether the cursor at ``column`` is on ``token``: inside it, at its end, or before its first
    character (not before an opening quote, nor after a closing one)."""
    if token.quoted:
        return token.start < column < token.end + (not token.closed)
    return token.start <= column <= token.end


# JSON writes a character beyond U+FFFF as two escaped surrogates, which libyaml refuses: an escape of the same
# length in their place keeps every position
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# what each of PyYAML's tokens in a flow collection is to the walk below; the others (keys, anchors, tags,
# block structure around the collection) are passed by
_KINDS = {yaml.FlowMappingStartToken: "{", yaml.FlowSequenceStartToken: "[", yaml.FlowMappingEndToken: "}",
          yaml.FlowSequenceEndToken: "]", yaml.FlowEntryToken: ",", yaml.ValueToken: ":", yaml.ScalarToken: "scalar"}


def _read(text: str) -> tuple:
    """PyYAML's tokens of ``text`` up to its first error; where they stop (the end of the text, or the start of
    what PyYAML cannot read: a half-typed scalar, a character no token starts with); and whether the text ends
    in a quoted scalar that starts there (being typed: no closing quote yet, or a last backslash that escapes
    nothing yet). The scanner reads ahead before it hands out a token, so the tokens before an error are those
    of the text before it, scanned again. Escaped surrogates are read as another escape of their length."""
    text = _SURROGATE.sub(r"\\u0020", text)
    try:
        return list(yaml.scan(text, Loader=LOADER)), len(text), False
    except yaml.MarkedYAMLError as exc:
        marks = [mark.index for mark in (exc.context_mark, exc.problem_mark) if mark is not None]
    except yaml.YAMLError:  # a character YAML does not allow anywhere
        return [], 0, False
    cut = min(marks, default=0)
    typing = text[cut:cut + 1] in _QUOTES and max(marks, default=0) >= len(text.rstrip()) - 1
    try:
        return list(yaml.scan(text[:cut], Loader=LOADER)), cut, typing
    except yaml.YAMLError:
        return [], 0, False


def _pieces(text: str, start: int) -> tuple:
    """The tokens of the flow collection that opens at ``start`` of ``text``, as (kind, start, end, quoted,
    closed), and where they stop. A quoted scalar being typed is read to the end of the text, open."""
    tokens, stop, typing = _read(text[start:])
    pieces = [(_KINDS[type(token)], start + token.start_mark.index, start + token.end_mark.index,
               getattr(token, "style", None) in _QUOTES, True) for token in tokens if type(token) in _KINDS]
    if typing:
        pieces.append(("scalar", start + stop, len(text.rstrip()), True, False))
        return pieces, len(text)
    return pieces, start + stop


def _scan(line: str, start: int, column: int) -> tuple:
    """Read the flow collection that opens at ``start`` to the end of the line (or of the collection, or a
    comment): (the scalar the cursor at ``column`` is on, else None; the collection the cursor is in,
    with its ``last`` and ``key`` there, else None when the cursor is outside the collection)."""
    pieces, stop = _pieces(line, start)
    if not pieces or pieces[0][0] not in "{[" or pieces[0][1] != start:
        return None, None  # the line does not open a collection there
    frames: list = []
    on = here = None
    after = start  # the end of the last piece read
    for kind, begin, end, quoted, closed in pieces:
        if on is None and here is None and (begin > column or begin == column and (kind != "scalar" or quoted)):
            here = _here(line, frames, after, column)  # the cursor is before this piece, not on a scalar
            if here is None:
                return None, None
        if kind == "scalar":
            token = _scalar(line, frames[-1], begin, end, quoted, closed)
            on = token if on is None and here is None and _on(token, column) else on
        elif _structure(frames, kind):
            return on, here  # the collection ends
        after = end
    if on is None and here is None and column <= stop:
        here = _here(line, frames, after, column)
    return on, here


def _here(line: str, frames: list, after: int, column: int) -> Optional[tuple]:
    """The innermost collection, with its ``last`` and ``key``, at ``column`` after the piece that ends at
    ``after``; None in a comment (what lies between two pieces is blanks or a comment)."""
    if "#" in line[after:column]:
        return None
    return frames[-1], frames[-1].last, frames[-1].key


def _scalar(line: str, top: _Frame, begin: int, end: int, quoted: bool, closed: bool) -> _Token:
    """The scalar between ``begin`` and ``end``, an entry's key or value in the collection ``top``. In a mapping,
    a scalar after a whole value or after a key without its colon starts an entry whose comma is not written
    yet (a key being added above another, in a JSON document): it is that entry's key."""
    if top.kind == "{" and top.last in ("key", "value"):
        top.key = None
    token = _Token(begin, end, line[begin:end], top, top.key, quoted, closed)
    if top.kind == "{" and top.key is None:
        top.last, top.key = "key", token  # the key of the value to come, once its colon is read
        top.keys.setdefault(token.name, "")
    else:
        top.last = "value"
        if top.kind == "{":
            top.keys[top.key.name] = token.text
    return token


def _structure(frames: list, kind: str) -> bool:
    """Follow a bracket, comma or colon in the collections ``frames``; whether the outermost one ends there."""
    top = frames[-1] if frames else None
    if kind in "{[":
        if top is not None:
            top.last = "value"
        frames.append(_Frame(kind, [] if top is None else top.path + [ITEM if top.kind == "[" else
                                                                     top.key and top.key.name]))
    elif kind in "}]":
        frames.pop()
        return not frames
    elif kind == ",":
        top.last, top.key = None, None
    elif top.kind == "{" and top.last == "key":  # the colon after a key
        top.last = "colon"
    return False


def _in_flow(text: str, start: int, column: int, base: list) -> Optional[Cursor]:
    """The cursor in the flow collection that opens at ``start`` of ``text``, the value at ``base``."""
    if column <= start:
        return None
    on, here = _scan(text, start, column)
    frame = on.frame if on is not None else here[0] if here is not None else None
    if frame is None or frame.kind != "{":
        return None  # outside the collection, in a comment, or in a list
    siblings = dict(frame.keys)
    path = base + frame.path
    if on is not None:
        key = on.owner or on  # the key the cursor is on, or whose value it is in
        siblings.pop(key.name, None)
        typed_start = on.start + on.quoted
        return Cursor(path, None if on.owner is None else key.name, text[typed_start:column], typed_start, siblings,
                      key.name, key.start, key.end, on.quoted)
    _, last, key = here
    if last is None:
        return Cursor(path, None, "", column, siblings)
    if last == "colon":
        siblings.pop(key.name, None)
        return Cursor(path, key.name, "", column, siblings, key.name, key.start, key.end)
    return None  # after a whole value, or after a key that has no colon yet


def _in_json(lines: list, number: int, column: int) -> Optional[Cursor]:
    """The cursor in a JSON document: its collection is read from its opening bracket to the end of the text (a
    tab, which JSON allows between tokens and nowhere else, read as a space), and the cursor's places are turned
    back into columns of their lines (what is typed given as written). JSON holds no line break in a string or a
    value, so the cursor's line, where a key or value is being typed, is read as ending its entry: a quote it
    leaves open is closed and a comma follows, and what is half typed there does not run into the line below.
    Nowhere when what is typed starts on an earlier line: a quote left open above."""
    if not 0 <= number < len(lines):
        return None
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    text = "\n".join(lines).replace("\t", " ")
    end = starts[number] + len(lines[number])  # of the cursor's line
    open_quote = _read(text[:end])[2]
    text = text[:end] + '"' * open_quote + "," + text[end:]  # past the cursor's line: no place a cursor gives moves
    offset = starts[number] + column
    cursor = _in_flow(text, len(text) - len(text.lstrip()), offset, [])
    if cursor is None or "\n" in cursor.typed:
        return None
    key_line = bisect_right(starts, cursor.key_start) - 1
    typed_start = cursor.typed_start - starts[number]
    return replace(cursor, typed=lines[number][typed_start:column], typed_start=typed_start, key_line=key_line,
                   key_start=cursor.key_start - starts[key_line], key_end=cursor.key_end - starts[key_line])
