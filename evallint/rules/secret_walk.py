"""Following a document's nodes in their order (YAML's parser events, or JSON's values) to find the index
ranges of the values under secret keys, however deep, and of the anchored nodes that aliases under them
stand for. The reader of a syntax (``secrets._yaml_ranges``, ``secrets._json_line``) tells each
node as it comes; in a mapping, the nodes are its keys and values in turn."""
from __future__ import annotations

from bisect import bisect_left
from typing import Callable, Optional


class _Level:
    """A collection being read: whether all of it is under a secret key, and in a mapping whether its next
    node is a key and whether the pending key holds a secret."""

    __slots__ = ("is_map", "secret", "expect_key", "key_secret", "anchor", "start")

    def __init__(self, is_map: bool, secret: bool, anchor: Optional[str], start: int):
        self.is_map, self.secret, self.anchor, self.start = is_map, secret, anchor, start
        self.expect_key = is_map
        self.key_secret = False


class Walk:
    """``holds_secret(key)`` decides a key; ``env_ref`` matches a value that is no secret (a reference to an
    environment variable). ``ranges`` collects the (start, end) index ranges to star."""

    def __init__(self, holds_secret: Callable, env_ref):
        self.holds_secret, self.env_ref = holds_secret, env_ref
        self.stack: list = []
        self.ranges: list = []
        self.anchors: dict = {}  # name -> (start, end) of the node it anchors, once read
        self.anchor_keys: dict = {}  # name -> the scalar it anchors (an alias of it may be a key)
        self.alias_at: list = []  # the start of each alias in a value, in the text's order ...
        self.alias_names: list = []  # ... and its name
        self.jump: dict = {}  # alias index -> a later one: the aliases before it were followed already
        self.starred: set = set()  # the anchored nodes already starred
        self.later: list = []  # aliases under secret keys whose anchor was not read before them

    def _at_key(self) -> bool:
        return bool(self.stack) and self.stack[-1].expect_key

    def inside(self) -> bool:
        """Whether a value that starts now is under a secret key."""
        top = self.stack[-1] if self.stack else None
        return top is not None and (top.secret or not top.expect_key and top.key_secret)

    due = inside  # after a syntax error: whether the value not read is a secret, or part of one

    def open(self, is_map: bool, anchor: Optional[str], start: int) -> None:
        self.stack.append(_Level(is_map, self.inside(), anchor, start))

    def close(self, end: int) -> None:
        if not self.stack:
            return
        level = self.stack.pop()
        if level.anchor is not None:
            self.anchors[level.anchor] = (level.start, end)
        self._done(None)

    def scalar(self, value: str, anchor: Optional[str], start: int, end: int) -> None:
        if anchor is not None:
            self.anchors[anchor] = (start, end)
            self.anchor_keys[anchor] = value
        if not self.stack:
            return
        top = self.stack[-1]
        if top.expect_key:
            top.key_secret, top.expect_key = self.holds_secret(value), False
            return
        if (top.secret or top.key_secret) and end > start and not self.env_ref.match(value.strip()):
            self.ranges.append((start, end))
        if top.is_map:
            top.key_secret, top.expect_key = False, True

    def alias(self, name: str, start: int, end: int) -> None:
        if self._at_key():
            self._done(self.anchor_keys.get(name))
            return
        self.alias_at.append(start)
        self.alias_names.append(name)
        if self.inside():
            self.ranges.append((start, end))
            if name in self.anchors:
                self._star(name)
            else:
                self.later.append(name)
        self._done(None)

    def finish(self) -> list:
        """The ranges, with the anchors that aliases under secret keys named before them."""
        for name in self.later:
            self._star(name)
        return self.ranges

    def _done(self, key) -> None:
        """A node of the collection on top is read (``key``: its text, when it is a key)."""
        if self.stack and self.stack[-1].is_map:
            top = self.stack[-1]
            top.key_secret = top.expect_key and self.holds_secret(key)
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
