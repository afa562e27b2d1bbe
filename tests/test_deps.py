"""Per-run memos and the paths a result depends on."""
from __future__ import annotations

import os

from evallint import deps
from evallint.bounded import Bounded


def probe(name, calls):
    def compute():
        calls.append(name)
        deps.note(name)
        return name.upper()
    return compute


def test_a_memoized_value_notes_its_paths_on_every_use():
    calls = []
    with deps.run_scope():
        with deps.recording() as first:
            assert deps.memoized(("k",), probe("/a", calls)) == "/A"
        with deps.recording() as second:
            assert deps.memoized(("k",), probe("/a", calls)) == "/A"
    assert calls == ["/a"] and first == second == {"/a"}


def test_a_value_found_while_nothing_records_is_found_again_for_a_recording():
    calls = []
    with deps.run_scope():
        assert deps.memoized(("k",), probe("/a", calls)) == "/A"
        assert deps.memoized(("k",), probe("/a", calls)) == "/A"
        assert calls == ["/a"]  # memoized without paths
        with deps.recording() as seen:
            assert deps.memoized(("k",), probe("/a", calls)) == "/A"
        assert calls == ["/a", "/a"] and seen == {"/a"}  # paths gathered, not lost


def test_outside_a_run_nothing_is_memoized():
    calls = []
    deps.memoized(("k",), probe("/a", calls))
    deps.memoized(("k",), probe("/a", calls))
    assert calls == ["/a", "/a"]


def test_noted_paths_are_absolute():
    with deps.recording() as seen:
        deps.note("relative/x")
    assert seen == {os.path.abspath("relative/x")}


def test_a_bounded_memo_keeps_what_is_used_again_and_drops_the_rest():
    memo = Bounded(4)  # two generations of two
    memo.put("a", 1)
    memo.put("b", 2)
    memo.put("c", 3)  # the young generation was full: a and b are now old
    assert len(memo) == 3
    assert memo.get("a") == 1  # used again: young once more
    memo.put("d", 4)  # young full (c, a): they become old, b is dropped
    assert memo.get("b") is None and memo.get("b", "gone") == "gone"
    assert memo.get("c") == 3 and memo.get("a") == 1 and memo.get("d") == 4
    assert len(memo) <= 4


def test_paths_are_made_absolute_with_the_run_s_working_folder(monkeypatch):
    with deps.run_scope():
        monkeypatch.setattr(os, "getcwd", lambda: os.sep)  # the file system's root: no doubled separator
        assert deps.absolute(os.path.join("a", "b.yaml")) == os.path.join(os.sep, "a", "b.yaml")
        monkeypatch.setattr(os, "getcwd", lambda: "/elsewhere")  # read once per run
        assert deps.absolute("c/../d.yaml") == os.path.join(os.sep, "d.yaml")
    with deps.run_scope():
        assert deps.absolute(os.path.join("x", ".", "y")) == os.path.normpath(os.path.join("/elsewhere", "x", "y"))
        assert deps.absolute("/abs//p/") == os.path.normpath("/abs//p/")


def test_a_path_s_parent_is_what_os_path_dirname_says():
    for path in ("a/b.yaml", "b.yaml", "/b.yaml", "a//b.yaml", "//b.yaml", "///b", "a/b/", "/", "", "/a/b/c",
                 os.path.join("x", "y", "z.yml")):
        assert deps.parent(path) == os.path.dirname(path), path
