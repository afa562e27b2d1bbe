"""A repository's ``.git`` may come from anyone (a tarball, a restored CI cache, a shared folder): nothing it
configures runs when evallint starts git, for ``--staged`` or for a folder walk, which reads the last
commit. Each attack names a script that writes a marker file. And when git refuses the repository (another
user owns it) or is missing, evallint says so once and lints by content."""
from __future__ import annotations

import os
import pwd
import shutil

import pytest
from clirun import git, run_concise

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the attacks run shell scripts")

GOOD = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
BAD = GOOD.replace("id: a", "id: 1")
EV103 = ("evals/s.yaml:2:9: EV103 [error] case 'id' must be a string: the runner reads 1 as the number 1 and skips the "
         'case; the fix writes "1"\n')


@pytest.fixture
def repo(tmp_path):
    """A repository whose last commit holds a good eval file and a workflow (a YAML file that is no eval
    suite: a walk asks the last commit what it was), with a bad eval file staged and on disk; and the
    marker that a script the repository names writes when it runs (``spy``)."""
    root = tmp_path / "repo"
    (root / "evals").mkdir(parents=True)
    (root / "evals" / "s.yaml").write_text(GOOD)
    (root / "ci.yaml").write_text("on: push\n")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    (root / "evals" / "s.yaml").write_text(BAD)
    git(root, "add", "evals/s.yaml")
    return root


def spy(repo, name: str) -> str:
    """The path of a script ``name`` that appends its arguments to the marker file and reads nothing."""
    script = repo.parent / name
    script.write_text(f'#!/bin/sh\necho "$0 $*" >> "{repo.parent / "marker"}"\n')
    script.chmod(0o755)
    return str(script)


def assert_nothing_ran_and_the_lint_is_right(repo):
    """``--staged`` and a folder walk find the bad eval file, and no script of the repository ran."""
    assert run_concise(repo, "--staged") == (1, EV103, "")
    assert run_concise(repo, "--no-cache", ".") == (1, EV103, "")
    assert not (repo.parent / "marker").exists()


def intent_to_add_and_a_stale_stat(repo):
    """An entry added with intent to add, and a staged file whose time on disk differs from the index's
    (as after unpacking a tarball): a comparison with the work tree hashes it again and writes the
    index."""
    (repo / "later.md").write_text("notes\n")
    git(repo, "add", "-N", "later.md")
    os.utime(repo / "evals" / "s.yaml", (1_000_000_000, 1_000_000_000))


def test_an_fsmonitor_hook_does_not_run(repo):
    intent_to_add_and_a_stale_stat(repo)
    git(repo, "config", "core.fsmonitor", spy(repo, "fsmonitor"))
    assert_nothing_ran_and_the_lint_is_right(repo)


@pytest.mark.parametrize("where", ["hooks folder", "core.hooksPath"])
def test_an_index_hook_does_not_run(repo, where):
    intent_to_add_and_a_stale_stat(repo)
    if where == "hooks folder":
        shutil.copy(spy(repo, "hook"), repo / ".git" / "hooks" / "post-index-change")
    else:
        (repo / "hooks").mkdir()
        shutil.copy(spy(repo, "hook"), repo / "hooks" / "post-index-change")
        git(repo, "config", "core.hooksPath", "hooks")
    assert_nothing_ran_and_the_lint_is_right(repo)


@pytest.mark.parametrize("kind", ["clean", "process", "smudge"])
def test_a_filter_does_not_run(repo, kind):
    intent_to_add_and_a_stale_stat(repo)
    (repo / ".gitattributes").write_text("*.yaml filter=spy\n")
    git(repo, "config", f"filter.spy.{kind}", spy(repo, "filter"))
    assert_nothing_ran_and_the_lint_is_right(repo)


@pytest.mark.parametrize("key", ["diff.spy.textconv", "diff.spy.command", "diff.external", "core.pager"])
def test_a_diff_driver_or_pager_does_not_run(repo, key):
    intent_to_add_and_a_stale_stat(repo)
    (repo / ".gitattributes").write_text("*.yaml diff=spy\n")
    git(repo, "config", key, spy(repo, "differ"))
    assert_nothing_ran_and_the_lint_is_right(repo)


@pytest.mark.parametrize("url, key", [("../elsewhere", "remote.origin.uploadpack"),
                                      ("ssh://example.com/r.git", "core.sshCommand")])
def test_a_partial_clone_fetches_no_missing_object(repo, url, key):
    """A partial clone fetches an object it lacks from its promisor remote, which runs the remote's
    upload-pack (for a local one) or the ssh command: the workflow's committed blob is missing, and both
    a walk and a staged change of it ask the last commit for it."""
    workflow = git_output(repo, "rev-parse", "HEAD:ci.yaml")
    os.remove(repo / ".git" / "objects" / workflow[:2] / workflow[2:])
    for name, value in (("core.repositoryformatversion", "1"), ("extensions.partialClone", "origin"),
                        ("remote.origin.url", url), ("remote.origin.promisor", "true"),
                        ("protocol.allow", "always"), (key, spy(repo, "fetcher"))):
        git(repo, "config", name, value)
    (repo / "ci.yaml").write_text("on: pull_request\n")
    git(repo, "add", "ci.yaml")
    assert_nothing_ran_and_the_lint_is_right(repo)


