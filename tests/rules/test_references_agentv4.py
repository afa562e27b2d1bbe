"""What an AgentV 4.42.4 suite points at, checked as its loader and runner look it up: file:// prompts and
their templates, bare prompts that look like paths (sent as text), executable prompts' files, custom
assertion types ('.agentv/assertions/'), and the files a suite reads from its own folder."""
from __future__ import annotations

import json
import subprocess

import pytest

from agentv_runner import HERE, load_tests, require_runner, run_suite
from agreement import run_written
from clirun import git, run_concise

SUITE = """\
workspace: ./missing-workspace.yaml
tests:
  - id: a
    criteria: c
    input: hi
    assertions:
      - {name: g1, type: llm-grader, prompt: "file://prompts/judge.md"}
      - {name: g2, type: llm-grader, prompt: "file://prompts/nothing.md"}
      - {name: g3, type: llm-grader, prompt: prompts/judge.md}
      - {name: g4, type: llm-grader, prompt: {command: [bun, prompts/gone.ts]}}
      - {name: g5, type: word-count}
      - {name: g6, type: sentiment-check}
      - {name: g7, type: word_count}
  - file://more-tests.yaml
"""


def test_each_reference_of_an_agentv_4_suite_is_looked_up_as_the_runner_does(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals" / "prompts").mkdir(parents=True)
    (tmp_path / ".agentv" / "assertions").mkdir(parents=True)
    (tmp_path / ".agentv" / "assertions" / "word-count.ts").write_text("export default {}\n")
    (tmp_path / "evals" / "prompts" / "judge.md").write_text("Grade {{ output }} against {{ criteria }} and {{ colour }}.\n")
    (tmp_path / "evals" / "a.eval.yaml").write_text(SUITE)
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:1:12: EV401 [error] workspace file './missing-workspace.yaml' not found (looked in: evals/); "
        "the runner rejects the suite\n"
        "evals/a.eval.yaml:7:46: EV406 [warning] prompt template 'prompts/judge.md' uses unknown variable "
        "'{{ colour }}'; known: 'expected_output', 'criteria', 'metadata', 'metadata_json', 'rubrics', 'rubrics_json', "
        "'input', 'output', 'file_changes', 'tool_calls'\n"
        "evals/a.eval.yaml:8:46: EV404 [error] prompt file 'prompts/nothing.md' not found (looked in: evals/, ./); the "
        "runner skips the test\n"
        "evals/a.eval.yaml:9:46: EV404 [error] prompt 'prompts/judge.md' looks like a path, but the runner reads a "
        "prompt from a file only after 'file://': it sends these words to the grader as its prompt; write "
        "'file://prompts/judge.md'\n"
        "evals/a.eval.yaml:10:62: EV408 [error] prompt command file 'prompts/gone.ts' not found (looked in: evals/, "
        "./); the runner skips the test\n"
        "evals/a.eval.yaml:12:26: EV301 [error] assertion type 'sentiment-check' is no built-in kind and no custom "
        "grader '.agentv/assertions/sentiment-check.ts' (or .js, .mts, .mjs) is found from this folder up; the run "
        "fails with 'Unknown grader type'\n"
        "evals/a.eval.yaml:14:5: EV401 [error] file of tests 'more-tests.yaml' not found (looked in: evals/); the "
        "runner rejects the suite\n"), "")


GRADER_FOLDERS = """\
tests:
  - id: a
    criteria: c
    input: hi
    assertions:
      - {name: beside-cwd, type: code-grader, command: [python3, check.py], cwd: scripts}
      - {name: from-the-eval-folder, type: code-grader, command: [python3, scripts/check.py]}
      - {name: cwd-twice, type: code-grader, command: [python3, scripts/check.py], cwd: scripts}
      - {name: from-the-root, type: code-grader, command: [python3, tools/check.py]}
"""


def _repo(tmp_path, suite: str, files: tuple):
    """A repository with the suite ``evals/a.eval.yaml`` and the ``files`` (paths) it runs, each executable."""
    (tmp_path / ".git").mkdir()
    for path in files:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("\n")
        (tmp_path / path).chmod(0o755)
    (tmp_path / "evals").mkdir(exist_ok=True)
    (tmp_path / "evals" / "a.eval.yaml").write_text(suite)
    return tmp_path


def _grader_folders(tmp_path):
    return _repo(tmp_path, GRADER_FOLDERS, ("evals/scripts/check.py", "tools/check.py"))


def test_a_code_graders_script_is_looked_up_in_the_folder_its_command_runs_in(tmp_path):
    """Its 'cwd', else the eval file's folder (runtime/exec.ts runs the argv there): not from the folders above."""
    assert run_concise(_grader_folders(tmp_path), "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:8:65: EV408 [error] script file 'scripts/check.py' not found in evals/scripts/ (the folder "
        "the command runs in); the command fails when the grader runs\n"
        "evals/a.eval.yaml:9:69: EV408 [error] script file 'tools/check.py' not found in evals/ (the folder the "
        "command runs in); the command fails when the grader runs\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_code_graders_command_in_its_cwd_else_the_eval_files_folder(tmp_path):
    loaded = load_tests(_grader_folders(tmp_path), ["evals/a.eval.yaml"])["evals/a.eval.yaml"]
    assert [grader["resolvedCwd"] for grader in loaded["tests"][0]["assertions"]] == [
        "evals/scripts", "evals", "evals/scripts", "evals"]


def test_a_template_without_the_answer_makes_the_runner_skip_the_test(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "judge.md").write_text("Is {{ criteria }} met?\n")
    (tmp_path / "evals" / "a.eval.yaml").write_text(
        "tests:\n  - id: a\n    criteria: c\n    input: hi\n    assertions:\n"
        "      - {name: g, type: llm-grader, prompt: 'file://judge.md'}\n")
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:6:45: EV405 [error] prompt template 'judge.md' uses neither '{{ output }}' nor "
        "'{{ expected_output }}'; the runner skips the test\n"), "")


# templates that show the grader the reference answer alone, and one that shows it the agent's tool calls too
BLIND = (("evals/ref.md", "Compare with the reference:\n{{ expected_output }}\n"),
         ("evals/calls.md", "Reference: {{ expected_output }}\nCalls: {{ tool_calls }}\n"))
BLIND_SUITE = ("tests:\n  - id: a\n    input: hi\n    expected_output: hello\n    assertions:\n"
               "      - {type: llm-grader, prompt: 'file://ref.md'}\n"
               "      - {type: llm-grader, prompt: 'file://calls.md'}\n")


def _blind(root):
    (root / ".git").mkdir(parents=True)
    for path, text in BLIND + (("evals/a.eval.yaml", BLIND_SUITE),):
        (root / path).parent.mkdir(exist_ok=True)
        (root / path).write_text(text)
    return root


def test_a_template_with_the_reference_answer_but_not_the_answer_is_an_error(tmp_path):
    assert run_concise(_blind(tmp_path), "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:6:36: EV405 [error] prompt template 'ref.md' uses '{{ expected_output }}' but not "
        "'{{ output }}': it is the whole grader prompt, so the grader never sees the answer; add '{{ output }}'\n"), "")


@pytest.mark.runner
def test_the_runner_sends_a_template_without_the_answer_as_the_whole_grader_prompt(tmp_path):
    ran = run_suite(_blind(tmp_path / "repo"), "evals/a.eval.yaml", tmp_path)
    assert [graded["prompt"] for graded in ran["graded"]] == [
        "Compare with the reference:\nhello\n", "Reference: hello\nCalls: \n"]


# a code-grader aggregator given a 'cwd', and a script of the same name in the eval file's folder and in that cwd
AGGREGATOR_CWD = ("tests:\n  - id: t\n    input: hi\n    assertions:\n      - name: both\n        type: composite\n"
                  "        assertions: [{name: m, type: contains, value: answer}]\n"
                  "        aggregator: {type: code-grader, path: python3 agg.py, cwd: ../scripts}\n")


def _aggregator_cwd(root):
    (root / ".git").mkdir(parents=True)
    for folder, score in (("evals", 0.25), ("scripts", 0.75)):
        (root / folder).mkdir()
        (root / folder / "agg.py").write_text(f'import sys\nsys.stdin.read()\nprint(\'{{"score": {score}}}\')\n')
    (root / "evals" / "a.eval.yaml").write_text(AGGREGATOR_CWD)
    return root


