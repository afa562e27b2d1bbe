"""--staged lints the git index, not the working tree."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from clirun import git, run_concise

GOOD = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
BAD = "evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n"



@pytest.fixture
def repo(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "evals").mkdir()
    return tmp_path


def test_bad_staged_good_in_working_tree(repo):
    (repo / "evals" / "s.yaml").write_text(BAD)
    git(repo, "add", "evals/s.yaml")
    (repo / "evals" / "s.yaml").write_text(GOOD)
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:2:9: EV103 [error] case 'id' must be a string: the "
                                        "runner reads 1 as the number 1 and skips the case; the fix writes \"1\"\n",
                                        "")
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


def test_outside_a_git_repository_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.setenv("LC_ALL", "C")  # git's reason, in English
    monkeypatch.delenv("LANGUAGE", raising=False)
    assert run_concise(tmp_path, "--staged") == (2, "", "evallint: error: --staged reads the git index, which git "
                                                        "cannot read here: not a git repository (or any of the "
                                                        "parent directories): .git\n")


def test_staged_refuses_paths(repo):
    assert run_concise(repo, "--staged", "evals")[0] == 2


# References with --staged: looked up in the index, what the commit will hold.

JUDGED = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
          "      - {name: j, type: llm_judge, prompt: ../prompts/judge.md}\n")
PROMPT = "Grade {{ candidate_answer }} against {{ expected_outcome }}.\n"


def stage_eval(repo, text=JUDGED):
    (repo / "evals" / "s.yaml").write_text(text)
    git(repo, "add", "evals/s.yaml")


def test_an_untracked_prompt_is_missing_from_the_index(repo):
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text(PROMPT)
    stage_eval(repo)
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:6:44: EV404 [error] prompt '../prompts/judge.md' "
                                             "looks like a path but names no file (looked in: evals/); it will be "
                                             "sent as inline prompt text\n", "")
    assert run_concise(repo, "--no-cache", "evals/s.yaml") == (0, "", "")


def test_a_prompt_deleted_in_the_index_is_missing_though_still_on_disk(repo):
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text(PROMPT)
    stage_eval(repo)
    git(repo, "add", "prompts/judge.md")
    git(repo, "commit", "-q", "-m", "first")
    git(repo, "rm", "-q", "--cached", "prompts/judge.md")
    assert (repo / "prompts" / "judge.md").exists()
    missing = (1, "evals/s.yaml:6:44: EV404 [error] prompt '../prompts/judge.md' looks like a path but names no "
                  "file (looked in: evals/); it will be sent as inline prompt text\n", "")
    assert run_concise(repo, "--staged") == missing  # not staged, but it uses the deleted prompt
    (repo / "evals" / "s.yaml").write_text(JUDGED + "# changed\n")
    git(repo, "add", "evals/s.yaml")
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:6:44: EV404 [error] prompt '../prompts/judge.md' "
                                             "looks like a path but names no file (looked in: evals/); it will be "
                                             "sent as inline prompt text\n", "")


def test_a_file_block_missing_from_the_index_is_ev401(repo):
    (repo / "evals" / "context.md").write_text("some context\n")
    stage_eval(repo, "evalcases:\n  - id: a\n    expected_outcome: g\n    input:\n      - role: user\n"
                     "        content: [{type: file, value: context.md}]\n")
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:6:39: EV401 [error] file 'context.md' not found "
                                             "(looked in: evals/, ./)\n", "")
    git(repo, "add", "evals/context.md")
    assert run_concise(repo, "--staged") == (0, "", "")


def test_a_prompt_is_judged_by_its_staged_content(repo):
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text("  \n")
    stage_eval(repo)
    git(repo, "add", "prompts/judge.md")
    (repo / "prompts" / "judge.md").write_text(PROMPT)  # fixed on disk, not staged
    assert run_concise(repo, "--staged") == (0, "evals/s.yaml:6:44: EV402 [warning] prompt template "
                                             "'../prompts/judge.md' is empty\n", "")
    git(repo, "add", "prompts/judge.md")
    (repo / "prompts" / "judge.md").write_text("Grade {{ answer }}.\n")  # broken on disk, not staged
    assert run_concise(repo, "--staged") == (0, "", "")
    code, out, _ = run_concise(repo, "--no-cache", "evals/s.yaml")
    assert (code, [line.split(" [")[0] for line in out.splitlines()]) == (
        1, ["evals/s.yaml:6:44: EV405", "evals/s.yaml:6:44: EV406"])


def test_a_staged_prompt_without_the_variables_the_runner_needs(repo):
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text("Grade {{ answer }}.\n")
    stage_eval(repo)
    git(repo, "add", "prompts/judge.md")
    (repo / "prompts" / "judge.md").write_text(PROMPT)
    code, out, _ = run_concise(repo, "--staged")
    assert (code, out.splitlines()) == (1, [
        "evals/s.yaml:6:44: EV405 [error] prompt template '../prompts/judge.md' uses neither "
        "'{{ candidate_answer }}' nor '{{ expected_messages }}'; the runner skips cases judged by it",
        "evals/s.yaml:6:44: EV406 [warning] prompt template '../prompts/judge.md' uses unknown variable "
        "'{{ answer }}'; known: 'candidate_answer', 'expected_messages', 'question', 'expected_outcome', "
        "'reference_answer', 'input_messages', 'output_messages'"])


TARGETED = "execution:\n  target: fast\nevalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"


def test_target_names_come_from_the_staged_targets_file(repo):
    (repo / ".agentv").mkdir()
    targets = repo / ".agentv" / "targets.yaml"
    targets.write_text("targets:\n  - name: slow\n    provider: mock\n")
    git(repo, "add", ".agentv/targets.yaml")
    git(repo, "commit", "-q", "-m", "targets")
    targets.write_text("targets:\n  - name: slow\n    provider: mock\n  - name: fast\n    provider: mock\n")
    stage_eval(repo, TARGETED)
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:2:11: EV409 [error] target 'fast' is not defined in "
                                             ".agentv/targets.yaml; its targets: 'slow'\n", "")
    assert run_concise(repo, "--no-cache", "evals/s.yaml") == (0, "", "")
    git(repo, "add", ".agentv/targets.yaml")
    targets.write_text("targets:\n  - name: slow\n    provider: mock\n")
    assert run_concise(repo, "--staged") == (0, "", "")


def test_a_targets_file_only_in_the_working_tree_is_not_used(repo):
    (repo / ".agentv").mkdir()
    (repo / ".agentv" / "targets.yaml").write_text("targets:\n  - name: slow\n    provider: mock\n")
    (repo / "evals" / "targets.yaml").write_text("targets:\n  - name: fast\n    provider: mock\n")
    git(repo, "add", ".agentv/targets.yaml")
    stage_eval(repo, TARGETED)
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:2:11: EV409 [error] target 'fast' is not defined in "
                                             ".agentv/targets.yaml; its targets: 'slow'\n", "")
    assert run_concise(repo, "--no-cache", "evals/s.yaml") == (0, "", "")


def test_links_in_the_index_are_followed_inside_the_repository_only(repo, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.md").write_text(PROMPT)
    (repo / "prompts").mkdir()
    (repo / "prompts" / "real.md").write_text("Grade {{ answer }}.\n")
    (repo / "prompts" / "judge.md").symlink_to("real.md")
    (repo / "evals" / "out.md").symlink_to(outside / "secret.md")
    stage_eval(repo, JUDGED + "      - {name: k, type: llm_judge, prompt: out.md}\n")
    git(repo, "add", "prompts", "evals/out.md")
    (repo / "prompts" / "real.md").write_text(PROMPT)  # not staged: the staged text is judged
    code, out, _ = run_concise(repo, "--staged")
    assert (code, [line.split(" [")[0] for line in out.splitlines()]) == (
        1, ["evals/s.yaml:6:44: EV405", "evals/s.yaml:6:44: EV406", "evals/s.yaml:7:44: EV403"])


@pytest.fixture
def git_log(tmp_path_factory):
    """(the environment of a run whose git commands are logged, the log): a ``git`` first on PATH
    writes its arguments to the log, then runs the real git."""
    folder = tmp_path_factory.mktemp("bin")
    log = folder / "git.log"
    wrapper = folder / "git"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{shutil.which("git")}" "$@"\n')
    wrapper.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}, log


def staged_run(repo, count, git_log, *argv) -> tuple:
    """(output lines, git commands started: the first two arguments after the options that turn the
    repository's programs off, which each must start with) of ``evallint --staged ARGV`` in a new
    process, ``count`` eval files staged, each with an error and a prompt to look up in the index."""
    from evallint.load.git import SAFE_OPTIONS

    for n in range(count):
        (repo / "evals" / f"s{n:04}.yaml").write_text(JUDGED.replace("id: a", "id: 1"))
    git(repo, "add", ".")
    env, log = git_log
    log.write_text("")
    proc = subprocess.run([sys.executable, "-m", "evallint", "--staged", "--format", "concise", "-q", *argv],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    started = [line.split() for line in log.read_text().splitlines()]
    assert all(words[:len(SAFE_OPTIONS)] == list(SAFE_OPTIONS) for words in started)
    return proc.stdout.splitlines(), sorted(" ".join(words[len(SAFE_OPTIONS):][:2]) for words in started)


FIXED = ["cat-file --batch-check", "diff --cached", "ls-files -s", "rev-parse --show-toplevel"]


@pytest.mark.skipif(os.name != "posix", reason="the logging git is a shell script")
def test_git_is_started_a_fixed_number_of_times_however_many_files_are_staged(repo, git_log):
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text(PROMPT)
    few, started_few = staged_run(repo, 3, git_log, "-j1")
    assert len(few) == 3 and started_few == ["cat-file --batch"] + FIXED
    many, started_many = staged_run(repo, 300, git_log, "-j1")
    assert len(many) == 300 and started_many == started_few
    assert many[0] == ("evals/s0000.yaml:2:9: EV103 [error] case 'id' must be a string: the runner reads 1 as the "
                       "number 1 and skips the case; the fix writes \"1\"")


@pytest.mark.skipif(os.name != "posix", reason="the logging git is a shell script")
def test_with_a_pool_each_worker_reads_blobs_through_one_git_process(repo, git_log):
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text(PROMPT)
    lines, started = staged_run(repo, 300, git_log, "-j2")
    assert len(lines) == 300 and lines == sorted(lines)
    readers = started.count("cat-file --batch")
    # one for each worker, and one for the main process, which reads the staged YAML files to tell an assertion
    # template among them (the suites that include one are linted with it)
    assert [line for line in started if line != "cat-file --batch"] == FIXED and 1 <= readers <= 3


JUDGED_BY_CODE = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
                  "      - {name: c, type: code_judge, cwd: tools, script: [python, check.py]}\n"
                  "      - {name: d, type: code_judge, script: [uv, run, scripts/run.py]}\n")


def test_code_judge_folders_and_scripts_are_looked_up_in_the_index(repo):
    (repo / "evals" / "tools").mkdir()
    (repo / "evals" / "tools" / "check.py").write_text("print(1)\n")
    (repo / "evals" / "scripts").mkdir()
    (repo / "evals" / "scripts" / "run.py").write_text("")
    stage_eval(repo, JUDGED_BY_CODE)
    assert run_concise(repo, "--staged") == (1, (
        "evals/s.yaml:6:42: EV407 [error] code_judge cwd 'tools' names no folder (looked in: evals/, ./)\n"
        "evals/s.yaml:7:55: EV408 [error] script file 'scripts/run.py' not found in evals/ (the script's working "
        "folder)\n"), "")
    git(repo, "add", "evals/tools", "evals/scripts")
    (repo / "evals" / "scripts" / "run.py").write_text("print(2)\n")  # not staged: the staged script is empty
    assert run_concise(repo, "--staged") == (
        0, "evals/s.yaml:7:55: EV402 [warning] script file 'scripts/run.py' is empty\n", "")


COMPOSITE = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
             "      - name: overall\n        type: composite\n        evaluators:\n"
             "          - {name: accuracy, type: llm_judge}\n          - {name: safety, type: llm_judge}\n"
             "        aggregator: {type: code_judge, path: aggregate.py}\n")


def test_a_composite_aggregator_script_is_looked_up_in_the_index(repo):
    (repo / "evals" / "aggregate.py").write_text("print(1)\n")
    stage_eval(repo, COMPOSITE)
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:11:46: EV408 [error] script file 'aggregate.py' not "
                                             "found in evals/ (the script's working folder)\n", "")
    git(repo, "add", "evals/aggregate.py")
    assert run_concise(repo, "--staged") == (0, "", "")


def test_a_staged_file_over_the_size_cap_is_not_read(repo):
    (repo / ".evallint.toml").write_text("max-file-size = 40\n")
    stage_eval(repo, GOOD + "# " + "x" * 200 + "\n")
    code, out, _ = run_concise(repo, "--staged")
    assert (code, out) == (1, "evals/s.yaml:1:1: EV006 [error] file is 261 bytes, over the size cap of 40 bytes; "
                              "it is not read\n")


def test_a_staged_file_over_the_cap_is_reported_when_its_head_shows_an_agentv_file(repo):
    (repo / ".evallint.toml").write_text("max-file-size = 40\n")
    (repo / "suites").mkdir()
    (repo / "suites" / "s.yaml").write_text(GOOD + "# " + "x" * 200 + "\n")
    (repo / "suites" / "compose.yaml").write_text("services:\n  web: {image: x}\n" + "# " + "x" * 200 + "\n")
    (repo / "suites" / "d.jsonl").write_text('{"id": "a", "input": "q", "expected_outcome": "g"}\n' * 5)
    (repo / "suites" / "results.jsonl").write_text('{"eval_id": "a", "score": 1}\n' * 5)
    git(repo, "add", ".")
    assert run_concise(repo, "--staged") == (1, (
        "suites/d.jsonl:1:1: EV006 [error] file is 255 bytes, over the size cap of 40 bytes; it is not read\n"
        "suites/s.yaml:1:1: EV006 [error] file is 261 bytes, over the size cap of 40 bytes; it is not read\n"), "")


def test_blobs_over_what_a_reader_wants_are_never_held(repo):
    from evallint.run.gitindex import Blobs, blob_sizes

    stage_eval(repo, GOOD)
    sha = subprocess.run(["git", "rev-parse", ":evals/s.yaml"], cwd=repo, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert blob_sizes(str(repo), [sha, "0" * 40, sha]) == [len(GOOD), None, len(GOOD)]
    blobs = Blobs(str(repo))
    try:
        assert blobs.read(sha, len(GOOD) - 1) == (len(GOOD), None)  # over the cap: none of it is kept
        assert blobs.read_many([(sha, 9), ("0" * 40, 9), (sha, 1000)]) == [
            (len(GOOD), GOOD[:9].encode()), None, (len(GOOD), GOOD.encode())]
        assert blobs.read(sha, len(GOOD)) == (len(GOOD), GOOD.encode())
    finally:
        blobs.close()


def test_a_prompt_added_with_intent_to_add_only_is_missing(repo):
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text(PROMPT)
    (repo / "evals" / "empty.md").write_text("")
    stage_eval(repo, JUDGED + "      - {name: k, type: llm_judge, prompt: empty.md}\n")
    git(repo, "add", "evals/empty.md")
    git(repo, "add", "-N", "prompts/judge.md")
    assert run_concise(repo, "--staged") == (1, (
        "evals/s.yaml:6:44: EV404 [error] prompt '../prompts/judge.md' looks like a path but names no file "
        "(looked in: evals/); it will be sent as inline prompt text\n"
        "evals/s.yaml:7:44: EV402 [warning] prompt template 'empty.md' is empty\n"), "")
    git(repo, "add", "prompts/judge.md")
    assert run_concise(repo, "--staged") == (0, "evals/s.yaml:7:44: EV402 [warning] prompt template 'empty.md' is empty\n", "")


def test_a_folder_linked_in_the_index_is_followed_and_a_link_loop_names_no_file(repo):
    (repo / "shared").mkdir()
    (repo / "shared" / "judge.md").write_text(PROMPT)
    (repo / "prompts").symlink_to("shared", target_is_directory=True)
    (repo / "evals" / "loop.md").symlink_to("loop.md")
    stage_eval(repo, JUDGED + "      - {name: k, type: llm_judge, prompt: loop.md}\n")
    git(repo, "add", "shared", "prompts", "evals/loop.md")
    (repo / "shared" / "judge.md").unlink()  # deleted on disk, still staged
    assert run_concise(repo, "--staged") == (1, "evals/s.yaml:7:44: EV404 [error] prompt 'loop.md' looks like a path "
                                             "but names no file (looked in: evals/, ./); it will be sent as inline "
                                             "prompt text\n", "")


def test_a_staged_link_is_followed_in_the_index_as_the_working_tree_run_follows_it(repo, tmp_path_factory):
    """A staged symbolic link is linted as the file it leads to (not as its link text, a false EV008); one
    that loops or leaves the root is EV009, as on disk."""
    (repo / "real").mkdir()
    (repo / "real" / "suite.txt").write_text("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
                                             "    colour: 1\n")
    (repo / "evals").mkdir(exist_ok=True)
    (repo / "evals" / "linked.yaml").symlink_to(os.path.join("..", "real", "suite.txt"))
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "suite.yaml"
    elsewhere.write_text("evalcases: []\n")
    (repo / "evals" / "out.yaml").symlink_to(elsewhere)
    (repo / "evals" / "loop.yaml").symlink_to("loop.yaml")
    git(repo, "add", "-A")
    expected = [
        "evals/linked.yaml:5:5: EV109",
        "evals/loop.yaml:1:1: EV009",
        "evals/out.yaml:1:1: EV009",
    ]
    for argv in (["--staged"], ["--staged", "-j2"], ["--no-cache", "evals"]):
        code, out, _ = run_concise(repo, *argv)
        assert (code, [line.split(" [")[0] for line in out.splitlines()]) == (1, expected), argv