def git_output(repo, *args) -> str:
    import subprocess

    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


def test_intent_to_add_entries_are_told_apart_from_the_index_and_the_last_commit_alone(repo):
    """An entry added with intent to add is what the commit will not hold, whether or not the last commit
    holds the path; an empty file committed and left alone is a file. (Told apart without comparing the
    work tree, which would run the filters above.)"""
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text("Grade {{ candidate_answer }} against {{ expected_outcome }}.\n")
    (repo / "evals" / "empty.md").write_text("")
    git(repo, "add", "prompts", "evals/empty.md")
    git(repo, "commit", "-q", "-m", "prompts")
    git(repo, "rm", "-q", "--cached", "prompts/judge.md")
    git(repo, "add", "-N", "prompts/judge.md")
    (repo / "later.md").write_text("notes\n")
    git(repo, "add", "-N", "later.md")
    (repo / "evals" / "s.yaml").write_text(GOOD + "    evaluators:\n"
                                           "      - {name: j, type: llm_judge, prompt: ../prompts/judge.md}\n"
                                           "      - {name: k, type: llm_judge, prompt: empty.md}\n"
                                           "      - {name: l, type: llm_judge, prompt: ../later.md}\n")
    git(repo, "add", "evals/s.yaml")
    assert run_concise(repo, "--staged") == (1, (
        "evals/s.yaml:6:44: EV404 [error] prompt '../prompts/judge.md' looks like a path but names no file "
        "(looked in: evals/); it will be sent as inline prompt text\n"
        "evals/s.yaml:7:44: EV402 [warning] prompt template 'empty.md' is empty\n"
        "evals/s.yaml:8:44: EV404 [error] prompt '../later.md' looks like a path but names no file "
        "(looked in: evals/); it will be sent as inline prompt text\n"), "")


# --- a repository git refuses, or no git at all ---------------------------------------------------------

@pytest.fixture
def history_repo(tmp_path, monkeypatch):
    """A repository whose last commit holds 40 eval suites outside the include globs, emptied since (a walk
    reports them as broken eval suites while git reads the history), and a bad eval file on disk; git's
    messages in English, and no global or system settings (a safe.directory there would let git read any
    repository)."""
    settings = tmp_path / "gitconfig"
    settings.write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(settings))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("LC_ALL", "C")
    monkeypatch.delenv("LANGUAGE", raising=False)
    root = tmp_path / "repo"
    (root / "tools").mkdir(parents=True)
    (root / "evals").mkdir()
    for n in range(40):
        (root / "tools" / f"t{n:02}.yaml").write_text(GOOD)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "suites")
    for n in range(40):
        (root / "tools" / f"t{n:02}.yaml").write_text("")
    (root / "evals" / "s.yaml").write_text(BAD)
    git(root, "add", "evals/s.yaml")
    code, out, _ = run_concise(root, "--no-cache", ".")
    assert (code, len(out.splitlines())) == (1, 41)  # the emptied suites (EV008) and the bad file
    return root


def test_a_repository_another_user_owns_is_said_once_and_linted_by_content(history_repo):
    if os.geteuid() != 0:
        pytest.skip("giving the repository to another user needs root")
    for folder, _, names in os.walk(history_repo):
        for path in [folder, *(os.path.join(folder, name) for name in names)]:
            os.lchown(path, pwd.getpwnam("nobody").pw_uid, -1)
    notice = (f"evallint: cannot read the git history of '{history_repo}': detected dubious ownership in "
              f"repository at '{history_repo}'; files are recognized by their content only\n")
    for _ in range(2):  # a result made without the history is not cached: the second run says it again
        assert run_concise(history_repo, "-j2", ".") == (1, EV103, notice)
    assert run_concise(history_repo, "--staged") == (
        2, "", "evallint: error: --staged reads the git index, which git cannot read here: detected dubious "
               f"ownership in repository at '{history_repo}'\n")


def test_without_git_on_path_it_is_said_once_and_linted_by_content(history_repo, tmp_path, monkeypatch):
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    notice = (f"evallint: cannot read the git history of '{history_repo}': git is not installed (not found on "
              "PATH); files are recognized by their content only\n")
    for _ in range(2):
        assert run_concise(history_repo, "-j2", ".") == (1, EV103, notice)
    assert run_concise(history_repo, "--staged") == (2, "", "evallint: error: --staged reads the git index, which "
                                                            "git cannot read here: git is not installed (not found "
                                                            "on PATH)\n")
