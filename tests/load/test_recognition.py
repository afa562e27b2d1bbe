"""Which YAML files inside an `evals/` folder are eval files: other kinds of YAML there (compose files, CI
workflows, Kubernetes manifests) are skipped, files of AgentV's later `tests:` format are checked as AgentV 4.42.4 reads them, and
broken eval files are still reported."""
from __future__ import annotations

import io
import os

import pytest
from clirun import git, run_concise

from evallint import lint_paths
from evallint.cli import main
from evallint.config import Config
from evallint.format.agentv4.graders import KINDS
from evallint.lint import lint_file
from evallint.load.files import EVAL
from evallint.suggest import one_of
from evallint.load.recognize import content_kind
from evallint.load.yaml12 import parse_yaml

COMPOSE = """\
version: "3.8"
services:
  judge:
    image: python:3.12
    volumes: ["./scripts:/scripts"]
"""
WORKFLOW = """\
name: evals
on: [push]
jobs:
  run:
    runs-on: ubuntu-latest
    steps:
      - run: agentv eval evals/
"""
KUBERNETES = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: nightly-evals
spec:
  template:
    spec:
      containers: [{name: agentv, image: agentv:latest}]
"""
LATER = """\
description: Greeting checks
execution:
  target: default
tests:
  - id: greet
    criteria: The agent greets the user.
    input: Hello!
    assertions:
      - type: contains
        value: hello
