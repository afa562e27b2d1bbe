"""Command strings are split into words by ``shlex.split``, up to a length that keeps its cost small."""
from __future__ import annotations

import pytest

from evallint.rules import script_files, shellwords


def test_words_are_shlex_words():
    assert shellwords.split("python 'judge one.py' \"--name=a b\" x\\ y") == ["python", "judge one.py", "--name=a b", "x y"]


@pytest.mark.parametrize("text, message", [("'a", "No closing quotation"), ("a\\", "No escaped character")])
def test_a_command_that_does_not_split_says_why(text, message):
    with pytest.raises(ValueError, match=message):
        shellwords.split(text)


def test_a_command_over_the_cap_is_not_split():
    """A 4 MB word is refused before shlex sees it: shlex's time grows with the square of a word's length."""
    word = "x" * 4_000_000
    with pytest.raises(ValueError, match=f"over {shellwords.MAX_COMMAND} characters"):
        shellwords.split(f"python {word}.py")
    assert shellwords.split("y" * shellwords.MAX_COMMAND) == ["y" * shellwords.MAX_COMMAND]
    assert script_files.script_token(f"python {word}.py") is None


def test_long_command_strings_are_not_kept_in_the_memo():
    script_files._kept_script_token.cache_clear()
    assert script_files.script_token("python " + "x" * script_files.KEPT_COMMAND + ".py")[0] is None
    assert script_files._kept_script_token.cache_info().currsize == 0
    assert script_files.script_token("python judge.py") == (None, "judge.py")
    assert script_files._kept_script_token.cache_info().currsize == 1