def test_a_code_grader_aggregators_cwd_is_an_error(tmp_path):
    assert run_concise(_aggregator_cwd(tmp_path), "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:8:63: EV115 [error] 'cwd' is not read in a code-grader aggregator: the runner runs its "
        "script in the eval file's folder; name the script from there\n"), "")
    (tmp_path / "evals" / "a.eval.yaml").write_text(AGGREGATOR_CWD.replace("../scripts", "."))  # that folder: unread
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (0, (
        "evals/a.eval.yaml:8:63: EV109 [warning] unknown key 'cwd' in aggregator (known keys: path, prompt, threshold, "
        "type, weights)\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_code_grader_aggregator_in_the_eval_files_folder(tmp_path):
    ran = run_suite(_aggregator_cwd(tmp_path / "repo"), "evals/a.eval.yaml", tmp_path)
    assert ran["scores"] == {"t": 0.25}


def test_an_aggregator_prompt_is_its_words_even_after_file(tmp_path):
    """An llm-grader aggregator's prompt is sent as written, a path included (AgentV 4.42.4's composite grader
    uses the words, never a file's text); after 'file://' the runner also needs the file, or skips the test."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "decide.md").write_text("Decide from {{EVALUATOR_RESULTS_JSON}}\n")
    (tmp_path / "evals" / "a.eval.yaml").write_text(
        "tests:\n  - id: a\n    criteria: c\n    input: hi\n    assertions:\n"
        "      - name: both\n        type: composite\n        assertions:\n"
        "          - {name: m, type: contains, value: x}\n"
        "        aggregator: {type: llm-grader, prompt: 'file://decide.md'}\n"
        "  - id: b\n    criteria: c\n    input: hi\n    assertions:\n"
        "      - name: both\n        type: composite\n        assertions:\n"
        "          - {name: m, type: contains, value: x}\n"
        "        aggregator: {type: llm-grader, prompt: 'file://gone.md'}\n"
        "  - id: c\n    criteria: c\n    input: hi\n    assertions:\n"
        "      - name: both\n        type: composite\n        assertions:\n"
        "          - {name: m, type: contains, value: x}\n"
        "        aggregator: {type: llm-grader, prompt: 'Decide from {{EVALUATOR_RESULTS_JSON}}'}\n")
    words = ("the runner sends these words as the aggregator's prompt, never a file's text (after 'file://' it only "
             "checks that the file exists): write the prompt itself, with {{EVALUATOR_RESULTS_JSON}} where the "
             "members' results go")
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        f"evals/a.eval.yaml:10:48: EV404 [error] aggregator prompt 'decide.md' looks like a path, but {words}\n"
        "evals/a.eval.yaml:19:48: EV404 [error] prompt file 'gone.md' not found (looked in: evals/, ./); the runner "
        "skips the test\n"), "")


FILES_SUITE = """\
input_files: [docs/shared.md, docs/gone-for-all.md]
workspace:
  template: tmpl-above
  hooks:
    before_all: {command: "echo hi", cwd: hooks-above}
    after_all: {command: "echo bye", cwd: hooks}
    after_each: {command: "echo bye", cwd: ws.code-workspace}
tests:
  - id: a
    criteria: c
    input: hi
    input_files: [docs/p.md, docs/gone.md, "docs/{{ name }}.md"]
    vars: {name: p}
  - id: b
    criteria: c
    input: hi
    workspace: {template: ws.code-workspace}
  - id: c
    criteria: c
    input: hi
    workspace: {template: tmpl}
"""


def _files_repo(tmp_path) -> None:
    """A repository whose suite names input files (found from the eval file's folder up), workspace templates
    and hook folders (found in the eval file's folder only); some of each are only in the folder above."""
    (tmp_path / ".git").mkdir()
    for folder in ("docs", "tmpl-above", "hooks-above", "evals/docs", "evals/tmpl", "evals/hooks"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "docs" / "shared.md").write_text("shared\n")
    (tmp_path / "evals" / "docs" / "p.md").write_text("policy\n")
    (tmp_path / "evals" / "ws.code-workspace").write_text("{}\n")
    (tmp_path / "evals" / "a.eval.yaml").write_text(FILES_SUITE)


def test_input_files_workspace_templates_and_hook_folders_are_looked_up_as_the_runner_does(tmp_path):
    """An input file is found from the eval file's folder up ('docs/shared.md' at the root is found); a
    template (a folder or a file) and a hook's folder only in the eval file's folder, a hook's as a folder."""
    _files_repo(tmp_path)
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:1:31: EV401 [error] input file 'docs/gone-for-all.md' not found (looked in: evals/, ./); "
        "the runner leaves it out of the input it sends (warning 'File not found')\n"
        "evals/a.eval.yaml:3:13: EV401 [error] workspace template 'tmpl-above' not found (looked in: evals/); the run "
        "fails when the runner prepares the workspace\n"
        "evals/a.eval.yaml:5:43: EV407 [error] hook cwd 'hooks-above' names no folder (looked in: evals/); the hook "
        "fails to start when the runner runs it\n"
        "evals/a.eval.yaml:7:44: EV407 [error] hook cwd 'ws.code-workspace' names no folder (looked in: evals/); the "
        "hook fails to start when the runner runs it\n"
        "evals/a.eval.yaml:12:30: EV401 [error] input file 'docs/gone.md' not found (looked in: evals/, ./); the "
        "runner leaves it out of the input it sends (warning 'File not found')\n"
        + "".join(f"evals/a.eval.yaml:{line}:17: EV125 [error] this test's workspace 'template' is never read: the tests "
                  "share one workspace folder, which the run sets up from the first test's workspace (merged with the "
                  "suite's) alone; set it in the suite's workspace, or in the first test's\n" for line in (17, 21))), "")


def test_a_dataset_lines_input_files_are_looked_up_too(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "here.md").write_text("here\n")
    (tmp_path / "data" / "lines.jsonl").write_text(
        '{"id": "a", "input": "hi", "criteria": "c", "input_files": ["here.md", "gone.md"]}\n')
    assert run_concise(tmp_path, "--no-cache", "data/lines.jsonl") == (1, (
        "data/lines.jsonl:1:72: EV401 [error] input file 'gone.md' not found (looked in: data/, ./); the runner "
        "leaves it out of the input it sends (warning 'File not found')\n"), "")


# what AgentV 4.42.4 does at run time with a workspace's template and a hook's folder: each result is "ok" or
# the error it throws
AT_RUN_TIME = """
import { executeWorkspaceScript, resolveWorkspaceTemplate } from "@agentv/core";
const [template, cwd] = JSON.parse(process.argv[1]);
const outcome = (promise) => promise.then(() => "ok", (e) => e.message);
console.log(JSON.stringify([await outcome(resolveWorkspaceTemplate(template)),
  await outcome(executeWorkspaceScript({command: ["true"], cwd}, {workspacePath: cwd, testId: "a", evalRunId: "r"}))]));
"""


@pytest.mark.runner
def test_the_runner_drops_a_missing_input_file_and_fails_on_a_missing_template_or_hook_folder(tmp_path):
    """The live loader warns 'File not found' and drops just the missing input files; it resolves a template and
    a hook's folder from the eval file's folder only (here to folders that are not there), and the run then fails
    on each."""
    _files_repo(tmp_path)
    loaded = load_tests(tmp_path, ["evals/a.eval.yaml"])["evals/a.eval.yaml"]
    assert [log.splitlines()[0] for log in loaded["logs"]] == [
        "Warning: File not found: docs/gone.md"] + ["Warning: File not found: docs/gone-for-all.md"] * 2
    files = {test["id"]: [block["value"] for block in test["input"][0]["content"] if block["type"] == "file"]
             for test in loaded["tests"]}
    assert files == {"a": ["docs/p.md", "docs/p.md"], "b": ["docs/shared.md"], "c": ["docs/shared.md"]}
    workspace = loaded["tests"][0]["workspace"]
    template, cwd = workspace["template"], workspace["hooks"]["before_all"]["cwd"]
    assert (template, cwd) == ("evals/tmpl-above", "evals/hooks-above")
    assert [test["workspace"]["template"] for test in loaded["tests"][1:]] == ["evals/ws.code-workspace", "evals/tmpl"]
    done = subprocess.run([require_runner(), "--input-type=module", "-e", AT_RUN_TIME,
                           json.dumps([str(tmp_path / template), str(tmp_path / cwd)])],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert json.loads(done.stdout) == [f"ENOENT: no such file or directory, stat '{tmp_path / template}'",
                                       "spawn true ENOENT"]


@pytest.mark.runner
def test_the_runner_rejects_a_suite_whose_workspace_file_is_missing(tmp_path):
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "a.eval.yaml").write_text("workspace: ./missing-workspace.yaml\n"
                                                    "tests:\n  - {id: a, criteria: c, input: hi}\n")
    loaded = load_tests(tmp_path, ["evals/a.eval.yaml"])["evals/a.eval.yaml"]
    assert loaded["error"] == ("Workspace file not found: ./missing-workspace.yaml (resolved to "
                               "evals/missing-workspace.yaml)")


GLOBS = {
    "evals/matches.eval.yaml": "tests:\n  - file://../data/*.jsonl\n",
    "evals/no-folder.eval.yaml": "tests:\n  - file://../nodata/*.jsonl\n  - {id: b, criteria: c, input: hi}\n",
    "evals/alone.eval.yaml": "tests: ../data/*.jsonl\n",
}


@pytest.mark.runner
def test_a_glob_item_of_tests_reads_the_files_it_matches_and_a_path_alone_is_read_as_written(tmp_path):
    """An item of a suite's 'tests' list may be a glob, which the loader expands (a warning when it matches
    nothing, the suite kept); 'tests' given as a path alone is read as written, so a glob there is a file it
    cannot read, and it rejects the suite."""
    (tmp_path / ".git").mkdir()
    for folder in ("evals", "data"):
        (tmp_path / folder).mkdir()
    (tmp_path / "data" / "cases.jsonl").write_text('{"id": "a", "criteria": "c", "input": "hi"}\n')
    for name, text in GLOBS.items():
        (tmp_path / name).write_text(text)
    live = load_tests(tmp_path, sorted(GLOBS))
    assert {name: ([t["id"] for t in live[name]["tests"] or []], bool(live[name]["error"])) for name in GLOBS} == {
        "evals/matches.eval.yaml": (["a"], False), "evals/no-folder.eval.yaml": (["b"], False),
        "evals/alone.eval.yaml": ([], True)}
    assert run_concise(tmp_path, "--no-cache", "evals") == (1, (
        "evals/alone.eval.yaml:1:8: EV401 [error] file of tests '../data/*.jsonl' not found (looked in: evals/); the "
        "runner rejects the suite\n"
        "evals/no-folder.eval.yaml:2:5: EV401 [error] file of tests pattern '../nodata/*.jsonl' matches no file (looked "
        "in: nodata); the runner loads no test from it (warning 'Glob pattern matched no files')\n"), "")


def _grader_named_with_underscore(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv" / "assertions").mkdir(parents=True)
    (tmp_path / ".agentv" / "assertions" / "word_count.ts").write_text("export default {}\n")
    (tmp_path / "a.eval.yaml").write_text("tests:\n  - id: a\n    criteria: c\n    input: hi\n    assertions:\n"
                                          "      - {type: word_count, min: 3}\n")
    return tmp_path


def test_a_custom_grader_file_named_with_an_underscore_is_never_found(tmp_path):
    """The loader reads the type 'word_count' as 'word-count'; the file registers its own name, 'word_count'."""
    assert run_concise(_grader_named_with_underscore(tmp_path), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:16: EV301 [error] assertion type 'word_count' is read as 'word-count' (the runner reads '_' as "
        "'-'), but the grader file '.agentv/assertions/word_count.ts' registers 'word_count'; the run fails with "
        "'Unknown grader type': name the file 'word-count.ts' and write 'word-count'\n"
        "a.eval.yaml:6:28: EV317 [error] 'min' never reaches the grader of custom type 'word_count': the runner runs its "
        "script with no configuration ('config' is null), so the setting has no effect\n"), "")


# what AgentV 4.42.4 registers from a folder's '.agentv/assertions/', and whether it finds a grader of a type
REGISTERED = """
import { createBuiltinRegistry, discoverAssertions } from "@agentv/core";
const registry = createBuiltinRegistry();
const found = await discoverAssertions(registry, process.argv[1]);
console.log(JSON.stringify([found, registry.has("word_count"), registry.has("word-count")]));
"""


@pytest.mark.runner
def test_the_runner_reads_the_type_with_a_hyphen_and_registers_the_file_under_its_own_name(tmp_path):
    _grader_named_with_underscore(tmp_path)
    (test,) = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert test["assertions"][0]["type"] == "word-count"
    done = subprocess.run([require_runner(), "--input-type=module", "-e", REGISTERED, str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert json.loads(done.stdout) == [["word_count"], True, False]


# the configuration the loader stores for a test's first grader, and the one the grader the runner makes holds
CONFIGURED = """
import { createBuiltinRegistry, discoverAssertions, loadTests } from "@agentv/core";
import path from "node:path";
const [root, file] = process.argv.slice(1);
const registry = createBuiltinRegistry();
await discoverAssertions(registry, root);
const [test] = await loadTests(path.join(root, file), root);
const grader = test.assertions[0];
const made = await registry.create(grader, { agentTimeoutMs: 1000, evalFileDir: root });
console.log(JSON.stringify([grader.config ?? null, made.config ?? null]));
"""


@pytest.mark.runner
def test_the_runner_gives_a_custom_types_grader_no_configuration(tmp_path):
    """EV317 (tests/format/test_agentv4_rules.py): the loader stores the setting, the grader made of the file of
    '.agentv/assertions/' holds none, and its script is sent 'config: null'."""
    (tmp_path / ".agentv" / "assertions").mkdir(parents=True)
    (tmp_path / ".agentv" / "assertions" / "sentiment.ts").write_text("export default {}\n")
    (tmp_path / "a.eval.yaml").write_text("tests:\n  - {id: a, criteria: c, input: hi, assertions: [{type: sentiment, "
                                          "threshold: 0.8}]}\n")
    done = subprocess.run([require_runner(), "--input-type=module", "-e", CONFIGURED, str(tmp_path), "a.eval.yaml"],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert json.loads(done.stdout) == [{"threshold": 0.8}, None]


def _custom_type_above_the_root(tmp_path):
    (tmp_path / ".agentv" / "assertions").mkdir(parents=True)
    (tmp_path / ".agentv" / "assertions" / "sentiment.ts").write_text("export default {}\n")
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    (tmp_path / "proj" / "evals").mkdir()
    (tmp_path / "proj" / "evals" / "a.eval.yaml").write_text(
        "tests:\n  - {id: a, criteria: c, input: hi, assertions: [{type: sentiment}, {type: tone}]}\n")
    return tmp_path


def test_a_custom_type_is_looked_for_above_the_repository_root_too(tmp_path):
    """As the runner looks, up to the file system's root: 'sentiment' is found there, 'tone' nowhere."""
    assert run_concise(_custom_type_above_the_root(tmp_path) / "proj", "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:2:76: EV301 [error] assertion type 'tone' is no built-in kind and no custom grader "
        "'.agentv/assertions/tone.ts' (or .js, .mts, .mjs) is found from this folder up; the run fails with 'Unknown "
        "grader type'\n"), "")


@pytest.mark.runner
def test_the_runner_registers_a_custom_type_found_above_the_repository_root(tmp_path):
    evals = _custom_type_above_the_root(tmp_path) / "proj" / "evals"
    done = subprocess.run([require_runner(), "--input-type=module", "-e", REGISTERED, str(evals)],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert json.loads(done.stdout)[0] == ["sentiment"]


HOOK_PLACEHOLDERS = ("workspace:\n"
                     "  hooks:\n"
                     "    before_each:\n"
                     "      command: node s.mjs --ws {{ workspace_path }} --id {{test_id}}\n"
                     "    after_each:\n"
                     "      command: [node, s.mjs, \"{{ workspace_path }}\", \"--case={{case_inputs}}\"]\n"
                     "tests:\n  - {id: t, input: hi, criteria: c}\n")


def test_a_hooks_placeholder_the_runner_leaves_as_written_is_an_error(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "s.mjs").write_text("\n")
    (tmp_path / "a.eval.yaml").write_text(HOOK_PLACEHOLDERS)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:4:32: EV509 [error] '{{ workspace_path }}' is not filled in: the runner fills a hook's "
        "placeholders only written without spaces, so the hook gets the text as written; write '{{workspace_path}}'\n"
        "a.eval.yaml:6:31: EV509 [error] '{{ workspace_path }}' is not filled in: the runner fills a hook's "
        "placeholders only written without spaces, so the hook gets the text as written; write '{{workspace_path}}'\n"
        "a.eval.yaml:6:62: EV509 [error] '{{case_inputs}}' is no placeholder the runner fills in a hook's command (did "
        "you mean 'case_input'?), so the hook gets the text as written; known: 'workspace_path', 'test_id', "
        "'eval_run_id', 'case_input', 'case_metadata'\n"), "")


# a test's vars in its hook's command (and the suite's), and a name of neither, which may be text the command means
HOOK_VARS = ("workspace:\n  hooks:\n    before_all: {command: [sh, s.sh, '{{ region }}', '{{ other }}']}\n"
             "tests:\n"
             "  - id: t\n    input: Fix {{ service }} in {{ region }}.\n    criteria: c\n"
             "    vars: {service: billing, region: eu}\n"
             "    workspace:\n      hooks:\n        before_each: {command: [sh, s.sh, --service, '{{service}}']}\n")


def test_a_tests_var_in_a_hooks_command_is_an_error(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "s.sh").write_text("\n")
    (tmp_path / "a.eval.yaml").write_text(HOOK_VARS)
    said = ("is not filled in: the runner fills a test's vars into its criteria, input and expected output, not into a "
            "hook's command, so the hook gets the text as written; write the value, or use one of the placeholders it "
            "fills: '{{workspace_path}}', '{{test_id}}', '{{eval_run_id}}', '{{case_input}}', '{{case_metadata}}'")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:3:39: EV509 [error] '{{{{ region }}}}' {said}\n"
        f"a.eval.yaml:11:55: EV509 [error] '{{{{service}}}}' {said}\n"), "")


@pytest.mark.runner
def test_the_runner_fills_no_tests_var_into_its_hooks_command(tmp_path):
    log = tmp_path / "log"
    text = HOOK_VARS.replace("[sh, s.sh, --service,", f"[sh, -c, 'cat >/dev/null; echo $0 >> {log}',")
    assert run_written(tmp_path, text, (("s.sh", "cat >/dev/null\n"),))["error"] is None
    assert log.read_text() == "{{service}}\n"


# the arguments AgentV 4.42.4 gives a workspace hook's command (a shell that prints each one after a '|')
FILLED = """
import { executeWorkspaceScript } from "@agentv/core";
const command = ["sh", "-c", 'cat >/dev/null; printf "%s|" "$@"', "sh", ...JSON.parse(process.argv[1])];
console.log(await executeWorkspaceScript({command, cwd: process.argv[2]},
                                         {workspacePath: "/ws", testId: "t", evalRunId: "r"}));
"""


@pytest.mark.runner
def test_the_runner_fills_a_hooks_placeholder_only_written_without_spaces(tmp_path):
    words = ["{{ workspace_path }}", "{{workspace_path}}", "--case={{case_inputs}}", "{{test_id}}"]
    done = subprocess.run([require_runner(), "--input-type=module", "-e", FILLED, json.dumps(words), str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert done.stdout == "{{ workspace_path }}|/ws|--case={{case_inputs}}|t|\n"


HOOK_SCRIPTS = ("workspace:\n"
                "  hooks:\n"
                "    before_all:\n"
                "      command: node scripts/missing.mjs --x\n"
                "    before_each:\n"
                "      command: [node, scripts/ok.mjs]\n"
                "    after_each:\n"
                "      command: [python3, ../tools/gone.py]\n"
                "      cwd: scripts\n"
                "    after_all:\n"
                "      command: [bash, -c, \"rm -rf {{workspace_path}}/tmp\"]\n"
                "tests:\n  - {id: t, input: hi, criteria: c}\n")


def _hook_scripts(tmp_path):
    return _repo(tmp_path, HOOK_SCRIPTS, ("evals/scripts/ok.mjs",))


def test_a_hooks_script_file_is_looked_up_in_the_folder_the_hook_runs_in(tmp_path):
    """Its 'cwd', else the eval file's folder (workspace/script-executor.ts)."""
    assert run_concise(_hook_scripts(tmp_path), "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:4:16: EV408 [error] hook script file 'scripts/missing.mjs' not found in evals/ (the folder "
        "the command runs in); the hook fails when the runner runs it\n"
        "evals/a.eval.yaml:8:26: EV408 [error] hook script file '../tools/gone.py' not found in evals/scripts/ (the "
        "folder the command runs in); the hook fails when the runner runs it\n"), "")


PROGRAMS = ("workspace:\n"
            "  hooks:\n"
            "    before_all:\n"
            "      command: [setup.sh, --fast]\n"
            "    before_each:\n"
            "      command: setup.sh --slow\n"
            "    after_each:\n"
            "      command: [./setup.sh]\n"
            "    after_all:\n"
            "      command: [tool-on-path.sh]\n"
            "tests:\n"
            "  - id: t\n"
            "    input: hi\n"
            "    assertions:\n"
            "      - {name: bare, type: code-grader, command: [check.py]}\n"
            "      - {name: path, type: code-grader, command: [./check.py]}\n"
            "      - {name: python, type: code-grader, command: [python3, check.py]}\n"
            "      - {name: shell, type: code-grader, command: check.py --strict}\n"
            "      - {name: plain, type: code-grader, command: [check, --strict]}\n")


def test_a_commands_first_word_without_a_slash_is_a_program_on_path(tmp_path):
    """The runner starts hooks and code-graders without a shell (runtime/exec.ts), so a first word without a '/'
    is looked up on PATH only: a file of that name beside the eval file, whatever its name, is not run (EV408), and
    a name that is not there is a program of the machine (not reported). A code-grader's string is the shell's
    'sh -lc' command, which looks it up the same way. './setup.sh' and 'python3 check.py' run the files."""
    _repo(tmp_path, PROGRAMS, ("evals/setup.sh", "evals/check.py", "evals/check"))
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:4:17: EV408 [error] hook script file 'setup.sh' is in evals/, but the runner looks a "
        "command's first word without a '/' up on PATH only (it starts commands without a shell), so the hook fails "
        "when the runner runs it unless PATH has one; write './setup.sh' (an executable file) or put its interpreter "
        "first\n"
        "evals/a.eval.yaml:6:16: EV408 [error] hook script file 'setup.sh' is in evals/, but the runner looks a "
        "command's first word without a '/' up on PATH only (it starts commands without a shell), so the hook fails "
        "when the runner runs it unless PATH has one; write './setup.sh' (an executable file) or put its interpreter "
        "first\n"
        "evals/a.eval.yaml:7:5: EV134 [warning] 'after_each' runs its command before the runner grades the answer, not "
        "after: the code-grader of test 't' that inspects the workspace finds it as the hook leaves it; do in "
        "'after_each' only what the grading does not need, and check the agent's work in the grader\n"
        + "".join(f"evals/a.eval.yaml:{place}: EV408 [error] script file '{name}' is in evals/, but {looks}, so the "
                  f"command fails when the grader runs unless PATH has one; write './{name}' (an executable file) or "
                  "put its interpreter first\n" for place, name, looks in (
                      ("15:51", "check.py", RUNNER_LOOKS), ("18:51", "check.py", SHELL_LOOKS),
                      ("19:52", "check", RUNNER_LOOKS)))), "")


# why a command's first word is looked up on PATH only: the runner starts it without a shell, or a shell does
RUNNER_LOOKS = "the runner looks a command's first word without a '/' up on PATH only (it starts commands without a shell)"
SHELL_LOOKS = "the shell it runs in looks a command's first word without a '/' up on PATH only"


# a suite of one test whose workspace has the hooks that follow
TEST_HOOKS = "tests:\n  - id: t\n    input: hi\n    criteria: c\n    workspace:\n      hooks:\n"
MERGED_HOOKS = ("workspace:\n"
                "  hooks:\n"
                "    before_all: {command: [sh, a.sh], cwd: scripts}\n"
                "    after_all: {command: [sh, a.sh], cwd: scripts}\n" + TEST_HOOKS +
                "        before_all: {command: [sh, b.sh]}\n"
                "        after_all: {command: [sh, gone.sh]}\n")

def test_a_tests_hook_runs_in_the_folder_of_the_suites_hook_it_is_merged_with(tmp_path):
    """The loader merges a test's hook with the suite's of the same name (yaml-parser.ts mergeWorkspaceConfigs): a
    hook without its own 'cwd' runs in the suite hook's, and the suite's command, replaced, never runs (EV124)."""
    _repo(tmp_path, MERGED_HOOKS, ("evals/scripts/a.sh", "evals/scripts/b.sh"))
    replaced = ("command never runs: the first test's own {0!r} replaces it (the runner merges a test's hooks over the "
                "suite's, key by key) and the run runs only the first test's; keep one of them")
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:3:5: EV124 [error] the suite's 'before_all' " + replaced.format("before_all") + "\n"
        "evals/a.eval.yaml:4:5: EV124 [error] the suite's 'after_all' " + replaced.format("after_all") + "\n"
        "evals/a.eval.yaml:12:35: EV408 [error] hook script file 'gone.sh' not found in evals/scripts/ (the folder the "
        "command runs in); the hook fails when the runner runs it\n"), "")


