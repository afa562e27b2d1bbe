"""Settings AgentV 4.42.4 drops without a word, each an error where it is written, checked against what the runner
does with the same file: trials without a 'count', a workspace repo without a 'repo'."""
from __future__ import annotations

import json
import subprocess

import pytest

from agentv_runner import HERE, load_tests, require_runner
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


def _source_repo(tmp_path):
    """A git repository to clone, with one commit."""
    from clirun import git

    source = tmp_path / "src"
    source.mkdir()
    (source / "readme.txt").write_text("hi\n")
    git(source, "init", "-q")
    git(source, "add", ".")
    git(source, "commit", "-qm", "one")
    return source


def _cloned(source, listing, path: str = "") -> str:
    """A suite whose repo clones ``source`` (into ``path``), and whose hook lists the workspace into ``listing``."""
    where = f", path: {path}" if path else ""
    return ("workspace:\n"
            f"  repos: [{{repo: '{source}'{where}}}]\n"
            "  hooks:\n"
            "    before_each:\n"
            "      command: [node, -e, \"require('fs').writeFileSync(process.argv[1], require('fs').readdirSync("
            f"process.argv[2]).join(','))\", '{listing}', '{{{{workspace_path}}}}']\n"
            "tests:\n  - {id: a, input: hi, criteria: ok}\n")


@pytest.mark.parametrize("path", ["", "'  '"])
def test_a_repo_without_a_path_is_never_cloned(tmp_path, path):
    assert run_concise(write_suite(tmp_path, _cloned("org/app", tmp_path / "seen", path)), "--no-cache",
                       "a.eval.yaml") == (1, (
        "a.eval.yaml:2:12: EV128 [error] workspace repo 'org/app' without a 'path': the runner clones nothing, without "
        "a word, and the agent works without it; give the folder of the workspace to clone it into in 'path'\n"), "")


@pytest.mark.runner
def test_the_runner_clones_a_repo_only_into_a_path(tmp_path):
    source = _source_repo(tmp_path)
    seen = {}
    for path in ("", "app"):
        run = run_written(tmp_path / (path or "none"), _cloned(source, tmp_path / f"seen-{path}", path))
        assert (run["error"], run["logs"]) == (None, [])
        seen[path] = (tmp_path / f"seen-{path}").read_text()
    assert ["app" in seen[path].split(",") for path in ("", "app")] == [False, True]


# a repo 'path' outside the workspace -> what the runner does with it
OUTSIDE = {"../escaped": "leads out of the workspace: the runner clones the repo at '<workspace>/../escaped', outside the "
                         "folder the agent works in",
           "app/../..": "leads out of the workspace: the runner clones the repo at '<workspace>/app/../..', outside the "
                        "folder the agent works in",
           "/srv/clone": "is absolute: outside a Docker workspace the runner clones the repo inside the workspace at "
                         "'<workspace>/srv/clone', not at '/srv/clone'"}


@pytest.mark.parametrize("path", sorted(OUTSIDE))
def test_a_repo_path_outside_the_workspace_is_an_error(tmp_path, path):
    said = OUTSIDE[path]
    assert run_concise(write_suite(tmp_path, _cloned("org/app", tmp_path / "seen", path)), "--no-cache",
                       "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:35: EV110 [error] repo 'path' '{path}' {said}; give a folder of the workspace, relative to "
        "it\n"), "")


@pytest.mark.parametrize("text", [
    "workspace:\n  repos: [{repo: org/app, path: .}, {repo: org/lib, path: 'lib/../vendor/lib'}, {repo: org/x, path: ' ../x'}]\n",
    "workspace:\n  docker: {image: 'python:3.12'}\n  repos: [{repo: org/app, path: /testbed}]\n"])
def test_a_repo_path_in_the_workspace_or_a_containers_is_no_finding(tmp_path, text):
    text += "tests:\n  - {id: a, input: hi, criteria: ok}\n"
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_clones_a_repo_at_the_workspaces_path_joined_with_its_own(tmp_path):
    source = _source_repo(tmp_path)
    seen = {}
    for path, folder in (("../escaped", "out"), ("/srv/clone", "abs")):
        run = run_written(tmp_path / folder, _cloned(source, tmp_path / f"seen-{folder}", path))
        assert (run["error"], run["logs"]) == (None, [])
        seen[path] = (tmp_path / f"seen-{folder}").read_text().split(",")
    assert seen == {"../escaped": [".git"], "/srv/clone": [".git", "srv"]}


@pytest.mark.parametrize("key", ["ref", "branch", "tag"])
def test_a_repos_ref_branch_or_tag_is_dropped(tmp_path, key):
    text = (f"workspace:\n  repos:\n    - {{repo: org/app, path: app, {key}: v1}}\n"
            "tests:\n  - {id: a, input: hi, criteria: ok}\n")
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:3:34: EV115 [error] unknown key '{key}' in workspace repo (did you mean 'commit'?); the runner "
        "does not read it, so what it holds is dropped\n"), "")


def test_a_hook_timeout_past_what_a_timer_holds_times_out_at_once(tmp_path):
    text = ("workspace:\n  hooks:\n    before_all: {command: [node, -v], timeout_ms: 3000000000}\n"
            "tests:\n  - {id: a, input: hi, criteria: ok}\n")
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:51: EV110 [error] hook 'timeout_ms' must be at most 2147483647 (about 24.8 days), found "
        "3000000000: Node.js takes a longer delay as 1 ms, so the hook times out at once and fails\n"), "")
    assert run_concise(write_suite(tmp_path, text.replace("3000000000", "2147483647")), "--no-cache",
                       "a.eval.yaml") == (0, "", "")