"""
LATER_MESSAGE = ("this file uses AgentV's later 'tests' format; evallint checks the eval v2 'evalcases' format")


def _tree(root, files: dict) -> None:
    (root / ".git").mkdir(exist_ok=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def _found(root, paths=None) -> list:
    return [(os.path.relpath(d.path, root), d.line, d.column, d.code, d.message)
            for d in lint_paths(paths or [root], config=Config(root=str(root)))]


# 1. Non-eval YAML inside evals/


@pytest.mark.parametrize("text", [COMPOSE, WORKFLOW, KUBERNETES], ids=["compose", "workflow", "kubernetes"])
def test_other_yaml_inside_evals_is_not_an_eval_file(text):
    assert content_kind("evals/x.yaml", parse_yaml(text).data, EVAL) is None


def test_compose_workflow_and_kubernetes_files_inside_evals_are_never_reported(tmp_path):
    _tree(tmp_path, {"evals/docker-compose.yaml": COMPOSE, "evals/ci.yml": WORKFLOW,
                     "evals/k8s/job.yaml": KUBERNETES})
    assert _found(tmp_path) == []
    for rel in ("evals/docker-compose.yaml", "evals/ci.yml", "evals/k8s/job.yaml"):
        assert _found(tmp_path, [tmp_path / rel]) == []  # named on the command line: skipped all the same
        assert not lint_file(str(tmp_path / rel), Config(root=str(tmp_path))).linted
    code, out, err = run_concise(tmp_path, "--no-cache", "-j1", ".")
    assert (code, out, err) == (0, "", "")


def test_a_workspace_file_is_checked_where_a_suite_names_it_not_as_an_eval_file(tmp_path):
    """A mapping of a workspace's keys alone is the file a suite's 'workspace:' names: what it holds is reported at
    that 'workspace:', as the runner reads it for the suite, and the file itself is no eval suite (no EV101)."""
    _tree(tmp_path, {"evals/a.eval.yaml": "workspace: ws/ws.yaml\ntests:\n  - {id: t, input: hi, criteria: c}\n",
                     "evals/ws/ws.yaml": "isolation: shared\nhooks:\n  before_all: {command: [./setup.sh]}\n"})
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (1, (
        "evals/a.eval.yaml:1:12: EV408 [error] in workspace file 'ws/ws.yaml': hook script file './setup.sh' not found "
        "in evals/ws/ (the folder the command runs in); the hook fails when the runner runs it\n"), "")
    assert _found(tmp_path, [tmp_path / "evals" / "ws" / "ws.yaml"]) == []


def test_the_workspace_keys_are_the_workspace_schemas_and_those_the_loader_rejects():
    from evallint.format.agentv4.workspace import WORKSPACE
    from evallint.format.keys import known_keys
    from evallint.load.files import WORKSPACE_KEYS
    from evallint.rules.workspaces import REMOVED_WORKSPACE

    assert set(WORKSPACE_KEYS) == set(known_keys(WORKSPACE)) | set(REMOVED_WORKSPACE)


def test_the_cli_counts_no_file_for_a_compose_file_inside_evals(tmp_path):
    _tree(tmp_path, {"evals/docker-compose.yaml": COMPOSE})
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code = main(["--no-cache", "-j1", "evals"], stdout=out, stderr=err)
    finally:
        os.chdir(cwd)
    assert (code, out.getvalue()) == (0, "No problems found (0 files checked).\n")


def test_a_broken_eval_file_inside_evals_is_still_reported(tmp_path):
    # 'evalcases' misspelt beyond a near miss, beside the suite's own keys
    _tree(tmp_path, {"evals/broken.yaml": "description: Greeting checks\nexecution:\n  target: default\n"
                                          "testcases:\n  - id: greet\n"})
    assert [(p, line, col, code) for p, line, col, code, _ in _found(tmp_path)] == [
        ("evals/broken.yaml", 1, 1, "EV101"), ("evals/broken.yaml", 4, 1, "EV109")]


# YAML a suite names as something else than an eval file, by each kind of reference (and by a file it so names: a
# workspace file's template, a template's include), an '.agentv' folder's file; and a file nothing names
NAMED = {
    "evals/s.eval.yaml": (
        "workspace: {template: ./ws}\n"
        "tests:\n"
        "  - id: t1\n    input: Summarize\n    input_files: [./data/app.yaml]\n    criteria: ok\n"
        "    assertions:\n      - {type: llm-grader, prompt: file://prompts/judge.yaml}\n"
        "      - include: ./shared/outer.yaml\n"
        "  - id: t2\n    criteria: ok\n    input: [{role: user, content: [{type: file, value: ./data/k8s.yml}]}]\n"
        "    workspace: ./w2.yaml\n"),
    "evals/ws/config.yaml": "name: app\nversion: 1\n",
    "evals/ws/list.yaml": "- a\n- b\n",
    "evals/data/app.yaml": "name: app\ntests: {unit: true}\n",
    "evals/data/k8s.yml": "metadata: {name: web}\nspec: {replicas: 2}\n",
    "evals/prompts/judge.yaml": "system: You are strict.\nrubric: Score {{ output }} against {{ criteria }}.\n",
    "evals/shared/outer.yaml": "assertions: [{include: ./inner.yaml}]\n",
    "evals/shared/inner.yaml": "tags: [x]\nassertions: [{type: contains, value: '1'}]\n",
    "evals/w2.yaml": "description: shared\ntemplate: ./app2\n",
    "evals/app2/README.yaml": "title: App\n",
    "evals/.agentv/notes.yaml": "owner: qa\n",
    "evals/stray.yaml": "owner: qa\n",
}


def test_yaml_a_suite_names_as_data_a_workspace_or_a_template_is_no_eval_file(tmp_path):
    _tree(tmp_path, NAMED)
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (1, (
        "evals/s.eval.yaml:13:16: EV109 [warning] in workspace file './w2.yaml': unknown key 'description' in workspace "
        "(known keys: docker, env, hooks, isolation, mode, path, repos, template)\n"
        "evals/s.eval.yaml:13:16: EV125 [error] in workspace file './w2.yaml': this test's workspace 'template' is never "
        "read: the tests share one workspace folder, which the run sets up from the first test's workspace (merged with "
        "the suite's) alone; set it in the suite's workspace, or in the first test's\n"
        "evals/stray.yaml:1:1: EV101 [error] no 'evalcases' list; the runner finds no cases in this file\n"
        "evals/stray.yaml:1:1: EV109 [warning] unknown key 'owner' in eval suite (known keys: $schema, dataset, "
        "description, evalcases, evaluator, execution, target)\n"), "")
    named = [path for path in NAMED if path not in ("evals/s.eval.yaml", "evals/stray.yaml", "evals/shared/outer.yaml")]
    assert run_concise(tmp_path, "--no-cache", "-j1", *named) == (0, "", "")  # named on the command line too


@pytest.mark.runner
def test_the_loader_reads_those_files_as_data_a_workspace_and_templates(tmp_path):
    from agentv_runner import load_tests

    _tree(tmp_path, NAMED)
    loaded = load_tests(tmp_path, ["evals/s.eval.yaml"])["evals/s.eval.yaml"]
    assert (loaded["error"], [(test["id"], test["workspace"]["template"], test["file_paths"],
                               [grader["type"] for grader in test.get("assertions") or ()]) for test in loaded["tests"]]) \
        == (None, [("t1", "evals/ws", ["evals/data/app.yaml"], ["llm-grader", "contains"]),
                   ("t2", "evals/app2", ["evals/data/k8s.yml"], [])])


# data a suite names that does not read as an eval file (not UTF-8, a template's text, a broken link), or that holds
# a suite under a name the runner's discovery does not give one; data a sibling folder's suite names, a dataset among
# it; a workspace file beside the dataset of its name that the suite reads as its tests (no sidecar)
NAMED_ELSEWHERE = {
    "evals/app.eval.yaml": ("workspace: {template: ./workspace}\n"
                            "tests:\n  - id: fix\n    input: Fix it\n    criteria: fixed\n"
                            "    input_files: [./fixtures/legacy.yaml, ./fixtures/pipeline.yaml]\n"),
    "evals/fixtures/pipeline.yaml": "tests:\n  - unit\n  - integration\n",
    "evals/workspace/chart/deployment.yaml": "spec:\n  {{- with .Values.nodeSelector }}\n  selector: x\n  {{- end }}\n",
    "evals/smoke/count.eval.yaml": ("tests:\n  - {id: count, input: How many?, criteria: says 1, "
                                    "input_files: [../data/reviews.jsonl, ../data/app-config.yaml]}\n"),
    "evals/data/reviews.jsonl": '{"id": "r1", "input": "I loved it", "label": "positive"}\n',
    "evals/data/app-config.yaml": "server:\n  port: 8080\n",
    "evals/other/ws.eval.yaml": "workspace: ./cases.yaml\ntests: ./cases.jsonl\n",
    "evals/other/cases.yaml": "template: ../workspace\n",
    "evals/other/cases.jsonl": '{"id": "t1", "input": "hello", "criteria": "greets"}\n',
}


def _named_elsewhere(root) -> None:
    _tree(root, NAMED_ELSEWHERE)
    (root / "evals" / "fixtures" / "legacy.yaml").write_bytes(b"name: Jos\xe9\n")
    (root / "evals" / "workspace" / "config.yaml").symlink_to("/nonexistent/config.yaml")


def test_data_a_suite_names_is_no_eval_file_whatever_it_holds_and_wherever_the_suite_lies(tmp_path):
    """What the runner makes of the data is reported at the suite (a file that is no UTF-8 text: EV413)."""
    _named_elsewhere(tmp_path)
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (0, (
        "evals/app.eval.yaml:6:19: EV413 [warning] input file './fixtures/legacy.yaml' is no UTF-8 text: the runner "
        "reads it as UTF-8, so each byte it cannot decode is sent as a replacement character (to a model target, or "
        "to the graders from an expected output; an agent target gets the path); save it as UTF-8 text, or attach a "
        "text form of it\n"), "")


def test_a_suite_or_a_dataset_named_as_data_in_a_way_the_runner_also_reads_it_is_still_linted(tmp_path):
    """A file named as the runner's discovery names a suite is one, even one that fails to parse, whatever names it;
    a dataset (and its sidecar) in a folder a command names is still run as one."""
    _tree(tmp_path, {
        "evals/a.eval.yaml": ("workspace: {hooks: {before_all: {command: [python, check.py, datasets]}}}\n"
                              "tests: [{id: r, criteria: c, input: Find the error., input_files: [b.eval.yaml]}]\n"),
        "evals/b.eval.yaml": "tests:\n  - id: t\n    criteria: x\n    input: \"unterminated\n",
        "evals/check.py": "print(1)\n",
        "evals/datasets/qa.jsonl": '{"id": "q1", "criteria": "x", "input": "hi"}\n',
        "evals/datasets/qa.yaml": "execution: {assertions: [{type: contains, valu: x}]}\n"})
    assert [(path, line, code) for path, line, _, code, _ in _found(tmp_path)] == [
        ("evals/b.eval.yaml", 5, "EV001"), ("evals/datasets/qa.yaml", 1, "EV110"), ("evals/datasets/qa.yaml", 1, "EV115")]


@pytest.mark.runner
def test_the_loader_reads_data_named_elsewhere_as_data(tmp_path):
    from agentv_runner import load_tests

    _named_elsewhere(tmp_path)
    suites = ["evals/app.eval.yaml", "evals/smoke/count.eval.yaml", "evals/other/ws.eval.yaml"]
    loaded = load_tests(tmp_path, suites)
    assert [(loaded[suite]["error"], [(test["id"], test["file_paths"], (test.get("workspace") or {}).get("template"))
                                      for test in loaded[suite]["tests"]]) for suite in suites] == [
        (None, [("fix", ["evals/fixtures/legacy.yaml", "evals/fixtures/pipeline.yaml"], "evals/workspace")]),
        (None, [("count", ["evals/data/reviews.jsonl", "evals/data/app-config.yaml"], None)]),
        (None, [("t1", [], "evals/workspace")])]


# data that the tests of a file of tests (one a pattern matches too) or of a folder of tests name; a file of tests and
# a folder of tests that a suite two folders down names
NAMED_BY_TESTS = {
    "evals/smoke.eval.yaml": "tests: ./cases.yaml\n",
    "evals/cases.yaml": "- id: t1\n  criteria: Summarises\n  input_files: [./data/app-config.yaml]\n  input: Summarise it\n",
    "evals/data/app-config.yaml": "server:\n  port: 8080\n",
    "evals/tickets.eval.yaml": "tests: ./tickets/\n",
    "evals/tickets/t2/case.yaml": "criteria: ok\ninput: Read it\ninput_files: [./data/ticket.yaml]\n",
    "evals/data/ticket.yaml": "ticket:\n  id: 4\n",
    "evals/areas/smoke/qa.eval.yaml": "tests: ../../datasets/qa.jsonl\n",
    "evals/datasets/qa.jsonl": '{"id": "q1", "input": "Sum up", "criteria": "ok", "input_files": ["./files/notes.md"]}\n',
    "evals/areas/smoke/files/notes.md": "notes\n",
    "evals/areas/deep/cases.eval.yaml": "tests: ../../cases/\n",
    "evals/cases/c1/case.yaml": "input: hi\nassertions: [{type: containz, value: x}]\n",
    "evals/parts.eval.yaml": "tests:\n  - file://parts/*.yaml\n",
    "evals/parts/p.yaml": "- id: t3\n  criteria: ok\n  input: Read them\n  input_files: [./data/rows.jsonl]\n",
    "evals/data/rows.jsonl": '{"id": "x", "input": "hi"}\n',
}


def test_data_the_tests_of_a_file_or_folder_of_tests_name_is_no_eval_file(tmp_path):
    """And a suite two folders down is found naming its file or folder of tests: a dataset's line is checked from the
    suite's folder, a case file is linted."""
    _tree(tmp_path, NAMED_BY_TESTS)
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (1, (
        "evals/cases/c1/case.yaml:2:21: EV301 [error] unknown assertion type 'containz' (did you mean 'contains'?); the "
        "runner looks for a custom grader of that name and fails; built-in types: " + one_of(KINDS) + "\n"), "")


