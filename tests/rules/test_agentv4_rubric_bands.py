"""EV363: in a rubric list where some item has score bands, the grader scores every item from 0 to 10, and an item
without bands that is required (as it is by default) fails the grader's verdict below 10/10."""
from __future__ import annotations

import json

import pytest

from agreement import run_written, write_suite
from clirun import run_concise

ESSAY = ("tests:\n"
         "  - id: essay\n"
         "    criteria: c\n"
         "    input: Write an essay.\n"
         "    assertions:\n"
         "      - type: rubrics\n"
         "        criteria:\n"
         "          - {id: depth, outcome: Depth, score_ranges: {0: Shallow, 5: Adequate, 9: Deep}}\n"
         "          - {id: thesis, outcome: States a thesis%s}\n")
FULL_MARKS = ("the grader then scores every item from 0 to 10, and a required item (as this one is{how}) fails the "
              "grader's verdict below 10/10; give it a 'min_score' (0 to 1), 'required: false' or score bands of its own")


@pytest.mark.parametrize("extra,expected", [
    ("", "by default"), (", required: true", ""), (", min_score: 0.8", None), (", required: false", None),
    (", required_min_score: 7", None), (", score_ranges: {0: No, 7: Yes}", None),
])
def test_an_item_without_bands_beside_banded_ones_needs_full_marks_unless_it_says_otherwise(tmp_path, extra, expected):
    out = run_concise(write_suite(tmp_path, ESSAY % extra), "--no-cache", "--select", "EV363", "a.eval.yaml")[1]
    assert out == ("" if expected is None else (
        "a.eval.yaml:9:14: EV363 [warning] this rubric item has no 'score_ranges', but 'depth' gives the list score "
        f"bands: {FULL_MARKS.format(how=' ' + expected if expected else '')}\n"))


def test_strings_of_a_list_with_bands_and_a_checklist_alone(tmp_path):
    write_suite(tmp_path, "tests:\n  - id: t\n    input: hi\n    criteria: c\n    rubrics:\n"
                          "      - Is short\n      - {id: tone, outcome: Polite, score_ranges: [{score_range: [0, 10], "
                          "outcome: Any}]}\n  - id: u\n    input: hi\n    criteria: c\n    rubrics: [Is short, Is kind]\n")
    assert run_concise(tmp_path, "--no-cache", "--select", "EV363", "a.eval.yaml")[1] == (
        "a.eval.yaml:6:9: EV363 [warning] this rubric item has no 'score_ranges', but 'tone' gives the list score "
        f"bands: {FULL_MARKS.format(how=' by default')}\n")


@pytest.mark.runner
def test_the_grader_fails_a_nine_out_of_ten_on_an_item_without_bands(tmp_path):
    grade = json.dumps({"checks": [{"id": "depth", "score": 9, "reasoning": "r"},
                                   {"id": "thesis", "score": 9, "reasoning": "r"}], "overall_reasoning": "r"})
    verdicts = {extra: run_written(tmp_path / str(n), ESSAY % extra, grade=grade)["verdicts"]
                for n, extra in enumerate(("", ", min_score: 0.8"))}
    assert verdicts == {"": {"essay": {"rubrics": "fail"}}, ", min_score: 0.8": {"essay": {"rubrics": "pass"}}}
