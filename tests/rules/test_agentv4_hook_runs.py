"""The 'before_all' and 'after_all' hooks of an AgentV 4.42 workspace that the run never runs (EV124), checked
against the runner's runEvaluation: each hook of these suites writes its name to a log when it runs."""
from __future__ import annotations

import json
import shutil

import pytest

from agentv_runner import run_suite
from agreement import run_written, write_suite
from clirun import git, run, run_concise


def _suites(log) -> dict:
    """name -> a suite whose hooks each append their name to ``log``."""
    def hook(name: str) -> str:
        return f"{{command: [sh, -c, 'cat >/dev/null; echo {name} >> {log}']}}"

    return {
        # one folder the tests share: the first test's own 'before_all' replaces the suite's; the second's never run
        "shared": ("workspace:\n  hooks:\n"
                   f"    before_all: {hook('suite-before')}\n    after_all: {hook('suite-after')}\n"
                   "tests:\n"
                   f"  - {{id: t1, input: hi, criteria: c, workspace: {{hooks: {{before_all: {hook('t1-before')}}}}}}}\n"
                   f"  - {{id: t2, input: hi, criteria: c, workspace: {{hooks: {{before_all: {hook('t2-before')}, "
                   f"after_all: {hook('t2-after')}}}}}}}\n"),
        # a folder for each test: each runs the suite's 'before_all', and no 'after_all' runs
        "per-test": ("workspace:\n  isolation: per_test\n  hooks:\n"
                     f"    before_all: {hook('suite-before')}\n    after_all: {hook('suite-after')}\n"
                     "tests:\n  - {id: t1, input: hi, criteria: c}\n"
                     f"  - {{id: t2, input: hi, criteria: c, workspace: {{hooks: {{after_all: {hook('t2-after')}}}}}}}\n"),
    }


NOT_SHARED = ("the tests share no workspace folder (the first test's workspace, merged with the suite's, sets "
              "'isolation: per_test' or gives no template, hooks or repos), and the runner runs an 'after_all' only in "
              "a shared one")


def test_a_hook_the_run_never_runs_is_an_error(tmp_path):
    suites = _suites("log")  # not run: the places do not depend on where the log is
    for name, text in suites.items():
        (tmp_path / f"{name}.eval.yaml").write_text(text)
    write_suite(tmp_path, "tests: [{id: t, input: hi, criteria: c}]\n")
    assert run_concise(tmp_path, "--no-cache", "shared.eval.yaml", "per-test.eval.yaml") == (1, (
        "per-test.eval.yaml:5:5: EV124 [error] the suite's 'after_all' never runs: " + NOT_SHARED + "\n"
        "per-test.eval.yaml:8:58: EV124 [error] this test's 'after_all' never runs: " + NOT_SHARED + "\n"
        "shared.eval.yaml:3:5: EV124 [error] the suite's 'before_all' command never runs: the first test's own "
        "'before_all' replaces it (the runner merges a test's hooks over the suite's, key by key) and the run runs only "
        "the first test's; keep one of them\n"
        "shared.eval.yaml:7:58: EV124 [error] this test's 'before_all' never runs: the tests share one workspace folder, "
        "whose setup runs only the first test's 'before_all' (merged with the suite's); set it in the suite's "
        "workspace, or in the first test's\n"
        "shared.eval.yaml:7:132: EV124 [error] this test's 'after_all' never runs: the tests share one workspace folder, "
        "whose setup runs only the first test's 'after_all' (merged with the suite's); set it in the suite's "
        "workspace, or in the first test's\n"), "")


@pytest.mark.runner
@pytest.mark.parametrize(("name", "ran"), (("shared", ["t1-before", "suite-after"]),
                                           ("per-test", ["suite-before", "suite-before"])))
def test_the_runner_runs_only_the_hooks_it_shares_a_folder_for(tmp_path, name, ran):
    log = tmp_path / "log"
    result = run_written(tmp_path, _suites(log)[name])
    assert (result["error"], result["scores"]) == (None, {"t1": 1, "t2": 1})
    assert log.read_text().split() == ran