@pytest.mark.runner
def test_the_loader_reads_what_files_and_folders_of_tests_name(tmp_path):
    from agentv_runner import load_tests

    _tree(tmp_path, NAMED_BY_TESTS)
    suites = ["evals/smoke.eval.yaml", "evals/tickets.eval.yaml", "evals/areas/smoke/qa.eval.yaml",
              "evals/areas/deep/cases.eval.yaml", "evals/parts.eval.yaml"]
    loaded = load_tests(tmp_path, suites)
    assert [(loaded[suite]["error"], loaded[suite]["logs"], [
        (test["id"], test["file_paths"], [grader["type"] for grader in test.get("assertions") or ()])
        for test in loaded[suite]["tests"]]) for suite in suites] == [
        (None, [], [("t1", ["evals/data/app-config.yaml"], [])]),
        (None, [], [("t2", ["evals/data/ticket.yaml"], [])]),
        (None, [], [("q1", ["evals/areas/smoke/files/notes.md"], [])]),
        (None, [], [("c1", [], ["containz"])]),
        (None, [], [("t3", ["evals/data/rows.jsonl"], [])])]


ANOTHER_TOOLS_TARGETS = "targets:\n  - host: prod-1.example.com\n    user: deploy\n  - host: prod-2\n"


def test_a_targets_file_the_runner_never_reads_is_left_alone(tmp_path):
    """The runner looks for a targets file from the folder of the suite it runs up to the root, and in the working
    folder: another tool's in a folder holding no suite nor above one is no file of evallint's; one above a suite is
    a targets file."""
    _tree(tmp_path, {".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n",
                     "evals/a.eval.yaml": "tests:\n  - {id: a, input: hi, criteria: ok}\n",
                     "deploy/targets.yaml": ANOTHER_TOOLS_TARGETS, "sub/targets.yaml": ANOTHER_TOOLS_TARGETS,
                     "sub/inner/b.eval.yaml": "tests:\n  - {id: b, input: hi, criteria: ok}\n"})
    assert [(path, line, code) for path, line, _, code, _ in _found(tmp_path)] == [
        ("sub/targets.yaml", 2, "EV503"), ("sub/targets.yaml", 2, "EV505"), ("sub/targets.yaml", 4, "EV503"),
        ("sub/targets.yaml", 4, "EV505")]


