"""Run records: a cached re-lint of an unchanged tree in one pass over one file.

The packs (``cache.py``) answer a run file by file: each folder's listing is
checked, each file is looked up in its folder's pack, each entry's
dependencies are looked at, about 100 µs of Python per file. A run record
holds, in one file, every signature the results of a whole run rested on
(each folder the walk listed, each ``.gitignore`` it read, the folders above
the paths up to the repository's ``.git``, each file's stat and each
dependency of its result) and then the results, in output order. The next run
with the same paths, working folder, evallint version and configuration
checks those signatures in one tight loop and, when every one is unchanged,
gives the recorded results: no walk, no pack, no linter imported. Any
difference and the run goes on as before, the packs answering what they can.

A record is written only when every folder and file in it had been left alone
for SETTLED_NS before its signature was taken (a name added or a byte written
in the same timestamp tick could otherwise leave the stat unchanged), written
to a temp file as the run goes and renamed into place at its end, so a reader
sees a whole record or none; a damaged, truncated or foreign record is not
used. At most KEEP records are kept in a cache folder, the oldest going first.

The file: MAGIC, FORMAT and the run's key, each ended by a NUL byte, then
chunks, each a header line ``kind count size`` and ``size`` bytes of fields
separated by NUL bytes (no path holds one; a path below the working folder,
which is part of the key, is relative to it):

- ``s``: ``count`` paths, then their signatures (``os.stat``: "mtime ctime
  size inode", "-" when missing);
- ``f``: ``count`` paths of regular files, then their signatures (``lstat``,
  with the device too);
- ``r``: ``count`` results in output order: their paths, one field of
  "0"/"1" flags (named explicitly), their kinds ("" for none), their
  diagnostics (JSON, "" for none);
- ``e``: the end, ``count`` being the number of results, and no bytes after.

A chunk holds at most CHUNK entries, so a record is read a chunk at a time
and memory stays flat; a chunk's signatures are checked by one ``map``."""
from __future__ import annotations

import json
import os
from operator import ne
from stat import S_ISREG
TYPE_CHECKING = False  # typing is not imported at run time: a cached run never needs it
if TYPE_CHECKING:
    from typing import Iterator, Optional

from . import cache as cache_module
from .bounded import Bounded
from .config import Config
from .result import FileResult, masked

MAGIC = b"evallint-run"
FORMAT = b"2"
KEEP = 8  # records kept in one cache folder (one per set of paths linted there)
CHUNK = 1024  # entries of one kind in a chunk: memory stays flat however large the record
STALE_NS = 3600 * 10**9  # a temp file older than this was left by a run that did not end
FOLDER = "runs"  # below the cache folder
KINDS = {"eval", "targets", "config", "dataset", "sidecar"}
_KIND_NAMES = {kind.encode("ascii"): kind for kind in KINDS}
_KIND_NAMES[b""] = None


def location(paths: list, config: Config, cache_dir: Optional[str]) -> tuple:
    """(the record's file, its key) for linting ``paths`` from the working folder: in the cache folder
    of the first path's repository root."""
    from .deps import absolute

    cwd = absolute(os.curdir)
    first = absolute(paths[0])
    root = config.root_of_folder(first if os.path.isdir(first) else os.path.dirname(first))
    key = cache_module.blake2b("\0".join([cache_module.salt(config), cwd, *paths]).encode("utf-8", "surrogateescape"),
                               digest_size=16).hexdigest()
    folder = cache_dir or os.path.join(root, cache_module.DIRNAME)
    return os.path.join(folder, FOLDER, key + ".run"), key.encode("ascii")


def replay(path: str, key: bytes, config: Config, cache_dir: Optional[str]) -> Optional[Iterator[FileResult]]:
    """The recorded results when the record at ``path`` is whole, is for ``key`` and nothing it rests
    on changed; else None. Every signature is checked before the first result is given."""
    try:
        fh = open(path, "rb")
    except (OSError, ValueError):
        return None
    try:
        chunks = _verified(fh, key)
        if chunks is not None:
            return _results(fh, chunks, config, cache_dir)
    except Exception:  # a damaged record is no record, never an error
        pass
    fh.close()
    return None


def _field(sig: Optional[list]) -> bytes:
    """A signature as a record holds it: its numbers, or "-" for none."""
    return b"-" if sig is None else _FIELDS[len(sig)] % tuple(sig)


_FIELDS = {4: b"%d %d %d %d", 5: b"%d %d %d %d %d"}  # deps.signature's numbers, cache.file_stat's