# a suite's workspace file whose 'before_all' the first test's own replaces
FILE_REPLACED = {
    "a.eval.yaml": "workspace: ./ws.yaml\ntests:\n"
                   "  - {id: t1, input: hi, criteria: c, workspace: {hooks: {before_all: {command: [sh, -c, 'cat']}}}}\n"
                   "  - {id: t2, input: hi, criteria: c}\n",
    "ws.yaml": "hooks:\n  before_all: {command: [./missing.sh]}\n",
}


def test_the_hook_of_a_suites_workspace_file_the_first_tests_own_replaces_never_runs(tmp_path):
    """Its missing script is no EV408: the hook never runs."""
    write_suite(tmp_path, FILE_REPLACED["a.eval.yaml"], (("ws.yaml", FILE_REPLACED["ws.yaml"]),))
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:12: EV124 [error] in workspace file './ws.yaml': 'before_all' command never runs: the first "
        "test's own 'before_all' replaces it (the runner merges a test's hooks over the suite's, key by key) and the run "
        "runs only the first test's; keep one of them\n"), "")


@pytest.mark.runner
def test_the_runner_runs_the_first_tests_before_all_in_place_of_the_workspace_files(tmp_path):
    ran = run_written(tmp_path, FILE_REPLACED["a.eval.yaml"], (("ws.yaml", FILE_REPLACED["ws.yaml"]),))
    assert (ran["error"], ran["scores"]) == (None, {"t1": 1, "t2": 1})


def _more(log) -> dict:
    """Suites whose hooks each append their name to ``log``: hooks the first test turns off, and hooks of the same
    command as the one that runs."""
    def hook(name: str) -> str:
        return f"{{command: [sh, -c, 'cat >/dev/null; echo {name} >> {log}']}}"

    return {
        "turned-off": ("workspace:\n  hooks:\n"
                       f"    before_all: {hook('suite-before')}\n    after_all: {hook('suite-after')}\n"
                       "tests:\n  - {id: t1, input: hi, criteria: c, workspace: {hooks: {enabled: false}}}\n"
                       "  - {id: t2, input: hi, criteria: c}\n"),
        "same": ("workspace:\n  hooks:\n"
                 f"    before_all: {hook('setup')}\n"
                 f"tests:\n  - {{id: t1, input: hi, criteria: c, workspace: {{hooks: {{before_all: {hook('setup')}}}}}}}\n"
                 f"  - {{id: t2, input: hi, criteria: c, workspace: {{hooks: {{before_all: {hook('setup')}}}}}}}\n"
                 f"  - {{id: t3, input: hi, workspace: {{hooks: {{before_all: {hook('skipped')}}}}}}}\n"),
        # the loader skips the first test for a weight in its (deprecated) 'evaluators', so the second is first
        "weighed": ("tests:\n  - {id: t1, input: hi, criteria: c, evaluators: [{type: contains, value: answer, weight: "
                    f"heavy}}], workspace: {{hooks: {{before_all: {hook('t1-before')}}}}}}}\n"
                    f"  - {{id: t2, input: hi, criteria: c, workspace: {{hooks: {{before_all: {hook('t2-before')}}}}}}}\n"
                    f"  - {{id: t3, input: hi, criteria: c, workspace: {{hooks: {{before_all: {hook('t3-before')}}}}}}}\n"),
    }