def test_settings_files_in_a_workspace_template_or_named_as_data_are_left_alone(tmp_path):
    """The runner looks for its targets and config from the suite's folder up and for Agent Skills evals where
    discovery finds them, never in a workspace template the agent works in, nor in a file it sends; one named on
    the command line is linted."""
    _tree(tmp_path, {
        "evals/fix.eval.yaml": ("workspace:\n  template: ../workspace-template\ntests:\n  - {id: fix, input: Fix it, "
                                "criteria: fixed, input_files: [./fixtures/evals.json]}\n"),
        "evals/fixtures/evals.json": '{"skill_name": "csv", "evals": [{"id": 1, "prompt": ""}]}\n',
        "workspace-template/.agentv/targets.yaml": "- name: default\n  model: gpt-4o\n",
        "workspace-template/.agentv/config.yaml": "execution: {workers: lots}\n",
        "workspace-template/skills/csv/evals/evals.json": '{"skill_name": "csv", "evals": [{"id": 1, "prompt": ""}]}\n'})
    assert _found(tmp_path) == []
    assert [(path, line, code) for path, line, _, code, _ in _found(
        tmp_path, [tmp_path / "workspace-template" / ".agentv" / "targets.yaml"])] == [
        ("workspace-template/.agentv/targets.yaml", 1, "EV008")]


