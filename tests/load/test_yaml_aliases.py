"""AgentV 4.42.4's YAML parser refuses a file whose aliases count past 100: EV005 at the alias where it throws,
for AgentV 4.42.4's files only."""
from __future__ import annotations

import textwrap

import pytest
from conftest import FIXTURES

from evallint import lint_paths
from evallint.config import Config
from evallint.load.yaml12 import parse_yaml
from evallint.load.yaml_aliases import alias_limit, may_pass_limit, tree_of

MESSAGE = ("alias '*{}' goes past the limit of AgentV 4.42.4's YAML parser, which refuses more than 100 alias "
           "expansions (\"Excessive alias count\") and rejects the whole file; write some of the aliased values out")


def seq(item: str, n: int) -> str:
    return "[" + ", ".join([item] * n) + "]"


def merges(value: str, n: int) -> str:
    """A list of ``n`` mappings that merge ``value``."""
    return "l:\n" + "".join(f"  - {{<<: {value}, i: {i}}}\n" for i in range(n))


def at(text: str):
    """(1-based line, column) of the EV005 that AgentV 4.42.4's alias count gives ``text``, None when it gives
    none."""
    assert parse_yaml(text).aliased
    found = alias_limit(tree_of(text))
    assert [f.code for f in found] in ([], ["EV005"])
    return (found[0].span.line + 1, found[0].span.column + 1) if found else None


