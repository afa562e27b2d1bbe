"""The workspace the run's setup reads: the first test's own merged with the suite's, each setting the test's own
when it has one (EV110 where a contradicting setting is written)."""
from __future__ import annotations

import pytest

from agreement import run_files, run_written, write_suite
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


# a workspace env's checks: what the setup asks the machine before any test (setup.ts runPreflightChecks)
ENV = "workspace:\n  env:\n    %s\ntests:\n  - {id: a, input: hi, criteria: c}\n"
NO_NAME = "is no command's name: the runner checks it with sh -c 'command -v %s', %s; write the command's name " \
    "alone (check its version in a 'before_all' hook)"
NO_IMPORT = "cannot be imported on any machine: the runner checks it with python3 -c 'import %s', which is not " \
    "imports alone and fails whatever is installed, so the run fails before any test; %s"
FAILS = "which fails on every machine, as no command has that name, and the run fails before any test"
PACKAGE = "write the name an import statement takes, the module's, not its package's ('yaml' for PyYAML)"


@pytest.mark.parametrize("env,expected", [
    ("required_commands: ['node>=99']", "3:25: EV110 [error] required command 'node>=99' " + NO_NAME % (
        "node>=99", "where the shell reads '>' as a redirection: it checks 'node' alone, which passes wherever that "
        "command is, whatever its version, and writes what it finds to a file")),
    ("required_commands: ['node && npm']", "3:25: EV110 [error] required command 'node && npm' " + NO_NAME % (
        "node && npm", "where the shell reads '&&' itself, so the check is not of 'node && npm'")),
    ("required_commands: ['python3 --version']", "3:25: EV110 [error] required command 'python3 --version' " + NO_NAME % (
        "python3 --version", "which the shell reads as 2 names, so it checks another thing than 'python3 --version'")),
    ("required_commands: [node=18]", "3:25: EV110 [error] required command 'node=18' " + NO_NAME % ("node=18", FAILS)),
    ("required_commands: [\"'node>=18'\"]", "3:25: EV110 [error] required command ''node>=18'' " + NO_NAME % (
        "'node>=18'", FAILS)),
    ("required_commands: [' ']", "3:25: EV110 [error] required command ' ' " + NO_NAME % (
        " ", "which checks nothing and passes on every machine")),
    ("required_python_modules: [scikit-learn]", "3:31: EV110 [error] required Python module 'scikit-learn' " + NO_IMPORT % (
        "scikit-learn", PACKAGE)),
    ("required_python_modules: ['json>=2.0']", "3:31: EV110 [error] required Python module 'json>=2.0' " + NO_IMPORT % (
        "json>=2.0", "write the module's name alone, 'json', and check its version in a 'before_all' hook")),
    ("NODE_ENV: test", "3:5: EV115 [error] unknown key 'NODE_ENV' in workspace env (known keys: required_commands, "
                       "required_python_modules); the runner reads only these checks there, made before the run, and "
                       "sets no environment variable, so what it holds is dropped"),
    ("required_commands: [node, \"'git'\", ./bin/tool, ~/bin/tool]", ""),
    ("required_python_modules: [json, os.path, 'json, os', 'PIL.Image ', 'os; import sys']", ""),
])
def test_a_workspace_env_check_that_checks_another_thing_than_it_names_is_an_error(tmp_path, env, expected):
    assert run_concise(write_suite(tmp_path, ENV % env), "--no-cache", "a.eval.yaml")[1] == (
        f"a.eval.yaml:{expected}\n" if expected else "")


@pytest.mark.runner
@pytest.mark.parametrize("env,error", [
    ("required_python_modules: ['json>=2.0', json]", "python module: json>=2.0"),
    ("required_commands: [node=18, node]", "command: node=18"),
    ("required_commands: ['node>=99', 'python3 --version']", None),
])
def test_the_setup_checks_each_name_as_a_shell_and_python_read_it(tmp_path, env, error):
    run = run_written(tmp_path, ENV % env)
    assert (run["error"] and run["error"].split("\n")[1].strip(" •")) == error


# a relative workspace 'path' in a suite below the root, and a hook that says where it runs and what it is given
SUBFOLDER_PATH = (("evals/a.eval.yaml", "workspace:\n  path: ./static-ws\n  hooks:\n    before_all:\n      command: "
                   "[node, -e, \"require('fs').writeFileSync('hook.txt', process.argv[1])\", '{{workspace_path}}']\n"
                   "tests:\n  - {id: a, input: hi, criteria: c}\n"),)


def test_a_relative_workspace_path_below_the_root_is_taken_from_the_run_folder(tmp_path):
    assert run_concise(write_suite(tmp_path, "", SUBFOLDER_PATH), "--no-cache", "evals/a.eval.yaml") == (0, (
        "evals/a.eval.yaml:2:9: EV415 [warning] workspace 'path' './static-ws' is taken from the folder the agentv "
        "command runs in, not from this file's (as its 'template' is): run from the repository root, the agent works in "
        "'static-ws', which the run makes, and the hooks get the path as written; write the folder from the repository "
        "root, or an absolute path\n"), "")
    (tmp_path / "static-ws").mkdir()  # the folder written from the root: as the runner reads it
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (0, "", "")


def test_a_later_tests_relative_workspace_path_the_run_never_reads_is_ev125_alone(tmp_path):
    text = ("workspace: {template: ./tpl}\ntests:\n  - {id: a, input: hi, criteria: c}\n"
            "  - {id: b, input: hi, criteria: c, workspace: {path: ./mine}}\n")
    files = (("evals/a.eval.yaml", text), ("evals/tpl/readme.txt", "hi\n"))
    assert run_concise(write_suite(tmp_path, "", files), "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:4:49: EV125 [error] this test's workspace 'path' is never read: the tests share one workspace "
        "folder, which the run sets up from the first test's workspace (merged with the suite's) alone; set it in the "
        "suite's workspace, or in the first test's\n"), "")


@pytest.mark.runner
def test_the_runner_makes_a_relative_workspace_path_in_its_own_folder(tmp_path):
    run = run_files(tmp_path, SUBFOLDER_PATH)
    repo = tmp_path / "repo"
    assert (run["error"], (repo / "static-ws").is_dir(), (repo / "evals" / "static-ws").exists()) == (None, True, False)
    assert (repo / "evals" / "hook.txt").read_text() == "./static-ws"  # run in the eval file's folder