def test_settings_files_the_runner_reads_are_linted_whatever_names_their_folder(tmp_path):
    """A command's word naming a project folder, a suite not named as discovery names one beside a targets file, a
    targets file with a provider where no suite is, and one named on the command line: each is linted."""
    _tree(tmp_path, {
        "packages/foo/.agentv/targets.yaml": "targets:\n  - name: default\n    provider: opnai\n",
        "packages/foo/evals/foo.eval.yaml": "tests:\n  - {id: a, input: hi, criteria: ok}\n",
        "evals/all.eval.yaml": ("tests:\n  - {id: b, input: hi, assertions: [{type: code-grader, "
                                "command: [pnpm, --filter, packages/foo, test]}]}\n"),
        "bench/smoke.yaml": "tests:\n  - {id: c, input: hi, criteria: ok}\n",
        "bench/targets.yaml": "targets:\n  - name: default\n    model: x\n",
        "ci/targets.yaml": "targets:\n  - name: default\n    provider: opnai\n",
        "deploy/targets.yaml": ANOTHER_TOOLS_TARGETS})
    found = [(path, line, code) for path, line, _, code, _ in _found(tmp_path)]
    assert found == [("bench/targets.yaml", 2, "EV505"), ("ci/targets.yaml", 3, "EV506"),
                     ("packages/foo/.agentv/targets.yaml", 3, "EV506")]
    assert [(path, code) for path, _, _, code, _ in _found(tmp_path, [tmp_path / "deploy" / "targets.yaml"])] == [
        ("deploy/targets.yaml", "EV503"), ("deploy/targets.yaml", "EV505"), ("deploy/targets.yaml", "EV503"),
        ("deploy/targets.yaml", "EV505")]


def test_a_deep_folder_below_another_tools_targets_file_is_looked_in_without_recursion(tmp_path):
    deep = tmp_path / "deploy" / os.path.join(*["d"] * 300)
    deep.mkdir(parents=True)
    _tree(tmp_path, {"deploy/targets.yaml": ANOTHER_TOOLS_TARGETS})
    assert _found(tmp_path) == []


def test_a_workspace_template_that_is_a_submodule_holds_data(tmp_path):
    """A submodule (its '.git' a file) of the suite's repository: the suite of the repository around it names it."""
    _tree(tmp_path, {"evals/fix-port.eval.yaml": ("workspace:\n  template: ./fixtures/sample-repo\ntests:\n"
                                                  "  - {id: fix-port, criteria: Sets port 9090, input: Change the port}\n"),
                     "evals/fixtures/sample-repo/.git": "gitdir: ../../../.git/modules/sample-repo\n",
                     "evals/fixtures/sample-repo/config.yaml": "port: 8080\n"})
    assert run_concise(tmp_path, "--no-cache", ".") == (0, "", "")


@pytest.mark.parametrize("text", [
    "description: Greeting checks\nservices:\n  judge: {image: python}\n",  # a suite key beside compose's
    "jobs:\n  run: {runs-on: ubuntu-latest}\n",                            # 'jobs' without 'on': no workflow
    "kind: Job\nspec: {}\n",                                                # 'kind' without 'apiVersion'
    "services: {}\ncases:\n  - id: greet\n",                              # a near miss of 'evalcases'
], ids=["suite-key", "jobs-alone", "kind-alone", "near-miss"])
def test_a_top_level_that_is_not_clearly_another_kind_is_still_linted(tmp_path, text):
    _tree(tmp_path, {"evals/x.yaml": text})
    assert "EV101" in [code for _, _, _, code, _ in _found(tmp_path)]


def test_a_compose_file_with_evalcases_is_an_eval_file(tmp_path):
    _tree(tmp_path, {"evals/x.yaml": "services: {}\nevalcases:\n  - id: greet\n    expected_outcome: g\n"
                                     "    input: hi\n"})
    assert [(line, col, code) for _, line, col, code, _ in _found(tmp_path)] == [(1, 1, "EV109")]


# 2. AgentV's later `tests:` format


