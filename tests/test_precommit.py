"""The hook through the real pre-commit framework: `pre-commit run` with a configuration naming a committed copy
of this repository, as a user's names a release; the copy and pre-commit's environment for it are made once for the
session."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.precommit

BAD = "evalcases:\n  - id: search\n    expected_outcome: g\n    input: q\n    evaluators:\n" \
      "      - name: t\n        type: tool_trajectory\n        mode: sometimes\n"
GOOD = "evalcases:\n  - id: search\n    expected_outcome: g\n    input: q\n"


def git(repo, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=repo, check=True,
                   capture_output=True)


def commit_of(hook_repo) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=hook_repo, capture_output=True, text=True,
                          check=True).stdout.strip()


def run_hook(hook_repo, project, *args):
    """``pre-commit run`` in ``project`` (on what is staged, as a commit runs it), in the session's pre-commit
    home, where the hook's environment is installed once."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(hook_repo.parent / "cache"), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", *args], cwd=project, capture_output=True,
                          text=True, env=env, timeout=600)


def try_repo(hook_repo, project):
    """The evallint hook of ``hook_repo``'s commit on what ``project`` has staged."""
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {commit_of(hook_repo)}\n    hooks:\n      - id: evallint\n")
    git(project, "add", ".pre-commit-config.yaml")
    return run_hook(hook_repo, project)


@pytest.fixture
def project(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "evals").mkdir()
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs:\n  t: {runs-on: ubuntu-latest}\n")
    return tmp_path


def test_hook_fails_on_a_bad_staged_eval_file(hook_repo, project):
    (project / "evals" / "s.yaml").write_text(BAD)
    git(project, "add", ".")
    proc = try_repo(hook_repo, project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "EV310" in proc.stdout and "evals/s.yaml:8:15" in proc.stdout


def test_hook_passes_on_clean_files_and_ignores_workflows(hook_repo, project):
    (project / "evals" / "s.yaml").write_text(GOOD)
    git(project, "add", ".")
    proc = try_repo(hook_repo, project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout and "ci.yml" not in proc.stdout


def test_hook_fails_when_a_change_to_a_file_they_use_breaks_eval_files(hook_repo, project):
    (project / ".agentv").mkdir()
    (project / "prompts").mkdir()
    targets = project / ".agentv" / "targets.yaml"
    targets.write_text("targets:\n  - name: default\n    provider: mock\n")
    (project / "prompts" / "judge.md").write_text("Grade {{ candidate_answer }}.\n")
    (project / "evals" / "s.yaml").write_text("execution:\n  target: default\n" + GOOD + "    evaluators:\n"
                                              "      - {name: j, type: llm_judge, prompt: ../prompts/judge.md}\n")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "first")
    targets.write_text("targets:\n  - name: main\n    provider: mock\n")
    (project / "prompts" / "judge.md").write_text("Grade it.\n")
    git(project, "add", ".")
    proc = try_repo(hook_repo, project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "evals/s.yaml:2:11: EV409" in proc.stdout and "evals/s.yaml:8:44: EV405" in proc.stdout


def test_hook_fails_when_a_suite_stops_naming_its_file_of_tests(hook_repo, project):
    """Only the suite changes; the .jsonl file it named is then a dataset, whose lines graded by 'assertions' are
    skipped."""
    (project / "evals" / "cases.jsonl").write_text('{"id": "a", "input": "q", "assertions": [{"type": "contains", '
                                                   '"value": "q"}]}\n')
    (project / "evals" / "s.yaml").write_text("tests: ./cases.jsonl\n")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "first")
    (project / "evals" / "s.yaml").write_text("tests:\n  - id: b\n    input: q\n    criteria: g\n")
    git(project, "add", ".")
    proc = try_repo(hook_repo, project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "evals/cases.jsonl:1:27: EV106" in proc.stdout and "evals/s.yaml" not in proc.stdout
