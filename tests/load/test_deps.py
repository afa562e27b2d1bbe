"""The paths a result depends on, and the per-run memo."""
from __future__ import annotations

import os

from evallint.load import deps


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
    assert calls == ["/a"] and first == second == {"/a": None}


def test_a_value_found_while_nothing_records_still_notes_its_paths_later():
    calls = []
    with deps.run_scope():
        assert deps.memoized(("k",), probe("/a", calls)) == "/A"
        with deps.recording() as seen:
            assert deps.memoized(("k",), probe("/a", calls)) == "/A"
        assert calls == ["/a"] and seen == {"/a": None}


def test_an_answer_is_kept_only_when_it_is_worth_it_and_notes_its_paths_either_way():
    calls = []
    with deps.run_scope():
        for _ in range(2):
            with deps.recording() as seen:
                assert deps.memoized_when(("small",), lambda answer: answer == "/B", probe("/a", calls)) == "/A"
                assert deps.memoized_when(("large",), lambda answer: answer == "/B", probe("/b", calls)) == "/B"
            assert seen == {"/a": None, "/b": None}
    assert calls == ["/a", "/b", "/a"]


def test_outside_a_run_nothing_is_memoized():
    calls = []
    deps.memoized(("k",), probe("/a", calls))
    deps.memoized(("k",), probe("/a", calls))
    assert calls == ["/a", "/a"]


def test_a_run_s_memo_starts_afresh_when_full(monkeypatch):
    monkeypatch.setattr(deps, "MEMO_SIZE", 2)
    calls = []
    with deps.run_scope():
        for key in ("a", "b", "c", "a"):
            deps.memoized((key,), probe("/" + key, calls))
    assert calls == ["/a", "/b", "/c", "/a"]


def test_noted_paths_are_absolute():
    with deps.recording() as seen:
        deps.note("relative/x")
    assert seen == {os.path.abspath("relative/x"): None}


def test_a_signature_changes_with_the_file_and_is_none_when_it_is_missing(tmp_path):
    path = tmp_path / "a.md"
    assert deps.signature(str(path)) is None
    path.write_text("one")
    first = deps.signature(str(path))
    path.write_text("three")
    assert first is not None and deps.signature(str(path)) != first


def test_a_path_is_signed_when_it_is_first_noted(tmp_path):
    """Before the lint looks at it: a change after that leaves the older signature, which the file no
    longer has."""
    path = tmp_path / "a.md"
    path.write_text("one")
    with deps.recording() as seen:
        deps.note(str(path))
        signed = deps.signature(str(path))
        path.write_text("three")
        deps.note(str(path))
    assert seen == {str(path): signed} and deps.signature(str(path)) != signed


def test_a_path_signed_differently_by_a_memoized_answer_never_matches(tmp_path):
    """A memoized answer made before the file changed, used by a result that looked at the file after."""
    path = tmp_path / "a.md"
    path.write_text("one")
    with deps.run_scope():
        deps.memoized(("k",), deps.note, str(path))
        path.write_text("three")
        with deps.recording() as seen:
            deps.note(str(path))
            deps.memoized(("k",), deps.note, str(path))
    assert seen == {str(path): deps.CHANGED}