def test_a_later_format_file_is_checked_as_agentv_4_reads_it(tmp_path):
    _tree(tmp_path, {"evals/greeting.yaml": LATER, "evals/more/other.eval.yaml": "tests:\n  - vars: {q: hi}\n"
                     "    assert:\n      - type: equals\n        value: hello\nprompts: [p.txt]\nproviders: [x]\n"})
    assert [(path, line, col, code) for path, line, col, code, _ in _found(tmp_path)] == [
        ("evals/more/other.eval.yaml", 2, 5, "EV103"), ("evals/more/other.eval.yaml", 2, 5, "EV105"),
        ("evals/more/other.eval.yaml", 6, 1, "EV109"), ("evals/more/other.eval.yaml", 7, 1, "EV109")]


def test_a_configured_version_decides_how_a_later_format_file_is_read(tmp_path):
    _tree(tmp_path, {"evals/greeting.yaml": LATER, ".evallint.toml": 'agentv-version = "2.2"\nselect = ["EV101"]\n'})
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (1, (
        "evals/greeting.yaml:1:1: EV101 [error] no 'evalcases' list; the runner finds no cases in this file\n"), "")


def test_a_retired_code_is_accepted_in_the_configuration_and_named_in_a_suppression(tmp_path):
    _tree(tmp_path, {"evals/greeting.yaml": "# evallint: disable-file=EV011\n" + LATER,
                     ".evallint.toml": 'ignore = ["EV011"]\n'})
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (0, (
        "evals/greeting.yaml:1:1: EV099 [warning] retired rule code 'EV011' in suppression (AgentV 4.42.4's 'tests:' "
        "files, which it reported unchecked, are checked); it suppresses nothing (see 'evallint rules')\n"), "")


def test_a_later_format_file_outside_the_include_globs_is_not_linted(tmp_path):
    _tree(tmp_path, {"ci/tests.yaml": "tests:\n  - run: pytest\n"})
    assert _found(tmp_path) == []


def test_tests_beside_evalcases_is_read_as_agentv_4_42_which_drops_the_evalcases(tmp_path):
    """AgentV 4.42.4, the release people install, reads 'tests' and drops 'evalcases' (or 'eval_cases'); a
    configured AgentV 2.2 reads the cases and no 'tests'."""
    _tree(tmp_path, {"evals/x.yaml": "evalcases:\n  - id: greet\n    expected_outcome: g\n    input: hi\n"
                                     "tests: []\n", "evals/y.yaml": "eval_cases:\n  - id: greet\ntests: []\n"})
    assert [(path, line, col, code) for path, line, col, code, _ in _found(tmp_path)] == [
        ("evals/x.yaml", 1, 1, "EV108"), ("evals/x.yaml", 5, 8, "EV111"),
        ("evals/y.yaml", 1, 1, "EV108"), ("evals/y.yaml", 3, 8, "EV111")]
    configured = lint_paths([tmp_path], config=Config(root=str(tmp_path), agentv_version="2.2"))
    assert [(os.path.relpath(d.path, tmp_path), d.line, d.column, d.code) for d in configured] == [
        ("evals/x.yaml", 5, 1, "EV109"), ("evals/y.yaml", 1, 1, "EV101"), ("evals/y.yaml", 3, 1, "EV109")]


def test_a_later_format_file_with_another_kinds_key_is_not_skipped(tmp_path):
    _tree(tmp_path, {"evals/x.yaml": "services: {}\ntests: []\n"})
    assert [(line, col, code) for _, line, col, code, _ in _found(tmp_path)] == [(1, 1, "EV109"), (2, 8, "EV111")]


def test_a_later_format_file_with_a_duplicate_key_still_reports_it(tmp_path):
    _tree(tmp_path, {"evals/x.yaml": "description: a\ndescription: b\ntests: []\n"})
    assert [(line, col, code) for _, line, col, code, _ in _found(tmp_path)] == [(2, 1, "EV003"), (3, 8, "EV111")]


# --- a file that was an eval suite in the last commit --------------------------

SUITE = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: hi\n"


def _committed_suite(tmp_path):
    from clirun import git

    git(tmp_path, "init", "-q")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "suite.yaml").write_text(SUITE)  # outside the include globs: an eval by its content
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "suite")
    return tmp_path / "tools" / "suite.yaml"


@pytest.mark.parametrize("broken, expected", [
    ("", "tools/suite.yaml:1:1: EV008 [error] the top level is empty (no YAML document); an eval file must be a "
         "mapping with 'evalcases'"),
    ("- a\n- b\n", "tools/suite.yaml:1:1: EV008 [error] the top level is a list; an eval file must be a mapping "
                   "with 'evalcases'"),
    ("cases_list:\n  - id: a\n", "tools/suite.yaml:1:1: EV101 [error] no 'evalcases' list; the runner finds no cases "
                                 "in this file"),
])
def test_breaking_an_eval_file_outside_the_include_globs_is_reported(tmp_path, broken, expected):
    suite = _committed_suite(tmp_path)
    suite.write_text(broken)
    for argv in (["."], ["tools/suite.yaml"], ["--no-cache", "."]):
        code, out, _ = run_concise(tmp_path, *argv)
        assert (code, out.splitlines()[:1]) == (1, [expected]), argv


