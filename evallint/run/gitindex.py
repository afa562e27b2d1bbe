"""The git index as ``--staged`` sees it: one listing (``git ls-files -s``), the sizes of the blobs a run
reads (one ``git cat-file --batch-check``) and their contents (one ``git cat-file --batch`` process per
linting process, asked many blobs at a time). A blob larger than what a reader wants is never held: its
size comes first, and its bytes past that are skipped as they stream by."""
from __future__ import annotations

import os
import subprocess
from typing import Iterable, Iterator, Optional, Union

from evallint.diagnostics import Finding, Span
from evallint.load import git
from evallint.load.paths import inside
from evallint.load.source import Source, decode, too_large
from evallint.load.view import FILE, FOLDER, WORKING_TREE, FileView

LINK_MODE, GITLINK_MODE, EXECUTABLE_MODE = "120000", "160000", "100755"
MAX_LINKS = 40  # links followed in one path, as the kernel's limit: more is a loop
# the empty blob's object name (SHA-1, SHA-256): what an intent-to-add entry ('git add -N') holds
EMPTY_BLOBS = ("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
               "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813")
KEPT_BLOB_BYTES = 4 * 1024 * 1024  # at most this many bytes of referenced files are kept once read, for the next asker
# requests written before their answers are read: at most this many bytes of object names, so the
# requests fit in the pipe to git however full its answers leave the pipe back (POSIX pipes hold at least 4 KiB)
REQUEST_BYTES = 4096
ANSWER_BYTES = 4 * 1024 * 1024  # bytes of blobs asked for at a time (a larger blob is asked for alone)
SKIP_BLOCK = 1 << 20  # the bytes of a blob nobody wants are read and dropped in blocks of this size


class GitError(Exception):
    pass


def git_output(args: list, cwd: str, stdin: bytes = b"") -> bytes:
    """What ``git ARGS`` prints, given ``stdin``; GitError with git's complaint when it fails."""
    try:
        proc = git.run(args, cwd, stdin, timeout=60)
    except OSError as exc:
        raise GitError(git.not_started(exc)) from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {' '.join(args)} did not answer within 60 s") from None
    if proc.returncode != 0:
        raise GitError(git.complaint(proc.stderr) or f"git {' '.join(args)} failed")
    return proc.stdout


def blob_sizes(top: str, names: list) -> list:
    """The size in bytes of each blob named, or None for one missing from the object store, from one
    ``git cat-file --batch-check``: a blob is known to be over the size cap before any of it is read."""
    if not names:
        return []
    answers = git_output(["cat-file", "--batch-check"], top, "".join(n + "\n" for n in names).encode()).splitlines()
    sizes = []
    for line in answers:  # one line per name, in order: "<name> <type> <size>" or "<name> missing"
        parts = line.split()
        sizes.append(int(parts[2]) if len(parts) == 3 else None)
    if len(sizes) != len(names):
        raise GitError("git cat-file --batch-check answered in an unknown form")
    return sizes


