"""The directives before a document, read as the runner's YAML parser reads them: an unsupported '%YAML'
version and an unknown directive are passed over with a warning (EV015), the rest of the file read as YAML 1.2."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import model_tests, runner_tests, write_suite
from clirun import run_concise
from evallint.load.yaml_directives import as_runner_reads
from evallint.load.yaml_skim import skim

TESTS = ("tests:\n"
         "  - id: a\n"
         "    criteria: c\n"
         "    input: hi\n"
         "    assertions: [{type: contains, value: on}]\n")
UNSUPPORTED = "(supported: 1.1, 1.2)\n"


@pytest.mark.parametrize("prologue,expected", [
    ("%YAML 1.3\n---\n", f"a.eval.yaml:1:7: EV015 [warning] '%YAML 1.3' names a version the runner's YAML parser does "
                         f"not support: it warns and reads the file as YAML 1.2 {UNSUPPORTED}"),
    ("%YAML  10.20  # old\n--- \n", f"a.eval.yaml:1:8: EV015 [warning] '%YAML 10.20' names a version the runner's YAML "
                                    f"parser does not support: it warns and reads the file as YAML 1.2 {UNSUPPORTED}"),
    ("# made by hand\n\n%FOO bar\n---\n", "a.eval.yaml:3:1: EV015 [warning] '%FOO' is not a directive the runner's "
                                          "YAML parser knows: it warns and passes over the line (known: %YAML, %TAG)\n"),
    # not YAML 1.1 for the runner, which compares the text: 'on' stays a string
    ("%YAML 01.1\n---\n", f"a.eval.yaml:1:7: EV015 [warning] '%YAML 01.1' names a version the runner's YAML parser does "
                          f"not support: it warns and reads the file as YAML 1.2 {UNSUPPORTED}"),
    ("%YAML 1.2 # a comment\n%TAG !e! tag:example.com,2026:\n---\n", ""),
])
def test_a_directive_the_runner_passes_over_is_a_warning_and_the_file_is_read_as_yaml_1_2(tmp_path, prologue, expected):
    write_suite(tmp_path, prologue + TESTS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, expected, "")
    assert model_tests(tmp_path, "a.eval.yaml") == [("a", "c", [("user", "hi")], [], [("contains-on", "contains")])]


@pytest.mark.parametrize("prologue,expected", [
    # directives with no '---' after them, and a version that is no number pair: both parsers refuse the file
    ("%YAML 1.3\n", "a.eval.yaml:1:1: EV001 [error] found incompatible YAML document\n"),
    ("%FOO bar\n", "a.eval.yaml:1:5: EV001 [error] found unknown directive name (while scanning a directive)\n"),
    ("%YAML 1.2.1\n---\n", "a.eval.yaml:1:10: EV001 [error] did not find expected comment or line break (while "
                           "scanning a directive)\n"),
])
def test_a_directive_both_parsers_refuse_stays_a_syntax_error(tmp_path, prologue, expected):
    write_suite(tmp_path, prologue + TESTS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, expected, "")


def test_the_text_keeps_its_length_and_a_directive_after_content_is_left_alone():
    text = "\ufeff%YAML 2.0\n%X\n---\na: 1\n"
    readable, findings = as_runner_reads(text)
    assert readable == "\ufeff%YAML 1.2\n#X\n---\na: 1\n"
    assert [(f.code, f.span.line, f.span.column, f.span.start, f.span.end) for f in findings] == [
        ("EV015", 0, 6, 6, 9), ("EV015", 1, 0, 10, 12)]  # the parser's marks leave out the byte order mark
    assert as_runner_reads("a: 1\n%YAML 2.0\n---\n") == ("a: 1\n%YAML 2.0\n---\n", [])
    assert skim("%YAML 1.3\n---\ntests: [a]\n") == {"tests": ["a"]}


@pytest.mark.runner
def test_the_runner_warns_of_an_unsupported_version_or_unknown_directive_and_reads_yaml_1_2(tmp_path):
    write_suite(tmp_path, "%YAML 1.3\n%FOO bar\n---\n" + TESTS)
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert [log.split(" at line")[0].split("YAMLWarning: ")[1] for log in loaded["logs"]] == [
        "Unsupported YAML version 1.3", "Unknown directive %FOO"]
    assert runner_tests(tmp_path, "a.eval.yaml") == model_tests(tmp_path, "a.eval.yaml")
    assert loaded["tests"][0]["assertions"][0]["value"] == "on"
    for refused in ("%YAML 1.3\n", "%FOO bar\n", "%YAML 1.2.1\n---\n"):
        write_suite(tmp_path, refused + TESTS)
        assert load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"] == []
