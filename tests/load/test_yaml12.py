"""Reading YAML the way the runner's YAML 1.2 parser does, with positions."""
from __future__ import annotations

import math
import sys

import pytest
import yaml

from evallint.load import yaml12
from evallint.load.positions import Index
from evallint.load.yaml12 import parse_yaml, resolve_plain


@pytest.mark.parametrize("text,expected", [
    ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("y", "y"), ("n", "n"),
    ("2026-01-01", "2026-01-01"), ("1:20", "1:20"),
    ("017", 17), ("0o17", 15), ("0x1F", 31), ("-12", -12), ("+3", 3),
    ("1.5", 1.5), ("1e3", 1000.0), (".5", 0.5), ("true", True), ("False", False), ("TRUE", True),
    ("null", None), ("~", None), ("NULL", None), ("Null", None), ("", None),
    ("1_000", "1_000"), ("0b101", "0b101"), ("nulll", "nulll"),
    ("tRuE", "tRuE"), ("fALSE", "fALSE"), ("FaLse", "FaLse"),  # the core schema: true, True or TRUE only
])
def test_core_schema_resolution(text, expected):
    assert resolve_plain(text) == expected and type(resolve_plain(text)) is type(expected)


def test_special_floats():
    assert resolve_plain(".inf") == math.inf
    assert resolve_plain("-.Inf") == -math.inf
    assert math.isnan(resolve_plain(".NaN"))


def test_huge_integer_does_not_crash():
    parsed = parse_yaml("n: " + "9" * 5000 + "\n")
    assert parsed.ok and parsed.data["n"] == math.inf


def test_quoted_scalars_stay_strings():
    parsed = parse_yaml("a: '017'\nb: \"true\"\nc: !!str 5\n")
    assert parsed.data == {"a": "017", "b": "true", "c": "5"}


def test_explicit_int_tag():
    assert parse_yaml("a: !!int '42'\n").data == {"a": 42}
    bad = parse_yaml("a: !!int forty\n")
    assert not bad.ok and bad.findings[0].code == "EV001"


def test_positions_of_keys_and_values():
    parsed = parse_yaml("evalcases:\n  - id: a\n    mode:   random\n")
    index = Index(parsed.root)
    value = index.locate(("evalcases", 0, "mode"), "value")
    key = index.locate(("evalcases", 0, "mode"), "key")
    first = index.locate(("evalcases", 0), "first_key")
    assert (value.line, value.column, value.end_column) == (2, 12, 18)
    assert (key.line, key.column) == (2, 4)
    assert (first.line, first.column) == (1, 4)


def test_positions_count_characters_not_bytes():
    parsed = parse_yaml("a: 'ééé'\nb: [ü, x]\n")
    span = Index(parsed.root).locate(("b", 1), "value")
    assert (span.line, span.column) == (1, 7)


def test_missing_path_falls_back_to_deepest_existing_node():
    parsed = parse_yaml("evalcases:\n  - id: a\n    input: hello\n")
    span = Index(parsed.root).locate(("evalcases", 0, "input_messages", 0, "content"), "value")
    assert (span.line, span.column) == (2, 11)


def test_duplicate_key_names_first_line():
    parsed = parse_yaml("a: 1\nb: 2\na: 3\n")
    (finding,) = parsed.findings
    assert finding.code == "EV003" and "line 1" in finding.message
    assert (finding.span.line, finding.span.column) == (2, 0)
    assert parsed.data == {"a": 1, "b": 2}


def test_merge_key_is_reported_not_merged():
    parsed = parse_yaml("base: &b {x: 1}\nthing:\n  <<: *b\n  y: 2\n")
    assert [f.code for f in parsed.findings] == ["EV010"]
    assert parsed.data["thing"] == {"y": 2}


def test_merge_keys_merge_as_agentv_4_parses_them():
    """The mapping's own keys win, then the first merged mapping's; a merged key is found where the merged
    mapping holds it; a merge inside a merged mapping is merged first."""
    text = ("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc: &c\n  <<: *a\n  w: 3\n"
            "thing:\n  <<: [*b, *a]\n  x: 0\nmore:\n  <<: *c\n")
    parsed = parse_yaml(text)
    assert [f.code for f in parsed.findings] == ["EV010", "EV010", "EV010"]  # as AgentV 2.2 reads them
    yaml12.merge_keys(parsed)
    assert parsed.data["thing"] == {"x": 0, "y": 2, "z": 2}
    assert parsed.data["more"] == {"w": 3, "x": 1, "y": 1}
    index = Index(parsed.root)
    z, x = index.locate(("thing", "z"), "value"), index.locate(("more", "x"), "key")
    assert (z.line, z.column) == (1, 16) and (x.line, x.column) == (0, 7)
    assert parsed.merges == []
    yaml12.merge_keys(parsed)  # once
    assert parsed.data["thing"] == {"x": 0, "y": 2, "z": 2}


