"""The workspace the run's setup reads: the first test's own merged with the suite's, each setting the test's own
when it has one (EV110 where a contradicting setting is written)."""
from __future__ import annotations

import pytest

from agreement import run_written, write_suite
from clirun import run_concise


FIRST_OWN = ("workspace: {path: /srv/ws}\n"
             "tests:\n"
             "  - {id: a, input: hi, criteria: c, workspace: {%s}}\n"
             "  - {id: b, input: hi, criteria: c}\n")


@pytest.mark.parametrize("own,expected", [
    ("mode: temp", "a.eval.yaml:3:55: EV110 [error] workspace 'path' needs mode static, not 'temp'; the run fails "
                   "before any test\n"),
    ("isolation: per_test", "a.eval.yaml:3:60: EV110 [error] a static workspace cannot have isolation 'per_test'; the "
                            "run fails before any test (write isolation: shared)\n"),
    ("isolation: shared", ""),
])
def test_the_first_tests_own_workspace_merged_with_the_suites_is_checked_where_each_setting_is_written(
        tmp_path, own, expected):
    assert run_concise(write_suite(tmp_path, FIRST_OWN % own), "--no-cache", "--select", "EV110",
                       "a.eval.yaml")[1] == expected


@pytest.mark.runner
def test_the_setup_fails_on_the_first_tests_own_mode_beside_the_suites_path(tmp_path):
    text = (FIRST_OWN % "mode: temp").replace("/srv/ws", str(tmp_path / "static"))
    assert run_written(tmp_path, text)["error"] == "workspace.path requires workspace.mode=static"
