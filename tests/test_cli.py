"""The command line: exact output of each format, exit codes, colour."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from clirun import run, run_concise
from conftest import FIXTURES

from evallint import __version__

CLI = FIXTURES / "cli"

TEXT = """\
small.yaml:6:5: EV109 [warning] unknown key 'colour' in eval case (known keys: conversation_id, description, \
evaluator, evaluators, execution, expected_messages, expected_outcome, expected_output, id, input, input_messages, outcome, \
rubrics)
  |
6 |     colour: blue
  |     ^^^^^^

small.yaml:11:17: EV310 [error] invalid tool_trajectory mode 'in-order' (did you mean 'in_order'?); expected one \
of 'any_order', 'in_order', 'exact'
   |
11 |           mode: in-order
   |                 ^^^^^^^^

Found 1 error, 1 warning in 1 file (1 file checked).
"""

CONCISE = """\
small.yaml:6:5: EV109 [warning] unknown key 'colour' in eval case (known keys: conversation_id, description, \
evaluator, evaluators, execution, expected_messages, expected_outcome, expected_output, id, input, input_messages, \
outcome, rubrics)
small.yaml:11:17: EV310 [error] invalid tool_trajectory mode 'in-order' (did you mean 'in_order'?); expected one of \
'any_order', 'in_order', 'exact'
Found 1 error, 1 warning in 1 file (1 file checked).
"""


@pytest.fixture(autouse=True)
def in_cli_fixtures(monkeypatch):
    monkeypatch.chdir(CLI)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)


def test_text_format_exact():
    assert run("small.yaml") == (1, TEXT, "")


def test_concise_format_exact():
    assert run("--format", "concise", "small.yaml") == (1, CONCISE, "")


def test_json_format_exact():
    code, out, err = run("--format", "json", "small.yaml")
    assert code == 1 and err == ""
    assert json.loads(out) == [
        {"code": "EV109", "severity": "warning",
         "message": "unknown key 'colour' in eval case (known keys: conversation_id, description, evaluator, evaluators, "
                    "execution, expected_messages, expected_outcome, expected_output, id, input, input_messages, outcome, "
                    "rubrics)",
         "path": "small.yaml", "line": 6, "column": 5, "end_line": 6, "end_column": 11,
         "yaml_path": "evalcases[0].colour", "case_id": "weather", "fixable": False},
        {"code": "EV310", "severity": "error",
         "message": "invalid tool_trajectory mode 'in-order' (did you mean 'in_order'?); expected one of 'any_order', "
                    "'in_order', 'exact'",
         "path": "small.yaml", "line": 11, "column": 17, "end_line": 11, "end_column": 25,
         "yaml_path": "evalcases[0].execution.evaluators[0].mode", "case_id": "weather", "fixable": False},
    ]


def test_json_names_the_test_of_an_agentv4_finding_and_its_path_as_the_file_holds_it(tmp_path, monkeypatch):
    """A suite's tests are under 'tests'; a file of tests (a YAML list, or JSON lines that a suite names) is the
    list itself."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text("tests:\n  - {id: t1, input: hi, criteria: c, critera: c}\n")
    (tmp_path / "b.eval.yaml").write_text("tests: ./list.yaml\n")
    (tmp_path / "list.yaml").write_text("- {id: y1, input: hi, criteria: c, critera: c}\n")
    (tmp_path / "c.eval.yaml").write_text("tests: ./cases.jsonl\n")
    (tmp_path / "cases.jsonl").write_text('{"id": "j1", "input": "hi", "criteria": "c", "critera": "c"}\n')
    monkeypatch.chdir(tmp_path)
    code, out, err = run("--no-cache", "--format", "json", ".")
    assert (code, err) == (0, "")  # warnings only
    assert [(d["path"], d["yaml_path"], d["case_id"]) for d in json.loads(out)] == [
        ("a.eval.yaml", "tests[0].critera", "t1"), ("cases.jsonl", "[0].critera", "j1"),
        ("list.yaml", "[0].critera", "y1")]


