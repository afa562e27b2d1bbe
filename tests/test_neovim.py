"""Once through a real editor: Neovim (the Debian package; `.ci/run` installs it), headless, starts
`evallint server` with its built-in LSP client, opens an eval file, and `vim.diagnostic.get()` holds the
codes and positions the command line reports for it."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from lsp import cli_concise

SCRIPT = Path(__file__).resolve().parent / "neovim" / "diagnostics.lua"
TARGETS = "targets:\n  - name: default\n    provider: mock\n  - name: judge\n    provider: mock\n"
SUITE = """\
evalcases:
  - id: a
    expected_outcome: g
    input: q
    descripton: x
    execution:
      target: jugde
      evaluators:
        - name: tools
          type: tool_trajectory
          mode: in-order
  - id: a
    expected_outcome: g
    input: q
"""


def test_neovim_shows_the_command_lines_diagnostics(tmp_path):
    nvim = shutil.which("nvim")
    assert nvim is not None, "Neovim is needed: apt-get install neovim (.ci/run installs it)"
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(TARGETS)
    (tmp_path / "evals").mkdir()
    path = tmp_path / "evals" / "a.yaml"
    path.write_text(SUITE)
    out = tmp_path / "diagnostics.json"
    env = {**os.environ, "EVALLINT_PYTHON": sys.executable, "EVALLINT_ROOT": str(tmp_path), "EVALLINT_FILE": str(path),
           "EVALLINT_OUT": str(out), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    subprocess.run([nvim, "--headless", "--clean", "-n", "-c", f"luafile {SCRIPT}"], cwd=tmp_path, env=env,
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=300, check=True)
    found = json.loads(out.read_text())
    assert found["answered"] is True
    shown = sorted((d["code"], d["lnum"] + 1, d["col"] + 1) for d in found["diagnostics"])
    expected = cli_concise(tmp_path, str(path), SUITE)
    assert shown == sorted(expected) == [("EV104", 12, 9), ("EV109", 5, 5), ("EV116", 7, 7), ("EV310", 11, 17),
                                         ("EV409", 7, 15)]
    assert {d["source"] for d in found["diagnostics"]} == {"evallint"}
    # vim.diagnostic.severity: 1 error, 2 warning
    assert sorted((d["code"], d["severity"]) for d in found["diagnostics"]) == [
        ("EV104", 1), ("EV109", 2), ("EV116", 1), ("EV310", 1), ("EV409", 1)]
