"""Which YAML files inside an `evals/` folder are eval files: other kinds of YAML there (compose files, CI
workflows, Kubernetes manifests) are skipped, and broken eval files are still reported."""
from __future__ import annotations

import io
import os

import pytest
from clirun import run_concise

from evallint import lint_paths
from evallint.cli import main
from evallint.config import Config
from evallint.lint import lint_file
from evallint.load.files import EVAL, content_kind
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
