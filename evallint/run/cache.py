"""The result cache (docs/format.md#cache): one SQLite database (``cachestore.py``) in the user cache
folder, outside every repository it lints (``folder_for``), so nothing a repository holds is ever read as a
cache. A stat is recorded only for a file left alone for ``SETTLED_NS`` before it was read: a write within
the same timestamp tick as the read could otherwise leave the stat unchanged (git's "racily clean" files);
a file answered by its hash gets its stat recorded once it has settled. A row that does not decode is a
miss, and is replaced."""
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
from evallint.load.files import FILE_KINDS
from evallint.load.paths import inside
from evallint.report.result import FileResult
from evallint.run import cachestore

SETTLED_NS = 2_000_000_000  # a file unchanged for this long before it is read has its stat recorded
SIGNATURES_KEPT = 16384  # signatures and roots a run remembers before it starts afresh: memory stays flat
MAX_ENTRY = 16 * 1024 * 1024  # characters of a row's entry: a larger result is not kept
REFRESH = 24 * 3600  # a row answered is marked used again when its mark is older than this
KINDS = (None, *FILE_KINDS)  # what a row may say its file is (None: not an AgentV file)


def default_folder() -> str:
    import platformdirs

    return platformdirs.user_cache_dir("evallint", appauthor=False)


def folder_for(named: Optional[str], paths: list, config: Config) -> tuple:
    """(the cache folder of a run over ``paths``, None), or (None, why the run goes without the cache):
    the folder (``named``, else the user's) lies inside the repository root of a path, or its
    database cannot be opened."""
    folder = os.path.abspath(named) if named else default_folder()
    real = os.path.realpath(folder)
    for path in paths:
        absolute = os.path.abspath(path)
        root = config.root_of_folder(absolute) if os.path.isdir(absolute) else config.root_of(absolute)
        real_root = os.path.realpath(root)
        if inside(real, real_root):
            return None, f"not using the cache: its folder {folder} is inside {root}, which is being linted"
    database = cachestore.Database.open(folder)
    if isinstance(database, str):
        return None, f"not using the cache: {database}"
    database.close()
    return folder, None


def context(config: Config) -> tuple:
    """What every key ends with: evallint's version and a digest of the effective configuration."""
    values = [(f.name, getattr(config, f.name)) for f in sorted(fields(Config), key=lambda f: f.name)]
    return __version__, content_key(repr(values).encode("utf-8", "surrogateescape"))


def file_key(context_values: tuple, absolute: str, root: str, explicit: bool) -> tuple:
    """The key of a row: (root, file, named, version, config)."""
    return (os.fsencode(root), os.fsencode(absolute), int(explicit), *context_values)


def content_key(data: bytes) -> str:
    """The digest the table keeps of a file's bytes (and of the configuration)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def file_stat(path: str) -> Optional[str]:
    """The stat of a regular file (not a link) as the table holds it, when the file has settled; else None."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode) or time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < SETTLED_NS:
        return None
    return f"[{st.st_mtime_ns},{st.st_ctime_ns},{st.st_size},{st.st_ino},{st.st_dev}]"  # JSON, as json.dumps writes it


def make_row(key: tuple, content: str, stat_then: Optional[str], result: FileResult, looked_at: dict) -> tuple:
    """The row that keeps ``result`` of a file whose bytes hash to ``content`` (``stat_then``: its
    ``file_stat`` taken before they were read); ``looked_at``: the paths its lint noted, with the
    signatures taken before it looked at them."""
    entry = {"kind": result.kind, "diagnostics": [_dump(d) for d in result.diagnostics],
             "lines": sorted(result.lines.items()), "deps": sorted(looked_at.items())}
    text = json.dumps(entry, separators=(",", ":"))
    return (*key, content, stat_then, text) if len(text) <= MAX_ENTRY else None