@pytest.mark.runner
def test_the_loader_gives_a_tests_hook_the_cwd_of_the_suites(tmp_path):
    _repo(tmp_path, MERGED_HOOKS, ("evals/scripts/a.sh", "evals/scripts/b.sh"))
    (test,) = load_tests(tmp_path, ["evals/a.eval.yaml"])["evals/a.eval.yaml"]["tests"]
    assert test["workspace"]["hooks"]["before_all"] == {"command": ["sh", "b.sh"], "cwd": "evals/scripts"}


NOT_MERGED = ("workspace:\n"
              "  hooks:\n"
              "    after_each: {reset: fast, cwd: scripts}\n" + TEST_HOOKS +
              "        after_each: {command: [./setup.sh]}\n")
FROM_FILE = ("workspace: ws/ws.yaml\n" + TEST_HOOKS +
             "        before_all: {command: [./setup.sh]}\n"
             "        after_all: {command: [./teardown.sh]}\n")

def test_a_tests_hook_takes_no_folder_from_a_suite_hook_without_a_command_but_a_workspace_files(tmp_path):
    """The loader keeps a hook's 'cwd' only beside a command (yaml-parser.ts parseWorkspaceScriptConfig), so the
    test's hook runs in the eval file's folder; merged with a suite's workspace file, a test's hook without a 'cwd'
    runs in the file's folder (script-executor.ts)."""
    _repo(tmp_path, NOT_MERGED, ("evals/setup.sh", "evals/ws/ws.yaml"))
    (tmp_path / "evals" / "b.eval.yaml").write_text(FROM_FILE)
    (tmp_path / "evals" / "ws" / "ws.yaml").write_text("isolation: shared\n")
    there = ("(the folder the command runs in; a test's hook without a 'cwd' runs in the folder of the suite's workspace "
             "file 'ws/ws.yaml', or in the 'cwd' of the file's hook of its name); the hook fails when the runner runs it")
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml", "evals/b.eval.yaml") == (1, (
        f"evals/b.eval.yaml:8:32: EV408 [error] hook script file './setup.sh' not found in evals/ws/ {there}\n"
        f"evals/b.eval.yaml:9:31: EV408 [error] hook script file './teardown.sh' not found in evals/ws/ {there}\n"), "")


