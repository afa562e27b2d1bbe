"""AgentV 4.42.4's own loader as a test oracle: ``tests/agentv/load.mjs`` run by node on the pinned
``@agentv/core`` that ``npm install --prefix tests/agentv --no-save`` installs."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional

import pytest

HERE = Path(__file__).resolve().parent / "agentv"
INSTALL = "npm install --prefix tests/agentv --no-save --ignore-scripts"


def require_runner() -> str:
    """The node executable, or a skip that says what is missing."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"AgentV 4.42.4's loader needs node on PATH, then {INSTALL}")
    if not (HERE / "node_modules" / "@agentv" / "core" / "package.json").is_file():
        pytest.skip(f"AgentV 4.42.4's loader is not installed: {INSTALL}")
    return node


def load_tests(root: Path, files: list, *, suite: bool = False, env: Optional[dict] = None) -> dict:
    """What ``loadTests(file, root)`` makes of each file (relative to ``root``): {file: {tests, logs, error}};
    with ``suite``, also the settings the loader reads besides the tests (``suite``); ``env``: variables set
    besides this process's."""
    return _run(root, files, *(("--suite",) if suite else ()), env=None if env is None else {**os.environ, **env})


def read_targets(root: Path, files: list) -> dict:
    """What the runner makes of each targets file (relative to ``root``): {file: {validate, error, targets, logs}},
    each target {name, kind, grader} or {name, error} (``load.mjs --targets``)."""
    return _run(root, files, "--targets")


def read_configs(root: Path, files: list, home: Path, env: Optional[dict] = None) -> dict:
    """What ``loadConfig`` makes of each `.agentv/config.yaml` (relative to ``root``): {file: {config, logs}};
    ``home`` is the runner's home folder, where it looks for a config of last resort; ``env``: variables set
    besides this process's."""
    return _run(root, files, "--config", env={**os.environ, **(env or {}), "AGENTV_HOME": str(home)})


def run_suite(root: Path, file: str, home: Path, target: Optional[str] = None) -> dict:
    """What ``runEvaluation`` does with the eval file (relative to ``root``) on a recording target (``run.mjs``), of
    the kind of ``target`` of the root's targets file when given: {error, sent: [{test, question, messages}], scores:
    {test: score}, logs, artifacts: the folders the results are written to}; ``home`` is the runner's home folder."""
    node = require_runner()
    done = subprocess.run([node, str(HERE / "run.mjs"), str(root), file, *([target] if target else [])],
                          capture_output=True, text=True, timeout=600,
                          cwd=root, env={**os.environ, "HOME": str(home), "AGENTV_HOME": str(home)})
    assert done.returncode == 0, f"the AgentV runner failed:\n{done.stderr}"
    return json.loads(done.stdout)


def read_ranges(texts: list) -> list:
    """Whether the agentv command takes each text as a project's 'required_version' (``ranges.mjs``)."""
    node = require_runner()
    done = subprocess.run([node, str(HERE / "ranges.mjs")], input=json.dumps(texts), capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, f"the semver package failed:\n{done.stderr}"
    return json.loads(done.stdout)


def _run(root: Path, files: list, *options: str, env: Optional[dict] = None) -> dict:
    node = require_runner()
    done = subprocess.run([node, str(HERE / "load.mjs"), *options, str(root), *files], capture_output=True, text=True,
                          timeout=600, cwd=root, env=env)  # the loader also looks for files from the working folder
    assert done.returncode == 0, f"the AgentV loader failed:\n{done.stderr}"
    return json.loads(done.stdout)
