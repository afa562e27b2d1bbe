"""A dataset line that is not JSON is reported in evallint's own words (EV701), the same on every Python:
the interpreter's json module words some errors differently (3.13: "Illegal trailing comma ...")."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evallint.load.jsonl import json_error, loads, parse_jsonl

CASES = [
    ('{"a": 1,}', "Expecting property name enclosed in double quotes", 9),
    ('{"a": 1, }', "Expecting property name enclosed in double quotes", 10),
    ("[1, 2,]", "Expecting value", 7),
    ("[1, [2, ], 3]", "Expecting value", 9),
    ("{'a': 1}", "Expecting property name enclosed in double quotes", 2),
    ('{"a" 1}', "Expecting ':' delimiter", 6),
    ('{"a": 1 "b": 2}', "Expecting ',' delimiter", 9),
    ("[1 2]", "Expecting ',' delimiter", 4),
    ('{"a": 1', "Expecting ',' delimiter", 8),
    ('{"a": }', "Expecting value", 7),
    ("[", "Expecting value", 2),
    ("{} x", "Extra data", 4),
    ("01", "Extra data", 2),
    ("-", "Expecting value", 1),
    ('{"a": NaN}', "NaN is not valid JSON", None),
    ("[-Infinity]", "-Infinity is not valid JSON", None),
    ('{"a": "b', "Unterminated string starting at", 7),
    ('["a\\', "Unterminated string starting at", 2),
    ('["a\tb"]', "Invalid control character at", 4),
    ('["a\\xb"]', "Invalid \\escape", 4),
    ('["\\u12G4"]', "Invalid \\uXXXX escape", 4),
    ('["\\ud800\\u12"]', "Invalid \\uXXXX escape", 10),
    ("\ufeff{}", "Unexpected byte order mark (U+FEFF)", 1),
]


@pytest.mark.parametrize("line, message, column", CASES)
def test_each_json_error_kind_has_evallints_own_message_and_column(line, message, column):
    assert json_error(line) == (message, column)
    with pytest.raises(ValueError):
        loads(line)


def test_ev701_message_is_the_same_on_every_python():
    dataset = parse_jsonl('{"id": "a", "input": "x",}\n[1, 2,]\n')
    assert [(f.code, f.message) for f in dataset.findings] == [
        ("EV701", "Line 1: invalid JSON: Expecting property name enclosed in double quotes at column 26"),
        ("EV701", "Line 2: invalid JSON: Expecting value at column 7"),
    ]


def test_valid_json_deeper_than_the_json_module_follows_is_too_deep_not_invalid():
    deep = "[" * 100_000 + "]" * 100_000
    unclosed = "[" * 100_000
    dataset = parse_jsonl(f"{deep}\n{unclosed}\n")
    assert [(f.code, f.message) for f in dataset.findings] == [
        ("EV006", "Line 1: nesting is deeper than the limit of 200 levels"),
        ("EV701", "Line 2: invalid JSON: Expecting value at column 100001"),
    ]


JSON_PIECES = st.sampled_from(['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', '+', ' ',
                               '\t', 'null', 'true', 'NaN', '"k"', '\x01', 'x', '/', 'D800', '\\u', '12'])


@settings(max_examples=500, deadline=None)
@given(st.lists(JSON_PIECES, min_size=1, max_size=12).map("".join)
       | st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
                      ).map(json.dumps))
def test_json_error_finds_an_error_exactly_when_json_rejects_the_line(line):
    try:
        loads(line)
        accepted = True
    except ValueError:
        accepted = False
    assert (json_error(line) == (None, None)) == accepted