def test_json_is_an_empty_array_when_clean():
    assert run("--format", "json", "clean.yaml") == (0, "[]\n", "")


def test_exit_codes():
    assert run("clean.yaml")[0] == 0
    assert run("small.yaml")[0] == 1
    assert run("warnings_only.yaml")[0] == 0
    assert run("--strict", "warnings_only.yaml")[0] == 1
    assert run("--exit-zero", "small.yaml")[0] == 0


def test_clean_summary():
    assert run("clean.yaml") == (0, "No problems found (1 file checked).\n", "")


def test_quiet_prints_diagnostics_only():
    code, out, _ = run("--quiet", "--format", "concise", "small.yaml")
    assert out.splitlines()[-1].startswith("small.yaml:11:17: EV310")


@pytest.mark.parametrize("argv", [["--format", "xml", "clean.yaml"], ["missing.yaml"], ["rule", "EV999"]])
def test_usage_errors_exit_2(argv):
    code, out, err = run(*argv)
    assert code == 2 and err.splitlines()[-1].startswith("evallint: error:") and out == ""


def test_select_and_ignore():
    assert run("--format", "concise", "--quiet", "--select", "EV3", "small.yaml")[1].count("\n") == 1
    assert run("--format", "concise", "--quiet", "--ignore", "EV310", "small.yaml")[1].startswith("small.yaml:6:5: EV109")
    assert run("--ignore", "EV3", "small.yaml")[0] == 0


def test_style_rules_are_off_until_selected():
    assert "EV904" not in run("--format", "concise", "clean.yaml")[1]
    code, out, _ = run("--format", "concise", "--extend-select", "EV9", "warnings_only.yaml")
    assert "EV904" not in out  # it has $schema
    assert code == 0


def test_colour_forced_and_disabled(monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in run("small.yaml")[1]
    assert "\x1b[" not in run("--no-color", "small.yaml")[1]
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run("small.yaml")[1]


def test_no_colour_when_piped(user_cache_home):
    proc = subprocess.run([sys.executable, "-m", "evallint", "small.yaml"], cwd=CLI, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(user_cache_home)})
    assert proc.returncode == 1 and "\x1b[" not in proc.stdout and proc.stdout == TEXT


