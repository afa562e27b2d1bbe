"""A fix is withheld when its result has a finding the file did not have: quoting `id: 017`
beside a case whose id is already "017" would make a duplicate id (EV104). The EV103 message says what
the runner reads and what the fix writes."""
from __future__ import annotations

import textwrap

import pytest
from clirun import run

from evallint import api
from evallint.config import Config

DUPLICATE = textwrap.dedent("""\
    evalcases:
      - id: "017"
        expected_outcome: g
        input: q
      - id: 017
        expected_outcome: g
        input: q
      - id: 18
        expected_outcome: g
        input: q
""")
NOTE = ("EV103 not fixed: the fixed file would get EV104 at 5:9: duplicate case id '017' (first used on line 2); "
        "results of the two cases overwrite each other")
REMAINS = ("5:9: EV103 [error] case 'id' must be a string: the runner reads 017 as the number 17 and skips the "
           "case; the fix writes \"017\"")


@pytest.fixture
def suite(tmp_path):
    path = tmp_path / "evals" / "suite.yaml"
    path.parent.mkdir()
    path.write_text(DUPLICATE)
    return path


@pytest.mark.parametrize("select", [(), ("--select", "EV103")], ids=["default-rules", "only-EV103"])
def test_a_fix_that_would_make_a_duplicate_id_is_withheld_and_the_others_applied(suite, select):
    code, out, err = run("--fix", *select, "--no-references", "--format", "concise", str(suite))
    assert (code, err) == (1, f"evallint: {suite}:{NOTE.replace('EV103', '5:9: EV103', 1)}\n")
    assert out == f"Fixed 1 problem in 1 file.\n{suite}:{REMAINS}\nFound 1 error in 1 file (1 file checked).\n"
    assert suite.read_text() == DUPLICATE.replace("id: 18", 'id: "18"')


def test_diff_shows_only_the_fixes_that_make_nothing_new(suite):
    code, out, err = run("--diff", "--no-references", str(suite))
    changed = [line for line in out.splitlines()[2:] if line.startswith(("-", "+"))]
    assert (code, changed) == (1, ["-  - id: 18", '+  - id: "18"'])
    assert err == f"evallint: {suite}:5:9: {NOTE}\nWould fix 1 problem in 1 file.\n"
    assert suite.read_text() == DUPLICATE


def test_the_withheld_finding_is_reported_as_not_fixable(suite):
    import json

    code, out, _ = run("--fix", "--no-references", "--format", "json", str(suite))
    assert code == 1
    assert [(d["line"], d["code"], d["fixable"]) for d in json.loads(out)] == [(5, "EV103", False)]


def test_the_editors_fix_all_withholds_it_too(suite):
    fixed = api.fixed_text(DUPLICATE, str(suite), Config(references=False))
    assert fixed == DUPLICATE.replace("id: 18", 'id: "18"')


@pytest.mark.parametrize("written, message", [
    ("017", "the runner reads 017 as the number 17 and skips the case; the fix writes \"017\""),
    ("&n 2.50", "the runner reads 2.50 as the number 2.5 and skips the case; the fix writes \"2.50\""),
    ("0x1F", "the runner reads 0x1F as the number 31 and skips the case; the fix writes \"0x1F\""),
    ("True", "the runner reads True as the boolean true and skips the case; the fix writes \"True\""),
    ("!!int 5", "the runner reads 5 as the number 5 and skips the case; write it as a string"),
], ids=["leading-zero", "anchored-float", "hex", "boolean", "tagged"])
def test_the_ev103_message_says_what_the_runner_reads_and_what_the_fix_writes(tmp_path, written, message):
    path = tmp_path / "evals" / "suite.yaml"
    path.parent.mkdir()
    path.write_text(f"evalcases:\n  - id: {written}\n    expected_outcome: g\n    input: q\n")
    code, out, _ = run("--no-references", "--format", "concise", "--quiet", str(path))
    assert (code, out) == (1, f"{path}:2:9: EV103 [error] case 'id' must be a string: {message}\n")


def test_a_dataset_id_is_quoted_as_json_writes_it(tmp_path):
    path = tmp_path / "evals" / "cases.jsonl"
    path.parent.mkdir()
    path.write_text('{"id": 1.0e3, "input": "q", "expected_outcome": "g"}\n')
    code, out, _ = run("--no-references", "--format", "concise", "--quiet", str(path))
    assert (code, out) == (1, f"{path}:1:8: EV103 [error] case 'id' must be a string: the runner reads 1.0e3 as "
                              "the number 1000.0 and skips the case; write it as a string\n")
