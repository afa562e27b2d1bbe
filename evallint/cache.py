"""A cache of lint results (SPEC.md section 10): one pack file per folder.

The entries of one folder's files, for one evallint version and one effective
configuration, live in one file that a run reads once and writes once, when
something in it changed: a folder of eval files costs one read, not one open
per file, and memory stays flat (a run holds a bounded number of packs, written
as they leave). An entry is trusted only when the file (by its stat, or by its
bytes' hash) and every file the result looked at (prompts, scripts, targets,
sidecars: present or absent) are unchanged. A pack is replaced atomically (a
temp file, then a rename), merged under the cache's lock with what another
process wrote meanwhile, so parallel pre-commit processes never corrupt it; an
unreadable or foreign pack is empty, never an error."""
from __future__ import annotations

import json
import os
import stat
import time
TYPE_CHECKING = False  # typing is not imported at run time: a cached run never needs it
if TYPE_CHECKING:
    from typing import Optional

try:  # hashlib would load OpenSSL first (5 ms of every cached run) for a hash that CPython builds in
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b

from . import __version__
from .bounded import MISSING, Bounded
from .config import Config
from .deps import absolute as absolute_path
from .deps import signature, stat_signature
from .diagnostics import Diagnostic, Edit, Fix, Severity
from .record import fields_of
from .result import FileResult, masked

DIRNAME = ".evallint_cache"
FORMAT = 3
# A file whose stat is unchanged is answered without reading it, but only when it had been left alone
# for this long before it was linted: a write within the same timestamp tick as the lint could
# otherwise leave the stat unchanged (git's "racily clean" files). Other files are read and hashed.
SETTLED_NS = 2_000_000_000
PACK_DEPTH = 2  # folders deeper than this below the repository root share their ancestor's pack
OPEN_PACKS = 64  # packs held at once; the walk's order brings a folder's files together, so few are needed
# An entry: [key (hash of the bytes), named explicitly (0/1), stat when settled (else None), kind,
# dependencies, diagnostics]. In a pack file, dependencies are indexes into its table of
# [path, signature] pairs; in an entry made during the run, the pairs themselves.
KEY, EXPLICIT, STAT, KIND, DEPS, DIAGNOSTICS = range(6)


def config_fingerprint(config: Config) -> str:
    values = {name: getattr(config, name) for name in fields_of(Config) if name != "config_path"}
    return repr(sorted(values.items(), key=lambda item: item[0]))


def salt(config: Config) -> str:
    """What every key of the cache starts with: its format, evallint's version, the configuration."""
    return f"{FORMAT}\0{__version__}\0{config_fingerprint(config)}\0"


