"""A content-hash cache of lint results (SPEC.md section 10).

An entry is trusted only when the file's bytes, evallint's version, the
effective configuration and every file the result looked at (prompts,
scripts, targets, sidecars: present or absent) are unchanged. Entries are
written atomically, one file each, so parallel pre-commit processes never
corrupt one another; an unreadable or foreign entry is a miss, never an error."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
import tempfile
import time
from typing import Optional

from . import __version__
from .config import Config
from .deps import signature
from .diagnostics import Diagnostic, Edit, Fix, Severity

DIRNAME = ".evallint_cache"
FORMAT = 2
# A file whose stat is unchanged is answered without reading it, but only when it had been left alone
# for this long before it was linted: a write within the same timestamp tick as the lint could
# otherwise leave the stat unchanged (git's "racily clean" files). Other files are read and hashed.
SETTLED_NS = 2_000_000_000
SIGNATURES_SIZE = 8192


def config_fingerprint(config: Config) -> str:
    values = {f.name: getattr(config, f.name) for f in dataclasses.fields(config) if f.name != "config_path"}
    return repr(sorted(values.items(), key=lambda item: item[0]))


class Cache:
    def __init__(self, config: Config, folder: Optional[str] = None):
        self.folder = folder  # None: .evallint_cache at each file's repository root
        self.salt = f"{FORMAT}\0{__version__}\0{config_fingerprint(config)}\0".encode()
        self._signatures: dict = {}  # one run: files shared by many results are looked at once

    def _signature(self, path: str):
        try:
            return self._signatures[path]
        except KeyError:
            pass
        if len(self._signatures) >= SIGNATURES_SIZE:  # bounded: memory stays flat however many files a run has
            self._signatures.clear()
        found = self._signatures[path] = signature(path)
        return found

    def _dir(self, root: str) -> str:
        return self.folder or os.path.join(root, DIRNAME)

    def _entry_path(self, abspath: str, root: str) -> str:
        name = hashlib.sha256(abspath.encode("utf-8", "surrogateescape")).hexdigest()
        return os.path.join(self._dir(root), name[:2], name[2:40] + ".json")

    def digest(self, abspath: str, root: str, explicit: bool):
        """The hash of the run's settings and the file's place (its ``hexdigest`` is the entry's
        context); updated with the file's bytes, it gives the entry's key."""
        digest = hashlib.sha256(self.salt)
        digest.update(f"{abspath}\0{root}\0{int(explicit)}".encode("utf-8", "surrogateescape"))
        return digest

    def entry(self, abspath: str, root: str) -> Optional[dict]:
        """The stored entry for a file, not yet trusted; None when there is none or it is unreadable."""
        try:
            with open(self._entry_path(abspath, root), "rb") as fh:
                entry = json.loads(fh.read())
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) else None

    def unchanged(self, entry: dict, *, key: Optional[str] = None, context: Optional[str] = None,
                  stat_now: Optional[list] = None) -> bool:
        """The entry holds the result for these bytes (``key``), or for this file as it was when its
        stat was recorded (``context`` and ``stat_now``), and nothing it depends on changed since."""
        try:
            if key is not None:
                if entry.get("key") != key:
                    return False
            elif stat_now is None or entry.get("context") != context or entry.get("stat") != stat_now:
                return False
            for path, sig in entry["deps"]:
                if self._signature(path) != sig:
                    return False
            return "kind" in entry
        except (KeyError, TypeError, ValueError, AttributeError):
            return False

    def put(self, abspath: str, root: str, context: str, key: str, kind: Optional[str], diagnostics: list,
            deps: set, stat_then: Optional[list] = None) -> None:
        entry = {"key": key, "context": context, "stat": stat_then, "kind": kind,
                 "deps": [[p, self._signature(p)] for p in sorted(deps)],
                 "diagnostics": [_dump(d) for d in diagnostics]}
        target = self._entry_path(abspath, root)
        try:
            folder = os.path.dirname(target)
            if not os.path.isdir(folder):
                if self.folder is None and not _writable(root):
                    return  # a read-only tree (even for root, who could write anyway) runs uncached
                os.makedirs(folder, exist_ok=True)
                _mark_cache_dir(self._dir(root))
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh, separators=(",", ":"))
            os.replace(tmp, target)
        except OSError:
            pass  # a read-only tree just runs uncached


def file_stat(path: str) -> Optional[list]:
    """The stat signature of a regular file (not a link), or None."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev]


def settled(stat_then: Optional[list]) -> Optional[list]:
    """``stat_then`` when the file had not been written for SETTLED_NS before it was read, else None."""
    if stat_then is None or time.time_ns() - max(stat_then[0], stat_then[1]) < SETTLED_NS:
        return None
    return stat_then


def _writable(folder: str) -> bool:
    try:
        return bool(os.stat(folder).st_mode & stat.S_IWUSR) and os.access(folder, os.W_OK)
    except OSError:
        return False


def _mark_cache_dir(folder: str) -> None:
    for name, text in ((".gitignore", "# created by evallint\n*\n"),
                       ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n# evallint cache\n")):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            try:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError:
                pass


def _dump(d: Diagnostic) -> list:
    fix = None
    if d.fix is not None:
        fix = [[[e.start, e.end, e.replacement] for e in d.fix.edits], d.fix.description, d.fix.safe]
    return [d.code, d.severity.value, d.message, d.line, d.column, d.end_line, d.end_column, d.yaml_path, d.case_id,
            fix]


def load_diagnostics(entry: dict, path: str) -> list:
    out = []
    for code, severity, message, line, column, end_line, end_column, yaml_path, case_id, fix in entry["diagnostics"]:
        if fix is not None:
            edits, description, safe = fix
            fix = Fix(tuple(Edit(*edit) for edit in edits), description, safe)
        out.append(Diagnostic(code, Severity(severity), message, path, line, column, end_line, end_column, yaml_path,
                              case_id, fix))
    return out