def test_a_file_that_was_never_an_eval_suite_is_skipped(tmp_path):
    suite = _committed_suite(tmp_path)
    (tmp_path / "tools" / "other.yaml").write_text("")
    (tmp_path / "tools" / "notes.yaml").write_text("cases_list: []\n")
    suite.write_text(SUITE)
    assert run_concise(tmp_path, ".") == (0, "", "")
    code, out, _ = run_concise(tmp_path, "--statistics", "--format", "json", ".")
    assert (code, out) == (0, "[]\n")


def test_a_commit_decides_again_though_the_file_is_unchanged(tmp_path):
    from clirun import git

    suite = _committed_suite(tmp_path)
    suite.write_text("")
    assert run_concise(tmp_path, ".")[0] == 1  # cached: the empty file broke an eval suite
    git(tmp_path, "commit", "-q", "-am", "empty")
    assert run_concise(tmp_path, ".") == (0, "", "")  # HEAD no longer holds a suite: the cached answer is dropped


def test_a_git_that_stopped_is_dropped_without_a_broken_pipe_left_behind(tmp_path, recwarn):
    import gc
    import signal

    from evallint.load import history

    suite = _committed_suite(tmp_path)
    root = str(tmp_path)
    assert history.head_bytes(str(suite), root, 1000) == SUITE.encode()
    proc = history._BATCHES[root]  # the process this module started for the repository
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert history.head_bytes(str(suite), root, 1000) is None  # answered, not raised
    assert history._BATCHES[root] is None
    gc.collect()
    assert not [w for w in recwarn if "Broken pipe" in str(w.message) or "BrokenPipe" in str(w.message)]


def test_a_file_of_tests_named_on_the_command_line_is_an_eval_file_whatever_its_name(tmp_path):
    """AgentV 4.42.4 loads any YAML file it is given: named on the command line, one with a list under 'tests'
    is linted; found by a folder walk outside the include globs, it is not."""
    _tree(tmp_path, {"skills/EVAL.yaml": "tests:\n  - id: a\n    input: hi\n"})
    assert run_concise(tmp_path, "--no-cache", "-j1", "skills/EVAL.yaml") == (1, (
        "skills/EVAL.yaml:2:5: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
        "runner skips it as incomplete\n"), "")
    assert _found(tmp_path) == []


def _git_of_this_process(suite: str, root: str) -> tuple:
    from evallint.load import history

    return history.head_bytes(suite, root, 1000), history._BATCHES[root].pid


def test_a_forked_worker_asks_a_git_of_its_own(tmp_path):
    """A pool worker forked after this process asked git for the history (as finding the files of tests a
    changed suite named does, before the run) never writes to this process's git: on one pipe, two processes
    would read each other's answers."""
    import multiprocessing

    from evallint.load import history

    suite = _committed_suite(tmp_path)
    root = str(tmp_path)
    assert history.head_bytes(str(suite), root, 1000) == SUITE.encode()
    with multiprocessing.get_context("fork").Pool(1) as pool:
        answer, pid = pool.apply(_git_of_this_process, (str(suite), root))
    assert answer == SUITE.encode() and pid != history._BATCHES[root].pid
    assert history.head_bytes(str(suite), root, 1000) == SUITE.encode()


def test_a_yaml_file_beside_a_results_file_or_a_case_file_beside_a_jsonl_file_is_no_sidecar(tmp_path):
    """A sidecar is read only with its dataset: a results file of its name is none (evallint skips it too), nor is a
    file of JSON values other than cases; a folder of tests' case file is its subfolder's test, whatever '.jsonl' file
    stands beside it."""
    git(tmp_path, "init", "-q")
    _tree(tmp_path, {"evals/results.jsonl": '{"eval_id": "c1", "score": 1.0}\n', "evals/results.yaml": "passed: 1\n",
                     "evals/vectors.jsonl": "[0.1, 0.2]\n[0.3, 0.4]\n", "evals/vectors.yaml": "model: small\n",
                     "evals/c.eval.yaml": "tests: ./cases/\n", "evals/cases/one/case.yaml": "input: hi\ncriteria: ok\n",
                     "evals/cases/one/case.jsonl": '{"id": "x", "input": "hi", "criteria": "ok"}\n',
                     "evals/data.jsonl": '{"id": "d", "input": "hi", "criteria": "ok"}\n', "evals/data.yaml": "bogus: 1\n"})
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (1, (
        "evals/data.yaml:1:1: EV703 [error] unknown key 'bogus' in dataset sidecar (known keys: $schema, description, "
        "evaluator, execution, name)\n"), "")


