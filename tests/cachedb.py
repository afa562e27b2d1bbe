"""The result cache's database, read as it is on disk: in the user cache folder that ``conftest.py``
gives every test."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from evallint.run import cachestore


def folder() -> Path:
    return Path(os.environ["XDG_CACHE_HOME"]) / "evallint"


def database() -> Path:
    return folder() / cachestore.DATABASE


def rows() -> list:
    """(root, file, named, version, config, content, stat, entry, used) of every row."""
    with sqlite3.connect(database()) as connection:
        return connection.execute("SELECT * FROM results ORDER BY file, named").fetchall()
