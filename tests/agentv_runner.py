"""AgentV 4.42.4's own loader as a test oracle: ``tests/agentv/load.mjs`` run by node on the pinned
``@agentv/core`` that ``npm install --prefix tests/agentv --no-save`` installs."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

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


def load_tests(root: Path, files: list) -> dict:
    """What ``loadTests(file, root)`` makes of each file (relative to ``root``): {file: {tests, logs, error}}."""
    node = require_runner()
    done = subprocess.run([node, str(HERE / "load.mjs"), str(root), *files], capture_output=True, text=True,
                          timeout=600, cwd=root)  # the loader also looks for files from the working folder
    assert done.returncode == 0, f"the AgentV loader failed:\n{done.stderr}"
    return json.loads(done.stdout)