def test_hooks_the_first_test_turns_off_never_run_and_the_same_command_runs_anyway(tmp_path):
    """A test the loader skips (EV106, EV304) and a hook of the command that runs anyway are not reported."""
    for name, text in _more("log").items():
        (tmp_path / f"{name}.eval.yaml").write_text(text)
    write_suite(tmp_path, "tests: [{id: t, input: hi, criteria: c}]\n")
    off = ("never runs: the first test's workspace turns hooks off ('enabled: false'), and the run runs only the first "
           "test's {0!r}, merged with the suite's")
    assert run_concise(tmp_path, "--no-cache", "turned-off.eval.yaml", "same.eval.yaml", "weighed.eval.yaml") == (1, (
        "same.eval.yaml:7:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
        "runner skips it as incomplete\n"
        f"turned-off.eval.yaml:3:5: EV124 [error] the suite's 'before_all' {off.format('before_all')}\n"
        f"turned-off.eval.yaml:4:5: EV124 [error] the suite's 'after_all' {off.format('after_all')}\n"
        "weighed.eval.yaml:2:91: EV304 [error] assertion 'weight' must be a finite number >= 0, found 'heavy'; the "
        "runner skips the test\n"
        "weighed.eval.yaml:4:58: EV124 [error] this test's 'before_all' never runs: the tests share one workspace folder, "
        "whose setup runs only the first test's 'before_all' (merged with the suite's); set it in the suite's "
        "workspace, or in the first test's\n"), "")


@pytest.mark.runner
@pytest.mark.parametrize(("name", "ran"), (("turned-off", []), ("same", ["setup"]), ("weighed", ["t2-before"])))
def test_the_runner_runs_no_hook_the_first_test_turns_off_and_one_command_once(tmp_path, name, ran):
    log = tmp_path / "log"
    log.write_text("")
    result = run_written(tmp_path, _more(log)[name])
    assert result["error"] is None
    assert log.read_text().split() == ran


# a hook's command string with quotes and a shell's operator, one with no time to run, a reset where none is read
SPLIT = ("workspace:\n  hooks:\n"
         "    before_all: {command: sh args.sh \"two words\" > out.txt}\n"
         "tests:\n  - {id: t, input: hi, criteria: c}\n")
ARGS = (("args.sh", "cat >/dev/null\nprintf '%s|' \"$@\" > args.log\n"),)
# the same, taking a tenth of a second: a hook given no time is killed after its first millisecond (runtime/exec.ts
# setTimeout), unless its close is already waiting when the runner's loop next looks, which a hook that fast can win
SLOW_ARGS = (("args.sh", "cat >/dev/null\nsleep 0.1\nprintf '%s|' \"$@\" > args.log\n"),)
AT_ONCE = ("workspace:\n  hooks:\n    before_all: {command: [sh, args.sh], timeout_ms: 0}\n"
           "    after_all: {command: [sh, args.sh], reset: fast}\n"
           "tests:\n  - {id: t, input: hi, criteria: c}\n")


def test_a_hook_command_a_shell_would_read_otherwise_and_a_timeout_of_0_are_errors(tmp_path):
    write_suite(tmp_path, SPLIT, ARGS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:27: EV110 [error] the hook's command string is split at white space and run with no shell, so "
        "it runs [\"sh\", \"args.sh\", \"\\\"two\", \"words\\\"\", \">\", \"out.txt\"]: quotes and shell operators are "
        "passed to the program as written; write it as a list, [\"sh\", \"-c\", \"sh args.sh \\\"two words\\\" > "
        "out.txt\"]\n"), "")
    (tmp_path / "a.eval.yaml").write_text(AT_ONCE)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:54: EV110 [error] hook 'timeout_ms' must be > 0, found 0; the hook times out at once and "
        "fails\n"
        "a.eval.yaml:4:41: EV115 [error] 'reset' is not read in the 'after_all' hook: the runner resets the workspace "
        "only in 'before_each' and 'after_each' hooks (before and after each test), so this one resets nothing\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_hooks_command_string_split_at_white_space_and_fails_a_hook_given_no_time(tmp_path):
    for name in ("split", "at-once"):
        (tmp_path / name).mkdir()
    run_written(tmp_path / "split", SPLIT, ARGS)
    assert (tmp_path / "split" / "repo" / "args.log").read_text() == '"two|words"|>|out.txt|'
    ran = run_written(tmp_path / "at-once", AT_ONCE, SLOW_ARGS)
    assert "timed out after 0ms" in ran["error"]


