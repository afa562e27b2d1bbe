"""--staged lints the git index, not the working tree."""
from __future__ import annotations

import subprocess

import pytest
from clirun import run_concise

GOOD = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
BAD = "evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n"


def git(repo, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=repo, check=True,
                   capture_output=True)



@pytest.fixture
def repo(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "evals").mkdir()
    return tmp_path


def test_bad_staged_good_in_working_tree(repo):
    (repo / "evals" / "s.yaml").write_text(BAD)
    git(repo, "add", "evals/s.yaml")
    (repo / "evals" / "s.yaml").write_text(GOOD)
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:2:9: EV103 [error] case 'id' must be a string, found 1 "
                                        "(a number); quote it\n", "")
    assert run_concise(repo, "evals/s.yaml")[0] == 0


def test_good_staged_bad_in_working_tree(repo):
    (repo / "evals" / "s.yaml").write_text(GOOD)
    git(repo, "add", "evals/s.yaml")
    git(repo, "commit", "-q", "-m", "first")
    (repo / "evals" / "s.yaml").write_text(GOOD.replace("id: a", "id: b"))
    git(repo, "add", "evals/s.yaml")
    (repo / "evals" / "s.yaml").write_text(BAD)
    assert run_concise(repo, "--staged") == (0, "", "")
    assert run_concise(repo, "evals/s.yaml")[0] == 1


def test_staged_paths_are_relative_to_the_working_directory(repo):
    (repo / "evals" / "s.yaml").write_text(BAD)
    git(repo, "add", "evals/s.yaml")
    code, out, _ = run_concise(repo / "evals", "--staged")
    assert code == 1 and out.startswith("s.yaml:2:9: EV103")


def test_non_eval_yaml_and_deleted_files_are_skipped(repo):
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n")
    (repo / "gone.yaml").write_text(GOOD)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    git(repo, "rm", "-q", "gone.yaml")
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: [push]\njobs: {}\n")
    git(repo, "add", ".")
    assert run_concise(repo, "--staged") == (0, "", "")


def test_outside_a_git_repository_is_a_usage_error(tmp_path):
    code, out, err = run_concise(tmp_path, "--staged")
    assert code == 2 and out == "" and "inside a git repository" in err


def test_staged_refuses_paths(repo):
    assert run_concise(repo, "--staged", "evals")[0] == 2
