"""Where things are in a buffer, in the protocol's terms: a line ends at CR LF, LF or CR, and a column
counts the code units of the negotiated position encoding (UTF-16 unless the client offers another).
evallint's positions (1-based lines broken at LF only, columns in code points, offsets into the text
without its byte order mark) are turned into the protocol's here, and only here."""
from __future__ import annotations

import re
from bisect import bisect_right

from lsprotocol import types

_BREAK = re.compile(r"\r\n|\n|\r")


def _units(text: str, encoding: str) -> int:
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class Positions:
    """Positions in ``text``, an editor's buffer; offsets are into the text evallint linted: the buffer
    without a leading byte order mark."""

    def __init__(self, text: str, encoding: str = types.PositionEncodingKind.Utf16):
        self.text = text
        self.encoding = encoding
        self.shift = 1 if text.startswith("\ufeff") else 0
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]  # the protocol's lines
        self._lf_starts: list = []  # evallint's lines of the linted text, made when first asked

    def position(self, offset: int) -> types.Position:
        """The protocol position of an offset into the linted text."""
        at = min(max(offset + self.shift, 0), len(self.text))
        line = bisect_right(self.starts, at) - 1
        start = self.starts[line]
        if at > start and self.text[at - 1] == "\r" and at < len(self.text) and self.text[at] == "\n":
            at -= 1  # between CR and LF: the end of the line
        return types.Position(line=line, character=_units(self.text[start:at], self.encoding))

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def line_text(self, line: int) -> str:
        """A protocol line without its ending; "" past the end."""
        if not 0 <= line < len(self.starts):
            return ""
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line]:end].rstrip("\r\n")

    def lines(self) -> list:
        """Every protocol line without its ending, the first without a byte order mark."""
        out = [self.line_text(n) for n in range(len(self.starts))]
        out[0] = out[0][self.shift:]
        return out

    def cursor(self, position: types.Position) -> tuple:
        """(line, code-point column in ``lines()``) of a protocol position; past the last line is the end of
        the text, as ``offset`` has it."""
        line = min(max(position.line, 0), len(self.starts) - 1)
        column = self.offset(position) + self.shift - self.starts[line]
        return line, column - (self.shift if line == 0 else 0)

    def at(self, line: int, column: int) -> types.Position:
        """The protocol position of a code-point column in ``lines()``."""
        column += self.shift if line == 0 else 0
        return types.Position(line=line, character=_units(self.line_text(line)[:column], self.encoding))

    def offset(self, position: types.Position) -> int:
        """The offset into the linted text of a protocol position (clamped to its line)."""
        if position.line >= len(self.starts):
            return len(self.text) - self.shift
        start = self.starts[max(position.line, 0)]
        line = self.line_text(max(position.line, 0))
        if self.encoding == types.PositionEncodingKind.Utf32:
            column = min(position.character, len(line))
        else:
            column, units = 0, 0
            while column < len(line) and units < position.character:
                units += _units(line[column], self.encoding)
                column += 1
        return max(start + column - self.shift, 0)

    def from_evallint(self, line: int, column: int) -> int:
        """The offset into the linted text of a 1-based line (broken at LF) and column (code points)."""
        if not self._lf_starts:
            linted = self.text[self.shift:]
            self._lf_starts = [0] + [m.end() for m in re.finditer("\n", linted)]
        starts = self._lf_starts
        index = min(max(line - 1, 0), len(starts) - 1)
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(self.text) - self.shift
        return min(starts[index] + max(column - 1, 0), end)

    def evallint_range(self, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        return self.range(self.from_evallint(line, column), self.from_evallint(end_line, end_column))
