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
        "a.eval.yaml:15:34: EV120 [warning] 'enabled' is the text 'true', not a boolean, so the runner uses its "
        "default, true, which is what it says; write true\n"
        "a.eval.yaml:19:34: EV110 [error] hooks 'enabled' must be true or false, found 'no'; the runner reads it as "
        "absent, so the suite's 'enabled' applies (a string in YAML 1.2, which the runner reads as text: it uses its "
        "default, true, not the false that 'no' says; write false)\n"), "")


# the suite's hooks are off: a test's 'yes' gives way to that, and so it does to a workspace file's
SUITE_OFF = ("workspace:\n  hooks:\n    enabled: false\n    before_all: {command: [echo, hi]}\n"
             "tests:\n"
             "  - id: a\n    criteria: ok\n    input: hi\n    workspace: {hooks: {enabled: yes}}\n"
             "  - id: b\n    criteria: ok\n    input: hi\n    workspace: {hooks: {enabled: off}}\n")


def _with_workspace_files(tmp_path):
    """a.eval.yaml (SUITE_OFF), b.eval.yaml with its workspace in ws.yaml (hooks off), c.eval.yaml in ws-on.yaml (no
    'enabled': the hooks run)."""
    write_suite(tmp_path, SUITE_OFF)
    for name, file in (("b", "ws.yaml"), ("c", "ws-on.yaml")):
        (tmp_path / f"{name}.eval.yaml").write_text(SUITE_OFF.replace(
            "workspace:\n  hooks:\n    enabled: false\n    before_all: {command: [echo, hi]}\n", f"workspace: ./{file}\n"))
    (tmp_path / "ws.yaml").write_text("hooks:\n  enabled: false\n")
    (tmp_path / "ws-on.yaml").write_text("hooks:\n  before_all: {command: [echo, hi]}\n")
    return tmp_path


def test_a_tests_hooks_enabled_is_judged_by_the_suites(tmp_path):
    assert run_concise(_with_workspace_files(tmp_path), "--no-cache", "a.eval.yaml", "b.eval.yaml",
                       "c.eval.yaml") == (1, (
        "a.eval.yaml:9:34: EV110 [error] hooks 'enabled' must be true or false, found 'yes'; the runner reads it as "
        "absent, so the suite's 'enabled' applies (a string in YAML 1.2, which the runner reads as text: it uses the "
        "suite's 'enabled', false, not the true that 'yes' says; write true)\n"
        "a.eval.yaml:13:34: EV120 [warning] 'enabled' is 'off', which the runner reads as text, not as a boolean (YAML "
        "1.2 reads only true and false), so it uses the suite's 'enabled', false, which is what 'off' says; write "
        "false\n"
        "b.eval.yaml:6:34: EV110 [error] hooks 'enabled' must be true or false, found 'yes'; the runner reads it as "
        "absent, so the suite's 'enabled' applies (a string in YAML 1.2, which the runner reads as text: it uses the "
        "'enabled' of the workspace file './ws.yaml', false, not the true that 'yes' says; write true)\n"
        "b.eval.yaml:10:34: EV120 [warning] 'enabled' is 'off', which the runner reads as text, not as a boolean (YAML "
        "1.2 reads only true and false), so it uses the 'enabled' of the workspace file './ws.yaml', false, which is "
        "what 'off' says; write false\n"
        "c.eval.yaml:6:34: EV120 [warning] 'enabled' is 'yes', which the runner reads as text, not as a boolean (YAML "
        "1.2 reads only true and false), so it uses its default, true, which is what 'yes' says; write true\n"
        "c.eval.yaml:10:34: EV110 [error] hooks 'enabled' must be true or false, found 'off'; the runner reads it as "
        "absent, so the suite's 'enabled' applies (a string in YAML 1.2, which the runner reads as text: it uses its "
        "default, true, not the false that 'off' says; write false)\n"), "")


def _with_a_file_of_tests(tmp_path):
    """``_with_workspace_files`` and d.eval.yaml, its workspace in ws.yaml (hooks off), which names the file of tests
    sub/more.yaml, whose test says 'enabled: yes'."""
    repo = _with_workspace_files(tmp_path)
    (repo / "d.eval.yaml").write_text("workspace: ./ws.yaml\ntests:\n  - {id: d, input: hi, criteria: ok}\n"
                                      "  - file://sub/more.yaml\n")
    (repo / "sub").mkdir()
    (repo / "sub" / "more.yaml").write_text("- id: e\n  input: hi\n  criteria: ok\n  workspace:\n    hooks:\n"
                                            "      enabled: yes\n")
    return repo


def test_a_file_of_tests_hooks_enabled_is_judged_by_its_suites_workspace_file(tmp_path):
    """Reported where the file of tests holds it; the workspace file is looked up from the suite's folder."""
    assert run_concise(_with_a_file_of_tests(tmp_path), "--no-cache", "sub/more.yaml") == (1, (
        "sub/more.yaml:6:16: EV110 [error] hooks 'enabled' must be true or false, found 'yes'; the runner reads it as "
        "absent, so the suite's 'enabled' applies (a string in YAML 1.2, which the runner reads as text: it uses the "
        "'enabled' of the workspace file './ws.yaml', false, not the true that 'yes' says; write true)\n"), "")


def test_a_workspace_files_enabled_is_not_read_without_references(tmp_path):
    """The workspace file is one the suite points at, which '--no-references' leaves unread."""
    assert run_concise(_with_workspace_files(tmp_path), "--no-cache", "--no-references", "b.eval.yaml",
                       "c.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_loader_gives_a_test_the_suites_enabled_in_place_of_a_word(tmp_path):
    """The workspace file's 'enabled' too; without one, the merged hooks have none, and so they run."""
    loaded = load_tests(_with_workspace_files(tmp_path), ["a.eval.yaml", "b.eval.yaml", "c.eval.yaml"], suite=True)
    assert [[test["workspace"]["hooks"].get("enabled") for test in loaded[name]["tests"]]
            for name in ("a.eval.yaml", "b.eval.yaml", "c.eval.yaml")] == [[False, False], [False, False], [None, None]]


@pytest.mark.runner
def test_the_loader_gives_a_file_of_tests_test_the_suites_workspace_files_enabled(tmp_path):
    loaded = load_tests(_with_a_file_of_tests(tmp_path), ["d.eval.yaml"])["d.eval.yaml"]
    assert [(test["id"], test["workspace"]["hooks"].get("enabled")) for test in loaded["tests"]] == [("d", False),
                                                                                                     ("e", False)]


@pytest.mark.runner
def test_the_loader_reads_such_values_as_absent(tmp_path):
    """A hook runs unless 'enabled' is false (workspace/setup.ts), and the run fails on an error only when
    'fail_on_error' is true: absent, each is what the value says, but for test c's 'no'; the tests' own 'enabled'
    is absent, whatever the suite's."""
    loaded = load_tests(write_suite(tmp_path, SAID), ["a.eval.yaml"], suite=True)["a.eval.yaml"]
    assert (loaded["error"], loaded["suite"], loaded["logs"]) == (
        None, {}, ["Warning: Invalid execution.fail_on_error: 0. Must be true or false. Ignoring."])
    assert [test["workspace"] for test in loaded["tests"]] == [{"hooks": {"before_all": {"command": ["echo", "hi"]}}}] * 3
