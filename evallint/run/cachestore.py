"""The result cache's SQLite database, in its cache folder: the one table (``SCHEMA``; its columns are
described in docs/format.md#cache), opening it with its guards, writing rows in batches and evicting old
ones.

Rows are written by the main process in batches, one transaction per ``BATCH``; concurrent runs are kept
apart by SQLite's locking, and a write waits at most ``TIMEOUT`` for another. A run that writes rows (or
fails to) then evicts (``_evict``), so the database never grows past ``MAX_FILE_BYTES``. It is opened only
when the folder and each of its files passes ``_problem``: a FIFO would block SQLite's first read, and a
file another user can write could be a planted database; otherwise ``Database.open`` says why, and the run
goes without the cache."""
from __future__ import annotations

import os
import stat
import time
from typing import Optional

DATABASE = "results-v4.sqlite3"
COMPANIONS = ("", "-wal", "-shm", "-journal")  # the database and the files SQLite keeps beside it
MAX_FILE_BYTES = 512 * 1024 * 1024  # a database (or its log) larger than this is not opened
BATCH = 500  # results written in one transaction
TIMEOUT = 1.0  # seconds a write waits for another process's transaction
MAX_AGE = 30 * 24 * 3600  # seconds a row is kept without being used
MAX_ROWS = 100_000  # rows kept, the most recently used
SCHEMA = ("CREATE TABLE results (root BLOB NOT NULL, file BLOB NOT NULL, named INTEGER NOT NULL,"
          " version TEXT NOT NULL, config TEXT NOT NULL, content TEXT NOT NULL, stat TEXT, entry TEXT NOT NULL,"
          " used INTEGER NOT NULL, PRIMARY KEY (root, file, named, version, config))",
          "CREATE INDEX results_used ON results (used)")
# what sqlite_master holds for the schema, by name: a database with anything else in it is not ours
MASTER = [("table", "results", SCHEMA[0]), ("index", "results_used", SCHEMA[1]),
          ("index", "sqlite_autoindex_results_1", None)]


def now() -> int:
    """The time rows are marked used with, in seconds since the epoch."""
    return int(time.time())


def _problem(path: str, info: os.stat_result, folder: bool) -> Optional[str]:
    """Why the cache folder or a file of its database at ``path`` (``info``: its lstat; a folder's stat)
    must not be opened; None when it may."""
    if stat.S_ISLNK(info.st_mode):
        return f"{path} is a symbolic link"
    if not (stat.S_ISDIR(info.st_mode) if folder else stat.S_ISREG(info.st_mode)):
        return f"{path} is not a {'folder' if folder else 'regular file'}"
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return f"{path} belongs to another user"
    if hasattr(os, "getuid") and info.st_mode & stat.S_IWOTH:
        return f"{path} can be written by other users"
    if info.st_size > MAX_FILE_BYTES and not folder:
        return f"{path} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB"
    return None