def stat_field(path) -> bytes:
    """What an ``s`` record holds for ``path`` now: its ``deps.signature`` (the same numbers, formatted
    here directly: a re-lint checks thousands of these)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return b"-"
    return b"%d %d %d %d" % (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def file_field(path) -> bytes:
    """What an ``f`` record holds for ``path`` now: its ``cache.file_stat`` ("-" when it is not a
    regular file), formatted directly."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return b"-"
    if not S_ISREG(st.st_mode):
        return b"-"
    return b"%d %d %d %d %d" % (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)


def _verified(fh, key: bytes) -> Optional[list]:
    """When the record is whole, for ``key``, and every signature in it is unchanged: its results'
    chunks, as (offset, size, count, their diagnostics loaded); else None. A damaged chunk raises."""
    if fh.read(len(MAGIC) + len(FORMAT) + len(key) + 3) != b"%s\0%s\0%s\0" % (MAGIC, FORMAT, key):
        return None
    chunks = []
    results = 0
    while True:
        kind, count, size = _header(fh.readline(64))
        if kind == b"e":
            return chunks if count == results and size == 0 and fh.read(1) == b"" else None
        at = fh.tell()
        fields = _payload(fh, size)
        if kind == b"s" or kind == b"f":
            if len(fields) != 2 * count or any(map(ne, map(stat_field if kind == b"s" else file_field,
                                                           fields[:count]), fields[count:])):
                return None
        elif kind == b"r":
            chunks.append((at, size, count, _checked_results(fields, count)))
            results += count
        else:
            return None


def _header(line: bytes) -> tuple:
    """(kind, count, size) of a chunk's header line; raises ValueError on a damaged one."""
    kind, count, size = line.split(b" ")
    if not line.endswith(b"\n"):
        raise ValueError(line)
    return kind, int(count), int(size)


def _payload(fh, size: int) -> list:
    data = fh.read(size)
    if len(data) != size:
        raise ValueError("truncated")
    return data.split(b"\0")


def _checked_results(fields: list, count: int) -> list:
    """The diagnostics of an ``r`` chunk's results, loaded (None for a result without any); raises
    ValueError when the chunk is damaged, before any result is given."""
    if len(fields) != 3 * count + 1:
        raise ValueError("fields")
    flags = fields[count]
    if len(flags) != count or flags.strip(b"01"):
        raise ValueError(flags)
    for kind in fields[count + 1:2 * count + 1]:
        if kind not in _KIND_NAMES:
            raise ValueError(kind)
    load = cache_module.load_diagnostics
    return [load(json.loads(dumped), os.fsdecode(path)) if dumped else None
            for path, dumped in zip(fields[:count], fields[2 * count + 1:])]


def _results(fh, chunks: list, config: Config, cache_dir: Optional[str]) -> Iterator[FileResult]:
    """The results of a verified record, in order. A file with findings is read for their snippets;
    one that cannot be read (gone since the check) is linted as in a run without a record."""
    from .source import read_bytes, text_of

    with fh:
        for at, size, count, loaded in chunks:
            fh.seek(at)
            fields = _payload(fh, size)
            flags, kinds = fields[count], fields[count + 1:2 * count + 1]
            for i, path in enumerate(map(os.fsdecode, fields[:count])):
                diagnostics = loaded[i]
                if diagnostics is None:
                    yield FileResult(path, _KIND_NAMES[kinds[i]], [], "")
                    continue
                data = read_bytes(path, None, config.max_bytes)
                if isinstance(data, bytes):
                    yield FileResult(path, _KIND_NAMES[kinds[i]], diagnostics, masked(text_of(data), diagnostics))
                else:
                    yield _lint_again(path, flags[i] == 49, config, cache_dir)  # 49: b"1"


def _lint_again(path: str, explicit: bool, config: Config, cache_dir: Optional[str]) -> FileResult:
    from .runner import lint_many

    return next(iter(lint_many([(path, explicit)], config, jobs=1, cache_dir=cache_dir, use_cache=True)))