def test_version():
    proc = subprocess.run([sys.executable, "-m", "evallint", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == f"evallint {__version__}"


def test_rules_command_lists_every_rule():
    from evallint.rules.registry import RULES

    code, out, _ = run("rules")
    assert code == 0 and len(out.splitlines()) == len(RULES)
    assert out.splitlines()[0].split()[:4] == ["EV000", "internal-error", "error", "2.2,4.42"]
    assert out.splitlines()[-1].split()[:5] == ["EV904", "missing-schema", "style", "fix", "2.2"]
    listed = json.loads(run("rules", "--format", "json")[1])
    assert [r["code"] for r in listed] == list(RULES)
    assert {"code": "EV322", "name": "code-judge-string-script", "severity": "style", "fixable": True,
            "generations": ["2.2"]} == {
        k: v for k, v in next(r for r in listed if r["code"] == "EV322").items() if k != "summary"}
    assert next(r for r in listed if r["code"] == "EV010")["generations"] == ["2.2"]


def test_non_eval_yaml_is_not_reported(tmp_path):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n")
    (tmp_path / "docker-compose.yml").write_text("services:\n  web: {image: nginx}\n")
    (tmp_path / "broken.yaml").write_text("a: [\n")
    code, out, _ = run(str(tmp_path))
    assert (code, out) == (0, "No problems found (0 files checked).\n")
    code, out, _ = run(str(tmp_path / "docker-compose.yml"))
    assert (code, out) == (0, "No problems found (0 files checked).\n")


def test_a_shadowed_alias_is_reported_at_the_alias_key_when_the_canonical_key_comes_first(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "s.yaml").write_text(
        "evalcases:\n  - id: a\n    expected_outcome: g\n    input_messages:\n      - role: user\n"
        "        content: hi\n    input: other\n    outcome: x\n")
    code, out, _ = run_concise(tmp_path, "--no-cache", "-j1", "evals/s.yaml")
    assert code == 1
    assert out.splitlines() == [
        "evals/s.yaml:7:5: EV108 [error] 'input' is ignored because 'input_messages' is also present; remove one of them",
        "evals/s.yaml:8:5: EV108 [error] 'outcome' is ignored because 'expected_outcome' is also present; "
        "remove one of them",
    ]


def test_an_unknown_key_of_an_expected_tool_call_is_reported_at_that_key(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "s.yaml").write_text(
        "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
        "      - name: calls\n        type: tool_trajectory\n        mode: in_order\n        expected:\n"
        "          - tool: search\n            tool_name: search\n")
    code, out, _ = run_concise(tmp_path, "--no-cache", "-j1", "evals/s.yaml")
    assert (code, out) == (0, "evals/s.yaml:11:13: EV109 [warning] unknown key 'tool_name' in expected tool "
                              "(did you mean 'tool'?)\n")


def test_mistakes_that_change_the_run_fail_the_commit(tmp_path):
    """pre-commit shows a hook's output only when it fails: a misspelt prompt path and 'evaluator' for
    'evaluators' change what the runner does, so they are errors and the hook exits 1."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals" / "prompts").mkdir(parents=True)
    (tmp_path / "evals" / "prompts" / "refund-judge.md").write_text("Grade {{ candidate_answer }}.\n")
    (tmp_path / "evals" / "refund.yaml").write_text(
        "execution:\n  evaluator:\n    - name: judge\n      type: llm_judge\n      prompt: prompts/refund-judge.md\n"
        "evalcases:\n  - id: refund\n    expected_outcome: Explains the refund policy.\n    input: How do refunds work?\n"
        "    execution:\n      evaluators:\n        - name: judge\n          type: llm_judge\n"
        "          prompt: prompts/refund-judg.md\n")
    code, out, _ = run_concise(tmp_path, "--no-cache", "-j1", "evals/refund.yaml")
    assert code == 1
    assert out.splitlines() == [
        "evals/refund.yaml:2:3: EV115 [error] unknown key 'evaluator' in execution (did you mean 'evaluators'?); the "
        "runner does not read it, so what it holds is dropped",
        "evals/refund.yaml:14:19: EV404 [error] prompt 'prompts/refund-judg.md' looks like a path but names no file "
        "(looked in: evals/, ./; did you mean 'prompts/refund-judge.md'?); it will be sent as inline prompt text",
    ]


def test_agentv_version_decides_which_format_an_eval_file_is_read_as(tmp_path):
    """A file with 'tests' is AgentV 4.42.4's by its keys, whose parser merges '<<' (no EV010); named 2.2 by the
    configuration or the command line, it is read as AgentV 2.2 reads it."""
    (tmp_path / "a.eval.yaml").write_text("base: &b {x: 1}\ntests:\n  - id: a\n    <<: *b\n")
    by_keys = run_concise(tmp_path, "--no-cache", "a.eval.yaml")
    assert "EV010" not in by_keys[1]
    as_2_2 = ("a.eval.yaml:1:1: EV101 [error] no 'evalcases' list; the runner finds no cases in this file\n"
              "a.eval.yaml:4:5: EV010 [error] merge key '<<' is not merged by the runner's YAML 1.2 parser: it is "
              "kept as a literal key and the keys it would supply ('x') are missing; write them out\n")
    assert run_concise(tmp_path, "--no-cache", "--select", "EV0,EV101", "--agentv-version", "2.2", "a.eval.yaml") == (
        1, as_2_2, "")
    (tmp_path / ".evallint.toml").write_text('agentv-version = "2.2"\nselect = ["EV0", "EV101"]\n')
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, as_2_2, "")
