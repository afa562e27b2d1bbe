"""Command strings are split into words as ``shlex.split`` splits them, in linear time."""
from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evallint.rules import references, shellwords


def split_as_shlex(text: str):
    try:
        return shlex.split(text)
    except ValueError as exc:
        return ValueError, str(exc)


def split_here(text: str):
    try:
        return shellwords.split(text)
    except ValueError as exc:
        return ValueError, str(exc)


@pytest.mark.parametrize("text", [
    "", "   ", "python judge.py", "  a\tb\r\nc  ", "'a b' c", '"a b" c', "a'b c'd", 'a"b c"d', "''", '""', "'' ''",
    'x "" y', "a\\ b", "\\", "a\\", "'a", '"a', '"a\\', "'a\\b'", '"a\\b"', '"a\\\\b"', '"a\\"b"', "a\\'b",
    '"a\\\nb"', "a\\\nb", "a\u00a0b c\x0bd", "é 'ü'", "#not a comment", "a#b", "a;b|c", "'\"' \"'\"",
])
def test_words_are_shlex_words(text):
    assert split_here(text) == split_as_shlex(text)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="ab \t\r\n'\"\\\x0b\u00a0#;", max_size=24))
def test_any_text_splits_as_shlex_splits_it(text):
    assert split_here(text) == split_as_shlex(text)


def test_a_long_word_is_split_without_shlex():
    """A word is taken in one slice: a 4 MB word (minutes for shlex) comes back whole."""
    word = "x" * 4_000_000
    assert shellwords.split(f" {word} '{word}' \"{word}\\\"\" ") == [word, word, word + '"']


def test_long_command_strings_are_not_kept_in_the_memo():
    references._kept_script_token.cache_clear()
    assert references.script_token("python " + "x" * references.KEPT_COMMAND + ".py")[0] is None
    assert references._kept_script_token.cache_info().currsize == 0
    assert references.script_token("python judge.py") == (None, "judge.py")
    assert references._kept_script_token.cache_info().currsize == 1
