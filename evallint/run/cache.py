"""The result cache: one SQLite database in the cache folder.

The cache folder (``.evallint_cache`` at the repository root, or
``--cache-dir``) holds ``CACHEDIR.TAG``, a ``.gitignore`` that ignores it all,
and ``results-v3.sqlite3``, whose one table is::

    CREATE TABLE results (
        file    TEXT PRIMARY KEY,  -- blake2b of (FORMAT, evallint's version, the effective configuration,
                                   --   named explicitly or not, the repository root, the file's absolute path)
        content TEXT NOT NULL,     -- blake2b of the file's bytes when it was linted
        stat    TEXT,              -- JSON [mtime_ns, ctime_ns, size, inode, device] of those bytes, or null
        entry   TEXT NOT NULL,     -- JSON: {"kind": ..., "diagnostics": [...], "lines": [[number, text], ...],
                                   --   "deps": [[path, signature], ...]}
        mac     TEXT NOT NULL      -- HMAC-SHA256 of (file, content, stat, entry) under the user's key
    ) WITHOUT ROWID

A row counts only when its ``mac`` is right under this user's key
(``cachekey.py``: kept outside every repository), so a cache that was copied,
committed or edited by hand is a miss. A result is given from the cache when
the file holds the bytes that were linted, and every path in ``deps`` (what
the lint looked at: prompts, scripts, targets files, sidecars, present or
absent) still has the recorded signature (``deps.signature``: its stat, or
null when it is missing). The file holds those bytes when its stat equals
``stat``, else when its bytes hash to ``content``. A stat is recorded only for a file left alone for
``SETTLED_NS`` before it was read: a write within the same timestamp tick as
the read could otherwise leave the stat unchanged (git's "racily clean"
files); a file answered by its hash gets its stat recorded once it has
settled. A file's row is replaced when it is linted again, so the table
holds one row per file, configuration and version.

Why SQLite: lookups read one row by its key (memory stays flat however large
the cache), writes are atomic transactions made in batches (one per
``BATCH`` results), and concurrent runs (pre-commit starts several) are kept
apart by SQLite's locking; the format is documented and readable with any
SQLite tool. A row, a database or a folder that cannot be read or written,
is damaged or foreign (a schema other than ours, a row not sealed with the
key, an entry that does not decode), is locked by another writer for longer
than ``TIMEOUT`` seconds, or whose files are not plain files within the size
cap (``cachefiles.py``), is a miss, never an error."""
from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from dataclasses import fields
from typing import Optional

from evallint import __version__
from evallint.config import Config
from evallint.diagnostics import Diagnostic, Edit, Fix, Severity
from evallint.load.deps import signature
from evallint.report.result import FileResult
from evallint.run.cachefiles import DIRNAME, MAX_FILE_BYTES, make_folder, usable

FORMAT = 3
DATABASE = f"results-v{FORMAT}.sqlite3"
BATCH = 500  # results written in one transaction
TIMEOUT = 1.0  # seconds a write waits for another process's transaction
SETTLED_NS = 2_000_000_000  # a file unchanged for this long before it is read has its stat recorded
SIGNATURES_KEPT = 16384  # signatures a run remembers before it starts afresh: memory stays flat
SCHEMA = ("CREATE TABLE IF NOT EXISTS results (file TEXT PRIMARY KEY, content TEXT NOT NULL, stat TEXT,"
          " entry TEXT NOT NULL, mac TEXT NOT NULL) WITHOUT ROWID")
# what sqlite_master holds for our schema: a database with anything else in it (a trigger, a view) is foreign
MASTER = [("table", "results", SCHEMA.replace("CREATE TABLE IF NOT EXISTS", "CREATE TABLE"))]
MAX_ENTRY = 16 * 1024 * 1024  # characters of a row's entry: a larger result is not kept, a larger row not read
KINDS = (None, "eval", "targets", "config", "dataset", "sidecar")


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def context(config: Config) -> str:
    """What every key starts with: the format, evallint's version and the effective configuration
    (where the configuration was read from aside)."""
    values = [(f.name, getattr(config, f.name)) for f in sorted(fields(Config), key=lambda f: f.name)
              if f.name != "config_path"]
    return f"{FORMAT}\0{__version__}\0{values!r}"


