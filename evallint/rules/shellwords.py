"""Splitting a command string into words as ``shlex.split`` does (POSIX rules, no comments), in time
linear in its length.

``shlex`` grows each word one character at a time by string concatenation, so one long word costs
time quadratic in its length (a 1 MB ``script`` token took half a minute). Here every run of plain
characters, single-quoted text or double-quoted text up to its next backslash is taken in one slice
found by ``str.find`` or a compiled pattern, and a word's pieces are joined once."""
from __future__ import annotations

import re

WHITESPACE = " \t\r\n"  # shlex's whitespace: other Unicode spaces belong to words
_PLAIN_END = re.compile(r"[ \t\r\n'\"\\]")  # where a run of plain characters ends
_BLANKS = re.compile(r"[ \t\r\n]+")
_QUOTED_END = re.compile(r"[\"\\]")  # inside double quotes, only these are special


def split(text: str) -> list:
    """The words of ``text``, as ``shlex.split(text)`` gives them; ValueError for an unclosed quote or
    a trailing backslash, with shlex's message."""
    if "'" not in text and '"' not in text and "\\" not in text:
        return [word for word in _BLANKS.split(text) if word]  # plain words: one pass of the pattern
    words = []
    pieces: list = []  # the current word's pieces
    in_word = False  # a word has begun (it may still be empty: '' is a word)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in WHITESPACE:
            if in_word:
                words.append("".join(pieces))
                pieces, in_word = [], False
            i = _BLANKS.match(text, i).end()
            continue
        in_word = True
        if c == "\\":
            if i + 1 >= n:
                raise ValueError("No escaped character")
            pieces.append(text[i + 1])
            i += 2
        elif c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise ValueError("No closing quotation")
            pieces.append(text[i + 1:end])
            i = end + 1
        elif c == '"':
            i = _double_quoted(text, i + 1, pieces)
        else:
            found = _PLAIN_END.search(text, i)
            end = n if found is None else found.start()
            pieces.append(text[i:end])
            i = end
    if in_word:
        words.append("".join(pieces))
    return words


def _double_quoted(text: str, i: int, pieces: list) -> int:
    """Add the text of a double-quoted string that starts at ``i`` (after its quote) to ``pieces``;
    where the text after its closing quote starts. A backslash escapes only a backslash or a double
    quote, and is kept before any other character."""
    n = len(text)
    while True:
        found = _QUOTED_END.search(text, i)
        if found is None:
            raise ValueError("No closing quotation")
        at = found.start()
        pieces.append(text[i:at])
        if text[at] == '"':
            return at + 1
        if at + 1 >= n:
            raise ValueError("No escaped character")
        escaped = text[at + 1]
        pieces.append(escaped if escaped in '\\"' else "\\" + escaped)
        i = at + 2