class ResultCache:
    """The result cache of one run: ``lookup_many`` the files, ``store`` the rows of the files linted,
    then ``close``. The database is opened when a file first needs it."""

    def __init__(self, config: Config, folder: Optional[str] = None):
        self.config = config
        self.folder = folder or default_folder()
        self.context = context(config)
        self._database: object = _UNOPENED
        self._roots: dict = {}  # folder -> its repository root, for this run
        self._signatures: dict = {}  # path -> signature, for this run

    def _rows(self, items: list) -> list:
        """(the file's root, its key, its row (content, stat, entry, used) or None) of each (path,
        named explicitly) item, the rows read with one query per root."""
        places = []
        for path, explicit in items:
            absolute = os.path.abspath(path)
            root = _remembered(self._roots, os.path.dirname(absolute), self.config.root_of_folder)
            places.append((root, file_key(self.context, absolute, root, explicit)))
        database = self._opened()
        found = database.get_many([key for _, key in places]) if database is not None else {}
        return [(root, key, found.get(key)) for root, key in places]

    def lookup_many(self, items: list) -> list:
        """The cached result of each (path, named explicitly) item, or None."""
        return [self._answered(path, *found) for (path, _), found in zip(items, self._rows(items))]

    def looked_at_many(self, items: list) -> list:
        """For each (path, named explicitly) item, the paths that the result its row keeps looked at, when
        the file is unchanged since (those paths may have changed: that is what the caller asks); None
        without such a row."""
        return [_looked_at(row[2]) if row is not None and self._unchanged(path, row, root)[0] else None
                for (path, _), (root, _, row) in zip(items, self._rows(items))]

    def _answered(self, path: str, root: str, key: tuple, row: Optional[tuple]) -> Optional[FileResult]:
        """The result ``row`` keeps for the file, when the file and what its result looked at are unchanged."""
        if row is None:
            return None
        unchanged, stat_now = self._unchanged(path, row, root)
        if not unchanged:
            return None
        content, stat_then, entry_text, used = row
        result = self._answer(entry_text, path)
        if result is not None and (stat_now != stat_then or used < cachestore.now() - REFRESH):
            self.store(path, (*key, content, stat_now, entry_text))  # by its stat next time, marked used
        return result

    def _unchanged(self, path: str, row: tuple, root: str) -> tuple:
        """(whether the file holds what it held when ``row`` was made, its stat now)."""
        content, stat_then = row[:2]
        stat_now = file_stat(path)  # before reading: a write during the read shows as a changed stat
        if stat_now is None or stat_now != stat_then:
            from evallint.load.source import read_bytes

            data = read_bytes(path, root, self.config.max_bytes)
            if not isinstance(data, bytes) or content_key(data) != content:
                return False, stat_now
        return True, stat_now

    def _answer(self, entry_text: str, path: str) -> Optional[FileResult]:
        """The result an entry holds, when it is whole and nothing it looked at changed."""
        try:
            entry = json.loads(entry_text)
            kind = entry["kind"]
            for dep_path, sig in entry["deps"]:
                if not isinstance(dep_path, str) or _remembered(self._signatures, dep_path, signature) != sig:
                    return None
            diagnostics = [_load(dumped, path) for dumped in entry["diagnostics"]]
            lines = {number: text for number, text in entry["lines"]}
        except (ValueError, KeyError, TypeError, RecursionError):  # RecursionError: JSON nested too deep
            return None
        if kind not in KINDS or not all(type(n) is int and isinstance(t, str) for n, t in lines.items()):
            return None
        return FileResult(path, kind, diagnostics, lines)

    def store(self, path: str, row: tuple) -> None:
        """Keep the row made for the result of ``path`` (written with its batch)."""
        database = self._opened()
        if database is not None:
            database.put(row)

    def _opened(self) -> Optional[cachestore.Database]:
        if self._database is _UNOPENED:
            database = cachestore.Database.open(self.folder)
            self._database = database if isinstance(database, cachestore.Database) else None
        return self._database

    def close(self) -> None:
        """Write the rows not yet written, evict, and close the database."""
        if isinstance(self._database, cachestore.Database):
            self._database.close()
        self._database = None


_UNOPENED = object()


def _remembered(memo: dict, key: str, make):
    """``make(key)``, kept in ``memo`` for the rest of the run; a full memo starts afresh."""
    if key not in memo:
        if len(memo) >= SIGNATURES_KEPT:
            memo.clear()
        memo[key] = make(key)
    return memo[key]


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
