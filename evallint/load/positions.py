"""The position tree built beside the data, and the one helper that turns a
data path into a 1-based line and column."""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import Optional

from evallint.diagnostics import FIRST_KEY, KEY, Span


class Loc:
    """Start and end marks of a node (PyYAML marks: 0-based line/column/index)."""

    __slots__ = ("start", "end")

    def __init__(self, start, end=None):
        self.start = start
        self.end = end if end is not None else start

    def span(self) -> Span:
        s, e = self.start, self.end
        return Span(s.line, s.column, e.line, e.column, s.index, e.index)


class MapLoc(Loc):
    __slots__ = ("keys", "values", "first")

    def __init__(self, start):
        self.start = self.end = start
        self.keys: dict = {}  # key -> Loc of the key scalar
        self.values: dict = {}  # key -> Loc of the value
        self.first = None  # Loc of the first key as written (even one the data leaves out, like '<<')


class SeqLoc(Loc):
    __slots__ = ("items",)

    def __init__(self, start):
        self.start = self.end = start
        self.items: list = []


# Aliases of canonical keys: a path through a canonical key is looked up
# through the alias the user actually wrote when the canonical one is absent.
KEY_ALIASES = {
    "expected_outcome": ("outcome",),
    "input_messages": ("input",),
    "expected_messages": ("expected_output",),
}


class Index:
    """Maps data paths to the key and value locations of one file."""

    def __init__(self, root: Optional[Loc]):
        self.root = root

    def _step(self, loc, part):
        if isinstance(loc, MapLoc):
            if part in loc.values:
                return part, loc.values[part]
            for alias in KEY_ALIASES.get(part, ()):
                if alias in loc.values:
                    return alias, loc.values[alias]
        elif isinstance(loc, SeqLoc) and isinstance(part, int) and 0 <= part < len(loc.items):
            return part, loc.items[part]
        return None, None

    def written(self, path: tuple) -> tuple:
        """``path`` with each canonical key the file spells by an alias given as written; the parts past
        the deepest existing node are kept as they are."""
        if not any(part in KEY_ALIASES for part in path if isinstance(part, str)):
            return path
        loc, out = self.root, []
        for n, part in enumerate(path):
            key, nxt = self._step(loc, part)
            if nxt is None:
                return tuple(out) + tuple(path[n:])
            out.append(key)
            loc = nxt
        return tuple(out)

    def locate(self, path: tuple, target: str) -> Span:
        """The span for ``path``: its value, its key, or the first key of the
        mapping at ``path``. Parts that do not exist (a shorthand expanded by
        the loader, say) resolve to the deepest existing node."""
        loc = self.root
        if loc is None:
            return Span(0, 0, 0, 1)
        parent, last = None, None
        for part in path:
            key, nxt = self._step(loc, part)
            if nxt is None:
                break
            parent, last, loc = loc, key, nxt
        else:
            if target == KEY and isinstance(parent, MapLoc) and last in parent.keys:
                return parent.keys[last].span()
        if target == FIRST_KEY and isinstance(loc, MapLoc) and loc.first is not None:
            return loc.first.span()
        return loc.span()


class LineMap:
    """Line and column of a character offset, counting only '\\n' as a line
    break, as editors, git and GitHub do. (PyYAML's marks also break lines at
    NEL, LS and PS, YAML 1.1 line breaks that YAML 1.2 no longer has.)"""

    def __init__(self, text: str):
        self.text = text
        self._starts: Optional[list] = None  # the offset each line starts at, made when first asked

    def position(self, offset: int) -> tuple:
        if self._starts is None:
            self._starts = [0] + [match.end() for match in re.finditer("\n", self.text)]
        line = bisect_right(self._starts, offset) - 1
        return line, offset - self._starts[line]

    def span(self, span: Span) -> Span:
        line, column = self.position(span.start)
        end_line, end_column = self.position(max(span.end, span.start))
        return Span(line, column, end_line, end_column, span.start, span.end)