def _unusable(folder: str) -> Optional[str]:
    """Why the cache folder, made private when missing, or its database's files must not be opened."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        problem = _problem(folder, os.stat(folder), folder=True)
    except OSError as exc:
        return f"cannot make the folder {folder}: {exc.strerror}"
    for path in (os.path.join(folder, DATABASE + suffix) for suffix in COMPANIONS):
        if problem is not None:
            break
        try:
            problem = _problem(path, os.lstat(path), folder=False)
        except FileNotFoundError:
            continue
        except OSError as exc:
            return f"cannot read {path}: {exc.strerror}"
    return problem


class Database:
    """The cache folder's database, with the rows waiting to be written."""

    def __init__(self, connection):
        self.connection = connection
        self.pending: list = []
        self.writable = True
        self.wrote = False

    @classmethod
    def open(cls, folder: str):
        """The database in ``folder``, made (with the folder) when missing; or why it cannot be used."""
        import sqlite3

        problem = _unusable(folder)
        if problem is not None:
            return problem
        path = os.path.join(folder, DATABASE)
        try:
            connection = sqlite3.connect(path, timeout=TIMEOUT, isolation_level=None)
        except sqlite3.Error as exc:
            return f"cannot open {path}: {exc}"
        try:
            _prepare(connection)
        except sqlite3.Error as exc:
            connection.close()
            return f"cannot use {path}: {exc}"
        return cls(connection)

    def get_many(self, keys: list) -> dict:
        """{key: (content, stat, entry, used)} of the rows there are for ``keys``: one query per root."""
        import sqlite3

        wanted: dict = {}  # (root, named, version, config) -> files
        for root, file, *rest in keys:
            wanted.setdefault((root, *rest), []).append(file)
        found = {}
        try:
            for (root, *rest), files in wanted.items():
                marks = ", ".join("?" * len(files))
                for file, *row in self.connection.execute(
                        "SELECT file, content, stat, entry, used FROM results WHERE root = ? AND named = ?"
                        f" AND version = ? AND config = ? AND file IN ({marks})", (root, *rest, *files)):
                    if isinstance(row[2], str) and type(row[3]) is int:
                        found[(root, file, *rest)] = tuple(row)
        except sqlite3.Error:
            return {}
        return found

    def put(self, row: tuple) -> None:
        if self.writable:
            self.pending.append(row)
            if len(self.pending) >= BATCH:
                self.flush()

    def flush(self) -> None:
        """Write the pending rows in one transaction; a database that refuses stops being written."""
        rows, self.pending = self.pending, []
        if rows:
            marked = now()
            self.writable = _transaction(self.connection, (
                ("INSERT OR REPLACE INTO results (root, file, named, version, config, content, stat, entry, used)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [(*row, marked) for row in rows]),))
            self.wrote = self.wrote or self.writable

    def close(self) -> None:
        import sqlite3

        self.flush()
        if self.wrote or not self.writable:  # not writable: perhaps full
            _evict(self.connection)
        try:
            self.connection.close()
        except sqlite3.Error:
            pass


def _prepare(connection) -> None:
    """Set the connection up, and make the table in an empty database; raise sqlite3.Error when the
    database is damaged or holds anything else."""
    import sqlite3

    connection.execute("PRAGMA trusted_schema=OFF")  # a planted schema's views and triggers run no functions
    connection.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
    connection.execute("PRAGMA synchronous=NORMAL")
    page = connection.execute("PRAGMA page_size").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count={MAX_FILE_BYTES // page}")  # stays within the cap
    master = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    if not connection.execute(master).fetchall():  # IF NOT EXISTS: another run may make it first
        _transaction(connection, [(statement.replace(" results", " IF NOT EXISTS results", 1), ())
                                  for statement in SCHEMA], many=False)
    if connection.execute(master).fetchall() != MASTER:
        raise sqlite3.DatabaseError("it does not hold evallint's results table alone")


def _transaction(connection, statements, many: bool = True) -> bool:
    """Run (sql, parameters) statements in one write transaction (each ``executemany`` with ``many``);
    whether it was committed."""
    import sqlite3

    try:
        connection.execute("BEGIN IMMEDIATE")
        for sql, parameters in statements:
            (connection.executemany if many else connection.execute)(sql, parameters)
        connection.execute("COMMIT")
        return True
    except sqlite3.Error:
        try:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        return False


def _evict(connection) -> None:
    """Delete the rows unused for ``MAX_AGE``, then all but the ``MAX_ROWS`` most recently used, or but the
    more recent half when the rows fill more than half of ``MAX_FILE_BYTES``."""
    import sqlite3

    try:
        pages, free, size = (connection.execute(f"PRAGMA {name}").fetchone()[0]
                             for name in ("page_count", "freelist_count", "page_size"))
        keep = MAX_ROWS
        if (pages - free) * size > MAX_FILE_BYTES // 2:
            keep = min(keep, connection.execute("SELECT count(*) FROM results").fetchone()[0] // 2)
    except sqlite3.Error:
        return
    _transaction(connection, (
        ("DELETE FROM results WHERE used < ?", (now() - MAX_AGE,)),
        ("DELETE FROM results WHERE rowid IN (SELECT rowid FROM results ORDER BY used DESC LIMIT -1 OFFSET ?)",
         (keep,))), many=False)