INPUT_JSONL = {"evals/a.eval.yaml": "tests:\n  - {id: a, input: hi, criteria: ok, input_files: [data/cases.jsonl]}\n",
               "evals/data/cases.jsonl": '{"id": "x", "input": "q", "criteria": "c"}\n', "evals/data/cases.yaml": "bogus: 1\n"}


def test_the_yaml_file_beside_a_jsonl_input_file_is_no_sidecar(tmp_path):
    """A '.jsonl' file a test sends as an input file is no dataset (the runner reads it as text), so the YAML file of
    its name beside it is no dataset's sidecar: the runner reads neither as an eval file, and evallint lints neither."""
    git(tmp_path, "init", "-q")
    _tree(tmp_path, INPUT_JSONL)
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (0, "", "")
    (tmp_path / "evals" / "data" / "cases.yaml").write_text("- {id: y, input: q, criteria: c}\n")
    assert run_concise(tmp_path, "--no-cache", "-j1", ".") == (0, "", "")


@pytest.mark.runner
def test_the_loader_sends_a_jsonl_input_file_as_text(tmp_path):
    from agentv_runner import load_tests

    _tree(tmp_path, INPUT_JSONL)
    loaded = load_tests(tmp_path, ["evals/a.eval.yaml"])["evals/a.eval.yaml"]
    assert (loaded["error"], [(test["file_paths"], [(part["type"], part.get("text")) for part in test["input"][0]["content"]])
                              for test in loaded["tests"]]) == (None, [(["evals/data/cases.jsonl"], [
                                  ("file", INPUT_JSONL["evals/data/cases.jsonl"]), ("text", None)])])


def test_a_word_of_a_suites_prose_names_no_file_and_a_suite_elsewhere_hides_none(tmp_path):
    """Only the strings the runner reads as paths name a file (a criteria's 'smoke' names no folder), and only
    suites named as the runner's discovery names them name one."""
    _tree(tmp_path, {"evals/main.eval.yaml": "tests:\n  - {id: a, input: Please run the smoke checks., criteria: c}\n",
                     "evals/other.yaml": "tests:\n  - {id: b, input: hi, criteria: c, input_files: [smoke/basic.eval.yaml]}\n",
                     "evals/smoke/basic.eval.yaml": "test:\n  - {id: c, input: hi, criteria: c}\n"})
    assert run_concise(tmp_path, "--no-cache", "-j1", "evals/smoke/basic.eval.yaml") == (1, (
        "evals/smoke/basic.eval.yaml:1:1: EV101 [error] no 'evalcases' list; the runner finds no cases in this file\n"
        "evals/smoke/basic.eval.yaml:1:1: EV109 [warning] unknown key 'test' in eval suite (did you mean 'target'?)\n"), "")


def test_a_file_of_an_agentv_folder_above_the_root_is_linted(tmp_path):
    root = tmp_path / ".agentv" / "project"
    root.mkdir(parents=True)
    _tree(root, {"evals/broken.eval.yaml": "test: []\n"})
    assert [code for _, _, _, code, _ in _found(root)] == ["EV101", "EV109"]


def test_whether_a_suite_names_a_jsonl_file_as_data_is_asked_only_of_one_taken_for_a_dataset(tmp_path):
    """A results file is told by its first line: what the suites around it name as data does not change its kind, so
    its kind does not depend on them (a cached result stays when they change); a dataset's does. The suite lies two
    folders up, where only a suite naming data is looked for (one naming files of tests is looked for nearer)."""
    from evallint.load import deps
    from evallint.load.evidence import Evidence
    from evallint.load.files import DATASET, PathKind
    from evallint.load.recognize import kind_of
    from evallint.load.source import Content, Source

    git(tmp_path, "init", "-q")
    lines = {"results": '{"test_id": "t", "score": 1}\n', "dataset": '{"id": "q", "criteria": "c", "input": "hi"}\n'}
    _tree(tmp_path, {"a.eval.yaml": "tests: [{id: t, criteria: c, input: hi, input_files: [p/evals/sent.jsonl]}]\n",
                     **{f"p/evals/{name}.jsonl": text for name, text in lines.items()},
                     "p/evals/sent.jsonl": lines["dataset"]})

    def kind(name: str) -> tuple:
        path = str(tmp_path / "p" / "evals" / f"{name}.jsonl")
        evidence = Evidence(path, Content.decoded(Source((tmp_path / "p" / "evals" / f"{name}.jsonl").read_text())),
                            PathKind(path, str(tmp_path), Config().include), git_root=str(tmp_path), max_bytes=1 << 20)
        with deps.run_scope(), deps.recording() as seen:
            found = kind_of(evidence)
        return found, str(tmp_path / "a.eval.yaml") in seen

    assert kind("results") == (None, False)
    assert kind("dataset") == (DATASET, True)
    assert kind("sent") == (None, True)
