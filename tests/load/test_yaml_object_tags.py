"""'!!timestamp' and '!!binary' on a scalar: the runner's YAML parser builds a date or a byte array of it, where
every key of an eval file reads text, so they are EV004 errors at the tag."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import write_suite
from clirun import run_concise

SUITE = ("tests:\n"
         "  - id: !!timestamp 2026-01-01\n"
         "    criteria: c\n"
         "    input: hi\n"
         "  - id: decode\n"
         "    criteria: c\n"
         "    input: !!binary aGk=\n"
         "    assertions: [{type: contains, value: !!timestamp 2026-01-01}]\n")
ACCEPTED = "(accepted: !!str, !!int, !!float, !!bool, !!null, !!map, !!seq, !!omap, !!set, !!pairs)\n"


def built(kind: str) -> str:
    return (f"makes the runner's YAML parser build {kind} of the value, not text: where a key reads text, the value is "
            f"taken as missing (a test or a grader is skipped) or sent as an object; remove the tag {ACCEPTED}")


def test_a_date_or_bytes_tag_is_an_error_at_the_tag(tmp_path):
    assert run_concise(write_suite(tmp_path, SUITE), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:9: EV004 [error] tag '!!timestamp' {built('a date')}"
        f"a.eval.yaml:7:12: EV004 [error] tag '!!binary' {built('a byte array')}"
        f"a.eval.yaml:8:42: EV004 [error] tag '!!timestamp' {built('a date')}"), "")
    write_suite(tmp_path, SUITE.replace("!!timestamp", "!!str").replace("!!binary", "!!str"))
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_skips_a_test_of_a_date_id_sends_bytes_as_an_object_and_drops_a_date_value(tmp_path):
    loaded = load_tests(write_suite(tmp_path, SUITE), ["a.eval.yaml"])["a.eval.yaml"]
    assert [(test["id"], test["question"], test.get("assertions")) for test in loaded["tests"]] == [
        ("decode", '{\n  "0": 104,\n  "1": 105\n}', None)]
    assert loaded["logs"] == [
        "Error: Skipping incomplete test: unknown. Missing required fields: id, input, and at least one of "
        "criteria/expected_output/assertions/turns",
        "Warning: Skipping contains evaluator 'contains' in 'decode': missing value"]