def test_alias_bomb_is_stopped_before_expansion():
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    parsed = parse_yaml("\n".join(lines) + "\n")
    assert not parsed.ok and parsed.findings[0].code == "EV005"


def test_recursive_and_undefined_alias():
    assert parse_yaml("a: &x [*x]\n").findings[0].code == "EV005"
    assert parse_yaml("a: *nope\n").findings[0].code == "EV001"


def test_small_aliases_are_fine_and_shared():
    parsed = parse_yaml("a: &x {k: 1}\nb: *x\n")
    assert parsed.ok and parsed.data["b"] is parsed.data["a"]


@pytest.mark.parametrize("opener,closer", [("[", "]"), ("{a: ", "}")])
def test_deep_nesting_is_capped(opener, closer):
    depth = 100_000
    parsed = parse_yaml("x: " + opener * depth + closer * depth + "\n")
    assert not parsed.ok and parsed.findings[0].code == "EV006"


def test_deep_block_nesting_is_capped():
    text = "".join("  " * i + f"k{i}:\n" for i in range(300)) + "  " * 300 + "v\n"
    parsed = parse_yaml(text)
    assert not parsed.ok and parsed.findings[0].code == "EV006"


def test_unknown_tags_are_reported_and_not_constructed():
    parsed = parse_yaml("a: !!python/object/apply:os.system ['echo hi']\nb: !custom x\n")
    assert [f.code for f in parsed.findings] == ["EV004", "EV004"]
    assert parsed.data == {"a": ["echo hi"], "b": "x"}


def test_multiple_documents():
    parsed = parse_yaml("a: 1\n---\nb: 2\n")
    assert not parsed.ok and parsed.findings[0].code == "EV007"
    assert parsed.findings[0].span.line == 1


def test_syntax_error_has_the_problem_mark():
    parsed = parse_yaml("a: [1, 2\nb: 3\n")
    (finding,) = parsed.findings
    assert finding.code == "EV001" and finding.span.line == 1


def test_empty_and_comment_only_documents():
    assert parse_yaml("").empty
    assert parse_yaml("# just a comment\n").empty


def test_five_megabyte_file_loads():
    case = "  - id: c{i}\n    expected_outcome: goal {i}\n    input: question {i} " + "x" * 60 + "\n"
    text = "evalcases:\n" + "".join(case.format(i=i) for i in range(40_000))
    assert len(text) > 5_000_000
    parsed = parse_yaml(text)
    assert parsed.ok and len(parsed.data["evalcases"]) == 40_000


@pytest.mark.parametrize("text", [
    "a: {k: [1, 2, -3.5e2, .inf, 0x1F, 0o17, 'q', \"s\"]}\nb: [yes, no, on, off, ~, null, true, False, 2024-01-01]\n",
    "- a\n- [b, {c: d}]\n- {}\n- []\n",
    "just a scalar\n",
    "? plain key\n: 1\nnull: x\n1: y\n",
    "? [x]\n: 1\n",
])
def test_an_ordinary_file_has_positions_and_no_findings(text):
    parsed = parse_yaml(text)
    assert parsed.ok and not parsed.empty and parsed.findings == []
    assert parsed.root is not None and parsed.root.start.index == 0


@pytest.mark.parametrize("text,limits,code", [
    ("a: " + "x" * 50 + "\nb: short\n", {"max_scalar": 40}, "EV006"),  # a scalar over the limit
    ("a: short\nb: [" + "y" * 41 + "]\n", {"max_scalar": 40}, "EV006"),
    ("a: " + "x" * 40 + "\n", {"max_scalar": 40}, None),  # at the limit
    ("a: [[[[1]]]]\n", {"max_depth": 4}, "EV006"),  # nesting over the limit
    ("a: [[[1]]]\n", {"max_depth": 4}, None),
])
def test_limits(text, limits, code):
    parsed = parse_yaml(text, **limits)
    assert [f.code for f in parsed.findings] == ([code] if code else [])
    assert parsed.ok is (code is None)


def _libyaml_limits_nesting() -> bool:
    depth = yaml12.LIBYAML_MAX_DEPTH + 1
    try:
        list(yaml.parse("[" * depth + "]" * depth, Loader=yaml12.LOADER))
    except yaml.MarkedYAMLError as exc:
        return exc.problem == yaml12.LIBYAML_DEPTH_PROBLEM
    return False