def file_key(context_text: str, absolute: str, root: str, explicit: bool) -> str:
    return _digest(f"{context_text}\0{int(explicit)}\0{root}\0{absolute}".encode("utf-8", "surrogateescape"))


def content_key(data: bytes) -> str:
    return _digest(data)


def file_stat(path: str) -> Optional[str]:
    """The stat of a regular file (not a link) as the table holds it, when the file has settled; else None."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode) or time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < SETTLED_NS:
        return None
    return f"[{st.st_mtime_ns},{st.st_ctime_ns},{st.st_size},{st.st_ino},{st.st_dev}]"  # JSON, as json.dumps writes it


def make_row(key: str, content: str, stat_then: Optional[str], result: FileResult, looked_at) -> tuple:
    """The row that keeps ``result`` of a file whose bytes hash to ``content`` (``stat_then``: its
    ``file_stat`` taken before they were read); ``looked_at`` are the paths its lint noted, whose
    signatures are taken now."""
    entry = {"kind": result.kind, "diagnostics": [_dump(d) for d in result.diagnostics],
             "lines": sorted(result.lines.items()), "deps": [[path, signature(path)] for path in sorted(looked_at)]}
    text = json.dumps(entry, separators=(",", ":"))
    return (key, content, stat_then, text) if len(text) <= MAX_ENTRY else None


class ResultCache:
    """The result cache of one run: ``lookup`` each file, ``store`` the rows of the files linted, then
    ``close``. Each cache folder's database is opened when a file first needs it."""

    def __init__(self, config: Config, folder: Optional[str] = None):
        self.config = config
        self.folder = folder  # None: .evallint_cache at each file's repository root
        self.context = context(config)
        self._databases: dict = {}  # cache folder -> its _Database, or None when it cannot be used
        self._signatures: dict = {}  # path -> signature, for this run
        self._places: dict = {}  # folder -> (its repository root, its cache folder), for this run
        self._key: object = _UNREAD  # the user's key (cachekey.py), read when a database is first needed

    def _place(self, path: str) -> tuple:
        """(the file's absolute path, its repository root, its cache folder)."""
        absolute = os.path.abspath(path)
        folder = os.path.dirname(absolute)
        if folder not in self._places:
            if len(self._places) >= SIGNATURES_KEPT:
                self._places.clear()
            root = self.config.root_of_folder(folder)
            self._places[folder] = root, self.folder or os.path.join(root, DIRNAME)
        return (absolute, *self._places[folder])

    def lookup_many(self, items: list) -> list:
        """The cached result of each (path, named explicitly) item, or None: the rows of each database
        are read with one query."""
        return [self._answered(path, *found) if found is not None else None
                for (path, _), found in zip(items, self._rows(items))]

    def looked_at_many(self, items: list) -> list:
        """For each (path, named explicitly) item, the paths that the result its row keeps looked at, when
        the file is unchanged since (those paths may have changed: that is what the caller asks); None
        without such a row."""
        out = []
        for (path, _), found in zip(items, self._rows(items)):
            row = found[0] if found is not None else None
            out.append(_looked_at(row[2]) if row is not None and self._unchanged(path, row, found[3])[0] else None)
        return out

    def _rows(self, items: list) -> list:
        """(the row or None, its database, its key, the file's root) for each (path, named explicitly)
        item, or None when its cache folder has no usable database; each database is asked once."""
        wanted: dict = {}  # database -> {key: index of its item}
        places = []
        for index, (path, explicit) in enumerate(items):
            absolute, root, folder = self._place(path)
            database = self._database(folder)
            key = file_key(self.context, absolute, root, explicit)
            places.append((database, key, root))
            if database is not None:
                wanted.setdefault(database, {})[key] = index
        rows = {}
        for database, keys in wanted.items():
            rows.update(database.get_many(list(keys)))
        return [(rows.get(key), database, key, root) if database is not None else None
                for database, key, root in places]

    def _answered(self, path: str, row: Optional[tuple], database, key: str, root: str) -> Optional[FileResult]:
        """The result ``row`` keeps for the file, when the file and what its result looked at are unchanged."""
        if row is None:
            return None
        unchanged, stat_now = self._unchanged(path, row, root)
        if not unchanged:
            return None
        content, stat_then, entry_text = row
        result = self._answer(entry_text, path)
        if result is not None and stat_now is not None and stat_now != stat_then:
            database.put((key, content, stat_now, entry_text))  # answered by its hash: next time by its stat
        return result

    def _unchanged(self, path: str, row: tuple, root: str) -> tuple:
        """(whether the file holds what it held when ``row`` was made, its stat now)."""
        content, stat_then, _ = row
        stat_now = file_stat(path)  # before reading: a write during the read shows as a changed stat
        if stat_now is None or stat_now != stat_then:
            data = self._read(path, root)
            if data is None or content_key(data) != content:
                return False, stat_now
        return True, stat_now

    def _read(self, path: str, root: str) -> Optional[bytes]:
        from evallint.load.source import read_bytes

        data = read_bytes(path, root, self.config.max_bytes)
        return data if isinstance(data, bytes) else None

    def _answer(self, entry_text: str, path: str) -> Optional[FileResult]:
        """The result an entry holds, when it is whole and nothing it looked at changed."""
        try:
            entry = json.loads(entry_text)
            kind = entry["kind"]
            for dep_path, sig in entry["deps"]:
                if not isinstance(dep_path, str) or self._signature(dep_path) != sig:
                    return None
            diagnostics = [_load(dumped, path) for dumped in entry["diagnostics"]]
            lines = {number: text for number, text in entry["lines"]}
        except (ValueError, KeyError, TypeError, RecursionError):  # RecursionError: JSON nested too deep
            return None
        if kind not in KINDS or not all(type(n) is int and isinstance(t, str) for n, t in lines.items()):
            return None
        return FileResult(path, kind, diagnostics, lines)

    def _signature(self, path: str) -> Optional[list]:
        if path not in self._signatures:
            if len(self._signatures) >= SIGNATURES_KEPT:
                self._signatures.clear()
            self._signatures[path] = signature(path)
        return self._signatures[path]

    def store(self, path: str, row: tuple) -> None:
        """Keep the row made for the result of ``path`` (written with its batch)."""
        database = self._database(self._place(path)[2])
        if database is not None:
            database.put(row)

    def _database(self, folder: str):
        if folder not in self._databases:
            if self._key is _UNREAD:
                from evallint.run.cachekey import user_key

                self._key = user_key()
            key = self._key
            self._databases[folder] = None if key is None else _Database.open(folder, key, self.folder is not None)
        return self._databases[folder]

    def close(self) -> None:
        """Write the rows not yet written and close every database."""
        for database in self._databases.values():
            if database is not None:
                database.close()
        self._databases = {}


