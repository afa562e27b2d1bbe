"""Settings AgentV 4.42.4 drops without a word, each an error where it is written, checked against what the runner
does with the same file: trials without a 'count', a workspace repo without a 'repo'."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import run_written, write_suite
from clirun import run_concise

TRIALS = """\
execution:
  trials:
    strategy: mean
    cost_limit_usd: 2
tests:
  - {id: a, input: hi, criteria: ok}
"""


def test_trials_without_a_count_are_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, TRIALS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:3: EV110 [error] trials without a 'count': the runner ignores the trials, 'strategy' and "
        "'cost_limit_usd' with them, and runs each test once; add a 'count' above 1\n"), "")


def test_trials_with_a_count_or_without_other_settings_are_no_error(tmp_path):
    counted = TRIALS.replace("strategy: mean", "count: 3\n    strategy: mean")
    assert run_concise(write_suite(tmp_path, counted), "--no-cache", "a.eval.yaml") == (0, "", "")
    bare = "execution:\n  trials: {}\ntests:\n  - {id: a, input: hi, criteria: ok}\n"
    assert run_concise(write_suite(tmp_path, bare), "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_loader_reads_no_trials_without_a_count(tmp_path):
    without = load_tests(write_suite(tmp_path, TRIALS), ["a.eval.yaml"], suite=True)["a.eval.yaml"]
    assert (without["error"], without["logs"], without["suite"].get("trials")) == (None, [], None)
    counted = TRIALS.replace("strategy: mean", "count: 3\n    strategy: mean")
    with_count = load_tests(write_suite(tmp_path, counted), ["a.eval.yaml"], suite=True)["a.eval.yaml"]
    assert with_count["suite"]["trials"] == {"count": 3, "costLimitUsd": 2, "strategy": "mean"}


REPOS = """\
workspace:
  repos:
    - path: ./app
      commit: main
tests:
  - id: a
    input: hi
    criteria: ok
"""


def test_a_repo_without_a_repo_outside_docker_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, REPOS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:7: EV128 [error] workspace repo without a 'repo': the runner clones nothing at './app', without "
        "a word, and the agent works without it (only a Docker workspace's repos may go without one); name the "
        "repository to clone in 'repo'\n"), "")


def test_a_repo_without_a_repo_may_run_in_docker(tmp_path):
    """A test's workspace takes the suite's 'docker', and a test without repos of its own takes the suite's repos
    with its own 'docker': neither is reported then; nor is a test's beside a suite's workspace file, which may give
    one. The suite's repos are, when one test takes them without a 'docker'."""
    in_test = REPOS + "    workspace:\n      docker: {image: 'python:3.12'}\n"
    assert run_concise(write_suite(tmp_path, in_test), "--no-cache", "a.eval.yaml") == (0, "", "")
    in_suite = ("workspace:\n  docker: {image: 'python:3.12'}\ntests:\n  - id: a\n    input: hi\n    criteria: ok\n"
                "    workspace:\n      repos: [{path: /src}]\n")
    assert run_concise(write_suite(tmp_path, in_suite), "--no-cache", "a.eval.yaml") == (0, "", "")
    beside_file = in_suite.replace("  docker: {image: 'python:3.12'}", "workspace: ./ws.yaml").replace(
        "workspace:\nworkspace:", "workspace:")
    assert run_concise(write_suite(tmp_path, beside_file, (("ws.yaml", "docker: {image: 'python:3.12'}\n"),)),
                       "--no-cache", "a.eval.yaml") == (0, "", "")
    one_without = in_test + "  - {id: b, input: hi, criteria: ok}\n"
    assert run_concise(write_suite(tmp_path, one_without), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:7: EV128 [error] workspace repo without a 'repo': the runner clones nothing at './app', without "
        "a word, and the agent works without it (only a Docker workspace's repos may go without one); name the "
        "repository to clone in 'repo'\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_the_repo_and_runs_without_a_word(tmp_path):
    """The loader keeps the repo as written, and the run clones nothing (repo-manager.ts materializeAll passes over
    a repo without 'repo') and prints nothing of it."""
    loaded = load_tests(write_suite(tmp_path, REPOS), ["a.eval.yaml"])["a.eval.yaml"]
    assert loaded["tests"][0]["workspace"]["repos"] == [{"commit": "main", "path": "./app"}]
    run = run_written(tmp_path, REPOS)
    assert (run["error"], run["logs"], [sent["test"] for sent in run["sent"]]) == (None, [], ["a"])