# a target's hooks given no time: 'timeout_ms', else 'timeoutMs' when 'timeout_ms' is no number; one with time
TARGET_AT_ONCE = ("workspace: {template: ws}\n"
                  "execution:\n  targets:\n    - name: default\n      hooks:\n"
                  "        before_each: {command: [sh, args.sh], timeout_ms: 0}\n"
                  "        after_each: {command: [sh, args.sh], timeout_ms: x, timeoutMs: -1}\n"
                  "        after_all: {command: [sh, args.sh], timeout_ms: 10, timeoutMs: 0}\n"
                  "tests:\n  - {id: t, input: hi, criteria: c}\n")
TARGETS = ((".agentv/targets.yaml", "targets:\n  - name: default\n    provider: mock\n"), ("ws/a.txt", "a\n"))


def test_a_target_hook_given_no_time_is_an_error(tmp_path):
    write_suite(tmp_path, TARGET_AT_ONCE, ARGS + TARGETS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:59: EV110 [error] hook 'timeout_ms' must be > 0, found 0; the hook times out at once and "
        "fails\n"
        "a.eval.yaml:7:58: EV110 [error] target hook 'timeout_ms' must be a number, found 'x'; the runner ignores it\n"
        "a.eval.yaml:7:72: EV110 [error] hook 'timeoutMs' must be > 0, found -1; the hook times out at once and "
        "fails\n"), "")


@pytest.mark.runner
def test_the_runner_fails_a_test_whose_target_hook_has_no_time(tmp_path):
    (tmp_path / "repo").mkdir()
    write_suite(tmp_path / "repo", TARGET_AT_ONCE, SLOW_ARGS + TARGETS)
    ran = run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")
    assert (ran["sent"], ran["scores"]) == ([], {"t": 0})
    write_suite(tmp_path / "repo", TARGET_AT_ONCE.replace("timeout_ms: 0", "timeout_ms: 5000"), SLOW_ARGS + TARGETS)
    ran = run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")
    assert (len(ran["sent"]), ran["scores"]) == (1, {"t": 1})
    write_suite(tmp_path / "repo", TARGET_AT_ONCE.replace("timeout_ms: 0", "timeout_ms: x, timeoutMs: 0"), SLOW_ARGS + TARGETS)
    ran = run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")
    assert (ran["sent"], ran["scores"]) == ([], {"t": 0})


# a target's hook in a suite whose tests have no workspace, then with the suite's template
NO_WORKSPACE = ("execution:\n  targets:\n    - name: default\n      hooks:\n"
                "        before_each: {command: [sh, -c, 'cat >/dev/null; echo ran >> ../marker']}\n"
                "tests:\n  - {id: t, input: hi, criteria: c}\n")


NO_FOLDER = ("EV124 [error] target hook 'before_each' never runs: no test of the suite has a workspace folder, and the "
             "runner runs a target's hooks only in one (unless the command line gives --workspace-path); give the suite "
             "a workspace with a template, hooks or repos, or run the command elsewhere\n")


