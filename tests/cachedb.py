"""The result cache's database of a test repository, read as it is on disk."""
from __future__ import annotations

import sqlite3

from evallint.run import cache


def database(repo):
    return repo / ".evallint_cache" / cache.DATABASE


def rows(repo) -> list:
    with sqlite3.connect(database(repo)) as connection:
        return connection.execute("SELECT file, content, stat, entry, mac FROM results").fetchall()