class Blobs:
    """Blob contents from one ``git cat-file --batch`` process, started at the first read in the process
    that reads (a pool worker has its own)."""

    def __init__(self, top: str):
        self.top = top
        self.proc: Optional[subprocess.Popen] = None
        self.kept: dict = {}  # object name -> bytes, for referenced files read again
        self.kept_bytes = 0

    def read(self, sha: str, max_bytes: int, keep: bool = True) -> Optional[tuple]:
        """(the blob's size, its bytes or None when it is over ``max_bytes``: then none are held); None
        when the object is missing."""
        data = self.kept.get(sha)
        if data is not None:
            return len(data), (data if len(data) <= max_bytes else None)
        (answer,) = self.read_many([(sha, max_bytes)], whole=True)
        if answer is not None and answer[1] is not None and keep and self.kept_bytes + answer[0] <= KEPT_BLOB_BYTES:
            self.kept[sha] = answer[1]
            self.kept_bytes += answer[0]
        return answer

    def read_many(self, requests: list, whole: bool = False) -> list:
        """For each (object name, limit): (the blob's size, its first ``limit`` bytes; ``whole``: None for a
        blob over the limit), or None when it is missing. The requests are written together and then the
        answers read, so one pipe round trip serves many blobs: keep their names within ``REQUEST_BYTES``
        (``request_groups``)."""
        proc = self._started()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(b"".join(sha.encode() + b"\n" for sha, _ in requests))
            proc.stdin.flush()
            return [self._answer(proc.stdout, limit, whole) for _, limit in requests]
        except OSError as exc:
            raise GitError(f"git cat-file failed: {exc}") from None

    def _started(self) -> subprocess.Popen:
        if self.proc is None:
            try:
                self.proc = git.start(["cat-file", "--batch"], self.top)
            except OSError as exc:
                raise GitError(git.not_started(exc)) from None
        return self.proc

    @staticmethod
    def _answer(stdout, limit: int, whole: bool) -> Optional[tuple]:
        """(size, the first ``limit`` bytes) of the next answer; with ``whole``, (size, None) for a blob
        over ``limit``, of which nothing is kept. None for a missing object (or a name of one that git finds
        ambiguous), named as asked, which may hold spaces ('HEAD:a b.yaml')."""
        header = stdout.readline().split()
        if header and header[-1] in (b"missing", b"ambiguous"):
            return None
        if len(header) != 3:
            raise GitError("git cat-file --batch answered in an unknown form")
        size = int(header[2])
        data = None if whole and size > limit else stdout.read(min(size, limit))
        rest = size - (0 if data is None else len(data)) + 1  # what is left of the blob, and the line feed after it
        while rest > 0:
            skipped = stdout.read(min(rest, SKIP_BLOCK))
            if not skipped:
                raise GitError("git cat-file --batch stopped in the middle of a blob")
            rest -= len(skipped)
        return size, data

    def close(self) -> None:
        if self.proc is not None:
            proc, self.proc = self.proc, None
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.close()
            proc.stdout.close()
            proc.wait()


def request_groups(items: list, want) -> Iterable[list]:
    """``items`` in order, in groups whose object names fit in ``REQUEST_BYTES`` and whose wanted bytes
    (``want(item)``: (object name, bytes wanted)) add up to at most ``ANSWER_BYTES`` (or one item)."""
    group: list = []
    names = wanted = 0
    for item in items:
        sha, size = want(item)
        if group and (names + len(sha) + 1 > REQUEST_BYTES or wanted + size > ANSWER_BYTES):
            yield group
            group, names, wanted = [], 0, 0
        group.append(item)
        names += len(sha) + 1
        wanted += size
    if group:
        yield group


def index_entries(listing: bytes, intended: frozenset) -> dict:
    """{path relative to the work tree, '/'-separated: (mode, object name)} from what ``git ls-files -s
    -z`` printed; ``intended``: the paths added with intent to add only, which the commit will not hold."""
    entries: dict = {}
    modes: dict = {}  # a few modes stand for every entry: each is kept once
    for record in listing.split(b"\0"):
        if not record:
            continue
        info, _, raw = record.partition(b"\t")
        mode, sha, stage = info.decode().split()
        mode = modes.setdefault(mode, mode)
        name = raw.decode("utf-8", "surrogateescape")
        if name in intended:
            continue
        if stage != "0" and name in entries and stage != "2":
            continue  # a conflict: the stage git calls "ours" stands for the path
        entries[name] = (mode, sha)
    return entries


