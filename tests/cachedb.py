"""The result cache's tests' repository and runs, and its database read as it is on disk: in the user
cache folder that ``conftest.py`` gives every test."""
from __future__ import annotations

import io
import os
import sqlite3
from pathlib import Path

from evallint.cli import main
from evallint.run import cachestore


def folder() -> Path:
    return Path(os.environ["XDG_CACHE_HOME"]) / "evallint"


def database() -> Path:
    return folder() / cachestore.DATABASE


def rows() -> list:
    """(root, file, named, version, config, content, stat, entry, used) of every row."""
    with sqlite3.connect(database()) as connection:
        return connection.execute("SELECT * FROM results ORDER BY file, named").fetchall()


CASE = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input:\n      - role: user\n"
        "        content: [{type: file, value: notes.md}]\n    evaluators:\n"
        "      - {name: j, type: llm_judge, prompt: judge.md}\n")


def run(repo, *argv):
    out = io.StringIO()
    code = main(["--format", "concise", "--quiet", "-j1", *argv, str(repo)], stdout=out, stderr=io.StringIO())
    return code, out.getvalue()
