"""What the README and docs/ say about severities and positions is what evallint does: every sentence that
calls a rule an error or a warning is checked against the registry, and every row of the positions table
against the linter's output on an example."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from evallint import lint_paths
from evallint.rules.registry import RULES, S

DOCUMENTS = ("README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")))
CODE = re.compile(r"\bEV\d{3}\b")
# "error" and "warning" as a severity: not the end of a rule name such as internal-error
SEVERITY = re.compile(r"(?<![-\w])(error|warning)s?\b")
# in a rule's own section, a sentence that names no code is about that rule when it says "it is" / "this is"
ITSELF = re.compile(r"\b(?:it|this) is (?:a (warning)|an (error))\b", re.I)
# table columns that hold a code's current severity, and the changelog's columns of what it was before
SEVERITY_COLUMNS = ("default severity", "is")
HISTORY_COLUMNS = ("was", "what it reported before")


def _clauses(text: str):
    """(rule section or None, clause) for each clause of the prose outside code blocks: a table cell (but
    those of a column of history), or the part of a sentence between semicolons, colons and full stops."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    section = None
    for block in re.split(r"\n\s*\n", text):
        heading = re.search(r"^## (EV\d{3}) ", block, re.M)
        if heading:
            section = heading.group(1)
        elif re.search(r"^#{1,2} ", block, re.M):
            section = None
        if block.lstrip().startswith("|"):
            rows = [row.split("|")[1:-1] for row in block.strip().splitlines()]
            kept = [i for i, name in enumerate(rows[0]) if name.strip().lower() not in HISTORY_COLUMNS]
            parts = [cells[i] for cells in rows[2:] for i in kept]
        else:
            parts = re.split(r";|(?<=[.:])\s+(?=[A-Z`(\[])|\n(?=- )", block)
        for part in parts:
            yield section, " ".join(part.split())


def _table_claims(text: str):
    """(code, severity) of each row of a table whose header has a severity column."""
    for header, body in re.findall(r"^(\|[^\n]*\|)\n\|[-| ]+\|\n((?:\|[^\n]*\|\n?)*)", text, re.M):
        names = [cell.strip().lower() for cell in header.split("|")[1:-1]]
        for column in (i for i, name in enumerate(names) if name in SEVERITY_COLUMNS):
            for row in body.splitlines():
                cells = row.split("|")[1:-1]
                yield CODE.search(cells[0]).group(), cells[column].split()[0], row


def claims(text: str):
    """(code, "error" | "warning" | "style", the words that say so) for each severity statement: in prose, a
    severity word goes with the nearest code of its clause; in a table, the severity column with the row's
    code."""
    for section, clause in _clauses(text):
        codes = list(CODE.finditer(clause))
        if not codes:
            itself = ITSELF.search(clause) if section else None
            if itself:
                yield section, itself.group(1) or itself.group(2), clause
            continue
        if clause.startswith("[EV") or CODE.fullmatch(clause):  # a table's code cell: read by _table_claims
            continue
        for word in SEVERITY.finditer(clause):
            nearest = min(codes, key=lambda code: abs(code.start() - word.start()))
            yield nearest.group(), word.group(1), clause
    yield from _table_claims(text)


def _is(code: str) -> str:
    return "style" if RULES[code].level == S else RULES[code].severity.value


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_severity_the_documents_state_is_the_registrys(name):
    found = list(claims((ROOT / name).read_text(encoding="utf-8")))
    wrong = [(code, said, _is(code), words) for code, said, words in found
             if said != _is(code) and not (said == "warning" and _is(code) == "style")]
    assert wrong == []


def test_the_severity_statements_are_found():
    """The reading above is not vacuous: it finds the statements of format.md and of the rule docs."""
    found = {(code, said) for name in DOCUMENTS for code, said, _ in claims((ROOT / name).read_text("utf-8"))}
    assert {("EV113", "error"), ("EV117", "warning"), ("EV506", "warning"),
            ("EV901", "style"), ("EV108", "error")} <= found


def test_a_wrong_severity_is_caught():
    text = "A case that has both gets a warning at `evaluators` ([EV113](rules.md#ev113)).\n"
    assert [(code, said) for code, said, _ in claims(text)] == [("EV113", "warning")] and _is("EV113") == "error"


# The rows of docs/format.md's "Positions" table, each with an example: (file name, text, code, where the
# table says it is).
def _syntax_error_position(text: str) -> tuple:
    try:
        list(yaml.parse(text))
    except yaml.MarkedYAMLError as exc:
        return exc.problem_mark.line + 1, exc.problem_mark.column + 1
    raise AssertionError("the example parses")


def _json_error_position(text: str, line: int) -> tuple:
    try:
        json.loads(text.splitlines()[line - 1])
    except json.JSONDecodeError as exc:
        return line, exc.colno
    raise AssertionError("the example's line is valid JSON")


CASE = '{"id": "a", "input": "q", "expected_outcome": "g"}\n'
BROKEN_YAML = "evalcases:\n  - id: a\n    input: [q, \n    expected_outcome: g\n  bad: ]\n"
POSITIONS = {
    "a bad value": (
        "s.yaml", "evalcases:\n  - id: a\n    input: q\n    expected_outcome: g\n    evaluators:\n"
        "      - {name: t, type: tool_trajectory, mode: in-order, expected: [{tool: x}]}\n", "EV310", (6, 48)),
    "an unknown, duplicate or shadowed key": (
        "s.yaml", "evalcases:\n  - id: a\n    input: q\n    expected_outcome: g\n    outcome: h\n    colour: 1\n"
        "    input: r\n", ("EV108", "EV109", "EV003"), ((5, 5), (6, 5), (7, 5))),
    "a missing key": ("s.yaml", "evalcases:\n  - input: q\n    id: a\n", "EV106", (2, 5)),
    "a YAML syntax error": ("s.yaml", BROKEN_YAML, "EV001", _syntax_error_position(BROKEN_YAML)),
    "a JSONL line": ("d.jsonl", CASE + '{"id": 5, "input": "q", "expected_outcome": "g"}\n', "EV103", (2, 8)),
    "invalid JSON on a JSONL line": (
        "d.jsonl", CASE + '{"id": "b", "input": "q" "expected_outcome": "g"}\n', "EV701",
        _json_error_position(CASE + '{"id": "b", "input": "q" "expected_outcome": "g"}\n', 2)),
}


def _positions_table() -> dict:
    doc = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    table = doc[doc.index("### Positions\n"):doc.index("### Fixes\n")]
    return dict(re.findall(r"^\| (?!problem|---)([^|]+?) \| ([^|]+?) \|$", table, re.M))


def test_the_positions_table_has_an_example_for_each_row():
    assert sorted(_positions_table()) == sorted(POSITIONS)


def test_invalid_json_is_reported_at_the_column_where_parsing_stopped():
    assert _positions_table()["invalid JSON on a JSONL line"] == "that line, at the column where the JSON parser stopped"
    assert POSITIONS["invalid JSON on a JSONL line"][3] == (2, 26)


@pytest.mark.parametrize("problem", sorted(POSITIONS))
def test_each_row_of_the_positions_table_is_where_evallint_reports(problem, tmp_path: Path):
    name, text, codes, places = POSITIONS[problem]
    codes, places = (codes, places) if isinstance(codes, tuple) else ((codes,), (places,))
    (tmp_path / ".git").mkdir()
    (tmp_path / name).write_text(text, encoding="utf-8")
    found = [(d.code, (d.line, d.column)) for d in lint_paths([tmp_path / name]) if d.code in codes]
    assert sorted(found) == sorted(zip(codes, places))
