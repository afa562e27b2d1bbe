"""Which keys a word is a near miss of: the suggestions of every "did you mean", and what makes a key EV115."""
from __future__ import annotations

import pytest

from evallint.suggest import misspells


@pytest.mark.parametrize("word, key, near", [
    ("criterias", "criteria", True),  # an edit
    ("exec", "execution", True),  # a part cut
    ("prompt_file", "prompt", True),  # a part added
    ("test_assertions", "assertions", True),  # a word put in front
    ("expected-criteria", "criteria", True),
    ("default_target", "target", True),
    ("subtarget", "target", False),  # no word of its own in front
    ("_target", "target", True),  # the same key when '_' is ignored
    ("my_id", "id", False),  # too short a key to stand for
])
def test_a_near_miss_is_an_edit_a_part_added_or_cut_or_a_word_put_in_front(word, key, near):
    assert misspells(word, key) is near
