"""The file:// patterns of a suite's 'tests', matched as the runner's fast-glob matches them, and the ranges of
their braces that fast-glob refuses to expand (the runner then rejects the suite)."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from agentv_runner import read_globs
from evallint.load.glob_braces import refused_range
from evallint.load.globs import matches, read_folders

RANGES = [  # (pattern, the range refused)
    ("cases/{0..1000}.yaml", "{0..1000}"), ("cases/{-5..995}.yaml", "{-5..995}"), ("a/{1..999}/{01..1001}", "{01..1001}"),
    ("cases/{1..1000}.yaml", None), ("cases/{1000..0}.yaml", None), ("cases/{0..2000..1}.yaml", None),
    # after a '$' or in a character class braces are no range; a number beyond a double's range is none either
    ("cases/${0..2000}.yaml", None), ("cases/[{0..1000}].yaml", None), ("{1.." + "9" * 400 + "}", None),
    ("{1.." + "9" * 5000 + "}", None),
]


@pytest.mark.parametrize("pattern, refused", RANGES, ids=[pattern[:20] for pattern, _ in RANGES])
def test_a_range_is_refused_as_fast_glob_refuses_it(pattern, refused):
    assert refused_range(pattern) == refused


MATCHES = [  # (path, pattern, whether it matches), each as fast-glob answers
    ("/r/c/v1.yaml", "/r/c/v?.yaml", True), ("/r/c/.v.yaml", "/r/c/*.yaml", False), ("/r/c/.v.yaml", "/r/c/?v.yaml", False),
    ("/r/c/.v.yaml", "/r/c/[!x]v.yaml", True), ("/r/c/.v.yaml", "/r/c/.*", True), ("/r/.h/a.yaml", "/r/**/a.yaml", False),
    ("/r/c/b.yaml", "/r/c/[a-c].yaml", True), ("/r/c/-.yaml", "/r/c/[a-c].yaml", False), ("/r/c/7", "/r/c/[[:digit:]]", True),
    ("/r/c/07.yaml", "/r/c/{01..10}.yaml", True), ("/r/c/7.yaml", "/r/c/{01..10}.yaml", False),
    # a '?' in a folder before any other glob character is itself: fast-glob reads the folder 'v?'
    ("/r/v1/a.yaml", "/r/v?/*.yaml", False), ("/r/v?/a.yaml", "/r/v?/*.yaml", True), ("/r/v1/a.yaml", "/r/*/v?/../a", False),
    ("/r/a/v1/a", "/r/*/v?/a", True),
    # a last '**' matches no name too, unless a star ends the part before it
    ("/r/ab", "/r/a?/**", False), ("/r/ab", "/r/[a]b/**", True), ("/r/ab", "/r/a*/**", False), ("/r/ab/c", "/r/a*/**", True),
    # braces are expanded first, into patterns read one by one: a word may hold a slash, and decides its own folder
    ("/r/a/b/x", "/r/{a/b,c}/x", True), ("/r/c/x", "/r/{a/b,c}/x", True), ("/r/a?/x", "/r/{a,*b}?/x", True),
    ("/r/ab/x", "/r/{a,*b}?/x", False), ("/r/xb1/x", "/r/{a,*b}?/x", True), ("/r/c/x", "/r/{a/b,c}/../c/x", True),
]


@pytest.mark.parametrize("path, pattern, matched", MATCHES, ids=[pattern for _, pattern, _ in MATCHES])
def test_a_pattern_matches_as_fast_glob_matches(path, pattern, matched):
    assert matches(path, pattern) is matched


def test_a_name_is_matched_in_one_pass_whatever_the_stars():
    """Each part of the pattern is read once over the name's places: a pattern of many stars between letters is
    refused at once, where a regular expression would try every split of the name."""
    assert matches("/r/" + "a" * 300 + "/x", "/r/" + "*a" * 60 + "*b/x") is False
    assert matches("/r/" + "a" * 300 + "b/x", "/r/" + "*a" * 60 + "*b/x") is True


FOLDERS = ["a", "b", ".h", "ab", "1", "a-b", "?", "a?"]
FILES = ["ba", ".a", "a.b", "aab", "b1", "a-12", "12", "01", "{x}", "abab", "a.ba", "-5", "x", "a]b", "a-z", "A", "_"]
PIECES = ["a", "b", ".", "*", "?", "{a,b}", "{a,*b}", "[ab]", "[!a]", "[^a]", "[a-c]", "{1..3}", "{01..3}", "{x}", "-",
          "1", "{a,{b,c}}", "{-2..2}", "[.]", "[!.]", "[b-a]", "{a/b,*}", "{?/*,ab}", "{a,b/..}"]


def _pattern(pick: random.Random) -> str:
    """A pattern of one to three parts, each '**' or one to four pieces."""
    return "/".join("**" if pick.random() < 0.15 else "".join(pick.choice(PIECES) for _ in range(pick.randint(1, 4)))
                    for _ in range(pick.randint(1, 3)))


def _file_in_the_way(folder: str) -> bool:
    """Whether the nearest of ``folder`` and the folders above it that exists is a file."""
    while not os.path.lexists(folder):
        folder = os.path.dirname(folder)
    return os.path.isfile(folder)


@pytest.mark.runner
def test_patterns_match_the_files_fast_glob_finds(tmp_path):
    """Generated patterns on a generated tree of files: evallint's matches are fast-glob's, as the runner's
    case-file loader asks for them. fast-glob fails on the patterns of which it reads a folder that is a file, or lies
    below one (``read_folders``), and on no other."""
    pick = random.Random(7)
    for _ in range(200):
        names = [pick.choice(FOLDERS) for _ in range(pick.randint(0, 2))] + [pick.choice(FILES)]
        tmp_path.joinpath(*names).parent.mkdir(parents=True, exist_ok=True)
        tmp_path.joinpath(*names).write_text("x")
    files = sorted(str(Path(folder) / name) for folder, _, names in os.walk(tmp_path) for name in names)
    patterns = [os.path.normpath(f"{tmp_path}/{_pattern(pick)}") for _ in range(450)]
    found = read_globs(patterns)
    failed = [pattern for pattern, theirs in zip(patterns, found) if isinstance(theirs, dict)]
    assert {theirs["error"].split(":")[0] for theirs in found if isinstance(theirs, dict)} == {"ENOTDIR"}
    assert failed == [pattern for pattern in patterns if any(map(_file_in_the_way, read_folders(pattern)))]
    ours = {pattern: [path for path in files if matches(path, pattern)] for pattern in patterns if pattern not in failed}
    theirs = {pattern: sorted(set(paths)) for pattern, paths in zip(patterns, found) if pattern not in failed}
    assert ours == theirs
    assert len(theirs) > 350 and sum(map(bool, theirs.values())) > 45  # distinct patterns, and ones that match