@pytest.mark.skipif(not _libyaml_limits_nesting(), reason="a parser without libyaml's nesting limit")
def test_nesting_beyond_libyaml_s_limit_is_reported_as_too_deep():
    # libyaml raises at its own limit, before the events that go deeper than evallint's
    depth = yaml12.LIBYAML_MAX_DEPTH + 1
    text = "[" * depth + "]" * depth
    (finding,) = parse_yaml(text).findings
    assert (finding.code, finding.message) == ("EV006", "nesting is deeper than the limit of 200 levels")
    assert parse_yaml(text, max_depth=5000).findings[0].message == "nesting is deeper than the limit of 1000 levels"


@pytest.mark.parametrize("opener,closer", [("[", "]"), ("{a: ", "}")])
def test_the_pure_python_parser_s_deep_nesting_is_capped(opener, closer, monkeypatch):
    monkeypatch.setattr(yaml12, "LOADER", yaml.SafeLoader)
    # deeper than Python's recursion limit, which composing it would reach
    depth = sys.getrecursionlimit() + 200
    parsed = parse_yaml("x: " + opener * depth + closer * depth + "\n")
    (finding,) = parsed.findings
    assert (finding.code, finding.message) == ("EV006", "nesting is deeper than the limit of 200 levels")
    assert (finding.span.line, finding.span.column) == (0, 3 + 199 * len(opener))  # the root mapping is a level


def test_the_pure_python_parser_is_not_driven_past_a_finding_that_stops_the_build(monkeypatch):
    """Its scanner costs a pass over the open flow collections of a line for every token: after the nesting cap
    stops the build, the rest of the text is read as a syntax error's rest (a line holding a secret key's word
    starred whole), not parsed. libyaml's parser follows the events to the end."""
    events = []

    class Counted(yaml.SafeLoader):
        def get_event(self):
            events.append(1)
            return super().get_event()

    monkeypatch.setattr(yaml12, "LOADER", Counted)
    text = "x: " + "[" * 3000 + "]" * 3000 + "\napi_key: sk-live\n"
    parsed = parse_yaml(text)
    assert [f.code for f in parsed.findings] == ["EV006"] and len(events) < 300
    assert text.index("api_key") in range(*parsed.secrets[-1])


def test_a_reader_error_after_multibyte_text_points_at_the_character():
    # libyaml reports the byte offset (6); the finding gives the character column
    parsed = parse_yaml("\u1000\u1000\x01")
    assert [(f.code, f.span.line, f.span.column) for f in parsed.findings] == [("EV001", 0, 2)]


def test_an_alias_of_a_scalar_as_a_key_is_that_scalar_at_the_alias():
    parsed = parse_yaml("k: &k expected_outcome\n*k : x\n&n 5: a\n*n : b\n")
    assert parsed.data == {"k": "expected_outcome", "expected_outcome": "x", "5": "a"}
    assert [f.code for f in parsed.findings] == ["EV003"]  # '*n' names the key '5' again
    span = Index(parsed.root).locate(("expected_outcome",), "key")
    assert (span.line, span.column) == (1, 0)  # 0-based: line 2, column 1, the alias


def test_an_alias_of_a_scalar_as_a_value_is_found_at_the_alias_and_one_of_a_mapping_at_its_anchor(tmp_path):
    parsed = parse_yaml("a: &x one\nb: *x\nc: &m {k: v}\nd: *m\n")
    index = Index(parsed.root)
    assert [(span.line, span.column) for span in (index.locate(("b",), "value"), index.locate(("d", "k"), "value"))] \
        == [(1, 3), (2, 10)]
    from evallint import lint_paths

    path = tmp_path / "s.eval.yaml"
    path.write_text("tests:\n  - {id: &x one, input: hi, criteria: c}\n  - {id: *x, input: hi, criteria: c}\n")
    assert [(d.code, d.line, d.column, d.message) for d in lint_paths([path])] == [
        ("EV104", 3, 10, "duplicate test id 'one' (first used on line 2); the run stops before any test runs ('Duplicate "
                         "test ID')")]


def test_an_alias_key_in_an_eval_case_is_read_as_the_runner_reads_it(tmp_path):
    from evallint import lint_paths

    path = tmp_path / "s.eval.yaml"
    path.write_text("evalcases:\n  - id: a\n    k: &k expected_outcome\n    *k : x\n    input: q\n")
    assert [(d.code, d.line, d.column) for d in lint_paths([path])] == [("EV109", 3, 5)]


def test_a_huge_integer_named_as_a_key_is_the_key_the_runner_makes_of_it():
    """An alias of a hex integer beyond a double's range as a key: the runner's number is infinite (str() of
    the integer would be over Python's digit limit)."""
    parsed = parse_yaml("id: &x 0x" + "f" * 4000 + "\n*x : 1\n")
    assert parsed.ok and parsed.data["Infinity"] == 1
