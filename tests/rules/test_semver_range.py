"""A project's 'required_version' read as the agentv command reads it, with the `semver` package's ranges."""
from __future__ import annotations

import random

import pytest

from agentv_runner import read_ranges
from evallint.rules.semver_range import is_range

RANGES = [  # (text, whether the agentv command takes it)
    ("4.42.4", True), (">=4.0.0", True), (">= 4.2 <5", True), ("^4 || ^5", True), ("~4.42", True), ("~> 4.2", True),
    ("4.x", True), ("4.*.1", True), ("*", True), ("x", True), ("v4", True), ("=v4.2.0", True), ("vv4", True),
    ("1.2.3 - 2", True), ("1.2.3\u00a0- 2", True), ("4.42.4-rc.1+sha.5", True), ("^ 4.2.x", True),
    ("4.42.4 || ", True), ("|| 4", True), ("4 5 6", True), (">=1.2.3+build.1 <2", True), ("1.2.31*1", True),
    ("1.x.99999999999999999999", True), (">=1.*.9007199254740992", True), ("1.2.99999999999999999999", False),
    (" || ".join(["^4.42"] * 200), True),
    ("latest", False), ("next", False), ("  ", False), ("==4.2.0", False), ("v=4.2.0", False), ("=>4", False),
    ("<>4", False), ("> = 4", False), ("04.2.0", False), ("4.02", False), ("4.2.0.1", False), ("4.2.0-", False),
    ("4.2.0-01", False), ("4.2.0-a..b", False), ("4.2.0+", False), ("4 -5", False), ("- 4", False), ("4 - ", False),
    ("v 4", False), ("X - = 4.2.0", False), ("9007199254740992", False), ("4.42.4 or later", False),
    # the package adds one to a number of a caret, tilde or partial range: the largest safe one is then unsafe
    ("^9007199254740991", False), ("^0.9007199254740991", False), ("^0.0.9007199254740991", False),
    ("^1.9007199254740991", True), ("~1.9007199254740991", False), ("~1.1.9007199254740991", True),
    ("9007199254740991.x", False), (">9007199254740991", False), ("<=1.9007199254740991", False),
    (">=9007199254740991", True), ("<1.9007199254740991", True), ("9007199254740991.0.0", True),
]


@pytest.mark.parametrize("text, taken", RANGES, ids=[text[:30] for text, _ in RANGES])
def test_a_version_range_is_read_as_the_agentv_command_reads_it(text, taken):
    assert is_range(text) is taken


@pytest.mark.runner
def test_the_semver_package_takes_the_same_ranges():
    """The table above, then random texts of the ranges' characters: the package and evallint agree on each."""
    pick = random.Random(4424)
    pieces = list("0123456789..xX*-+ <>=~^|v") + ["||", " - ", "1.2.3", "4", "a", "beta", "01", "\u00a0", "\t",
                                                  "9007199254740991"]
    texts = [text for text, _ in RANGES] + ["".join(pick.choice(pieces) for _ in range(pick.randint(1, 9)))
                                             for _ in range(5000)]
    taken = read_ranges(texts)
    assert taken[:len(RANGES)] == [ok for _, ok in RANGES]
    assert [text for text, ok in zip(texts, taken) if is_range(text) != ok] == []