def test_a_target_hook_of_a_suite_without_a_workspace_folder_is_an_error(tmp_path):
    write_suite(tmp_path, NO_WORKSPACE, TARGETS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, f"a.eval.yaml:5:9: {NO_FOLDER}", "")
    write_suite(tmp_path, "workspace: {isolation: shared}\n" + NO_WORKSPACE, TARGETS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, f"a.eval.yaml:6:9: {NO_FOLDER}", "")
    write_suite(tmp_path, "workspace: {template: ws}\n" + NO_WORKSPACE, TARGETS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


# a target's hooks around tests with a folder each, none shared
PER_TEST = ("workspace: {template: ws, isolation: per_test}\n"
            "execution:\n  targets:\n    - name: default\n      hooks:\n"
            "        before_all: {command: [sh, -c, 'cat >/dev/null; echo before_all >> ../ran.log']}\n"
            "        before_each: {command: [sh, -c, 'cat >/dev/null; echo before_each >> ../ran.log']}\n"
            "tests:\n  - {id: t, input: hi, criteria: c}\n")


def test_a_target_hooks_before_all_without_a_shared_folder_is_an_error(tmp_path):
    write_suite(tmp_path, PER_TEST, TARGETS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:9: EV124 [error] target hook 'before_all' never runs: the tests share no workspace folder, and "
        "the runner runs a target's 'before_all' and 'after_all' only in a shared one; drop the suite's 'isolation: "
        "per_test', or make it a 'before_each' hook\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_target_hooks_before_all_only_in_a_shared_folder(tmp_path):
    (tmp_path / "repo").mkdir()
    write_suite(tmp_path / "repo", PER_TEST, TARGETS)
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")["scores"] == {"t": 1}
    assert (tmp_path / "ran.log").read_text() == "before_each\n"


@pytest.mark.runner
def test_the_runner_runs_a_target_hook_only_in_a_workspace_folder(tmp_path):
    (tmp_path / "repo").mkdir()
    write_suite(tmp_path / "repo", NO_WORKSPACE, TARGETS)
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")["scores"] == {"t": 1}
    assert not (tmp_path / "marker").exists()
    write_suite(tmp_path / "repo", "workspace: {isolation: shared}\n" + NO_WORKSPACE, TARGETS)
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")["scores"] == {"t": 1}
    assert not (tmp_path / "marker").exists()
    write_suite(tmp_path / "repo", "workspace: {template: ws}\n" + NO_WORKSPACE, TARGETS)
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")["scores"] == {"t": 1}
    assert (tmp_path / "marker").read_text() == "ran\n"


# the scripts a target's hooks run: one looked up on PATH, one missing from the eval file's folder, one in a 'cwd'
# (taken from the folder the run starts in, not looked up)
TARGET_SCRIPTS = ("workspace: {template: ws}\n"
                  "execution:\n  targets:\n    - name: default\n      hooks:\n"
                  "        before_all: {command: [setup.sh]}\n"
                  "        before_each: {command: [node, setup.js]}\n"
                  "        after_each: {command: [sh, ok.sh], cwd: ./scripts}\n"
                  "tests:\n  - {id: t, input: hi, criteria: c}\n")
SETUP = (("setup.sh", "#!/bin/sh\ncat >/dev/null\n"),)


def test_a_script_a_target_hook_cannot_run_is_an_error(tmp_path):
    write_suite(tmp_path, TARGET_SCRIPTS, TARGETS + SETUP)
    (tmp_path / "setup.sh").chmod(0o755)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:32: EV408 [error] hook script file 'setup.sh' is in ./, but the runner looks a command's first "
        "word without a '/' up on PATH only (it starts commands without a shell), so the hook fails when the runner "
        "runs it unless PATH has one; write './setup.sh' (an executable file) or put its interpreter first\n"
        "a.eval.yaml:7:39: EV408 [error] hook script file 'setup.js' not found in ./ (the folder the command runs in); "
        "the hook fails when the runner runs it\n"), "")


@pytest.mark.runner
def test_the_runner_fails_a_target_hook_whose_script_it_cannot_run(tmp_path):
    (tmp_path / "repo").mkdir()
    write_suite(tmp_path / "repo", TARGET_SCRIPTS, TARGETS + SETUP)
    (tmp_path / "repo" / "setup.sh").chmod(0o755)
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")["error"] == \
        "target before_all hook failed: spawn setup.sh ENOENT"
    write_suite(tmp_path / "repo", TARGET_SCRIPTS.replace("[setup.sh]", "[sh, setup.sh]"), TARGETS + SETUP)
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path, "default")["scores"] == {"t": 0}


# a later test's own template, in a run whose tests share the folder the suite's template sets up
LATER_TEMPLATE = ("workspace:\n  template: ws1\n"
                  "  hooks:\n    before_each: {command: [sh, -c, 'cat >/dev/null; ls {{workspace_path}} >> seen.log']}\n"
                  "tests:\n  - {id: first, input: hi, criteria: c}\n"
                  "  - {id: second, input: hi, criteria: c, workspace: {template: ws2}}\n")
TEMPLATES = (("ws1/a.txt", "a\n"), ("ws2/b.txt", "b\n"))


