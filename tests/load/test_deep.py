"""Folders nested deeper than Python's recursion limit: every walk over paths (the repository root
search, the real path of a folder, the nearest targets file, references looked up through the
ancestors, discovery) climbs or descends in a loop."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from clirun import run_concise

from evallint import lint_paths
from evallint.config import Config
from evallint.load import deps
from evallint.load.files import repo_root

DEPTH = 600  # over sys.getrecursionlimit() (1000) for a walk that spends two frames a folder
SUITE = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input:\n      - role: user\n"
         "        content: [{type: file, value: notes.md}, {type: file, value: missing.md}]\n"
         "    execution: {target: zz}\n")
FINDINGS = ["s.yaml:6:70: EV401", "s.yaml:7:17: EV116", "s.yaml:7:25: EV409"]


@pytest.fixture
def deep(tmp_path):
    """A repository whose eval file lies DEPTH folders down; the file it points at and the targets file
    are at the repository root."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "notes.md").write_text("Notes.\n")
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - name: u\n    provider: mock\n")
    folder = str(tmp_path / "evals")
    os.mkdir(folder)
    for _ in range(DEPTH):  # os.makedirs recurses once a level
        folder = os.path.join(folder, "d")
        os.mkdir(folder)
    with open(os.path.join(folder, "s.yaml"), "w", encoding="utf-8") as fh:
        fh.write(SUITE)
    return tmp_path, folder


def found(out: str) -> list:
    return [line.split(" [")[0].rsplit("/", 1)[-1] for line in out.splitlines()]


def test_the_root_of_a_deep_folder_is_found(deep):
    top, folder = deep
    assert repo_root(folder) == str(top)
    with deps.run_scope():
        assert repo_root(folder) == str(top)
        assert repo_root(os.path.dirname(folder)) == str(top)  # its parent was kept on the way up


@pytest.mark.parametrize("named", ["file", "folder"])
def test_a_deep_file_is_linted(deep, named):
    top, folder = deep
    path = os.path.join(folder, "s.yaml") if named == "file" else str(top)
    codes = [d.code for d in lint_paths([path], config=Config())]
    assert codes == ["EV401", "EV116", "EV409"]


def test_a_deep_file_named_on_the_command_line_is_linted_with_the_cache(deep):
    top, folder = deep
    for _ in range(2):  # linted, then answered from the cache
        code, out, err = run_concise(top, os.path.join(folder, "s.yaml"))
        assert (code, found(out), err) == (1, FINDINGS, "")


def test_evallint_runs_in_a_deep_working_folder(deep):
    top, folder = deep
    proc = subprocess.run([sys.executable, "-m", "evallint", "--format", "concise", "--quiet", "s.yaml"],
                          cwd=folder, capture_output=True, text=True, timeout=60)
    assert (proc.returncode, found(proc.stdout), proc.stderr) == (1, FINDINGS, "")
