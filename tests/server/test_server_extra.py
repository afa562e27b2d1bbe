"""``evallint server`` without the server extra says how to get it, from the package index and from a checkout."""
from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

INSTALL = ("pip install 'agentv-evallint[server]' from the package index, or pip install '.[server]' in a checkout "
           "of evallint")


def test_the_server_without_its_libraries_says_how_to_install_them(tmp_path):
    # a pygls that cannot be imported, found before the installed one: as if the extra were not installed
    (tmp_path / "pygls").mkdir()
    (tmp_path / "pygls" / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'pygls'\", "
                                                    "name='pygls')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "evallint", "server"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"evallint: error: 'evallint server' needs pygls, which is not installed: {INSTALL}\n"


def test_the_servers_help_names_both_ways_to_install_it():
    done = subprocess.run([sys.executable, "-m", "evallint", "server", "--help"], capture_output=True, text=True,
                          timeout=60, check=True)
    assert f"Needs the 'server' extra: {INSTALL}." in " ".join(done.stdout.split())
