"""Bad arguments: exit code 2 and one clear line (after the usage line when the arguments were wrong)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from clirun import run
from conftest import FIXTURES

from evallint.cli import lint_parser

CLI = FIXTURES / "cli"


@pytest.fixture(autouse=True)
def in_cli_fixtures(monkeypatch):
    monkeypatch.chdir(CLI)


def test_root_that_does_not_exist_is_refused(tmp_path):
    missing = tmp_path / "nonexistent"
    assert run("--root", str(missing), "small.yaml") == (2, "", f"evallint: error: --root: no such folder: '{missing}'\n")
    assert not missing.exists()


def test_root_that_is_a_file_is_refused():
    assert run("--root", "small.yaml", "small.yaml") == (2, "", "evallint: error: --root: no such folder: 'small.yaml'\n")


@pytest.mark.parametrize("argv,message", [
    (["--select="], "argument --select: unknown rule selector '' (empty: name codes or prefixes, or ALL)"),
    (["--select", "EV3,"], "argument --select: unknown rule selector '' (empty: name codes or prefixes, or ALL)"),
    (["--ignore="], "argument --ignore: unknown rule selector '' (empty: name codes or prefixes, or ALL)"),
    (["--select", "EV999"], "argument --select: unknown rule selector 'EV999'"),
    (["--select", "E"], "argument --select: unknown rule selector 'E'"),  # as in a configuration file
    (["--ignore", "EV1x"], "argument --ignore: unknown rule selector 'EV1X'"),
])
def test_empty_or_unknown_selector_is_refused(argv, message):
    code, out, err = run(*argv, "small.yaml")
    assert (code, out) == (2, "")
    assert err == lint_parser().format_usage() + f"evallint: error: {message}\n"


def test_rule_without_a_code_prints_usage():
    assert run("rule") == (2, "", "usage: evallint rule [-h] code\n"
                                  "evallint: error: the following arguments are required: code\n")


def test_unknown_option_prints_usage():
    code, out, err = run("--bogus")
    assert (code, out) == (2, "")
    assert err.startswith("usage: evallint [-h]")
    assert err == lint_parser().format_usage() + "evallint: error: unrecognized arguments: --bogus\n"


def test_normalize_a_folder_says_it_takes_a_file():
    assert run("normalize", ".") == (2, "", "evallint: error: '.' is a folder; normalize takes one eval file\n")


def test_schema_output_creates_its_folders(tmp_path):
    target = tmp_path / ".vscode" / "deeper" / "eval.schema.json"
    assert run("schema", "eval", "--output", str(target)) == (0, "", "")
    assert json.loads(target.read_text())["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_schema_output_that_cannot_be_written_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    target = tmp_path / "file" / "eval.schema.json"
    code, out, err = run("schema", "eval", "--output", str(target))
    assert (code, out) == (2, "")
    assert err == f"evallint: error: cannot write '{target}': File exists\n"


def test_statistics_as_json():
    code, out, err = run("--statistics", "--format", "json", "small.yaml")
    assert (code, err) == (1, "")
    assert json.loads(out) == [
        {"code": "EV109", "name": "unknown-key", "count": 1, "fixable": False, "fixable_count": 0},
        {"code": "EV310", "name": "invalid-trajectory-mode", "count": 1, "fixable": False, "fixable_count": 0}]


def test_statistics_of_a_partly_fixable_code():
    """``fixable`` is a boolean, as in ``rules --format json`` and ruff's statistics: whether every finding of
    the code is fixed by --fix; ``fixable_count`` says how many are; the table marks some with [-]."""
    code, out, err = run("--statistics", "--format", "json", "partly_fixable.yaml", "small.yaml")
    assert (code, err) == (1, "")
    assert json.loads(out) == [
        {"code": "EV205", "name": "tool-call-args-key", "count": 2, "fixable": False, "fixable_count": 1},
        {"code": "EV109", "name": "unknown-key", "count": 1, "fixable": False, "fixable_count": 0},
        {"code": "EV310", "name": "invalid-trajectory-mode", "count": 1, "fixable": False, "fixable_count": 0}]
    assert run("--statistics", "partly_fixable.yaml") == (
        1, "     2  EV205  [-] tool-call-args-key\n"
           "Found 2 errors in 1 file (1 file checked). 1 fixable with --fix.\n", "")


def test_statistics_of_a_wholly_fixable_code(tmp_path):
    (tmp_path / "a.eval.yaml").write_text(
        "evalcases:\n  - id: a\n    expected_outcome: x\n    input: y\n    expected_messages:\n"
        "      - role: assistant\n        tool_calls:\n          - tool: t\n            args: {q: 1}\n",
        encoding="utf-8")
    code, out, _ = run("--statistics", "--format", "json", str(tmp_path / "a.eval.yaml"))
    assert json.loads(out) == [
        {"code": "EV205", "name": "tool-call-args-key", "count": 1, "fixable": True, "fixable_count": 1}]
    assert run("--statistics", "--quiet", str(tmp_path / "a.eval.yaml"))[1] == "     1  EV205  [*] tool-call-args-key\n"


def test_statistics_as_json_when_clean():
    assert run("--statistics", "--format", "json", "clean.yaml") == (0, "[]\n", "")


@pytest.mark.parametrize("fmt", ["concise", "github", "sarif"])
def test_statistics_refuses_other_formats(fmt):
    assert run("--statistics", "--format", fmt, "small.yaml") == (
        2, "", f"evallint: error: --statistics prints text or JSON; it cannot be combined with --format {fmt}\n")


def test_statistics_under_github_actions_is_the_text_table(monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert run("--statistics", "small.yaml") == (
        1, "     1  EV109  [ ] unknown-key\n     1  EV310  [ ] invalid-trajectory-mode\n"
           "Found 1 error, 1 warning in 1 file (1 file checked).\n", "")


def test_a_reader_that_stops_early_ends_evallint_silently_with_the_shells_code():
    """``evallint . | head -1``: once the reader has closed the pipe evallint stops, writes nothing to stderr and
    exits 141, as a command that SIGPIPE ends (not 2, which is a usage error)."""
    done = subprocess.Popen([sys.executable, "-m", "evallint", "--no-cache", "-j1", "fixtures/bad"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=FIXTURES.parent)
    assert done.stdout.readline().startswith(b"fixtures/bad/")
    done.stdout.close()  # the whole text report is some 117,000 bytes, beyond what a pipe holds
    assert (done.wait(timeout=300), done.stderr.read()) == (141, b"")