@pytest.mark.runner
def test_the_loader_merges_no_folder_of_a_suite_hook_without_a_command(tmp_path):
    _repo(tmp_path, NOT_MERGED, ("evals/setup.sh",))
    (tmp_path / "evals" / "b.eval.yaml").write_text(FROM_FILE)
    (tmp_path / "evals" / "ws").mkdir()
    (tmp_path / "evals" / "ws" / "ws.yaml").write_text("isolation: shared\n")
    loaded = load_tests(tmp_path, ["evals/a.eval.yaml", "evals/b.eval.yaml"])
    assert loaded["evals/a.eval.yaml"]["tests"][0]["workspace"]["hooks"]["after_each"] == {
        "command": ["./setup.sh"], "reset": "fast"}
    assert loaded["evals/b.eval.yaml"]["tests"][0]["workspace"]["workspaceFileDir"] == "evals/ws"


TURNED_ON = ("workspace:\n"
             "  hooks:\n"
             "    enabled: false\n"
             "    before_all: {command: [./missing.sh]}\n"
             "tests:\n"
             "  - {id: t, input: hi, criteria: c, workspace: {hooks: {enabled: true}}}\n")


TURNED_ON_LATER = ("workspace:\n"
                   "  hooks:\n"
                   "    enabled: false\n"
                   "    before_all: {command: [./missing.sh]}\n"
                   "    before_each: {command: [./missing.sh]}\n"
                   "tests:\n"
                   "  - {id: t, input: hi, criteria: c}\n"
                   "  - {id: u, input: hi, criteria: c, workspace: {hooks: {enabled: true}}}\n")


