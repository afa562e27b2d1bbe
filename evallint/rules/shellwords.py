"""Splitting a command string into words as the runner's shell would: ``shlex.split`` (POSIX rules, no
comments), for command strings up to ``MAX_COMMAND`` characters.

``shlex`` grows each word one character at a time, so its time grows with the square of a word's length;
the cap keeps a hostile file's megabyte-long ``script`` cheap. No real command is that long: a longer one is
not split, and the checks that need its words skip it."""
from __future__ import annotations

import shlex

MAX_COMMAND = 16 * 1024  # characters of a command string that is split into words


def split(text: str) -> list:
    """The words of ``text``, as ``shlex.split(text)`` gives them; ValueError for an unclosed quote, a
    trailing backslash, or a command over ``MAX_COMMAND`` characters."""
    if len(text) > MAX_COMMAND:
        raise ValueError(f"a command of over {MAX_COMMAND} characters is not split into words")
    return shlex.split(text)
