"""Where the files that eval files point at are looked up: the working tree in a normal run, the git
index with ``--staged`` (``evallint/run/gitindex.py``). The reference checks (prompts, ``type: file``
blocks, scripts, ``cwd`` folders, targets files), and the lint of a file that reads another (a dataset's
sidecar, the dataset a sidecar serves, the suites that may name a file of tests), ask ``current()`` and
never the file system."""
from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Optional, Union

from evallint.diagnostics import Finding
from evallint.load import deps
from evallint.load.source import Source, read_found, read_source

FILE, FOLDER = "file", "folder"


class FileView:
    """A view of the files under a repository. Paths are absolute and normalized."""

    def entry(self, path: str, folder: str) -> Optional[tuple]:
        """(real path, kind, size) of what is at ``path`` (in ``folder``), its links followed: kind
        FILE, FOLDER or None (anything else, a dangling link); size -1 when unknown. None when
        nothing is there."""
        raise NotImplementedError

    def real_folder(self, folder: str) -> str:
        """``folder`` with its links resolved."""
        raise NotImplementedError

    def lexists(self, path: str) -> bool:
        raise NotImplementedError

    def isdir(self, path: str) -> bool:
        raise NotImplementedError

    def isfile(self, path: str) -> bool:
        raise NotImplementedError

    def is_executable(self, path: str) -> bool:
        """Whether the file at ``path`` may be run as a program (its mode has an execute bit)."""
        raise NotImplementedError

    def read(self, path: str, size: int, max_bytes: int) -> Optional[bytes]:
        """The bytes of a file that ``entry`` found (``size`` as it gave it); None when it cannot be
        read or is over ``max_bytes``."""
        raise NotImplementedError

    def source(self, path: str, root: Optional[str], max_bytes: int) -> Union[Source, Finding]:
        """The decoded text of the file at ``path``, as ``read_source`` reads a file of at most
        ``max_bytes``."""
        raise NotImplementedError

    def text_of(self, path: str, root: Optional[str], max_bytes: int) -> Optional[Source]:
        """The decoded text of the file at ``path`` (``source``); None when it is no file or cannot be read as
        text."""
        source = self.source(path, root, max_bytes) if self.isfile(path) else None
        return source if isinstance(source, Source) else None

    def files_below(self, folder: str) -> Iterator[str]:
        """The absolute paths of the files in ``folder`` and the folders below it (links not followed)."""
        raise NotImplementedError

    def files_in(self, folder: str) -> list:
        """The names of the files directly in ``folder`` (a link to a file counts), sorted; none when it is no
        folder."""
        raise NotImplementedError

    def subfolders(self, folder: str) -> list:
        """The names of the folders directly in ``folder`` (a link to a folder does not count), sorted; none
        when it is no folder."""
        raise NotImplementedError

    def linked_folders(self, folder: str) -> list:
        """The names of the links to folders directly in ``folder``, sorted: what ``subfolders`` leaves out."""
        raise NotImplementedError


class WorkingTree(FileView):
    """The files on disk."""

    def entry(self, path: str, folder: str) -> Optional[tuple]:
        try:
            st = os.lstat(path)
        except (OSError, ValueError):
            return None
        if stat.S_ISLNK(st.st_mode):
            real = os.path.realpath(path)
            try:
                st = os.stat(path)
            except (OSError, ValueError):
                return real, None, -1  # a dangling link
        else:  # only the folders above can be links: their real path is found once per run
            real_folder = self.real_folder(folder)
            real = path if real_folder == folder else os.path.join(real_folder, os.path.basename(path))
        kind = FILE if stat.S_ISREG(st.st_mode) else FOLDER if stat.S_ISDIR(st.st_mode) else None
        return real, kind, st.st_size

    def real_folder(self, folder: str) -> str:
        """os.path.realpath of an absolute, normalized folder, built from its parent's (found once per
        run, climbing in a loop however deep the folder is): one lstat per folder instead of one per
        path component."""
        return deps.memoized_upward(_realpath_key, folder, _look_for_real_folder)

    def lexists(self, path: str) -> bool:
        return os.path.lexists(path)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def isfile(self, path: str) -> bool:
        return os.path.isfile(path)

    def is_executable(self, path: str) -> bool:
        return os.access(path, os.X_OK)

    def read(self, path: str, size: int, max_bytes: int) -> Optional[bytes]:
        return read_found(path, size, max_bytes)

    def source(self, path: str, root: Optional[str], max_bytes: int) -> Union[Source, Finding]:
        return read_source(path, root, max_bytes)

    def files_below(self, folder: str) -> Iterator[str]:
        deps.note(folder)
        for here, _, names in os.walk(folder):
            for name in names:
                yield os.path.join(here, name)

    def files_in(self, folder: str) -> list:
        return _listed(folder, os.DirEntry.is_file)

    def subfolders(self, folder: str) -> list:
        return _listed(folder, lambda entry: entry.is_dir(follow_symlinks=False))

    def linked_folders(self, folder: str) -> list:
        return _listed(folder, lambda entry: entry.is_symlink() and entry.is_dir())


def _listed(folder: str, wanted) -> list:
    """The sorted names of the entries of ``folder`` for which ``wanted(entry)`` holds; none when it cannot be
    listed."""
    try:
        with os.scandir(folder) as entries:
            return sorted(entry.name for entry in entries if wanted(entry))
    except OSError:
        return []


def _realpath_key(folder: str) -> tuple:
    return "realpath", folder


def _look_for_real_folder(folder: str) -> tuple:
    """The top folder and a link are resolved by os.path.realpath; any other folder is its parent's
    real path and its name."""
    parent, name = os.path.split(folder)
    if not name or parent == folder:
        return True, os.path.realpath(folder)
    try:
        is_link = stat.S_ISLNK(os.lstat(folder).st_mode)
    except (OSError, ValueError):
        is_link = False
    if is_link:
        return True, os.path.realpath(folder)
    return False, lambda real_parent: folder if real_parent == parent else os.path.join(real_parent, name)


WORKING_TREE = WorkingTree()
_current: ContextVar[FileView] = ContextVar("evallint_view", default=WORKING_TREE)


def current() -> FileView:
    """The view the reference checks look in: the working tree unless ``viewing`` says otherwise."""
    return _current.get()


@contextmanager
def viewing(view: FileView) -> Iterator[None]:
    """Inside the block, references are looked up in ``view``."""
    token = _current.set(view)
    try:
        yield
    finally:
        _current.reset(token)