def test_a_later_tests_workspace_template_is_an_error_when_the_tests_share_a_folder(tmp_path):
    write_suite(tmp_path, LATER_TEMPLATE, TEMPLATES)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:54: EV125 [error] this test's workspace 'template' is never read: the tests share one workspace "
        "folder, which the run sets up from the first test's workspace (merged with the suite's) alone; set it in the "
        "suite's workspace, or in the first test's\n"), "")
    # the same folder written otherwise is no other template
    write_suite(tmp_path, LATER_TEMPLATE.replace("template: ws2", "template: ./ws1/"), TEMPLATES)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_runs_a_later_test_in_the_folder_the_first_tests_template_makes(tmp_path):
    run_written(tmp_path, LATER_TEMPLATE, TEMPLATES)
    assert (tmp_path / "repo" / "seen.log").read_text() == "a.txt\na.txt\n"


# a target's hooks in evals/, whose 'cwd' the runner takes from the folder the run starts in (the repository's root
# here): 'both' is there from evals/ and from the root, 'here' from evals/ alone, 'root' from the root alone
RUN_FOLDERS = ("workspace: {template: ../ws}\n"
               "execution:\n  targets:\n    - name: default\n      hooks:\n"
               "        before_all: {command: [sh, -c, 'cat >/dev/null; pwd >> $0', ../ran.log], cwd: ./both}\n"
               "        before_each: {command: [sh, -c, 'cat >/dev/null'], cwd: here}\n"
               "        after_each: {command: [sh, -c, 'cat >/dev/null'], cwd: root}\n"
               "tests:\n  - {id: t, input: hi, criteria: c}\n")
FOLDERS = TARGETS + (("evals/a.eval.yaml", RUN_FOLDERS), ("both/.keep", ""), ("evals/both/.keep", ""),
                     ("evals/here/.keep", ""), ("root/.keep", ""))


_TAKEN = ("is taken from the folder the agentv command runs in, not from the eval file's (as a workspace hook's is): "
          "run from the repository root, the hook runs in")
_FIX = "remove 'cwd' (the hook then runs in the eval file's folder), or write the folder from the repository root"
FOLDERS_FOUND = (0, (
    f"evals/a.eval.yaml:6:87: EV414 [warning] target hook 'before_all' 'cwd' './both' {_TAKEN} both/; {_FIX}\n"
    f"evals/a.eval.yaml:7:65: EV414 [warning] target hook 'before_each' 'cwd' 'here' {_TAKEN} here, which is not "
    f"there, so the hook fails; {_FIX}\n"), "")


def test_a_target_hooks_cwd_from_the_eval_files_folder_is_a_warning(tmp_path):
    write_suite(tmp_path, "", FOLDERS).joinpath("a.eval.yaml").unlink()
    assert run_concise(tmp_path, "--no-cache", ".") == FOLDERS_FOUND


def test_with_staged_the_index_says_which_folders_a_target_hooks_cwd_finds(tmp_path):
    """'root' is in the index and not on disk: with --staged it is there from the root, as it is for the others."""
    write_suite(tmp_path, "", FOLDERS).joinpath("a.eval.yaml").unlink()
    shutil.rmtree(tmp_path / ".git")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    shutil.rmtree(tmp_path / "root")
    assert run_concise(tmp_path, "--no-cache", "--staged") == FOLDERS_FOUND
    assert "'cwd' 'root'" in run_concise(tmp_path, "--no-cache", ".")[1]  # on disk it is not there


@pytest.mark.runner
def test_the_runner_takes_a_target_hooks_cwd_from_the_folder_the_run_starts_in(tmp_path):
    (tmp_path / "repo").mkdir()
    write_suite(tmp_path / "repo", "", FOLDERS)
    ran = run_suite(tmp_path / "repo", "evals/a.eval.yaml", tmp_path, "default")
    assert (ran["error"], ran["scores"], ran["failed"]) == (None, {"t": 0}, {
        "t": "target before_each hook failed: spawn sh ENOENT"})
    assert (tmp_path / "repo" / "ran.log").read_text() == f"{tmp_path / 'repo' / 'both'}\n"


