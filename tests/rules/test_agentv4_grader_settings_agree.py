"""A 4.42 grader's own settings that AgentV's examples do not use, checked against what AgentV 4.42.4's loader makes
of the same file: a preprocessor's command file, a test's own (deprecated) rubrics."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import write_suite
from clirun import run_concise


PREPROCESSORS = ("preprocessors:\n"
                 "  - {type: xlsx, command: [python, scripts/gone.py]}\n"
                 "tests:\n"
                 "  - id: a\n"
                 "    input: q\n"
                 "    criteria: c\n"
                 "    assertions:\n"
                 "      - type: llm-grader\n"
                 "        preprocessors: [{type: pdf, command: [python, scripts/missing.py]}]\n")


def test_a_preprocessor_whose_command_file_is_missing_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, PREPROCESSORS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:36: EV408 [error] preprocessor command file 'scripts/gone.py' not found (looked in: ./); the "
        "runner rejects the file\n"
        "a.eval.yaml:9:55: EV408 [error] preprocessor command file 'scripts/missing.py' not found (looked in: ./); "
        "the runner skips the test\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_the_file_or_skips_the_test_without_a_preprocessor_file(tmp_path):
    write_suite(tmp_path, PREPROCESSORS)
    assert load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["error"] == (
        "Grader '<suite>' in 'a.eval.yaml': preprocessor command file not found: scripts/gone.py")
    (tmp_path / "a.eval.yaml").write_text("tests:\n" + PREPROCESSORS.split("tests:\n")[1])
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["tests"], loaded["logs"]) == ([], [
        "Error: Skipping test 'a': Grader 'llm-grader' in 'a': preprocessor command file not found: "
        "scripts/missing.py"])


INLINE_RUBRICS = ("tests:\n"
                  "  - id: t\n"
                  "    input: q\n"
                  "    criteria: c\n"
                  "    rubrics:\n"
                  "      - {id: a, criteria: via criteria}\n"
                  "      - {id: b, outcome: o, score_ranges: [{score_range: [0, 3], outcome: low}]}\n"
                  "      - {id: c, outcome: o2, min_score: 5}\n")


def test_a_tests_own_rubrics_are_read_as_the_runner_reads_them(tmp_path):
    """A test's own 'rubrics' read 'outcome' only (an item with 'criteria' instead is dropped), and their score
    bands and scores unchecked (the runner keeps the test)."""
    assert run_concise(write_suite(tmp_path, INLINE_RUBRICS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:10: EV361 [error] rubric item has no 'outcome' (or 'score_ranges') (a test's own 'rubrics' read "
        "'outcome', not 'criteria'); the runner drops it\n"
        "a.eval.yaml:6:17: EV109 [warning] unknown key 'criteria' in rubric item (known keys: id, min_score, operator, "
        "outcome, required, required_min_score, score_ranges, weight)\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_a_tests_own_rubrics_unchecked_but_drops_one_without_outcome(tmp_path):
    loaded = load_tests(write_suite(tmp_path, INLINE_RUBRICS), ["a.eval.yaml"])["a.eval.yaml"]
    assert [[item["id"] for item in grader["rubrics"]] for test in loaded["tests"]
            for grader in test["assertions"]] == [["b", "c"]]