_UNREAD = object()


def _remove_older(folder: str) -> None:
    """Delete the databases of earlier cache formats in ``folder``: no version reads them again."""
    for version in range(1, FORMAT):
        for suffix in ("", "-wal", "-shm"):
            try:
                os.remove(os.path.join(folder, f"results-v{version}.sqlite3{suffix}"))
            except OSError:
                pass  # none there; or a folder, another user's file, a read-only folder: it stays, unread


class _Database:
    """One cache folder's database, with the rows waiting to be written (sealed with ``key`` then)."""

    def __init__(self, connection, key: bytes):
        self.connection = connection
        self.key = key
        self.pending: list = []
        self.writable = True

    @classmethod
    def open(cls, folder: str, key: bytes, named: bool) -> Optional["_Database"]:
        """The database in ``folder``, made (with the folder) when missing; None when it cannot be used
        (``named``: the folder was named with ``--cache-dir``)."""
        import sqlite3

        if not make_folder(folder) or not usable(folder, DATABASE, named):
            return None
        try:
            connection = sqlite3.connect(os.path.join(folder, DATABASE), timeout=TIMEOUT, isolation_level=None)
        except sqlite3.Error:
            return None
        try:
            connection.execute("PRAGMA trusted_schema=OFF")  # a planted schema's views and triggers run no functions
            connection.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            connection.execute("PRAGMA synchronous=NORMAL")
            page = connection.execute("PRAGMA page_size").fetchone()[0]
            connection.execute(f"PRAGMA max_page_count={MAX_FILE_BYTES // page}")  # stays within the cap
            connection.execute(SCHEMA)
            master = connection.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
        except sqlite3.Error:
            connection.close()
            return None
        if master != MASTER:
            connection.close()
            return None
        _remove_older(folder)
        return cls(connection, key)

    def get_many(self, keys: list) -> dict:
        """{key: (content, stat, entry)} of the rows there are for ``keys``, sealed with the key."""
        import sqlite3

        from evallint.run.cachekey import is_sealed

        marks = ", ".join("?" * len(keys))
        try:  # a row too large to be one of ours is left in the database, never read into memory
            rows = self.connection.execute(
                f"SELECT file, content, stat, entry, mac FROM results WHERE file IN ({marks})"
                # the sizes of the bytes: length() of a text stops at its first NUL
                " AND length(CAST(content AS BLOB)) <= 64 AND (stat IS NULL OR length(CAST(stat AS BLOB)) <= 256)"
                " AND length(CAST(entry AS BLOB)) <= ? AND length(CAST(mac AS BLOB)) = 64",
                (*keys, MAX_ENTRY)).fetchall()
        except sqlite3.Error:
            return {}
        return {row[0]: row[1:4] for row in rows
                if all(isinstance(value, str) for value in row if value is not None) and is_sealed(self.key, row[:4], row[4])}

    def put(self, row: tuple) -> None:
        if self.writable:
            self.pending.append(row)
            if len(self.pending) >= BATCH:
                self.flush()

    def flush(self) -> None:
        """Write the pending rows in one transaction; a database that refuses stops being written."""
        import sqlite3

        rows, self.pending = self.pending, []
        if not rows:
            return
        from evallint.run.cachekey import seal

        sealed = [(*row, seal(self.key, row)) for row in rows]
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            self.connection.executemany("INSERT OR REPLACE INTO results (file, content, stat, entry, mac)"
                                        " VALUES (?, ?, ?, ?, ?)", sealed)
            self.connection.execute("COMMIT")
        except sqlite3.Error:
            self.writable = False
            try:
                if self.connection.in_transaction:
                    self.connection.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def close(self) -> None:
        import sqlite3

        self.flush()
        try:
            self.connection.close()
        except sqlite3.Error:
            pass


