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
import time
from typing import Optional

from . import __version__
from .bounded import MISSING, Bounded
from .config import Config
from .deps import signature, stat_signature
from .diagnostics import Diagnostic, Edit, Fix, Severity
from .result import FileResult, masked

DIRNAME = ".evallint_cache"
FORMAT = 2
# A file whose stat is unchanged is answered without reading it, but only when it had been left alone
# for this long before it was linted: a write within the same timestamp tick as the lint could
# otherwise leave the stat unchanged (git's "racily clean" files). Other files are read and hashed.
SETTLED_NS = 2_000_000_000


def config_fingerprint(config: Config) -> str:
    values = {f.name: getattr(config, f.name) for f in dataclasses.fields(config) if f.name != "config_path"}
    return repr(sorted(values.items(), key=lambda item: item[0]))


class Lookup:
    """What the cache knew of a file on the way to a miss, so linting it goes on from there."""
    __slots__ = ("absolute", "root", "digest", "context", "entry", "stat_then", "data", "key")

    def __init__(self, absolute, root, digest, context, entry, stat_then):
        self.absolute, self.root, self.digest, self.context = absolute, root, digest, context
        self.entry, self.stat_then = entry, stat_then
        self.data = self.key = None  # the file's bytes and the key they give, once read


class Cache:
    def __init__(self, config: Config, folder: Optional[str] = None):
        self.folder = folder  # None: .evallint_cache at each file's repository root
        self._salted = hashlib.sha256(f"{FORMAT}\0{__version__}\0{config_fingerprint(config)}\0".encode())
        self._signatures = Bounded(8192)  # one run: files shared by many results are looked at once
        self._places = Bounded(4096)  # folder -> (repository root, folder of its entries)
        try:
            self._cwd: Optional[str] = os.getcwd()
        except OSError:
            self._cwd = None

    def _signature(self, path: str):
        found = self._signatures.get(path, MISSING)
        return self._signatures.put(path, signature(path)) if found is MISSING else found

    def _dir(self, root: str) -> str:
        return self.folder or os.path.join(root, DIRNAME)

    def _entry_path(self, abspath: str, root: str, folder: Optional[str] = None) -> str:
        name = hashlib.sha256(abspath.encode("utf-8", "surrogateescape")).hexdigest()
        return f"{folder or self._dir(root)}{os.sep}{name[:2]}{os.sep}{name[2:40]}.json"

    def _place(self, absolute: str, config: Config) -> tuple:
        """(repository root, folder of the entries) of a file; the files of one folder ask once."""
        folder = os.path.dirname(absolute)
        found = self._places.get(folder)
        if found is None:
            root = config.root_of_folder(folder)
            found = self._places.put(folder, (root, self._dir(root)))
        return found

    def lookup(self, path: str, explicit: bool, config: Config):
        """The cached result of a file untouched since it was linted (not even read, unless it has
        findings to show), else a ``Lookup`` to go on with."""
        absolute = os.path.normpath(os.path.join(self._cwd, path)) if self._cwd else os.path.abspath(path)
        root, entries = self._place(absolute, config)
        stat_then = file_stat(path)  # before reading: a write during the read shows as a changed stat
        digest = self.digest(absolute, root, explicit)
        context = digest.hexdigest()
        entry = self.entry(absolute, root, entries)
        if entry is not None and self.unchanged(entry, context=context, stat_now=stat_then):
            def read():
                from .source import read_bytes

                return read_bytes(path, root, config.max_bytes)

            result = self.answer(entry, path, read)
            if result is not None:
                return result
        return Lookup(absolute, root, digest, context, entry, stat_then)

    @staticmethod
    def answer(entry: dict, path: str, read) -> Optional[FileResult]:
        """The cached result; None when the entry is damaged, or the file cannot be read for
        the snippets of its findings (a miss). ``read()`` gives the file's bytes."""
        try:
            diagnostics = load_diagnostics(entry, path) if entry["diagnostics"] else []
            kind = entry["kind"]
        except (KeyError, TypeError, ValueError):
            return None
        text = ""
        if diagnostics:
            data = read()
            if not isinstance(data, bytes):
                return None
            text = masked(data.decode("utf-8", "replace").lstrip("\ufeff"), diagnostics)
        return FileResult(path, kind, diagnostics, text)

    def digest(self, abspath: str, root: str, explicit: bool):
        """The hash of the run's settings and the file's place (its ``hexdigest`` is the entry's
        context); updated with the file's bytes, it gives the entry's key."""
        digest = self._salted.copy()
        digest.update(f"{abspath}\0{root}\0{int(explicit)}".encode("utf-8", "surrogateescape"))
        return digest

    def entry(self, abspath: str, root: str, folder: Optional[str] = None) -> Optional[dict]:
        """The stored entry for a file, not yet trusted; None when there is none or it is unreadable."""
        try:
            with open(self._entry_path(abspath, root, folder), "rb") as fh:
                entry = json.loads(fh.read().decode("utf-8"))
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
            known = self._signatures.young  # the usual case, without a call per path
            for path, sig in entry["deps"]:
                now = known.get(path, MISSING)
                if (self._signature(path) if now is MISSING else now) != sig:
                    return False
            return "kind" in entry
        except (KeyError, TypeError, ValueError, AttributeError):
            return False

    def _folded(self, deps: set, since_ns: Optional[int]) -> dict:
        """Path -> signature for ``deps``, where each missing path is replaced by the nearest folder
        above it that exists and had been left alone for SETTLED_NS before ``since_ns``: a name
        appearing in a folder changes the folder's mtime (git's untracked cache relies on the same),
        so one folder's signature vouches for every missing name in it, and the results of a folder's
        files share it. A missing path under a recently changed folder stays as it is."""
        out: dict = {}
        stand_ins: dict = {}
        for path in deps:
            sig = self._signature(path)
            if sig is None and since_ns is not None:
                folder = _stand_in(os.path.dirname(path), since_ns - SETTLED_NS, stand_ins)
                if folder is not None:
                    path, sig = folder
            out[path] = sig
        return out

    def put(self, abspath: str, root: str, context: str, key: str, kind: Optional[str], diagnostics: list,
            deps: set, stat_then: Optional[list] = None, since_ns: Optional[int] = None) -> None:
        """Store a result; ``since_ns`` is when the lint that looked at ``deps`` began."""
        target = self._entry_path(abspath, root)
        try:
            folder = os.path.dirname(target)
            if not os.path.isdir(folder):  # made before the signatures are taken: it changes its parents
                if self.folder is None and not _writable(root):
                    return  # a read-only tree (even for root, who could write anyway) runs uncached
                os.makedirs(folder, exist_ok=True)
                _mark_cache_dir(self._dir(root))
            entry = {"key": key, "context": context, "stat": stat_then, "kind": kind,
                     "deps": sorted(self._folded(deps, since_ns).items()),
                     "diagnostics": [_dump(d) for d in diagnostics]}
            _write_atomically(target, json.dumps(entry, separators=(",", ":")).encode())
        except OSError:
            pass  # a read-only tree just runs uncached


def _write_atomically(target: str, data: bytes) -> None:
    """A temp file beside ``target``, then a rename: readers see the old entry or the new one."""
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _stand_in(folder: str, before_ns: int, memo: dict) -> Optional[tuple]:
    """(folder, signature) of the folder that vouches for a missing name in ``folder``: the folder
    itself when it was last changed before ``before_ns``, the stand-in of its parent when it is
    missing too, else None."""
    if folder in memo:
        return memo[folder]
    try:
        st = os.stat(folder)
    except (OSError, ValueError):
        parent = os.path.dirname(folder)
        found = None if parent == folder else _stand_in(parent, before_ns, memo)
    else:
        settled_folder = stat.S_ISDIR(st.st_mode) and max(st.st_mtime_ns, st.st_ctime_ns) < before_ns
        found = (folder, stat_signature(st)) if settled_folder else None
    memo[folder] = found
    return found


def file_stat(path: str) -> Optional[list]:
    """The stat signature of a regular file (not a link), or None."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return stat_signature(st) + [st.st_dev]


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