def test_the_suites_hooks_a_test_turns_on_are_checked(tmp_path):
    """A test's hooks merged with the suite's take the test's 'enabled' (yaml-parser.ts mergeWorkspaceConfigs); the
    run's setup reads the first test's only (setup.ts), so a later test turns on the per-test hooks alone."""
    _repo(tmp_path, TURNED_ON, ())
    (tmp_path / "evals" / "b.eval.yaml").write_text(TURNED_ON_LATER)
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml", "evals/b.eval.yaml") == (1, (
        "evals/a.eval.yaml:4:28: EV408 [error] hook script file './missing.sh' not found in evals/ (the folder the "
        "command runs in); the hook fails when the runner runs it\n"
        "evals/b.eval.yaml:5:29: EV408 [error] hook script file './missing.sh' not found in evals/ (the folder the "
        "command runs in); the hook fails when the runner runs it\n"), "")


@pytest.mark.runner
def test_the_loader_gives_a_test_that_turns_them_on_the_suites_hooks(tmp_path):
    _repo(tmp_path, TURNED_ON, ())
    (test,) = load_tests(tmp_path, ["evals/a.eval.yaml"])["evals/a.eval.yaml"]["tests"]
    assert test["workspace"]["hooks"] == {"enabled": True, "before_all": {"command": ["./missing.sh"]}}


# what AgentV 4.42.4's hooks do with a script beside the eval file, named bare and with './': "ok" or its error
PROGRAM_RUN = """
import { executeWorkspaceScript } from "@agentv/core";
const context = {workspacePath: process.argv[1], testId: "t", evalRunId: "r", evalDir: process.argv[1]};
for (const command of [["setup.sh"], ["./setup.sh"]]) {
  console.log(await executeWorkspaceScript({command}, context).then(() => "ok", (e) => e.message));
}
"""


