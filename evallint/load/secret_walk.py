"""Following a document's nodes in their order to find the index ranges of the values under secret keys,
however deep, and of the anchored nodes that aliases under them stand for. ``parse_yaml``'s builder tells
the walk what it reads as it builds (its frames are the walk's levels: ``inside``, ``hide``, ``anchored``,
``alias_read``, ``key_holds_secret``); past a finding that stops the build, the walk follows
the parser's events on its own (``go_on``), and past a syntax error it adds the part the parser does not
reach (``unread``). A JSONL line that is no JSON object is read as far as JSON's grammar goes
(``json_ranges``). In a mapping, the nodes are its keys and values in turn."""
from __future__ import annotations

import json
import re
from bisect import bisect_left
from typing import Iterator, Optional

from yaml import YAMLError
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from evallint.load.environment import is_reference
from evallint.load.secrets import holds_secret, unread


class Level:
    """A collection being read: whether all of it is under a secret key, and in a mapping whether its next
    node is a key and whether the pending key holds a secret; for an anchored one, where its content starts."""

    __slots__ = ("is_map", "secret", "expect_key", "key_secret", "anchor", "start")

    def __init__(self, is_map: bool, secret: bool, anchor: Optional[str], start: int):
        self.is_map, self.secret, self.anchor, self.start = is_map, secret, anchor, start
        self.expect_key = is_map
        self.key_secret = False


_STARTS = (MappingStartEvent, SequenceStartEvent)
_ENDS = (MappingEndEvent, SequenceEndEvent)
# a node's properties: its anchor and tag, which the span of its event holds before its content
_PROPERTY = re.compile(r"[&!][^\s,\[\]{}]*\s*")


class Walk:
    """The reader of a syntax tells each node as it comes; ``ranges`` collects the (start, end) index
    ranges to star (``finish`` completes them). ``stack``: the levels open, shared with the reader."""

    def __init__(self, text: str = "", stack: Optional[list] = None):
        self.text = text  # the YAML text whose events are followed
        self.stack: list = [] if stack is None else stack
        self.ranges: list = []
        self.anchors: dict = {}  # name -> (start, end) of the node it anchors, once read
        self.anchor_keys: dict = {}  # name -> the scalar it anchors (an alias of it may be a key)
        self.alias_at: list = []  # the start of each alias in a value, in the text's order ...
        self.alias_names: list = []  # ... and its name
        self.jump: dict = {}  # alias index -> a later one: the aliases before it were followed already
        self.starred: set = set()  # the anchored nodes already starred
        self.later: list = []  # aliases under secret keys whose anchor was not read before them

    # where a YAML node's content is, from its event

    def content_start(self, event) -> int:
        """Where a node's content starts: past its anchor and tag (``&a !!str``), which its event's span holds."""
        start, end = event.start_mark.index, event.end_mark.index
        if event.anchor is None and event.tag is None:
            return start
        match = _PROPERTY.match(self.text, start, end)
        while match and match.end() > start:
            start = match.end()
            match = _PROPERTY.match(self.text, start, end)
        return start

    def extent(self, event: ScalarEvent) -> tuple:
        """The (start, end) index range of a scalar's text: a block scalar's starts on the line below its
        indicator."""
        start, end = self.content_start(event), event.end_mark.index
        if event.style in ("|", ">"):
            below = self.text.find("\n", start, end)
            start = end if below < 0 else below + 1
        return start, end

    # what parse_yaml's builder tells, its frames on ``stack``

    def inside(self) -> bool:
        """Whether a value that starts now is under a secret key."""
        top = self.stack[-1] if self.stack else None
        return top is not None and (top.secret or not top.expect_key and top.key_secret)

    due = inside  # after a syntax error: whether the value not read is a secret, or part of one

    def hide(self, event) -> None:
        """A value under a secret key is read, ending with ``event``: a scalar's text is starred (a
        collection's scalars are as they come, an alias is at ``alias_read``)."""
        if type(event) is ScalarEvent:
            self._value(event.value, *self.extent(event))

    def anchored(self, name: str, start: int, end: int, scalar: Optional[str] = None) -> None:
        """A node anchored as ``name`` is read, its content at ``start:end``; ``scalar``: its text, when
        it is a scalar (an alias of it as a key is that key)."""
        self.anchors[name] = (start, end)
        if scalar is not None:
            self.anchor_keys[name] = scalar

    def alias_read(self, event: AliasEvent) -> None:
        """An alias is read, before the collection on top takes it: as a key, its reader judges it
        (``key_holds_secret``); as a value, it is starred when under a secret key, with what it stands for."""
        if not (self.stack and self.stack[-1].expect_key):
            self._alias_value(event.anchor, event.start_mark.index, event.end_mark.index)

    def key_holds_secret(self, event) -> bool:
        """Whether the key that ``event`` ends holds a secret: a scalar by its text, an alias by the scalar
        it names; a collection holds none."""
        kind = type(event)
        if kind is ScalarEvent:
            return holds_secret(event.value)
        return kind is AliasEvent and holds_secret(self.anchor_keys.get(event.anchor))

    # past the build: the events followed by the walk alone

    def go_on(self, event, events: Iterator) -> None:
        """Follow ``event``, at which the build stopped, and ``events``, the parser's events after it."""
        try:
            self.event(event)
            for event in events:
                self.event(event)
        except YAMLError:
            self.unread(event)

    def unread(self, event) -> None:
        """The parser stopped at a syntax error after ``event`` (None: before any): the rest of the text."""
        self.ranges += unread(self.text, event.end_mark.index if event else 0, len(self.text), self.due())

    def event(self, event) -> None:
        """Follow one parser event of ``text``."""
        kind = type(event)
        if kind is ScalarEvent:
            self.scalar(event.value, event.anchor, *self.extent(event))
        elif kind in _STARTS:
            self.open(kind is MappingStartEvent, event.anchor, self.content_start(event))
        elif kind in _ENDS:
            self.close(event.end_mark.index)
        elif kind is AliasEvent:
            self.alias(event.anchor, event.start_mark.index, event.end_mark.index)

    # the nodes of a syntax, as they come

    def open(self, is_map: bool, anchor: Optional[str], start: int) -> None:
        self.stack.append(Level(is_map, self.inside(), anchor, start))

    def close(self, end: int) -> None:
        if not self.stack:
            return
        level = self.stack.pop()
        if level.anchor is not None:
            self.anchored(level.anchor, level.start, end)
        self._done(None)

    def scalar(self, value: str, anchor: Optional[str], start: int, end: int) -> None:
        if anchor is not None:
            self.anchored(anchor, start, end, value)
        if not self.stack:
            return
        top = self.stack[-1]
        if top.expect_key:
            top.key_secret, top.expect_key = holds_secret(value), False
            return
        if top.secret or top.key_secret:
            self._value(value, start, end)
        if top.is_map:
            top.key_secret, top.expect_key = False, True

    def alias(self, name: str, start: int, end: int) -> None:
        if self.stack and self.stack[-1].expect_key:
            self._done(self.anchor_keys.get(name))
            return
        self._alias_value(name, start, end)
        self._done(None)

    def finish(self) -> list:
        """The ranges, with the anchors that aliases under secret keys named before them."""
        for name in self.later:
            self._star(name)
        return self.ranges

    def _value(self, value: str, start: int, end: int) -> None:
        """A scalar under a secret key: starred, unless it is empty or a reference to an environment variable."""
        if end > start and not is_reference(value.strip()):
            self.ranges.append((start, end))

    def _alias_value(self, name: str, start: int, end: int) -> None:
        self.alias_at.append(start)
        self.alias_names.append(name)
        if self.inside():
            self.ranges.append((start, end))
            if name in self.anchors:
                self._star(name)
            else:
                self.later.append(name)

    def _done(self, key) -> None:
        """A node of the collection on top is read (``key``: its text, when it is a key)."""
        if self.stack and self.stack[-1].is_map:
            top = self.stack[-1]
            top.key_secret = top.expect_key and holds_secret(key)
            top.expect_key = not top.expect_key

    def _star(self, name: str) -> None:
        """Star the node anchored as ``name`` and, in turn, those of the aliases inside it; each alias of the
        text is followed once, so the work stays linear."""
        todo = [name]
        while todo:
            node = self.anchors.get(todo.pop())
            if node is None or node in self.starred:
                continue
            self.starred.add(node)
            self.ranges.append(node)
            i = self._next(bisect_left(self.alias_at, node[0]))
            while i < len(self.alias_at) and self.alias_at[i] < node[1]:
                todo.append(self.alias_names[i])
                self.jump[i] = i + 1
                i = self._next(i + 1)

    def _next(self, i: int) -> int:
        """The first alias from index ``i`` on that has not been followed."""
        root = i
        while root in self.jump:
            root = self.jump[root]
        while i != root:
            self.jump[i], i = root, self.jump[i]
        return root