def _folder_cases(log) -> tuple:
    """A folder of tests whose second case's own workspace the run never reads but for its 'before_each': the tests
    share the folder the suite's template sets up, from the first case's workspace merged with the suite's."""
    def hook(name: str) -> str:
        return f"{{command: [sh, -c, 'cat >/dev/null; echo {name} >> {log}']}}"

    return (("cases/a/case.yaml", "input: hi\ncriteria: c\n"),
            ("cases/b/case.yaml", "input: hi\ncriteria: c\nworkspace:\n  template: ws2\n  isolation: per_test\n"
                                  f"  hooks:\n    before_all: {hook('b-before_all')}\n"
                                  f"    before_each: {hook('b-before_each')}\n    after_all: {hook('b-after_all')}\n"),
            ("ws/a.txt", "a\n"), ("ws2/b.txt", "b\n"))


FOLDER_SUITE = "workspace: {template: ws}\ntests: ./cases\n"


def test_a_later_case_files_own_workspace_is_checked_against_the_first_cases(tmp_path):
    write_suite(tmp_path, FOLDER_SUITE, _folder_cases(tmp_path / "ran.log"))
    never = ("never runs: the tests share one workspace folder, whose setup runs only the first test's {0!r} (merged "
             "with the suite's); set it in the suite's workspace, or in the first test's")
    unread = ("is never read: the tests share one workspace folder, which the run sets up from the first test's "
              "workspace (merged with the suite's) alone; set it in the suite's workspace, or in the first test's")
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        f"cases/b/case.yaml:4:3: EV125 [error] this test's workspace 'template' {unread}\n"
        f"cases/b/case.yaml:5:3: EV125 [error] this test's workspace 'isolation' {unread}\n"
        f"cases/b/case.yaml:7:5: EV124 [error] this test's 'before_all' {never.format('before_all')}\n"
        f"cases/b/case.yaml:9:5: EV124 [error] this test's 'after_all' {never.format('after_all')}\n"), "")


@pytest.mark.runner
def test_the_runner_reads_a_later_case_files_workspace_for_its_before_each_alone(tmp_path):
    (tmp_path / "repo").mkdir()
    write_suite(tmp_path / "repo", FOLDER_SUITE, _folder_cases(tmp_path / "ran.log"))
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path)["scores"] == {"a": 1, "b": 1}
    assert (tmp_path / "ran.log").read_text() == "b-before_each\n"


def _first_case_per_test(log) -> tuple:
    """A folder of tests whose first case gives each test a folder of its own, so that no 'after_all' runs."""
    return (("a.eval.yaml", "workspace:\n  template: ws\n  hooks:\n"
                            f"    after_all: {{command: [sh, -c, 'cat >/dev/null; echo suite-after_all >> {log}']}}\n"
                            "tests: ./cases\n"),
            ("cases/a/case.yaml", "input: hi\ncriteria: c\nworkspace: {isolation: per_test}\n"),
            ("cases/b/case.yaml", "input: hi\ncriteria: c\n"), ("ws/a.txt", "a\n"))


def test_a_suites_after_all_that_the_first_case_file_keeps_from_running_is_an_error(tmp_path):
    write_suite(tmp_path, "", _first_case_per_test(tmp_path / "ran.log"))
    assert run_concise(tmp_path, "--no-cache", ".") == (1, f"a.eval.yaml:4:5: EV124 [error] the suite's 'after_all' "
                                                           f"never runs: {NOT_SHARED}\n", "")


@pytest.mark.runner
def test_the_runner_runs_no_after_all_when_the_first_case_file_gives_each_test_a_folder(tmp_path):
    (tmp_path / "repo").mkdir()
    write_suite(tmp_path / "repo", "", _first_case_per_test(tmp_path / "ran.log"))
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path)["scores"] == {"a": 1, "b": 1}
    assert not (tmp_path / "ran.log").exists()
    (tmp_path / "repo" / "cases" / "a" / "case.yaml").write_text("input: hi\ncriteria: c\n")  # a shared folder
    assert run_suite(tmp_path / "repo", "a.eval.yaml", tmp_path)["scores"] == {"a": 1, "b": 1}
    assert (tmp_path / "ran.log").read_text() == "suite-after_all\n"