@pytest.mark.parametrize("named", ["../app", "./app", " ../app "])
def test_a_repo_named_from_here_is_read_as_githubs_org_and_name(tmp_path, named):
    text = f"workspace:\n  repos:\n    - {{repo: '{named}', path: app}}\n" + "tests:\n  - {id: a, input: hi, criteria: ok}\n"
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:3:14: EV110 [error] repo '{named}' is read as GitHub's 'org/name': the runner clones "
        f"'https://github.com/{named.strip()}.git', which does not exist, and the run fails; write the folder's absolute "
        "path, or the repository's URL\n"), "")
    for fine in ("org/app", "../../app", "/srv/app"):
        assert run_concise(write_suite(tmp_path, text.replace(named, fine)), "--no-cache", "a.eval.yaml")[1] == ""


def test_a_repo_in_githubs_form_naming_a_folder_here_is_an_error(tmp_path):
    text = "workspace:\n  repos:\n    - {repo: fixtures/app, path: app}\n" + "tests:\n  - {id: a, input: hi, criteria: ok}\n"
    assert run_concise(write_suite(tmp_path, text), "--no-cache", "a.eval.yaml") == (0, "", "")  # GitHub's, then
    (tmp_path / "fixtures" / "app").mkdir(parents=True)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:14: EV110 [error] repo 'fixtures/app' is read as GitHub's 'org/name', though a folder of that "
        "name is here: the runner clones 'https://github.com/fixtures/app.git', not the folder; write the folder's "
        "absolute path (or 'file://' and its path), or the repository's URL\n"), "")


# the clone URL AgentV 4.42.4 makes of each repo (its public resolveRepoCloneUrl, which the materializer calls)
CLONE_URLS = """
import { resolveRepoCloneUrl } from "@agentv/core";
console.log(JSON.stringify(JSON.parse(process.argv[1]).map(resolveRepoCloneUrl)));
"""


@pytest.mark.runner
def test_the_runner_clones_a_repo_in_githubs_form_from_github_whatever_is_here(tmp_path):
    named = ["fixtures/app", "../app", " ./app ", "/srv/app", "https://example.com/a.git"]
    done = subprocess.run([require_runner(), "--input-type=module", "-e", CLONE_URLS, json.dumps(named)],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert json.loads(done.stdout) == ["https://github.com/fixtures/app.git", "https://github.com/../app.git",
                                       "https://github.com/./app.git", "/srv/app", "https://example.com/a.git"]


WRAPPED = (("ws.yaml", "isolation: shared\nworkspace:\n  template: ./tpl\n"), ("tpl/readme.txt", "hi\n"))


def test_a_workspace_files_wrapper_beside_its_own_settings_is_dropped(tmp_path):
    text = "workspace: ./ws.yaml\ntests:\n  - {id: a, input: hi, criteria: ok}\n"
    assert run_concise(write_suite(tmp_path, text, WRAPPED), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:12: EV115 [error] in workspace file './ws.yaml': 'workspace' is not read: the runner takes the "
        "file's own top-level keys for the workspace, so the settings under it are dropped; move them to the top "
        "level\n"), "")


@pytest.mark.runner
def test_the_loader_reads_a_workspace_files_own_keys_and_not_its_wrapper(tmp_path):
    text = "workspace: ./ws.yaml\ntests:\n  - {id: a, input: hi, criteria: ok}\n"
    loaded = load_tests(write_suite(tmp_path, text, WRAPPED), ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["error"], loaded["tests"][0]["workspace"]) == (None, {"isolation": "shared", "workspaceFileDir": "."})


@pytest.mark.parametrize("template,expected", [
    ("./notes.txt", "a.eval.yaml:1:23: EV110 [error] workspace template './notes.txt' is a file, neither a folder nor a "
                    "'.code-workspace' file: the runner takes any file for a '.code-workspace' one and copies the whole "
                    "folder it is in as the workspace; name the template's folder\n"),
    ("./tpl/app.code-workspace", ""), ("./tpl", ""),
])
def test_a_workspace_template_that_is_a_plain_file_copies_its_whole_folder(tmp_path, template, expected):
    files = (("notes.txt", "hi\n"), ("tpl/app.code-workspace", "{}\n"))
    text = f"workspace: {{template: {template}}}\ntests:\n  - {{id: a, input: hi, criteria: ok}}\n"
    assert run_concise(write_suite(tmp_path, text, files), "--no-cache", "a.eval.yaml")[1] == expected


@pytest.mark.runner
def test_the_runner_copies_the_folder_of_a_plain_file_template(tmp_path):
    listing = tmp_path / "seen"
    text = ("workspace:\n  template: ./notes.txt\n  hooks:\n    before_each:\n"
            "      command: [node, -e, \"require('fs').writeFileSync(process.argv[1], require('fs').readdirSync("
            f"process.argv[2]).sort().join(','))\", '{listing}', '{{{{workspace_path}}}}']\n"
            "tests:\n  - {id: a, input: hi, criteria: ok}\n")
    run = run_written(tmp_path, text, (("notes.txt", "hi\n"), ("other.txt", "x\n")))
    assert run["error"] is None
    assert {"a.eval.yaml", "notes.txt", "other.txt"} <= set(listing.read_text().split(","))
