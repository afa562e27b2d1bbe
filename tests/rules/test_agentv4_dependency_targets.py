"""EV122 in a run of a target matrix: the command line gives each target the tests whose 'execution.targets' name
it, so a test that depends on one that does not run on its target makes the run on that target fail."""
from __future__ import annotations

import pytest

from agreement import write_suite
from clirun import run_concise

MATRIX = ("execution:\n  targets: [gpt, claude]\n"
          "tests:\n"
          "  - {id: setup, input: hi, criteria: c, execution: {targets: [gpt]}}\n"
          "  - {id: query, input: hi, criteria: c, depends_on: [setup]}\n")


def test_a_dependency_that_does_not_run_on_a_target_of_its_dependent_fails_that_run(tmp_path):
    assert run_concise(write_suite(tmp_path, MATRIX), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:5:54: EV122 [error] 'depends_on' names 'setup', which does not run on target 'claude': the run on "
        "that target has no test of that id and fails before any test; run 'setup' on every target of this test\n"), "")


@pytest.mark.parametrize("text", [
    MATRIX.replace("depends_on: [setup]", "depends_on: [setup], execution: {targets: [gpt]}"),
    MATRIX.replace("execution: {targets: [gpt]}", "execution: {targets: [gpt, claude]}"),
    MATRIX.replace("execution:\n  targets: [gpt, claude]\n", ""),  # no matrix: the run's one target
    MATRIX.replace("targets: [gpt, claude]", "targets: [claude]"),  # one target: it runs every test
])
def test_a_dependency_on_every_target_of_its_dependent_is_no_finding(tmp_path, text):
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "--select", "EV122", "a.eval.yaml")[1] == ""

