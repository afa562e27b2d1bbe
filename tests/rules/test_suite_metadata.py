"""An AgentV 4.42 suite's governance, which the loader gives every test's metadata: a top-level 'governance' replaces
'metadata.governance' whole (EV108), checked against AgentV 4.42.4's loadTests."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import write_suite
from clirun import run_concise

BOTH = ("governance: {owner: geo-team}\nmetadata:\n  governance: {owner: platform-team, risk: low}\n"
        "tests:\n  - {id: a, input: hi, criteria: c}\n")


def test_a_nested_governance_beside_a_top_level_one_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, BOTH), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:3: EV108 [error] 'metadata.governance' is not read beside the top-level 'governance', which "
        "replaces it whole: 'owner' and 'risk' of it never reach the tests' metadata; merge them into one\n"), "")
    same = BOTH.replace("{owner: platform-team, risk: low}", "{owner: geo-team}")
    assert run_concise(write_suite(tmp_path, same), "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_loader_gives_the_tests_the_top_level_governance_alone(tmp_path):
    (test,) = load_tests(write_suite(tmp_path, BOTH), ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert test["metadata"]["governance"] == {"owner": "geo-team"}