class Recorder:
    """Writes the record of a run as its results come: ``start`` with the paths, ``folder`` for each
    folder the walk lists, ``check`` for each other file the walk reads, ``result`` for each result in
    output order, then ``finish``. Anything that cannot be vouched for (a folder or file changed within
    SETTLED_NS, a result that was not cached) drops the record."""

    def __init__(self, path: str, key: bytes):
        import tempfile

        self.path = path
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        fd, self.tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".tmp")
        self.fh = os.fdopen(fd, "wb")
        self.fh.write(b"%s\0%s\0%s\0" % (MAGIC, FORMAT, key))
        self.seen = Bounded(8192)  # neighbouring results share most dependencies: each is written once
        # paths below the working folder (the same for every run of this key) are kept relative to it:
        # the system then walks fewer folders to find them
        cwd = os.getcwd()
        self.below = cwd if cwd.endswith(os.sep) else cwd + os.sep
        self.results = 0
        # the entries of the chunks being filled: paths then signatures (s, f); paths, flags, kinds and
        # diagnostics (r)
        self.stats: tuple = ([], [])
        self.files: tuple = ([], [])
        self.made: tuple = ([], [], [], [])
        self.live = True

    def start(self, paths: list, absolute) -> None:
        """The folders above each path, up to the first holding ``.git`` (where the search for a
        repository root stops; none when the path is a folder holding one, which the walk lists): a
        ``.git`` or ``.agentv`` appearing in one changes its stat."""
        for path in paths:
            folder = absolute(path)
            if os.path.isdir(folder) and os.path.lexists(os.path.join(folder, ".git")):
                continue
            while self.live:
                parent = os.path.dirname(folder)
                if parent == folder:
                    break
                folder = parent
                self.folder(folder, cache_module.signature(folder))
                if os.path.lexists(os.path.join(folder, ".git")):
                    break

    def folder(self, path: str, sig: Optional[list]) -> None:
        if cache_module.settled(sig) is None:
            self.drop()
        else:
            self.check(path, sig)

    def check(self, path: str, sig: Optional[list]) -> None:
        if not self.live:
            return
        field = _field(sig)
        if self.seen.get(path) == field:
            return
        self.seen.put(path, field)
        self._add(b"s", self.stats, self._local(path), field)

    def _local(self, path: str) -> bytes:
        """An absolute path as the record holds it: relative to the working folder when below it."""
        below = self.below
        return os.fsencode(path[len(below):] if path.startswith(below) and len(path) > len(below) else path)

    def _add(self, kind: bytes, chunk: tuple, *entry: bytes) -> None:
        for column, value in zip(chunk, entry):
            column.append(value)
        if len(chunk[0]) >= CHUNK:
            self._flush(kind, chunk)

    def _flush(self, kind: bytes, chunk: tuple) -> None:
        """Write the chunk's entries, column after column, and empty it."""
        count = len(chunk[0])
        if not count or not self.live:
            return
        flags = self.made[1]  # the results' flags are one field, a character each
        fields = []
        for column in chunk:
            fields += [b"".join(column)] if column is flags else column
            column.clear()
        payload = b"\0".join(fields)
        try:
            self.fh.write(b"%s %d %d\n%s" % (kind, count, len(payload), payload))
        except OSError:  # a full disk: no record, and the run goes on
            self.drop()

    def result(self, result: FileResult, proof: Optional[tuple]) -> None:
        """``proof``: (absolute path, its stat then, its cache entry, the entry's [path, signature] pairs)."""
        if not self.live:
            return
        if proof is None or cache_module.settled(proof[1]) is None:
            self.drop()
            return
        try:
            self._result(result, *proof)
        except (KeyError, TypeError, ValueError):  # a signature or entry of another shape: no record
            self.drop()

    def _result(self, result: FileResult, absolute: str, stat_then: list, entry: list, pairs: list) -> None:
        for dep, sig in pairs:
            self.check(dep, sig)
        kind = result.kind
        diagnostics = entry[cache_module.DIAGNOSTICS]
        self._add(b"f", self.files, self._local(absolute), _field(stat_then))
        self._add(b"r", self.made, os.fsencode(result.path), b"1" if entry[cache_module.EXPLICIT] else b"0",
                  kind.encode("ascii") if kind else b"",
                  json.dumps(diagnostics, separators=(",", ":")).encode("ascii") if diagnostics else b"")
        self.results += 1

    def finish(self) -> None:
        """Put the record in place (when nothing dropped it) and keep the KEEP newest."""
        if not self.live:
            return
        for kind, chunk in ((b"s", self.stats), (b"f", self.files), (b"r", self.made)):
            self._flush(kind, chunk)
        if not self.live:
            return
        self.live = False
        try:
            self.fh.write(b"e %d 0\n" % self.results)
            self.fh.close()
            os.replace(self.tmp, self.path)
        except OSError:
            self._remove()
            return
        _prune(os.path.dirname(self.path))

    def drop(self) -> None:
        if self.live:
            self.live = False
            self._remove()

    def _remove(self) -> None:
        try:
            self.fh.close()
        except OSError:
            pass
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


def _prune(folder: str) -> None:
    """Remove all but the KEEP newest records, and temp files left for an hour (by a run that was killed)."""
    import time

    records, stale = [], []
    old = time.time_ns() - STALE_NS
    try:
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if name.endswith(".run"):
                records.append((os.stat(path).st_mtime_ns, path))
            elif name.startswith(".tmp-") and os.stat(path).st_mtime_ns < old:
                stale.append(path)
    except OSError:
        return
    records.sort(reverse=True)
    for path in [path for _, path in records[KEEP:]] + stale:
        try:
            os.unlink(path)
        except OSError:
            pass