@pytest.mark.runner
def test_the_runner_runs_a_bare_first_word_from_path_only(tmp_path):
    _repo(tmp_path, PROGRAMS, ("evals/setup.sh",))
    script = tmp_path / "evals" / "setup.sh"
    script.write_text("#!/bin/sh\ncat > /dev/null\n")
    script.chmod(0o755)
    done = subprocess.run([require_runner(), "--input-type=module", "-e", PROGRAM_RUN, str(tmp_path / "evals")],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert done.stdout.splitlines() == ["spawn setup.sh ENOENT", "ok"]


# what AgentV 4.42.4 does with a workspace hook that runs a script, in the eval file's folder: "ok" or its error
HOOK_RUN = """
import { executeWorkspaceScript } from "@agentv/core";
const context = {workspacePath: process.argv[1], testId: "t", evalRunId: "r", evalDir: process.argv[1]};
for (const script of ["scripts/ok.mjs", "scripts/missing.mjs"]) {
  console.log(await executeWorkspaceScript({command: ["node", script]}, context).then(() => "ok", (e) => e.message));
}
"""


@pytest.mark.runner
def test_the_runner_runs_a_hooks_command_in_the_eval_files_folder(tmp_path):
    _hook_scripts(tmp_path)
    done = subprocess.run([require_runner(), "--input-type=module", "-e", HOOK_RUN, str(tmp_path / "evals")],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    ok, missing = done.stdout.split("\n", 1)
    assert ok == "ok" and missing.startswith("Script failed:") and "Cannot find module" in missing


STARTED = ("workspace:\n"
           "  hooks:\n"
           "    before_all: {command: [./setup.sh]}\n"
           "tests:\n"
           "  - id: t\n"
           "    input: hi\n"
           "    assertions:\n"
           "      - {name: list, type: code-grader, command: [./check.py, --strict]}\n"
           "      - {name: shell, type: code-grader, command: ./check.py --strict}\n"
           "      - {name: interpreter, type: code-grader, command: [python3, ./check.py]}\n")
SETUP = "#!/bin/sh\ncat > /dev/null\n"  # reads its input: the runner writes it to the hook
CHECK = "#!/usr/bin/env python3\nimport json, sys\njson.load(sys.stdin)\nprint(json.dumps({'score': 1}))\n"


def _started(root, mode: int):
    for name, text in (("setup.sh", SETUP), ("check.py", CHECK)):
        (root / "evals" / name).write_text(text)
        (root / "evals" / name).chmod(mode)
    return root


def test_a_script_a_command_starts_as_its_program_must_be_executable(tmp_path):
    """The runner starts a command's first word as the program (runtime/exec.ts; a string through 'sh -lc'), which
    needs the file's execute bit; a script after its interpreter needs none."""
    repo = _started(_repo(tmp_path, STARTED, ()), 0o644)
    started = ("is not executable, but the command starts it as its program, which fails when it runs ('EACCES'); make "
               "it executable ('chmod +x', committed with 'git add --chmod=+x') or put its interpreter first")
    assert run_concise(repo, "--no-cache", "evals/a.eval.yaml") == (1, (
        f"evals/a.eval.yaml:3:28: EV412 [error] hook script file './setup.sh' {started}\n"
        f"evals/a.eval.yaml:8:51: EV412 [error] script file './check.py' {started}\n"
        f"evals/a.eval.yaml:9:51: EV412 [error] script file './check.py' {started}\n"), "")
    assert run_concise(_started(repo, 0o755), "--no-cache", "evals/a.eval.yaml") == (0, "", "")


def test_the_staged_mode_of_a_script_decides(tmp_path):
    """With --staged the git index's mode is read: an executable file staged as 100644 fails where it is checked
    out."""
    repo = _started(_repo(tmp_path, STARTED, ()), 0o755)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    git(repo, "-c", "core.fileMode=true", "add", "--chmod=-x", "evals")
    assert run_concise(repo, "--no-cache", "--staged")[1].count("EV412") == 3
    git(repo, "add", "--chmod=+x", "evals/setup.sh", "evals/check.py")
    assert run_concise(repo, "--no-cache", "--staged") == (0, "", "")


@pytest.mark.runner
def test_the_runner_cannot_start_a_script_without_its_execute_bit(tmp_path):
    """Without the bit, the hook stops the run; with the hook's interpreter first, the grader whose shell starts
    check.py scores 0 and the one that names python3 first scores 1 (a list that starts it can crash the run: the
    runner writes the grader's input to a process that never started, so it is left out here)."""
    for folder in ("repo", "home"):
        (tmp_path / folder).mkdir()
    repo = _started(_repo(tmp_path / "repo", STARTED, ()), 0o644)
    ran = run_suite(repo, "evals/a.eval.yaml", tmp_path / "home")
    assert (ran["error"], ran["scores"]) == ("before_all script failed: spawn ./setup.sh EACCES", {})
    (repo / "evals" / "a.eval.yaml").write_text("\n".join(line for line in STARTED.replace(
        "[./setup.sh]", "[sh, ./setup.sh]").splitlines() if "name: list" not in line) + "\n")
    ran = run_suite(repo, "evals/a.eval.yaml", tmp_path / "home")
    assert (ran["error"], ran["scores"]) == (None, {"t": 0.5})
    ran = run_suite(_started(repo, 0o755), "evals/a.eval.yaml", tmp_path / "home")
    assert (ran["error"], ran["scores"]) == (None, {"t": 1})


def test_a_script_an_aggregator_or_a_prompt_command_starts_must_be_executable(tmp_path):
    """A code-grader aggregator's path runs through the shell, which starts its first word; an executable prompt of
    more words starts its first in the folder of the file its last word names."""
    suite = ("tests:\n"
             "  - id: t\n"
             "    input: hi\n"
             "    assertions:\n"
             "      - {name: c, type: composite, assertions: [{name: a, type: contains, value: x}],\n"
             "         aggregator: {type: code-grader, path: ./agg.sh}}\n"
             "      - {name: p, type: llm-grader, prompt: {command: [./p.sh, ./p.txt]}}\n")
    repo = _repo(tmp_path, suite, ("evals/agg.sh", "evals/p.sh", "evals/p.txt"))
    for name in ("agg.sh", "p.sh"):
        (repo / "evals" / name).chmod(0o644)
    started = ("is not executable, but the command starts it as its program, which fails when it runs ('EACCES'); make "
               "it executable ('chmod +x', committed with 'git add --chmod=+x') or put its interpreter first")
    assert run_concise(repo, "--no-cache", "evals/a.eval.yaml") == (1, (
        f"evals/a.eval.yaml:6:48: EV412 [error] aggregator script file './agg.sh' {started}\n"
        f"evals/a.eval.yaml:7:56: EV412 [error] prompt command file './p.sh' {started}\n"), "")


def test_a_script_that_is_a_folder_is_named_so(tmp_path):
    suite = "workspace:\n  hooks:\n    before_all: {command: [./dir.sh]}\ntests:\n  - {id: t, input: hi, criteria: c}\n"
    repo = _repo(tmp_path, suite, ())
    (repo / "evals" / "dir.sh").mkdir()
    assert run_concise(repo, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:3:28: EV408 [error] hook script file './dir.sh' is a folder, not a file, in evals/ (the "
        "folder the command runs in); the hook fails when the runner runs it\n"), "")


@pytest.mark.runner
def test_the_runner_cannot_start_a_folder(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "repo").mkdir()
    repo = _repo(tmp_path / "repo", "workspace:\n  hooks:\n    before_all: {command: [./dir.sh]}\n"
                 "tests:\n  - {id: t, input: hi, criteria: c}\n", ())
    (repo / "evals" / "dir.sh").mkdir()
    ran = run_suite(repo, "evals/a.eval.yaml", tmp_path / "home")
    assert ran["error"] == "before_all script failed: spawn ./dir.sh EACCES"


WHERE_THEY_RUN = ("tests:\n"
                  "  - id: t\n"
                  "    input: hi\n"
                  "    assertions:\n"
                  "      - {name: a, type: code-grader, command: \"X=1 ./missing.sh\"}\n"
                  "      - {name: b, type: code-grader, command: [python3, ./pkg]}\n"
                  "      - {name: c, type: composite, assertions: [{name: m, type: contains, value: x}],\n"
                  "         aggregator: {type: code-grader, path: \"PYTHONPATH=./lib ./agg.sh\"}}\n"
                  "      - {name: p, type: llm-grader, prompt: {command: [./run.sh, tmpl.py]}}\n"
                  "      - {name: q, type: llm-grader, preprocessors: [{type: txt, command: [./tools/run.sh, conv.py]}]}\n"
                  "  - id: c\n"
                  "    mode: conversation\n"
                  "    input: hi\n"
                  "    turns:\n"
                  "      - input: q\n"
                  "        assertions:\n"
                  "          - {name: d, type: composite, assertions: [{name: m, type: contains, value: x}],\n"
                  "             aggregator: {type: code-grader, path: ./agg.sh, cwd: nowhere}}\n")


def test_each_command_is_looked_up_where_it_runs(tmp_path):
    """A shell's leading 'NAME=value' is no command; a folder an interpreter is given runs; an executable prompt
    starts in the folder where its last word's file is found (here the root, above the suite's folder), a
    preprocessor in the folder the run starts in; a turn's aggregator 'cwd' is the run's folder's."""
    repo = _repo(tmp_path, WHERE_THEY_RUN, ("evals/agg.sh", "evals/conv.py", "evals/pkg/__main__.py", "run.sh",
                                             "tmpl.py", "tools/run.sh"))
    assert run_concise(repo, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:5:47: EV408 [error] script file './missing.sh' not found in evals/ (the folder the command "
        "runs in); the command fails when the grader runs\n"
        "evals/a.eval.yaml:18:67: EV407 [error] aggregator cwd 'nowhere' names no folder (looked in: ./; a turn's "
        "grader runs in the folder the run starts in, taken as the repository root, not the eval file's folder)\n"),
        "")


@pytest.mark.runner
def test_the_runner_starts_an_executable_prompt_beside_its_last_words_file(tmp_path):
    for folder in ("repo", "home"):
        (tmp_path / folder).mkdir()
    suite = "tests:\n  - {id: t, input: hi, assertions: [{type: llm-grader, prompt: {command: [./run.sh, tmpl.py]}}]}\n"
    repo = _repo(tmp_path / "repo", suite, ("tmpl.py",))
    (repo / "run.sh").write_text("#!/bin/sh\ncat > /dev/null\necho PROMPT-FROM-THE-ROOT {{ output }}\n")
    (repo / "run.sh").chmod(0o755)
    ran = run_suite(repo, "evals/a.eval.yaml", tmp_path / "home")
    assert [graded["prompt"].split()[0] for graded in ran["graded"]] == ["PROMPT-FROM-THE-ROOT"]


SCRIPT = "#!/bin/sh\ncat >/dev/null\n"
# suites whose workspace is a file, and tests of hooks of their own; each script exists where it is named
UNDER_A_FILE = {
    "evals/a.eval.yaml": "workspace: ./ws/ws.yaml\ntests:\n"
                         "  - {id: beside-the-suite, input: hi, criteria: c, workspace: {hooks: {before_each: "
                         "{command: [./t1.sh]}}}}\n"
                         "  - {id: own-cwd, input: hi, criteria: c, workspace: {hooks: {before_each: "
                         "{command: [./t2.sh], cwd: ws}}}}\n"
                         "  - {id: beside-the-file, input: hi, criteria: c, workspace: {hooks: {before_each: "
                         "{command: [./t3.sh]}}}}\n",
    "evals/ws/ws.yaml": "hooks:\n  before_each: {command: [./be.sh]}\n",
    "evals/b.eval.yaml": "workspace: ./ws/up.yaml\ntests:\n"
                         "  - {id: files-cwd, input: hi, criteria: c, workspace: {hooks: {before_each: "
                         "{command: [./t1.sh]}}}}\n"
                         "  - {id: beside-the-file, input: hi, criteria: c, workspace: {hooks: {before_each: "
                         "{command: [./t3.sh]}}}}\n",
    "evals/ws/up.yaml": "hooks:\n  before_each: {command: [./t1.sh], cwd: ..}\n",
}
SCRIPTS = ("evals/t1.sh", "evals/t2.sh", "evals/ws/t3.sh", "evals/ws/be.sh")


def _written(root, files: dict, scripts: tuple):
    """``root`` holding the (path: text) ``files`` and the executable ``scripts``, each reading its input."""
    for path, text in [*files.items(), *((script, SCRIPT) for script in scripts)]:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    for path in scripts:
        (root / path).chmod(0o755)
    return root


def _linted(tmp_path, files: dict, scripts: tuple, *paths: str) -> tuple:
    """``run_concise`` of ``paths`` among ``files`` and ``scripts`` (``_written``) in a repository at ``tmp_path``."""
    (_written(tmp_path, files, scripts) / ".git").mkdir()
    return run_concise(tmp_path, "--no-cache", *paths)


def _ran(tmp_path, files: dict, scripts: tuple, suite: str = "evals/a.eval.yaml") -> tuple:
    """(the error, the scores) of the runner's run of ``suite`` among ``files`` and ``scripts`` (``_written``) in
    ``tmp_path``'s repo/, its home folder home/."""
    (tmp_path / "home").mkdir()
    ran = run_suite(_written(tmp_path / "repo", files, scripts), suite, tmp_path / "home")
    return ran["error"], ran["scores"]


def test_a_tests_hook_under_a_suites_workspace_file_runs_where_the_files_hook_of_its_name_runs(tmp_path):
    """yaml-parser.ts mergeWorkspaceConfigs merges a test's hook over the file's of its name ('cwd' taken from the
    file's, from the file's folder), and workspace/script-executor.ts runs a hook without a 'cwd' in the workspace
    file's folder; a test's own 'cwd' is looked up from the eval file's folder."""
    where = ("a test's hook without a 'cwd' runs in the folder of the suite's workspace file './ws/{0}', or in the "
             "'cwd' of the file's hook of its name")
    assert _linted(tmp_path, UNDER_A_FILE, SCRIPTS, "evals/a.eval.yaml", "evals/b.eval.yaml") == (1, (
        "evals/a.eval.yaml:3:96: EV408 [error] hook script file './t1.sh' not found in evals/ws/ (the folder the "
        f"command runs in; {where.format('ws.yaml')}); the hook fails when the runner runs it\n"
        "evals/a.eval.yaml:4:87: EV408 [error] hook script file './t2.sh' not found in evals/ws/ (the folder the "
        "command runs in); the hook fails when the runner runs it\n"
        "evals/b.eval.yaml:4:95: EV408 [error] hook script file './t3.sh' not found in evals/ (the folder the "
        f"command runs in; {where.format('up.yaml')}); the hook fails when the runner runs it\n"), "")


@pytest.mark.runner
@pytest.mark.parametrize(("suite", "scores"), (
        ("evals/a.eval.yaml", {"beside-the-suite": 0, "own-cwd": 0, "beside-the-file": 1}),
        ("evals/b.eval.yaml", {"files-cwd": 1, "beside-the-file": 0})))
def test_the_runner_runs_a_tests_hook_where_the_workspace_files_hook_of_its_name_runs(tmp_path, suite, scores):
    assert _ran(tmp_path, UNDER_A_FILE, SCRIPTS, suite) == (None, scores)


# a test's workspace file whose hook has no 'cwd', under a suite's hook of its name that has one
MERGED_FILES = {
    "evals/a.eval.yaml": "workspace: {hooks: {before_each: {command: [./be.sh], cwd: scripts}}}\ntests:\n"
                         "  - {id: beside-the-file, input: hi, criteria: c, workspace: ./tws/t.yaml}\n"
                         "  - {id: in-the-suites-cwd, input: hi, criteria: c, workspace: ./tws/t2.yaml}\n",
    "evals/tws/t.yaml": "hooks:\n  before_each: {command: [./t1.sh]}\n",
    "evals/tws/t2.yaml": "hooks:\n  before_each: {command: [./t2.sh]}\n",
}


MERGED_SCRIPTS = ("evals/scripts/be.sh", "evals/tws/t1.sh", "evals/scripts/t2.sh")


def test_a_tests_workspace_file_hook_takes_the_cwd_of_the_suites_hook_of_its_name(tmp_path):
    """yaml-parser.ts mergeWorkspaceConfigs: the test's hook (from its workspace file) over the suite's, key by key, so
    a hook without a 'cwd' runs in the suite hook's, from the eval file's folder."""
    assert _linted(tmp_path, MERGED_FILES, MERGED_SCRIPTS, "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:3:62: EV408 [error] in workspace file './tws/t.yaml': hook script file './t1.sh' not found "
        "in evals/scripts/ (the folder the command runs in; the 'cwd' of the suite's hook of its name, which a test's "
        "hook without one takes); the hook fails when the runner runs it\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_workspace_files_hook_in_the_cwd_of_the_suites(tmp_path):
    assert _ran(tmp_path, MERGED_FILES, MERGED_SCRIPTS) == (None, {"beside-the-file": 0, "in-the-suites-cwd": 1})


def test_a_missing_file_names_the_file_of_a_near_name_where_it_was_looked_for(tmp_path):
    """A name within two typing slips of the one written (one for a name of four letters or fewer), of a file where a
    file is looked for and of a folder where a folder is."""
    _repo(tmp_path, "tests:\n  - id: t\n    input: hi\n    criteria: c\n    assertions:\n"
                    "      - {type: llm-grader, prompt: 'file://prompts/judg.md'}\n"
                    "      - {type: code-grader, command: [python3, check.py], cwd: scirpts}\n"
                    "      - {type: code-grader, command: [./chek.sh]}\n",
          ("evals/prompts/judge.md", "evals/scripts/check.py", "evals/scirpts.md", "evals/check.sh"))
    (tmp_path / "evals" / "prompts" / "judge.md").write_text("Grade {{ output }}.\n")
    (tmp_path / "evals" / "b.eval.yaml").write_text("tests: ./case.jsonl\n")
    (tmp_path / "evals" / "cases.jsonl").write_text('{"id": "a", "input": "hi", "criteria": "c"}\n')
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml", "evals/b.eval.yaml") == (1, (
        "evals/a.eval.yaml:6:36: EV404 [error] prompt file 'prompts/judg.md' not found (looked in: evals/, ./; did you "
        "mean 'prompts/judge.md'?); the runner skips the test\n"
        "evals/a.eval.yaml:7:64: EV407 [error] code-grader cwd 'scirpts' names no folder (looked in: evals/, ./; did "
        "you mean 'scripts'?)\n"
        "evals/a.eval.yaml:8:39: EV408 [error] script file './chek.sh' not found in evals/ (the folder the command runs "
        "in; did you mean 'check.sh'?); the command fails when the grader runs\n"
        "evals/b.eval.yaml:1:8: EV401 [error] file of tests './case.jsonl' not found (looked in: evals/; did you mean "
        "'cases.jsonl'?); the runner rejects the suite\n"), "")


def test_a_prompt_template_of_agentv_2s_variables_names_agentv_4s(tmp_path):
    _repo(tmp_path, "tests:\n  - id: t\n    input: hi\n    criteria: c\n    assertions:\n"
                    "      - {type: llm-grader, prompt: 'file://judge.md'}\n", ())
    (tmp_path / "evals" / "judge.md").write_text("Grade {{ candidate_answer }} against {{ outptu }}.\n")
    known = ("known: 'expected_output', 'criteria', 'metadata', 'metadata_json', 'rubrics', 'rubrics_json', 'input', "
             "'output', 'file_changes', 'tool_calls'")
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:6:36: EV405 [error] prompt template 'judge.md' uses neither '{{ output }}' nor "
        "'{{ expected_output }}' (it uses AgentV 2.2's '{{ candidate_answer }}': write '{{ output }}'); the runner "
        "skips the test\n"
        "evals/a.eval.yaml:6:36: EV406 [warning] prompt template 'judge.md' uses unknown variable "
        f"'{{{{ candidate_answer }}}}' (AgentV 2.2's name of '{{{{ output }}}}'); {known}\n"
        "evals/a.eval.yaml:6:36: EV406 [warning] prompt template 'judge.md' uses unknown variable '{{ outptu }}' (did you "
        f"mean 'output'?); {known}\n"), "")