# each verdict, and the alias the parser throws at, is what the live ``yaml`` 2.9.1 parser gives
CASES = [
    ("a: &a x\nb: " + seq("*a", 99) + "\n", None),
    ("a: &a x\nb: " + seq("*a", 100) + "\n", (2, 401)),  # the 100th alias: 101 uses of one scalar
    ("a: &a []\nb: " + seq("*a", 300) + "\n", None),  # an anchor that holds no scalar weighs nothing
    ("e: &e []\na: &a [[], *e]\nb: " + seq("*a", 300) + "\n", None),
    ("a: &a x\nb: " + seq("*a", 60) + "\nc: &a y\nd: " + seq("*a", 60) + "\n", None),  # each anchor counts apart
    ("k: &k key\nm:\n" + "".join(f"  ? [*k, {i}]\n  : v\n" for i in range(100)), (201, 6)),  # aliases in keys
    ("d: &d {x: 1}\n" + merges("*d", 99), None),
    ("d: &d {x: 1}\n" + merges("*d", 100), (102, 10)),
    # a merge converts the merged mapping again: its alias '*s' is resolved again, and '*d' weighs 2
    ("s: &s hi\nd: &d {x: *s}\n" + merges("*d", 49), None),
    ("s: &s hi\nd: &d {x: *s}\n" + merges("*d", 50), (53, 10)),
    ("s: &s hi\nd: &d {x: *s}\ne: &e {y: 1}\nm: &m [*d, *e]\n" + merges("*m", 40), (30, 10)),
    # the anchors inside a merged mapping start their count over
    ("d: &d {x: &x 1}\nr: " + seq("*x", 60) + "\nl: [{<<: *d}]\nq: " + seq("*x", 60) + "\n", None),
    # a merge's anchored value is converted at its first alias, which resolves its '*s' once more
    ("s: &s 1\nl: [{<<: &m {x: *s}}]\nq: " + seq("*s", 48) + "\nr: [*m]\n", (4, 5)),
    # the parser refuses a merge of anything but mappings first ("Merge sources must be maps")
    ("s: &s 1\nl: [{<<: *s}]\nq: " + seq("*s", 150) + "\n", None),
    ("d: &d {x: 1}\nl: [{<<: [*d, 1]}]\nq: " + seq("*d", 150) + "\n", None),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_the_alias_where_agentv_4s_parser_throws(text, expected):
    assert at(text) == expected


@pytest.mark.parametrize("text", [
    "a: &a x\nb: " + seq("*a", 99) + "\n",
    "a: &a [x, {y: z}]\nb: " + seq("*a", 99) + "\n",
    "a: &a x\nb: " + seq("*a", 50) + "\nc: &c {y: z}\nd: " + seq("*c", 49) + "\n",
    "a: &a x\nb: &b [1, 2]\nc: {p: *a, q: *b}\n"])
def test_a_file_that_cannot_pass_the_limit_is_not_read_again(text):
    """Without an alias inside an anchored node or a merge, and with fewer aliases than the limit, the count
    cannot pass it: such a file is not read again, and reading it again would find nothing."""
    assert not may_pass_limit(parse_yaml(text))
    assert alias_limit(tree_of(text)) == []


def test_which_files_are_read_again_to_count():
    assert not may_pass_limit(parse_yaml("a: &a x\nb: " + seq("*a", 99) + "\n"))
    assert may_pass_limit(parse_yaml("a: &a x\nb: " + seq("*a", 100) + "\n"))
    assert may_pass_limit(parse_yaml("s: &s hi\nd: &d {x: *s}\n"))  # an alias inside an anchored node
    assert may_pass_limit(parse_yaml("d: &d {x: 1}\n" + merges("*d", 1)))


def test_a_file_without_aliases_is_not_counted():
    assert not parse_yaml("a: &a x\nb: [1, 2]\n").aliased


def test_an_agentv_4_file_past_the_limit_is_reported_at_the_alias():
    path = FIXTURES / "bad" / "EV005_alias_limit_agentv4.yaml"
    assert [(d.code, d.line, d.column, d.message) for d in lint_paths([path], config=Config(references=False))] == [
        ("EV005", 13, 58, MESSAGE.format("l1"))]


def test_an_agentv_4_file_at_the_limit_is_not():
    path = FIXTURES / "good" / "rules" / "EV005_alias_limit_agentv4.yaml"
    assert lint_paths([path], config=Config(references=False)) == []


def test_agentv_2_files_are_not_counted_as_agentv_4_counts_aliases():
    """AgentV 2.2 reads YAML with another parser: the same file read as 2.2, and the 2.2 fixture that AgentV
    4.42.4 would refuse, get no EV005."""
    past = FIXTURES / "bad" / "EV005_alias_limit_agentv4.yaml"
    as_2_2 = lint_paths([past], config=Config(references=False, agentv_version="2.2"))
    assert "EV005" not in {d.code for d in as_2_2}
    assert lint_paths([FIXTURES / "good" / "rules" / "EV005_alias_limit.yaml"], config=Config(references=False)) == []


def suite(structure: str) -> str:
    """An AgentV 4.42.4 suite of one test whose code-grader holds ``structure`` (YAML keys) as its settings."""
    return ("tests:\n  - id: t\n    criteria: c\n    input: hi\n    assertions:\n      - type: code-grader\n"
            "        command: [python, check.py]\n" + textwrap.indent(structure, " " * 8))


def chain(width: int, depth: int) -> str:
    """An anchor of ``width`` scalars, then ``depth`` anchors of ``width`` aliases of the one before."""
    text = f"l0: &l0 {seq('x', width)}\n"
    return text + "".join(f"l{k}: &l{k} {seq(f'*l{k - 1}', width)}\n" for k in range(1, depth + 1))


AROUND_THE_LIMIT = {
    **{f"uses{n}.yaml": suite(f"a: &a x\nb: {seq('*a', n)}\n") for n in (99, 100)},
    **{f"chain{w}x{d}.yaml": suite(chain(w, d)) for w, d in ((9, 2), (10, 2), (3, 3), (4, 3), (2, 4), (2, 5))},
    **{f"merges{n}.yaml": suite("d: &d {x: 1}\n" + merges("*d", n)) for n in (99, 100)},
    **{f"inner{n}.yaml": suite("s: &s hi\nd: &d {x: *s}\n" + merges("*d", n)) for n in (49, 50)},
    "empty.yaml": suite(f"e: &e []\nb: {seq('*e', 300)}\n"),
}


@pytest.mark.runner
def test_ev005_is_reported_exactly_where_agentv_4s_loader_refuses_the_aliases(tmp_path):
    from agentv_runner import load_tests

    for name, text in AROUND_THE_LIMIT.items():
        (tmp_path / name).write_text(text)
    live = load_tests(tmp_path, sorted(AROUND_THE_LIMIT))
    refused = {name for name in AROUND_THE_LIMIT if "Excessive alias count" in (live[name]["error"] or "")}
    reported = {name for name in AROUND_THE_LIMIT
                if "EV005" in {d.code for d in lint_paths([tmp_path / name], config=Config(references=False))}}
    assert reported == refused
    assert 0 < len(refused) < len(AROUND_THE_LIMIT)