class IndexView(FileView):
    """The files of the git index under the work tree ``top`` (a real path). Outside it the index holds
    nothing: there the file system answers, as it does for the runner (a path out of the repository
    root is reported, never opened)."""

    def __init__(self, top: str, entries: dict, blobs: Blobs):
        """``entries``: what ``index_entries`` made of the listing."""
        self.top = top
        self.blobs = blobs
        self.entries = entries
        self.folders = {""}
        for name in entries:
            folder = name.rpartition("/")[0]
            while folder not in self.folders:
                self.folders.add(folder)
                folder = folder.rpartition("/")[0]
        self.children: Optional[dict] = None  # made at the first listing of a folder (``_listed``)

    def _rel(self, path: str) -> Optional[str]:
        """``path`` relative to the work tree, '/'-separated; None when it is outside."""
        if path == self.top:
            return ""
        prefix = self.top if self.top.endswith(os.sep) else self.top + os.sep
        if not path.startswith(prefix):
            return None
        return path[len(prefix):].replace(os.sep, "/")

    def _kind(self, rel: str) -> Optional[str]:
        """FILE, FOLDER, "link" or None for what the index holds at ``rel``, links not followed."""
        found = self.entries.get(rel)
        if found is None:
            return FOLDER if rel in self.folders else None
        mode = found[0]
        if mode == LINK_MODE:
            return "link"
        return FOLDER if mode == GITLINK_MODE else FILE  # a submodule is a folder in the checkout

    def _follow(self, path: str, hops: int = 0) -> Optional[str]:
        """``path`` with the index's links resolved, component by component (os.path.realpath over the
        index); None for a loop."""
        rel = self._rel(path)
        if rel is None:
            return os.path.realpath(path)
        done = self.top
        parts = rel.split("/") if rel else []
        for i, part in enumerate(parts):
            step = os.path.join(done, part)
            found = self.entries.get("/".join(parts[:i + 1]))
            if found is not None and found[0] == LINK_MODE:
                if hops >= MAX_LINKS:
                    return None
                answer = self.blobs.read(found[1], 4096, keep=False)
                if answer is None or answer[1] is None:
                    return None
                target = answer[1].decode("utf-8", "surrogateescape").replace("/", os.sep)
                joined = os.path.normpath(os.path.join(done, target, *parts[i + 1:]))
                return self._follow(joined, hops + 1)
            done = step
        return done

    def _real_kind(self, path: str) -> tuple:
        """(real path or None, its kind) with every link followed."""
        real = self._follow(path)
        if real is None:
            return None, None
        rel = self._rel(real)
        if rel is None:  # outside the work tree
            return real, FOLDER if os.path.isdir(real) else FILE if os.path.isfile(real) else None
        kind = self._kind(rel)
        return real, (None if kind == "link" else kind)

    def entry(self, path: str, folder: str) -> Optional[tuple]:
        if self._rel(path) is None:
            return WORKING_TREE.entry(path, folder)
        if not self.lexists(path):
            return None
        real, kind = self._real_kind(path)
        return (path if real is None else real), kind, -1

    def real_folder(self, folder: str) -> str:
        return self._follow(folder) or folder

    def lexists(self, path: str) -> bool:
        if self._rel(path) is None:
            return os.path.lexists(path)
        parent = self._follow(os.path.dirname(path))
        if parent is None:
            return False
        resolved = os.path.join(parent, os.path.basename(path))
        rel = self._rel(resolved)
        return os.path.lexists(resolved) if rel is None else self._kind(rel) is not None

    def isdir(self, path: str) -> bool:
        return self._real_kind(path)[1] == FOLDER

    def isfile(self, path: str) -> bool:
        return self._real_kind(path)[1] == FILE

    def is_executable(self, path: str) -> bool:
        real, kind = self._real_kind(path)
        if real is None or kind != FILE:
            return False
        rel = self._rel(real)
        return WORKING_TREE.is_executable(real) if rel is None else self.entries[rel][0] == EXECUTABLE_MODE

    def _blob(self, path: str, max_bytes: int) -> Optional[tuple]:
        """(size, bytes or None when over ``max_bytes``) of the staged file at ``path``, its links followed."""
        real, kind = self._real_kind(path)
        rel = self._rel(real) if real is not None and kind == FILE else None
        if rel is None:
            return None
        return self.blobs.read(self.entries[rel][1], max_bytes)

    def read(self, path: str, size: int, max_bytes: int) -> Optional[bytes]:
        answer = self._blob(path, max_bytes)
        return None if answer is None else answer[1]

    def has_head(self) -> bool:
        """Whether the repository has a commit ``HEAD``."""
        return self.blobs.read("HEAD", 0, keep=False) is not None

    def committed(self, path: str, max_bytes: int) -> Optional[bytes]:
        """The bytes of the file at ``path`` in the last commit (``HEAD``), from the view's own blob reader; None
        when the commit has none there, or it is over ``max_bytes``."""
        rel = self._rel(path)
        answer = self.blobs.read("HEAD:" + rel, max_bytes, keep=False) if rel and "\n" not in rel else None
        return None if answer is None else answer[1]

    def files_below(self, folder: str) -> Iterator[str]:
        rel = self._rel(folder)
        if rel is None:
            yield from WORKING_TREE.files_below(folder)
            return
        prefix = rel + "/" if rel else ""
        for name in self.entries:
            if name.startswith(prefix) and self._kind(name) == FILE:
                yield os.path.join(self.top, *name.split("/"))

    def files_in(self, folder: str) -> list:
        real, listed = self._listed(folder)
        if listed is None:
            return WORKING_TREE.files_in(real) if real is not None else []
        return sorted(name for name, kind in listed.items()
                      if kind == FILE or kind == "link" and self.isfile(os.path.join(real, name)))

    def subfolders(self, folder: str) -> list:
        real, listed = self._listed(folder)
        if listed is None:
            return WORKING_TREE.subfolders(real) if real is not None else []
        return sorted(name for name, kind in listed.items() if kind == FOLDER)

    def linked_folders(self, folder: str) -> list:
        real, listed = self._listed(folder)
        if listed is None:
            return WORKING_TREE.linked_folders(real) if real is not None else []
        return sorted(name for name, kind in listed.items() if kind == "link" and self.isdir(os.path.join(real, name)))

    def _listed(self, folder: str) -> tuple:
        """(``folder`` with the index's links followed, or None for a loop; {name: kind, links not followed}
        of what the index holds directly in it, or None when it is outside the work tree)."""
        real = self._follow(folder)
        rel = self._rel(real) if real is not None else None
        if rel is None:
            return real, None
        if self.children is None:  # every folder's entries, found in one pass over the index
            self.children = {}
            for name in self.entries:
                above, _, base = name.rpartition("/")
                self.children.setdefault(above, {})[base] = self._kind(name)
            for name in self.folders - {""}:
                above, _, base = name.rpartition("/")
                self.children.setdefault(above, {})[base] = FOLDER
        return real, self.children.get(rel, {})

    def followed(self, path: str, root: Optional[str]) -> Union[str, Finding]:
        """The real path of ``path`` with the index's links followed, or EV009 for a loop or a link that
        leaves ``root``: what the working tree's reading does with a link on disk."""
        real = self._follow(path)
        if real is None:
            return Finding("EV009", "symbolic link loop: the link never reaches a file", span=Span(0, 0, 0, 1))
        if root is not None and not inside(real, root):
            return Finding("EV009", "symbolic link leaves the repository root; it is not followed", span=Span(0, 0, 0, 1))
        return real

    def staged_file(self, path: str, root: Optional[str]) -> Union[str, Finding]:
        """The object name of the file a staged ``path`` holds, its links followed within ``root``; EV009
        when the link loops, leaves the root or leads to no file of the index."""
        real = self.followed(path, root)
        if isinstance(real, Finding):
            return real
        rel = self._rel(real)
        found = self.entries.get(rel) if rel is not None else None
        if found is None or self._kind(rel) != FILE:
            return Finding("EV009", "not a file in the git index", span=Span(0, 0, 0, 1))
        return found[1]

    def source(self, path: str, root: Optional[str], max_bytes: int) -> Union[Source, Finding]:
        real = self.followed(path, root)
        if isinstance(real, Finding):
            return real
        answer = self._blob(real, max_bytes)
        if answer is None:
            return Finding("EV009", "not a file in the git index", span=Span(0, 0, 0, 1))
        size, data = answer
        return too_large(size, max_bytes) if data is None else decode(data)