def _looked_at(entry_text: str) -> Optional[set]:
    """The paths an entry's result looked at; None for an entry that does not decode."""
    try:
        looked_at = {dep[0] for dep in json.loads(entry_text)["deps"]}
    except (ValueError, KeyError, TypeError, IndexError, RecursionError):
        return None
    return looked_at if all(isinstance(path, str) for path in looked_at) else None


def _dump(d: Diagnostic) -> list:
    fix = None
    if d.fix is not None:
        fix = [[[e.start, e.end, e.replacement] for e in d.fix.edits], d.fix.description, d.fix.safe]
    return [d.code, d.severity.value, d.message, d.line, d.column, d.end_line, d.end_column, d.yaml_path, d.case_id,
            fix]


# the types of a dumped diagnostic's values, and of a dumped edit's: a row that decodes to others is damaged
_DUMPED = (str, str, str, int, int, int, int, str, (str, type(None)), (list, type(None)))
_EDIT = (int, int, str)


def _typed(values, types: tuple) -> list:
    if not isinstance(values, list) or len(values) != len(types) or \
            not all(isinstance(value, kind) for value, kind in zip(values, types)):
        raise TypeError("not a value this cache writes")
    return values


def _load(dumped: list, path: str) -> Diagnostic:
    code, severity, message, line, column, end_line, end_column, yaml_path, case_id, fix = _typed(dumped, _DUMPED)
    if fix is not None:
        edits, description, safe = _typed(fix, (list, str, bool))
        fix = Fix(tuple(Edit(*_typed(edit, _EDIT)) for edit in edits), description, safe)
    return Diagnostic(code, Severity(severity), message, path, line, column, end_line, end_column, yaml_path,
                      case_id, fix)