def test_a_file_of_tests_after_an_inline_test_and_a_dataset_are_not_checked_as_a_later_case(tmp_path):
    """The first test of the suite is not in the file of tests, whose tests get folders of their own here; a JSONL
    line's workspace is never read (EV115 says so)."""
    write_suite(tmp_path, "workspace: {template: ws}\ntests:\n  - {id: t0, input: hi, criteria: c, workspace: "
                          "{isolation: per_test}}\n  - file://more.yaml\n",
                (("more.yaml", "- {id: t1, input: hi, criteria: c}\n- {id: t2, input: hi, criteria: c, workspace: "
                               "{template: ws2}}\n"), ("ws/a.txt", "a\n"), ("ws2/b.txt", "b\n")))
    assert run_concise(tmp_path, "--no-cache", ".") == (0, "", "")


def test_a_later_case_files_model_is_its_own_whatever_the_first_case_holds(tmp_path, monkeypatch):
    write_suite(tmp_path, FOLDER_SUITE, (("cases/a/case.yaml", "input: hi\ncriteria: c\nworkspace: 7\n"),
                                         ("cases/b/case.yaml", "input: hi\ncriteria: c\n"), ("ws/a.txt", "a\n")))
    monkeypatch.chdir(tmp_path)
    code, out, err = run("normalize", "cases/b/case.yaml")
    assert (code, err, [test["id"] for test in json.loads(out)["tests"]]) == (0, "", ["b"])


# a test's 'before_each' that the loader merges over the suite's (or drops), and one that turns the hooks off
def _overridden(log) -> str:
    return ("workspace:\n  hooks:\n"
            f"    before_each: {{command: [sh, -c, 'cat >/dev/null; echo $0 >> {log}', suite-each]}}\n"
            "tests:\n"
            "  - {id: t1, input: hi, criteria: c, workspace: {hooks: {before_each: {reset: none}}}}\n"
            "  - {id: t2, input: hi, criteria: c, workspace: {hooks: {before_each: null}}}\n"
            "  - {id: t3, input: hi, criteria: c, workspace: {hooks: {enabled: false}}}\n")


def test_a_tests_hook_that_leaves_the_suites_command_to_run_is_reported(tmp_path):
    assert run_concise(write_suite(tmp_path, _overridden(tmp_path / "log")), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:5:72: EV133 [warning] this test's 'before_each' hook changes nothing: the runner merges a test's "
        "hook over the suite's key by key, and the suite's hook resets nothing either, so its command still runs for "
        "this test; to run no hook for it, give the test 'hooks: {enabled: false}'\n"
        "a.eval.yaml:6:71: EV110 [error] hook 'before_each' must be a mapping with 'command', found null; the runner "
        "ignores it, so the suite's 'before_each' hook, if it has one, runs for this test\n"), "")


@pytest.mark.parametrize("text", [
    "workspace:\n  hooks: {enabled: false, before_each: {command: [sh, s.sh]}}\n"
    "tests:\n  - {id: t, input: hi, criteria: c, workspace: {hooks: {before_each: {reset: none}}}}\n",
    "workspace:\n  hooks: {before_all: {command: [sh, s.sh]}}\n"
    "tests:\n  - {id: t, input: hi, criteria: c, workspace: {hooks: {before_all: {reset: none}}}}\n"])
def test_a_tests_reset_none_over_hooks_that_are_off_or_run_once_is_no_ev133(tmp_path, text):
    (tmp_path / "s.sh").write_text("true\n")
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_runs_the_suites_hook_for_a_test_whose_own_leaves_its_command(tmp_path):
    log = tmp_path / "log"
    run = run_written(tmp_path, _overridden(log))
    assert (run["error"], log.read_text().split()) == (None, ["suite-each", "suite-each"])
