"""A YAML syntax error (EV001) keeps the parser's words and position and adds what to do about it."""
from __future__ import annotations

import pytest
import yaml

from evallint.load.yaml12 import parse_yaml
from evallint.load.yaml_hints import syntax_hint

BLOCK_LIST = "(while parsing a block collection)"
BLOCK_MAP = "(while parsing a block mapping)"

CASES = {
    "a list item indented one space too far": (
        "evalcases:\n  - id: a\n    input: x\n   - id: b\n", (3, 3),
        f"did not find expected '-' indicator {BLOCK_LIST}; line 4's '-' is indented 3 spaces, but the items of the "
        "list that starts on line 2 are indented 2"),
    "a list item indented one space too little": (
        "evalcases:\n  - id: a\n    input: x\n - id: b\n", (3, 1),
        f"did not find expected key {BLOCK_MAP}; line 4's '-' is indented 1 space, but the items of the list that "
        "starts on line 2 are indented 2"),
    "a list item at its item's keys' indentation": (
        "evalcases:\n- id: a\n  input: x\n  - id: b\n", (3, 2),
        f"did not find expected key {BLOCK_MAP}; line 4's '-' is at the indentation of the keys of the mapping that "
        "starts on line 2 (2 spaces), where no list item can be; to add an item to the list on line 2, indent it "
        "0 spaces"),
    "a key of a list item indented one space too little": (
        "evalcases:\n  - id: a\n    input: x\n   expected_outcome: y\n", (3, 3),
        f"did not find expected '-' indicator {BLOCK_LIST}; line 4 is indented 3 spaces, but the keys of the list "
        "item on line 2 are indented 4"),
    "a key between two mappings' indentations": (
        "a:\n  b: 1\n c: 2\n", (2, 1),
        f"did not find expected key {BLOCK_MAP}; line 3 is indented 1 space, but the keys of the mapping that starts "
        "on line 1 are indented 0 and the key on line 2 is indented 2"),
    "a key at a list's indentation": (
        "- a\nb: 1\n", (1, 0),
        f"did not find expected '-' indicator {BLOCK_LIST}; line 2 is at the indentation of the list that starts on "
        "line 1 (0 spaces) but is no '- ' item"),
    "a tab that indents": (
        "evalcases:\n\t- id: a\n", (1, 0),
        "found character that cannot start any token (while scanning for the next token); YAML indents with "
        "spaces, never tabs: replace the tab on line 2 with spaces"),
    "a tab after spaces": (
        "a:\n  b: 1\n\tc: 2\n", (2, 0),
        "found a tab character that violates indentation (while scanning a plain scalar); YAML indents with "
        "spaces, never tabs: replace the tab on line 3 with spaces"),
    "': ' in a plain value": (
        "a:\n  b: The answer: 4\n", (1, 15),
        "mapping values are not allowed in this context; a plain (unquoted) value cannot hold ': '; quote the value"),
    "a key indented under a key that has a value": (
        "evalcases:\n  - id: a\n    input: hello\n      expected_outcome: x\n", (3, 22),
        "mapping values are not allowed in this context; line 4 is indented deeper than the key on line 3, so it "
        "goes on with that key's value, and a plain (unquoted) value cannot hold ': ': to make it a key beside "
        "that one, indent it 4 spaces; if it is text, quote the value"),
    "a line of text without ':' among keys": (
        "evalcases:\n  - id: a\n    input: this is long\n    and goes on\n    expected_outcome: x\n", (4, 4),
        "could not find expected ':' (while scanning a simple key); line 4 is read as a key but has no ':'; if it "
        "goes on with the value above, indent it deeper than that value's key, or quote the value"),
    "a list on its key's line": (
        "a: - b\n", (0, 3),
        "block sequence entries are not allowed in this context; a list cannot start on its key's line: put the "
        "'- ' item on the next line, indented under the key (or quote the value, if it is text)"),
    "an unclosed flow sequence": (
        "a: [1, 2\nb: 3\n", (1, 1),
        "did not find expected ',' or ']' (while parsing a flow sequence); the '[' opened at line 1 column 4 is not "
        "closed before this point, or a ',' is missing between two of its entries"),
    "an unclosed flow mapping": (
        "a: {b: 1\nc: 2\n", (1, 1),
        "did not find expected ',' or '}' (while parsing a flow mapping); the '{' opened at line 1 column 4 is not "
        "closed before this point, or a ',' is missing between two of its entries"),
    "an unclosed quote": (
        'a: "abc\nb: 2\n', (2, 0),
        "found unexpected end of stream (while scanning a quoted scalar); the quote opened at line 1 column 4 is "
        "never closed"),
    "text after a quoted value": (
        'a: "x" y\n', (0, 7),
        f"did not find expected key {BLOCK_MAP}; line 1 goes on after a complete value; only a comment may follow "
        "it: quote the whole value"),
    "a value starting with '@'": (
        "a: @foo\n", (0, 3),
        "found character that cannot start any token (while scanning for the next token); a plain value cannot "
        "start with '@': quote the value"),
    "a value starting with '*'": (
        "a: * b\n", (0, 4),
        "did not find expected alphabetic or numeric character (while scanning an alias); '*' starts an alias and "
        "'&' an anchor: quote a value that starts with one"),
    "a backslash in double quotes": (
        'a: "C:\\dir"\n', (0, 6),
        "found unknown escape character (while parsing a quoted scalar); in double quotes a backslash starts an "
        "escape (\\n, \\t, \\\", \\\\): write '\\\\' for a backslash, or single-quote the value"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_syntax_error_message_and_position(name):
    """The parser's words are libyaml's (``LOADER``), which PyYAML's wheels bundle."""
    text, (line, column), message = CASES[name]
    [finding] = parse_yaml(text).findings
    assert (finding.code, finding.span.line, finding.span.column, finding.message) == ("EV001", line, column, message)


def _hint(text: str, loader) -> str:
    with pytest.raises(yaml.MarkedYAMLError) as raised:
        for _ in yaml.parse(text, Loader=loader):
            pass
    exc = raised.value
    return syntax_hint(exc.problem, exc.context, exc.problem_mark, exc.context_mark, text)


@pytest.mark.parametrize("name", list(CASES))
def test_both_parsers_get_the_same_hint(name):
    """The pure-Python parser words its problems differently; the hint is the same."""
    text, _, message = CASES[name]
    assert _hint(text, yaml.SafeLoader) == message.split("; ", 1)[1]


@pytest.mark.parametrize("text,message", [
    ("evalcases: *nowhere\n", "alias '*nowhere' refers to no anchor '&nowhere' defined before it"),
    ("a: &base {x: 1}\nb: *bse\n", "alias '*bse' refers to no anchor '&bse' defined before it (did you mean 'base'?)"),
    ("a: *later\nb: &later 1\n", "alias '*later' refers to no anchor '&later' defined before it; it is defined later, "
                                 "on line 2, and an alias repeats only a node anchored above it"),
    ('a: "&x"\nb: *x\n', "alias '*x' refers to no anchor '&x' defined before it"),
])
def test_undefined_alias(text, message):
    [finding] = parse_yaml(text).findings
    assert (finding.code, finding.message) == ("EV001", message)
