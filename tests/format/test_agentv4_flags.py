"""AgentV 4.42 settings the runner reads as booleans, given a value that is no boolean but says one: a YAML 1.1
word, the text 'true' or 'false', a number 0 or 1. Where the runner uses in its place what the value says (its
default), the file runs as written: EV120, a warning; where it uses the opposite, or what another level says (a
test's hooks 'enabled' gives way to the suite's), the setting's own error.
Checked with the runner's loadTests."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import write_suite
from clirun import run_concise

SAID = ("workspace:\n  hooks:\n    enabled: yes\n    before_all: {command: [echo, hi]}\n"
        "execution:\n  fail_on_error: 0\n"
        "tests:\n"
        "  - id: a\n    criteria: ok\n    input: hi\n    execution: {skip_defaults: 'false'}\n"
        "  - id: b\n    criteria: ok\n    input: hi\n    workspace: {hooks: {enabled: 'true'}}\n"
        "  - id: c\n    criteria: ok\n    input: hi\n    workspace: {hooks: {enabled: no}}\n")


def test_a_value_that_says_the_default_is_a_warning_and_one_that_says_the_opposite_an_error(tmp_path):
    write_suite(tmp_path, SAID)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:14: EV120 [warning] 'enabled' is 'yes', which the runner reads as text, not as a boolean (YAML "
        "1.2 reads only true and false), so it uses its default, true, which is what 'yes' says; write true\n"
        "a.eval.yaml:6:18: EV120 [warning] 'fail_on_error' is the number 0, not a boolean, so the runner uses its "
        "default, false, which is what it says; write false\n"
        "a.eval.yaml:11:32: EV120 [warning] 'skip_defaults' is the text 'false', not a boolean, so the runner uses its "
        "default, false, which is what it says; write false\n"
        "a.eval.yaml:15:34: EV110 [error] hooks 'enabled' must be true or false, found 'true'; the runner reads it as "
        "absent, so the suite's 'enabled' applies\n"
        "a.eval.yaml:19:34: EV110 [error] hooks 'enabled' must be true or false, found 'no'; the runner reads it as "
        "absent, so the suite's 'enabled' applies (the runner reads YAML 1.2, where 'no' is text, not a boolean; write "
        "true or false)\n"), "")


@pytest.mark.runner
def test_the_loader_reads_such_values_as_absent(tmp_path):
    """A hook runs unless 'enabled' is false (workspace/setup.ts), and the run fails on an error only when
    'fail_on_error' is true: absent, each is what the value says, but for test c's 'no'; the tests' own 'enabled'
    is absent, whatever the suite's."""
    loaded = load_tests(write_suite(tmp_path, SAID), ["a.eval.yaml"], suite=True)["a.eval.yaml"]
    assert (loaded["error"], loaded["suite"], loaded["logs"]) == (
        None, {}, ["Warning: Invalid execution.fail_on_error: 0. Must be true or false. Ignoring."])
    assert [test["workspace"] for test in loaded["tests"]] == [{"hooks": {"before_all": {"command": ["echo", "hi"]}}}] * 3
