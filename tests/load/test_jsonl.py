"""A dataset line that is not JSON is reported (EV701) with the json module's error, in evallint's words, the
same on every Python: the json module words some errors differently (3.13: "Illegal trailing comma ...")."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evallint.load.jsonl import json_error, loads, parse_jsonl
from evallint.load.numbers import JS_WHITESPACE

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
    ("\x1c{}", "Expecting value", 1),  # no white space to JavaScript, which trims a line before it parses it
]


@pytest.mark.parametrize("line, message, column", CASES)
def test_each_json_error_kind_has_evallints_own_message_and_column(line, message, column):
    [finding] = parse_jsonl(line + "\n").findings
    where = f" at column {column}" if column else ""
    span = (column - 1, column) if column else (0, len(line))  # one character, or the whole line
    assert (finding.code, finding.message, finding.span.column, finding.span.end_column) == \
        ("EV701", f"Line 1: invalid JSON: {message}{where}", *span)


@pytest.mark.parametrize("line, comma, message, column", [
    ('{"a": 1, }', 7, "Expecting property name enclosed in double quotes", 10),
    ("[1, [2,\t], 3]", 6, "Expecting value", 9),
])
def test_python_3_13s_trailing_comma_is_worded_and_placed_as_before_it(line, comma, message, column):
    """Python 3.13's json names the trailing comma, at the comma; evallint words it as the versions before."""
    error = json.JSONDecodeError(f"Illegal trailing comma before end of {'object' if line[0] == '{' else 'array'}",
                                 line, comma)
    assert json_error(error) == (message, column)


def test_ev701_message_is_the_same_on_every_python():
    dataset = parse_jsonl('{"id": "a", "input": "x",}\n[1, 2,]\n')
    assert [(f.code, f.message) for f in dataset.findings] == [
        ("EV701", "Line 1: invalid JSON: Expecting property name enclosed in double quotes at column 26"),
        ("EV701", "Line 2: invalid JSON: Expecting value at column 7"),
    ]


def test_a_line_deeper_than_the_json_module_follows_is_too_deep():
    """Valid or not: the json module follows the nesting past the limit, and stops before the line's end."""
    deep = "[" * 100_000 + "]" * 100_000
    unclosed = "[" * 100_000
    dataset = parse_jsonl(f"{deep}\n{unclosed}\n")
    assert [(f.code, f.message) for f in dataset.findings] == [
        ("EV006", "Line 1: nesting is deeper than the limit of 200 levels"),
        ("EV006", "Line 2: nesting is deeper than the limit of 200 levels"),
    ]


JSON_PIECES = st.sampled_from(['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', '+', ' ',
                               '\t', 'null', 'true', 'NaN', '"k"', '\x01', 'x', '/', 'D800', '\\u', '12', '\ufeff',
                               '\u00a0', '\x1c', '\x0c'])


@settings(max_examples=500, deadline=None)
@given(st.lists(JSON_PIECES, min_size=1, max_size=12).map("".join)
       | st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
                      ).map(json.dumps))
def test_a_line_is_invalid_exactly_when_json_rejects_it_and_the_column_is_on_the_line(line):
    trimmed = line.strip(JS_WHITESPACE)  # as the runner trims each line
    try:
        loads(trimmed)
        accepted = True
    except ValueError:
        accepted = False
    invalid = [f for f in parse_jsonl(line).findings if f.code == "EV701"]
    assert len(invalid) == (0 if accepted or not trimmed else 1)  # a blank line is skipped
    for finding in invalid:
        assert 0 <= finding.span.column < finding.span.end_column <= len(line) + 1


def test_a_json_document_over_several_lines_has_the_line_and_column_of_every_value_and_finding():
    """An Agent Skills evals file is one JSON document: positions are lines and columns of the whole text."""
    from evallint.load.jsonl import parse_json

    parsed = parse_json('{\n  "evals": [\n    {"id": 1,\n     "id": 2}\n  ]\n}\n')
    assert parsed.ok and parsed.data == {"evals": [{"id": 2}]}
    at = parsed.root.values["evals"].items[0].values["id"].span()
    assert (at.line, at.column, at.start) == (3, 11, 40)
    assert [(f.code, f.message, f.span.line, f.span.column) for f in parsed.findings] == [
        ("EV003", "duplicate key 'id' (first defined on line 3, column 6); JSON.parse keeps only the last one", 3, 5)]
    broken = parse_json('{\n  "evals": [1,\n  ]\n}')
    assert (broken.ok, [(f.code, f.message, f.span.line, f.span.column) for f in broken.findings]) == (False, [
        ("EV701", "invalid JSON: Expecting value at line 3, column 3; the runner rejects the file", 2, 2)])
    deep = parse_json("\n" + "[" * 300 + "]" * 300)
    assert [(f.code, f.span.line, f.span.column) for f in deep.findings] == [("EV006", 1, 0)]
    assert [f.message for f in parse_json("{}", bom=True).findings] == [
        "invalid JSON: Unexpected byte order mark (U+FEFF) at line 1, column 1; the runner rejects the file"]
