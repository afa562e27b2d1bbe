"""The cache folder and the files of its database, looked at before SQLite opens them.

A cache folder can be damaged or planted (committed to the repository, made by another user), so
its files are taken only as evallint takes any file: SQLite is given the database only when the
database and each of its companions (``-wal``, ``-shm``, ``-journal``) that exists is a regular file,
no symbolic link, of at most ``MAX_FILE_BYTES``. A FIFO would block SQLite's first read forever, and
a link to ``/dev/zero`` would feed it zeros without end. The default folder (``.evallint_cache`` at
the repository root) must itself be a folder, no link; a folder named with ``--cache-dir`` may be a
link, as its user chose it."""
from __future__ import annotations

import os
import stat

DIRNAME = ".evallint_cache"
MAX_FILE_BYTES = 512 * 1024 * 1024  # a database (or its log) larger than this is not opened
COMPANIONS = ("", "-wal", "-shm", "-journal")  # the database and the files SQLite keeps beside it


def usable(folder: str, database: str, named: bool) -> bool:
    """Whether the cache folder and the files of ``database`` in it may be opened by SQLite (``named``:
    the folder was named with ``--cache-dir``)."""
    try:
        info = os.stat(folder) if named else os.lstat(folder)
    except (OSError, ValueError):
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    path = os.path.join(folder, database)
    for suffix in COMPANIONS:
        try:
            info = os.lstat(path + suffix)
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            return False
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return False
    return True


def make_folder(folder: str) -> bool:
    """Whether the cache folder exists, making and marking it if it can. A read-only tree (even for
    root, who could write anyway) runs uncached."""
    if os.path.isdir(folder):
        return True
    if os.path.basename(folder) == DIRNAME and not _writable(os.path.dirname(folder)):
        return False
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    for name, text in ((".gitignore", "# created by evallint\n*\n"),
                       ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n# evallint cache\n")):
        try:
            with open(os.path.join(folder, name), "x", encoding="utf-8") as fh:
                fh.write(text)
        except OSError:
            pass
    return True


def _writable(folder: str) -> bool:
    try:
        return bool(os.stat(folder).st_mode & stat.S_IWUSR) and os.access(folder, os.W_OK)
    except OSError:
        return False
