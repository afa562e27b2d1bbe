"""The text format's source line under a finding: a line too wide for the terminal is cut around the
finding, ``...`` standing for what is left out, so the caret is under the offending text."""
from __future__ import annotations

import io

from evallint import Diagnostic, Severity
from evallint.cli import main
from evallint.report.formats.text import TextReporter

SECRET = "sk-live-4f9a8b7c6d5e4f3a2b1c"
PREFIX = "  - {id: a, input: q, expected_outcome: "  # 40 characters
UNKNOWN = ("unknown key '{}' in eval case (known keys: conversation_id, description, evaluator, evaluators, execution, "
           "expected_messages, expected_outcome, expected_output, id, input, input_messages, outcome, rubrics)")


def lint(tmp_path, monkeypatch, line: str) -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.eval.yaml").write_text("evalcases:\n" + line + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    main(["--no-color", "--no-cache", "x.eval.yaml"], stdout=out, stderr=err)
    assert err.getvalue() == ""
    return out.getvalue()


def block(header: str, shown: str, caret_at: int, width: int) -> str:
    return f"{header}\n  |\n2 | {shown}\n  | {' ' * caret_at}{'^' * width}\n\n"


def test_a_finding_far_along_a_long_line_has_the_caret_under_it(tmp_path, monkeypatch):
    line = PREFIX + "a" * 650 + ", colour: blue}"
    assert line.index("colour") + 1 == 693
    # the window holds the rest of the line and, before the finding, what is left of 200 columns
    shown = "..." + "a" * 185 + ", colour: blue}"
    assert lint(tmp_path, monkeypatch, line) == (
        block(f"x.eval.yaml:2:693: EV109 [warning] {UNKNOWN.format('colour')}", shown, 3 + 187, 6)
        + "Found 1 warning in 1 file (1 file checked).\n")


def test_a_secret_in_the_window_stays_starred(tmp_path, monkeypatch):
    line = PREFIX + "a" * 650 + f", api_key: {SECRET}, colour: blue}}"
    out = lint(tmp_path, monkeypatch, line)
    assert SECRET not in out and "sk-live" not in out
    stars = "*" * len(SECRET)
    assert line.index("colour") + 1 == 732
    colour = block(f"x.eval.yaml:2:732: EV109 [warning] {UNKNOWN.format('colour')}",
                   "..." + "a" * 146 + f", api_key: {stars}, colour: blue}}", 3 + 187, 6)
    assert colour in out


def test_wide_characters_take_two_columns_each(tmp_path, monkeypatch):
    line = PREFIX + "天気" * 150 + ", colour: blue}"
    # 92 wide characters and ', ' fill 186 of the 187 columns before the finding; a 93rd would not fit
    shown = "..." + "天気" * 46 + ", colour: blue}"
    assert lint(tmp_path, monkeypatch, line) == (
        block(f"x.eval.yaml:2:343: EV109 [warning] {UNKNOWN.format('colour')}", shown, 3 + 186, 6)
        + "Found 1 warning in 1 file (1 file checked).\n")


def test_a_wide_character_on_a_short_line_moves_the_caret(tmp_path, monkeypatch):
    line = "  - {id: 天気, input: q, expected_outcome: x, colour: blue}"
    out = lint(tmp_path, monkeypatch, line)
    assert out.splitlines()[2:4] == [f"2 | {line}", "  | " + " " * (line.index("colour") + 2) + "^^^^^^"]


def test_a_tab_counts_one_column(tmp_path, monkeypatch):
    line = "  - {id: a,\tinput: q, expected_outcome: x, colour: blue}"
    out = lint(tmp_path, monkeypatch, line)
    assert out.splitlines()[2:4] == [f"2 | {line.replace(chr(9), ' ')}", "  | " + " " * line.index("colour") + "^^^^^^"]


def test_a_finding_wider_than_the_window_is_marked_to_its_end(tmp_path, monkeypatch):
    line = PREFIX + "x, execution: {evaluators: [{name: t, type: tool_trajectory, mode: " + "in-order" * 40 + "}]}}"
    start = line.index("in-order")
    out = lint(tmp_path, monkeypatch, line)
    # 60 columns before the finding, then 140 of it
    assert out.splitlines()[2:4] == [f"2 | ...{line[start - 60:start + 140]}...", "  | " + " " * 63 + "^" * 140]


def report(line: str, column: int, end_column: int) -> list:
    out = io.StringIO()
    d = Diagnostic("EV001", Severity.ERROR, "bad", "a.yaml", 1, column, 1, end_column)
    TextReporter(out).file([d], {1: line}, "a.yaml")
    return out.getvalue().splitlines()[1:4]


def test_a_finding_at_the_very_end_of_a_long_line():
    line = "b" * 699 + "c"
    assert report(line, 701, 701) == ["  |", "1 | ..." + "b" * 199 + "c", "  | " + " " * 203 + "^"]


def test_a_finding_at_the_start_of_a_long_line():
    line = "key: " + "v" * 500
    assert report(line, 1, 4) == ["  |", "1 | " + line[:200] + "...", "  | ^^^"]


def test_a_short_line_is_shown_whole():
    line = "key: value"
    assert report(line, 6, 11) == ["  |", "1 | key: value", "  |      ^^^^^"]
