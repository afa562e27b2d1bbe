"""The small pieces every lint goes through (a dataset line's positions,
remembered suggestions, line positions counted in place) answer as they should."""
from __future__ import annotations


def test_a_duplicate_key_in_a_dataset_line_is_reported_at_its_column():
    from evallint.load.jsonl import parse_jsonl

    text = '{"id": "a", "input": "x"}\n{"id": "b", "input": "y", "id": "c"}\n'
    parsed = parse_jsonl(text)
    assert len(parsed.locs) == 2 and [(f.code, f.span.line, f.span.column) for f in parsed.findings] == [("EV003", 1, 26)]


def test_suggestions_are_remembered_and_the_same_for_any_iterable_of_options():
    from evallint import suggest

    suggest._remembered.cache_clear()
    assert suggest.closest("in-order", ["any_order", "in_order"]) == "in_order"
    assert suggest.closest("in-order", (o for o in ("any_order", "in_order"))) == "in_order"
    assert suggest._remembered.cache_info().hits == 1  # the same word and options: answered once
    assert suggest.closest("In_Order", ["in_order"]) == "in_order"
    assert suggest.closest("zzzzzz", ["any_order"]) is None
    assert suggest.did_you_mean(5, ["a"]) == "" and suggest.did_you_mean("exat", ["exact"]) == " (did you mean 'exact'?)"


def test_line_positions_break_lines_at_newlines_only():
    from evallint.load.positions import LineMap

    text = "a: 1\n\nb:\n  - c\r\n  - d\u2028e\nlast"  # only '\n' breaks a line
    lines = LineMap(text)
    assert [lines.position(offset) for offset in (0, 4, 5, 6, 14, 20, 22, len(text))] == [
        (0, 0), (0, 4), (1, 0), (2, 0), (3, 5), (4, 4), (4, 6), (5, 4)]