# a JSON string, to its closing quote: its runs of plain characters are one repeat each, so that a long string
# costs no memory per character (an alternation repeated per character keeps a record of each repeat)
JSON_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
# a JSON token: a string, a punctuation mark, a number or literal; else what stops the reading (an unclosed string,
# a stray character)
_JSON_TOKEN = re.compile(r'[ \t\r]*(?:(' + JSON_STRING + r')|([{}\[\],:])|([^\s{}\[\],:"]+)|(.))')


def json_ranges(text: str, parsed: set) -> list:
    """The index ranges of the secret values on the lines of a JSONL text that its parse gave no case
    (``parsed``: the 0-based lines that it did, whose ranges ``jsonl.parse_jsonl`` found): a line that is
    no valid JSON, no object, or nested too deep."""
    walk, offset = Walk(), 0
    for number, line in enumerate(text.split("\n")):
        if number not in parsed and line.strip():
            _json_line(walk, line, offset)
        offset += len(line) + 1
    return walk.ranges


def _json_line(walk: Walk, line: str, offset: int) -> None:
    """Add the index ranges (``offset`` is the line's start in the text) of the secret values of one JSONL
    line to ``walk``'s, from the tokens of JSON's grammar; a line that is no valid JSON is read as far as it
    goes (a mismatched closing mark closes what is open)."""
    walk.stack.clear()  # each line is a document of its own
    for match in _JSON_TOKEN.finditer(line):
        string, mark, literal, stray = match.groups()
        start, end = offset + match.start(match.lastindex), offset + match.end()
        if stray is not None:
            walk.ranges += unread(line, match.start(4), len(line), walk.due(), offset)
            break
        if mark in ("{", "["):
            walk.open(mark == "{", None, start)
        elif mark in ("}", "]"):
            walk.close(end)
        elif mark is None:  # ':' and ',' only separate the nodes: a mapping's are its keys and values in turn
            value = literal
            if string is not None:
                value = string[1:-1]
                if "\\" in value:
                    try:
                        value = json.loads(string)
                    except ValueError:  # an invalid escape: the text between the quotes
                        pass
            walk.scalar(value, None, start, end)