# a suite's workspace file, and a file of its tests whose hooks have no 'cwd'
TESTS_UNDER_A_FILE = {
    "evals/a.eval.yaml": "workspace: ./ws/ws.yaml\ntests: ./cases/cases.yaml\n",
    "evals/ws/ws.yaml": "hooks:\n  before_each: {command: [./be.sh]}\n",
    "evals/cases/cases.yaml": "- {id: beside-the-suite, input: hi, criteria: c, workspace: {hooks: {before_each: "
                              "{command: [./t1.sh]}}}}\n"
                              "- {id: beside-the-file, input: hi, criteria: c, workspace: {hooks: {before_each: "
                              "{command: [./t3.sh]}}}}\n",
}


TESTS_SCRIPTS = ("evals/t1.sh", "evals/ws/t3.sh", "evals/ws/be.sh")


def test_a_file_of_tests_hooks_run_where_its_suites_workspace_file_says(tmp_path):
    """The loader gives the tests of a file a suite names the suite's workspace, merged under each test's own."""
    assert _linted(tmp_path, TESTS_UNDER_A_FILE, TESTS_SCRIPTS, "evals") == (1, (
        "evals/cases/cases.yaml:1:94: EV408 [error] hook script file './t1.sh' not found in evals/ws/ (the folder the "
        "command runs in; a test's hook without a 'cwd' runs in the folder of the suite's workspace file './ws/ws.yaml', "
        "or in the 'cwd' of the file's hook of its name); the hook fails when the runner runs it\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_file_of_tests_hooks_where_its_suites_workspace_file_says(tmp_path):
    assert _ran(tmp_path, TESTS_UNDER_A_FILE, TESTS_SCRIPTS) == (None, {"beside-the-suite": 0, "beside-the-file": 1})


# a suite's per-test hook without a 'cwd', for tests whose own workspace is a file (one of which has a hook of its own)
UNDER_TESTS_FILES = {
    "evals/a.eval.yaml": "workspace:\n  hooks:\n    before_each: {command: [./s.sh]}\ntests:\n"
                         "  - {id: plain, input: hi, criteria: c}\n"
                         "  - {id: in-the-files-folder, input: hi, criteria: c, workspace: other/t.yaml}\n"
                         "  - {id: replaced, input: hi, criteria: c, workspace: third/t.yaml}\n",
    "evals/other/t.yaml": "template: ../tpl\n",
    "evals/tpl/README.md": "a template\n",
    "evals/third/t.yaml": "hooks:\n  before_each: {command: [./own.sh]}\n",
}
UNDER_TESTS_SCRIPTS = ("evals/s.sh", "evals/third/own.sh")


def test_a_suites_hook_runs_for_a_test_in_the_folder_of_the_tests_workspace_file(tmp_path):
    """yaml-parser.ts mergeWorkspaceConfigs takes the test's workspace file's folder over the suite's, so the suite's hook
    without a 'cwd' runs there for that test, unless the file's hook of its name replaces it."""
    assert _linted(tmp_path, UNDER_TESTS_FILES, UNDER_TESTS_SCRIPTS, "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:3:29: EV408 [error] hook script file './s.sh' not found in evals/other/ (the folder the "
        "command runs in; the suite's hook runs for the test 'in-the-files-folder' in the folder of its workspace file "
        "'other/t.yaml'); the hook fails when the runner runs it\n"
        "evals/a.eval.yaml:6:66: EV125 [error] in workspace file 'other/t.yaml': this test's workspace 'template' is never "
        "read: the tests share one workspace folder, which the run sets up from the first test's workspace (merged with "
        "the suite's) alone; set it in the suite's workspace, or in the first test's\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_suites_hook_in_the_folder_of_a_tests_workspace_file(tmp_path):
    assert _ran(tmp_path, UNDER_TESTS_FILES, UNDER_TESTS_SCRIPTS) == (
        None, {"plain": 1, "in-the-files-folder": 0, "replaced": 1})


VARS_IN_FILE = ("tests:\n  - id: ada\n    vars: {customer: Ada, order: A-17}\n    criteria: c\n"
                "    input: [{role: user, content: [{type: file, value: letter.md}]}]\n")


def _vars_in_file(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "letter.md").write_text("Write a letter for {{ customer }} about {{order}}.\n")
    (tmp_path / "a.eval.yaml").write_text(VARS_IN_FILE)
    return tmp_path


def test_a_var_of_the_test_in_a_file_it_sends_is_a_warning(tmp_path):
    assert run_concise(_vars_in_file(tmp_path), "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:5:56: EV406 [warning] file 'letter.md' holds '{{ customer }}', a var of this test, which the runner "
        "does not fill in there: it fills vars into the eval file's text alone and sends the file as written; write "
        "that text in the eval file, or the value in the file\n"), "")


@pytest.mark.runner
def test_the_runner_sends_a_file_with_the_vars_as_written(tmp_path):
    (sent,) = run_suite(_vars_in_file(tmp_path), "a.eval.yaml", tmp_path / "home")["sent"]
    assert "Write a letter for {{ customer }} about {{order}}." in sent["question"]
