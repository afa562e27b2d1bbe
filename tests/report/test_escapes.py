"""A control character in a key, a value or a source line is printed escaped in every format, so it can
neither split an output line nor reach the terminal."""
from __future__ import annotations

import io
import json

import pytest

from evallint.cli import main

KEY = 'evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    "col\\nour\\e[31m\\a\\x9b": 1\n'
MESSAGE = ("unknown key 'col\\nour\\x1b[31m\\x07\\x9b' in eval case (known keys: conversation_id, description, "
           "evaluator, evaluators, execution, expected_messages, expected_outcome, expected_output, id, input, "
           "input_messages, outcome, rubrics)")


def run(tmp_path, monkeypatch, text, *argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.eval.yaml").write_text(text)
    out, err = io.StringIO(), io.StringIO()
    code = main([*argv, "--no-color", "x.eval.yaml"], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_concise_escapes_a_key(tmp_path, monkeypatch):
    assert run(tmp_path, monkeypatch, KEY, "--format", "concise", "--quiet") == (
        0, f"x.eval.yaml:5:5: EV109 [warning] {MESSAGE}\n", "")


def test_text_escapes_a_key(tmp_path, monkeypatch):
    code, out, err = run(tmp_path, monkeypatch, KEY, "--format", "text")
    assert out.splitlines()[0] == f"x.eval.yaml:5:5: EV109 [warning] {MESSAGE}"


def test_github_escapes_a_key(tmp_path, monkeypatch):
    code, out, err = run(tmp_path, monkeypatch, KEY, "--format", "github")
    assert out.splitlines()[0] == ("::warning title=evallint (EV109),file=x.eval.yaml,line=5,col=5,endLine=5,"
                                   f"endColumn=27::x.eval.yaml:5:5: EV109 {MESSAGE}")


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_escape_every_control_character(tmp_path, monkeypatch, fmt):
    code, out, err = run(tmp_path, monkeypatch, KEY, "--format", fmt)
    assert "\\u001b[31m\\u0007\\u009b" in out
    assert all(ord(c) >= 0x20 or c == "\n" for c in out) and not any(0x7f <= ord(c) <= 0x9f for c in out)
    document = json.loads(out)
    message = document[0]["message"] if fmt == "json" else document["runs"][0]["results"][0]["message"]["text"]
    assert message.startswith("unknown key 'col\nour\x1b[31m\x07\x9b' in eval case")


def test_text_escapes_a_control_character_in_the_source_line_and_moves_the_caret(tmp_path, monkeypatch):
    text = "evalcases:\n  - id: a\x1b[31mb\n    expected_outcome: g\n    input: q\n"
    assert run(tmp_path, monkeypatch, text) == (1, (
        "x.eval.yaml:2:10: EV001 [error] not readable as YAML: control characters are not allowed\n"
        "  |\n"
        "2 |   - id: a\\x1b[31mb\n"
        "  |          ^^^^\n"
        "\n"
        "Found 1 error in 1 file (1 file checked).\n"), "")


def test_text_shows_severity_then_fixable_mark(tmp_path, monkeypatch):
    text = "evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n"
    assert run(tmp_path, monkeypatch, text) == (1, (
        "x.eval.yaml:2:9: EV103 [error] [*] case 'id' must be a string: the runner reads 1 as the number 1 and "
        "skips the case; the fix writes \"1\"\n"
        "  |\n"
        "2 |   - id: 1\n"
        "  |         ^\n"
        "\n"
        "Found 1 error in 1 file (1 file checked). 1 fixable with --fix.\n"), "")


def test_ev701_caret_is_at_the_column_its_message_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.jsonl").write_text('{"id": "a", "expected_outcome": "g", "input": "q"}\n{"id": "b",}\n')
    out, err = io.StringIO(), io.StringIO()
    assert main(["--no-color", "d.jsonl"], stdout=out, stderr=err) == 1
    assert out.getvalue() == (
        "d.jsonl:2:12: EV701 [error] Line 2: invalid JSON: Expecting property name enclosed in double quotes at "
        "column 12\n"
        "  |\n"
        '2 | {"id": "b",}\n'
        "  |            ^\n"
        "\n"
        "Found 1 error in 1 file (1 file checked).\n")


NAME = b"bad\xff name.eval.yaml"  # not UTF-8: the operating system's name, decoded with 'surrogateescape'
PATHS = {
    "concise": "bad\\xff name.eval.yaml:5:5: EV109",
    "text": "bad\\xff name.eval.yaml:5:5: EV109",
    "github": "file=bad\\xff name.eval.yaml,line=5",
    "json": '"path": "bad\\\\xff name.eval.yaml"',
    "sarif": '"uri": "bad%FF%20name.eval.yaml"',
}


@pytest.mark.parametrize("fmt", sorted(PATHS))
def test_a_file_name_that_is_not_utf8_leaves_every_format_utf8(tmp_path, fmt):
    import os
    import subprocess
    import sys

    with open(os.path.join(os.fsencode(tmp_path), NAME), "wb") as fh:
        fh.write(b"evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    colour: 1\n")
    proc = subprocess.run([sys.executable, "-m", "evallint", "--no-cache", "--no-color", "--format", fmt, "."],
                          capture_output=True, check=False, cwd=tmp_path)
    out = proc.stdout.decode("utf-8")  # raises on invalid UTF-8
    assert proc.returncode == 0 and PATHS[fmt] in out
    if fmt in ("json", "sarif"):
        json.loads(out)
