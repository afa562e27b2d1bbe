"""Through a real editor: Neovim (the Debian package; `.ci/run` installs it), headless, starts
`evallint server` with its built-in LSP client, opens an eval file, and `vim.diagnostic.get()` holds the
codes and positions the command line reports for it; and the README's init.lua snippets, each run as the
init.lua of every Neovim it is for, show those diagnostics for an eval file, a dataset and an Agent Skills evals
file."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from lsp import cli_concise

SCRIPT = Path(__file__).resolve().parent / "neovim" / "diagnostics.lua"
AFTER_INIT = Path(__file__).resolve().parent / "neovim" / "readme.lua"
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


DATASET = '{"id": "a", "input": "q", "expected_outcome": "g", "colour": 1}\n{"id": "a", "input": "q", "outcome": 5}\n'
SKILLS = '{"evals": [{"id": 1, "prompt": "p", "promt": "q"}, {"id": 1, "prompt": "r"}]}\n'


def readme_snippets() -> dict:
    """The README's Neovim init.lua snippets by the oldest Neovim (major, minor) each is for."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**Neovim**"):readme.index("**Helix**")]
    snippets = {}
    for block in re.findall(r"^```lua\n(.*?)^```$", section, re.M | re.S):
        oldest = re.match(r"-- Neovim (\d+)\.(\d+)", block)
        snippets[(int(oldest.group(1)), int(oldest.group(2)))] = block
    return snippets


def test_each_readme_snippet_shows_the_diagnostics_in_every_neovim_it_is_for(tmp_path):
    nvim = shutil.which("nvim")
    assert nvim is not None, "Neovim is needed: apt-get install neovim (.ci/run installs it)"
    shown = subprocess.run([nvim, "--version"], capture_output=True, text=True, check=True).stdout
    version = tuple(int(part) for part in re.match(r"NVIM v(\d+)\.(\d+)", shown).groups())
    snippets = readme_snippets()
    assert sorted(snippets) == [(0, 7), (0, 11)]
    assert "vim.lsp.start(" in snippets[(0, 7)] and 'vim.lsp.enable("evallint")' in snippets[(0, 11)]
    workspace = tmp_path / "workspace"
    (workspace / ".git").mkdir(parents=True)
    (workspace / "evals").mkdir()
    files = {"evals/a.yaml": ("yaml", SUITE), "evals/data.jsonl": ("jsonl", DATASET),
             "evals/evals.json": ("json", SKILLS)}
    for name, (_, text) in files.items():
        (workspace / name).write_text(text)
    ran = []
    for oldest, snippet in sorted(snippets.items()):
        if version < oldest:
            continue
        init = tmp_path / f"init-{oldest[0]}.{oldest[1]}.lua"
        init.write_text(snippet)
        for name, (filetype, text) in files.items():
            out = tmp_path / "shown.json"
            env = {**os.environ, "PATH": os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]),
                   "EVALLINT_FILE": name, "EVALLINT_OUT": str(out), "XDG_CONFIG_HOME": str(tmp_path / "config"),
                   "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state")}
            done = subprocess.run([nvim, "--headless", "-n", "-i", "NONE", "-u", str(init), "-c", f"luafile {AFTER_INIT}"],
                                  cwd=workspace, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=300)
            assert done.returncode == 0, done.stdout + done.stderr
            found = json.loads(out.read_text())
            assert (found["answered"], found["filetype"]) == (True, filetype), (init.name, name, done.stderr)
            assert sorted((d["code"], d["lnum"] + 1, d["col"] + 1) for d in found["diagnostics"]) == \
                sorted(cli_concise(workspace, name, text)), (init.name, name)
            assert {d["source"] for d in found["diagnostics"]} == {"evallint"}
            ran.append((oldest, name))
    assert ran[:2] == [((0, 7), "evals/a.yaml"), ((0, 7), "evals/data.jsonl")]