def content_key(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


class Pack:
    """The entries of one folder's files: those read from its file (``files``, dependencies as
    indexes into ``table``) and those made or refreshed during this run (``fresh``, dependencies as
    pairs), which win. Also the listings of folders (``dirs``, and this run's ``fresh_dirs``):
    [folder's stat signature, its flags, its candidate entries], as ``discovery.scan`` gives them."""
    __slots__ = ("path", "files", "table", "valid", "fresh", "dirs", "fresh_dirs")

    def __init__(self, path: str, files: dict, table: list, dirs: dict):
        self.path, self.files, self.table, self.dirs = path, files, table, dirs
        self.valid: dict = {}  # table index -> whether its path still has that signature
        self.fresh: dict = {}
        self.fresh_dirs: dict = {}

    @classmethod
    def read(cls, path: str) -> "Pack":
        try:
            with open(path, "rb") as fh:
                data = json.loads(fh.read().decode("utf-8"))
            if data.get("format") == FORMAT and isinstance(data["files"], dict) and isinstance(data["deps"], list):
                dirs = data.get("dirs")
                return cls(path, data["files"], data["deps"], dirs if isinstance(dirs, dict) else {})
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        return cls(path, {}, [], {})

    def pairs(self, entry: list) -> list:
        """The [path, signature] pairs of an entry read from the file."""
        table = self.table
        return [table[i] for i in entry[DEPS]]


class Lookup:
    """What the cache knew of a file on the way to a miss, so linting it goes on from there."""
    __slots__ = ("path", "explicit", "absolute", "root", "pack", "entry", "stat_then", "data", "key")

    def __init__(self, path, explicit, absolute, root, pack, entry, stat_then):
        self.path, self.explicit, self.absolute, self.root = path, explicit, absolute, root
        self.pack, self.entry, self.stat_then = pack, entry, stat_then
        self.data = self.key = None  # the file's bytes and their hash, once read


class Cache:
    def __init__(self, config: Config, folder: Optional[str] = None):
        self.folder = folder  # None: .evallint_cache at each file's repository root
        self._salt = salt(config)
        self._signatures = Bounded(8192)  # one run: files shared by many results are looked at once
        self._places = Bounded(4096)  # folder -> repository root
        self._packs: dict = {}  # folder -> its Pack, the most recently opened last (at most OPEN_PACKS)
        self._dirs_tried: set = set()  # cache folders made (or found, or refused) this run
        self._root = config.root  # --root: every pack lives under it, listings' too
        self.recorder = None  # a snapshot.Recorder writing this run's record, if any
        self.proofs: Optional[dict] = None  # with a recorder: path -> what its result rests on, until given back

    def prove(self, path: str, absolute: str, stat_then: Optional[list], entry: list, pairs: list) -> None:
        """Keep what ``path``'s result rests on for the run's record (a no-op without one)."""
        if self.proofs is not None:
            self.proofs[path] = (absolute, stat_then, entry, pairs)

    def walk_read(self, path: str) -> None:
        """The walk is about to read ``path`` (a .gitignore): the run's record rests on it too."""
        if self.recorder is not None:
            self.recorder.check(path, self._signature(path))

    def _signature(self, path: str):
        found = self._signatures.get(path, MISSING)
        return self._signatures.put(path, signature(path)) if found is MISSING else found

    def _dir(self, root: str) -> str:
        return self.folder or os.path.join(root, DIRNAME)

    def pack_path(self, root: str, folder: str) -> str:
        name = blake2b(f"{self._salt}{root}\0{folder}".encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
        return f"{self._dir(root)}{os.sep}{name[:2]}{os.sep}{name[2:]}.json"

    def _pack(self, root: str, folder: str) -> Pack:
        """The pack of ``folder``'s files; opening one more than OPEN_PACKS writes and closes the oldest."""
        pack = self._packs.get(folder)
        if pack is None:
            if len(self._packs) >= OPEN_PACKS:
                _write_pack(self._packs.pop(next(iter(self._packs))))
            pack = self._packs[folder] = Pack.read(self.pack_path(root, folder))
            cache_dir = self._dir(root)
            if cache_dir not in self._dirs_tried:  # made before any result's signatures are taken: it changes its parent
                self._dirs_tried.add(cache_dir)
                _make_dir(cache_dir)
        return pack

    def _place(self, absolute: str, config: Config) -> tuple:
        """(repository root, pack) of a file; the files of one folder ask once."""
        folder = os.path.dirname(absolute)
        found = self._places.get(folder)
        if found is None:
            root = config.root_of_folder(folder)
            found = self._places.put(folder, (root, pack_folder(root, folder)))
        return found[0], self._pack(found[0], found[1])

    def start(self, path: str, explicit: bool, config: Config) -> Lookup:
        """A ``Lookup`` with no entry, where only the file's place and stat are known (in a worker,
        which lints what the main process could not answer)."""
        absolute = absolute_path(path)
        root = config.root_of_folder(os.path.dirname(absolute))
        return Lookup(path, explicit, absolute, root, None, None, file_stat(path))

    def lookup(self, path: str, explicit: bool, config: Config):
        """The cached result of a file untouched since it was linted (not even read, unless it has
        findings to show), else a ``Lookup`` to go on with."""
        absolute = absolute_path(path)
        root, pack = self._place(absolute, config)
        stat_then = file_stat(path)  # before reading: a write during the read shows as a changed stat
        entry = pack.fresh.get(absolute) if pack.fresh else None
        if entry is None:
            entry = pack.files.get(absolute)
        found = Lookup(path, explicit, absolute, root, pack, entry, stat_then)
        if entry is not None and stat_then is not None and self.unchanged(found, stat_now=stat_then):
            def read():
                from .source import read_bytes

                return read_bytes(path, root, config.max_bytes)

            result = self.answer(entry, path, read)
            if result is not None:
                if self.proofs is not None:
                    self.prove(path, absolute, stat_then, entry, self._pairs_of(found))
                return result
        return found

    def _pairs_of(self, found: Lookup) -> list:
        """The [path, signature] pairs of the entry ``found`` holds."""
        return found.entry[DEPS] if found.absolute in found.pack.fresh else found.pack.pairs(found.entry)

    def unchanged(self, found: Lookup, *, key: Optional[str] = None, stat_now: Optional[list] = None) -> bool:
        """The entry holds the result for these bytes (``key``), or for this file as it was when its
        stat was recorded (``stat_now``), and nothing it depends on changed since."""
        entry = found.entry
        try:
            if entry[KEY if stat_now is None else STAT] != (key if stat_now is None else stat_now) \
                    or entry[EXPLICIT] != found.explicit:
                return False
            if found.absolute in found.pack.fresh:  # made this run: dependencies as pairs
                return self._pairs_unchanged(entry[DEPS])
            pack = found.pack
            valid, table = pack.valid, pack.table
            for i in entry[DEPS]:
                ok = valid.get(i)
                if ok is None:
                    dep_path, sig = table[i]
                    ok = valid[i] = self._signature(dep_path) == sig
                if not ok:
                    return False
            return isinstance(entry[KIND], (str, type(None))) and isinstance(entry[DIAGNOSTICS], list)
        except (IndexError, KeyError, TypeError, ValueError):
            return False

    def _pairs_unchanged(self, pairs: list) -> bool:
        known = self._signatures.young  # the usual case, without a call per path
        for path, sig in pairs:
            now = known.get(path, MISSING)
            if (self._signature(path) if now is MISSING else now) != sig:
                return False
        return True

    @staticmethod
    def answer(entry: list, path: str, read) -> Optional[FileResult]:
        """The cached result; None when the entry is damaged, or the file cannot be read for
        the snippets of its findings (a miss). ``read()`` gives the file's bytes."""
        try:
            diagnostics = load_diagnostics(entry[DIAGNOSTICS], path) if entry[DIAGNOSTICS] else []
        except (KeyError, TypeError, ValueError):
            return None
        text = ""
        if diagnostics:
            data = read()
            if not isinstance(data, bytes):
                return None
            from .source import text_of

            text = masked(text_of(data), diagnostics)
        return FileResult(path, entry[KIND], diagnostics, text)

    def refresh(self, found: Lookup) -> None:
        """Record the stat of a file answered by its hash, once it has settled, so the next run
        answers it without reading it (a fresh checkout is hashed once, not on every run)."""
        if self.proofs is not None:
            self.prove(found.path, found.absolute, found.stat_then, found.entry, self._pairs_of(found))
        stat_now = settled(found.stat_then)
        if stat_now is None or found.entry[STAT] == stat_now:
            return
        entry = list(found.entry)
        if found.absolute not in found.pack.fresh:
            entry[DEPS] = found.pack.pairs(found.entry)
        entry[STAT] = stat_now
        found.pack.fresh[found.absolute] = entry

    def entry_for(self, found: Lookup, result: FileResult, deps: set, since_ns: int) -> tuple:
        """(repository root, file, entry) to ``add``: made where the file was linted (maybe a worker),
        added to its pack where the run is written (the main process). ``since_ns`` is when the lint
        that looked at ``deps`` began."""
        entry = [found.key, found.explicit, settled(found.stat_then), result.kind,
                 sorted(self._folded(deps, since_ns).items()), [_dump(d) for d in result.diagnostics]]
        return found.root, found.absolute, entry

    def add(self, made: tuple, path: str) -> None:
        """Keep the entry ``entry_for`` made for the result of ``path``."""
        root, absolute, entry = made
        self._pack(root, pack_folder(root, os.path.dirname(absolute))).fresh[absolute] = entry
        if self.proofs is not None:
            self.prove(path, absolute, entry[STAT], entry, entry[DEPS])

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

    def listing(self, root: str, folder: str) -> tuple:
        """(the folder's stat signature, what ``discovery.scan`` gave for it when its stat was the same,
        else None). The folder's pack is opened first: that may make the cache folder, in the root."""
        pack = self._listing_pack(root, folder)
        sig = self._signature(folder)  # kept: results that depend on the folder ask for it later
        if self.recorder is not None:
            self.recorder.folder(folder, sig)
        if sig is None:
            return None, None
        known = pack.fresh_dirs.get(folder) or pack.dirs.get(folder)
        if known is None or not isinstance(known, list) or known[:1] != [sig]:
            return sig, None
        return sig, _valid_listing(known)

    def remember_listing(self, root: str, folder: str, sig: Optional[list], scanned: tuple) -> None:
        """Keep a folder's listing for later runs, when the folder had been left alone for SETTLED_NS
        before ``sig`` (taken before the listing) was: a name added in the same timestamp tick could
        otherwise leave its stat unchanged."""
        if settled(sig) is None:
            return
        flags, entries = scanned
        self._listing_pack(root, folder).fresh_dirs[folder] = [sig, list(flags), [list(e) for e in entries]]

    def _listing_pack(self, root: str, folder: str) -> Pack:
        root = self._root or root
        return self._pack(root, listing_folder(root, folder))

    def close(self) -> None:
        """Write every open pack that gained entries this run."""
        while self._packs:
            _write_pack(self._packs.pop(next(iter(self._packs))))


def pack_folder(root: str, folder: str) -> str:
    """The folder whose pack holds the entries of ``folder``'s files: the folder itself, or its ancestor
    PACK_DEPTH levels below the repository root (a subtree's files share one pack, however they are
    spread over small folders)."""
    prefix = root if root.endswith(os.sep) else root + os.sep
    if not folder.startswith(prefix):
        return folder
    parts = folder[len(prefix):].split(os.sep, PACK_DEPTH)
    return folder if len(parts) <= PACK_DEPTH else prefix + os.sep.join(parts[:PACK_DEPTH])


def listing_folder(root: str, folder: str) -> str:
    """The folder whose pack holds ``folder``'s listing: the repository root for the folders less than
    PACK_DEPTH levels below it (few, and mostly without files of their own), else the pack of the
    folder's files."""
    prefix = root if root.endswith(os.sep) else root + os.sep
    if folder.startswith(prefix) and folder.count(os.sep, len(prefix)) < PACK_DEPTH - 1:
        return root
    return pack_folder(root, folder)


def _valid_listing(known) -> Optional[tuple]:
    """(flags, entries) of a listing read from a pack, when it has the shape ``discovery.scan`` gives
    (names that could lead the walk out of the folder never do); else None."""
    try:
        _, flags, entries = known
        if type(flags) is not list or len(flags) != 3 or not all(type(f) is bool for f in flags) \
                or type(entries) is not list:
            return None
        for entry in entries:
            name, is_dir = entry
            if type(name) is not str or type(is_dir) is not bool or not name or name in (".", "..") \
                    or os.sep in name or (os.altsep and os.altsep in name) or "\0" in name:
                return None
        return flags, entries
    except (TypeError, ValueError):
        return None


def _write_pack(pack: Pack) -> None:
    """If the pack gained entries or listings, merge them into the pack as it is on disk now (another
    process may have written it since it was read), under the cache's lock, and replace it atomically.
    A read-only tree just runs uncached."""
    if not pack.fresh and not pack.fresh_dirs:
        return
    try:
        _merge_and_write(pack)
    except OSError:
        pass
    pack.fresh = {}
    pack.fresh_dirs = {}


def _merge_and_write(pack: Pack) -> None:
    folder = os.path.dirname(pack.path)
    cache_dir = os.path.dirname(folder)
    if not _make_dir(cache_dir):
        return
    os.makedirs(folder, exist_ok=True)
    with _locked(os.path.join(cache_dir, "lock")):
        disk = Pack.read(pack.path)
        table: list = []
        index: dict = {}

        def indexes(pairs) -> list:
            out = []
            for pair in pairs:
                dep_path, sig = pair
                key = (dep_path, None if sig is None else tuple(sig))
                i = index.get(key)
                if i is None:
                    i = index[key] = len(table)
                    table.append(pair)
                out.append(i)
            return out

        files: dict = {}
        for path, entry in disk.files.items():
            if path in pack.fresh or not os.path.lexists(path):
                continue  # replaced by this run's entry, or the file is gone
            try:
                pairs = disk.pairs(entry)
            except (IndexError, KeyError, TypeError):
                continue
            files[path] = [*entry[:DEPS], indexes(pairs), *entry[DEPS + 1:]]
        for path, entry in pack.fresh.items():
            files[path] = [*entry[:DEPS], indexes(entry[DEPS]), *entry[DEPS + 1:]]
        dirs = {path: known for path, known in disk.dirs.items() if path not in pack.fresh_dirs and os.path.isdir(path)}
        dirs.update(pack.fresh_dirs)
        data = json.dumps({"format": FORMAT, "deps": table, "files": files, "dirs": dirs}, separators=(",", ":"))
        _write_atomically(pack.path, data.encode("utf-8", "surrogateescape"))


class _locked:
    """An exclusive advisory lock on ``path`` while the block runs (none where fcntl is missing):
    concurrent writers merge one after another instead of dropping each other's entries."""

    def __init__(self, path: str):
        self.path, self.fd = path, None

    def __enter__(self):
        try:
            import fcntl

            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except (ImportError, OSError):
            pass
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock


def _write_atomically(target: str, data: bytes) -> None:
    """A temp file beside ``target``, then a rename: readers see the old pack or the new one."""
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


def _make_dir(folder: str) -> bool:
    """Whether the cache folder exists, making it if it can."""
    if os.path.isdir(folder):
        return True
    if os.path.basename(folder) == DIRNAME and not _writable(os.path.dirname(folder)):
        return False  # a read-only tree (even for root, who could write anyway) runs uncached
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    _mark_cache_dir(folder)
    return True


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


def load_diagnostics(dumped: list, path: str) -> list:
    out = []
    for code, severity, message, line, column, end_line, end_column, yaml_path, case_id, fix in dumped:
        if fix is not None:
            edits, description, safe = fix
            fix = Fix(tuple(Edit(*edit) for edit in edits), description, safe)
        out.append(Diagnostic(code, Severity(severity), message, path, line, column, end_line, end_column, yaml_path,
                              case_id, fix))
    return out
