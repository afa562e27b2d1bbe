"""Where a path named in a file leads, resolved as the runner resolves it: an
absolute path as written, else from the file's folder up through each ancestor
to the repository root; never outside the root. Files and folders are looked
up in the current file view (``view.py``): the working tree, or the git index."""
from __future__ import annotations

import os
from typing import Optional

from evallint.load import deps
from evallint.load.paths import inside
from evallint.load.view import FILE, FOLDER, current

UNREAD = object()  # a Resolved's fact not asked yet


class Resolved:
    """Where a reference leads (and, once asked, what the file found holds)."""

    __slots__ = ("path", "escapes", "tried", "near", "size", "blank", "names")

    def __init__(self, path: Optional[str] = None, escapes: Optional[str] = None, tried: tuple = (), size: int = -1,
                 near: Optional[str] = None):
        self.path = path  # the file or folder found
        self.escapes = escapes  # the path outside the root, when the reference leaves it
        self.tried = tried
        self.near = near  # when nothing is found: the reference with a near name that is there
        self.size = size  # the file's size when it was found (-1: unknown)
        self.blank = self.names = UNREAD  # what the reference checks find in the file, once asked


def _exists(view, candidate: str, folder: str, real_root: str, want_dir: bool) -> Optional[Resolved]:
    """``candidate`` (absolute, normalized, in ``folder``) when ``view`` holds a file (a folder with
    ``want_dir``) there whose real path is inside ``real_root``."""
    deps.note(candidate)
    found = view.entry(candidate, folder)
    if found is None:
        return None
    real, kind, size = found
    if not inside(real, real_root):
        return Resolved(escapes=candidate)
    if kind == (FOLDER if want_dir else FILE):
        return Resolved(path=candidate, size=size)
    return None


def resolve(value: str, folder: str, root: str, *, want_dir: bool = False, ancestors: bool = True) -> Resolved:
    """Where ``value`` leads from ``folder`` in the current file view; both folders absolute and
    normalized. Once per run."""
    view = current()
    return deps.memoized(("resolve", view, value, folder, root, want_dir, ancestors), _resolve, view, value,
                         folder, root, want_dir, ancestors)


def _resolve(view, value: str, folder: str, root: str, want_dir: bool, ancestors: bool) -> Resolved:
    """Resolve like the runner: an absolute path as written, then (leading
    separators stripped) from the file's folder up through each ancestor to
    the root. Candidates outside the root are never looked at: an absolute
    path outside it, or a relative one that leaves it, is an escape."""
    real_root = view.real_folder(root)
    found, outside = _absolute(view, value, root, real_root, want_dir)
    if found:
        return found
    relative = os.path.normpath(value.lstrip("/\\") or ".")
    found, tried = _upwards(view, relative, folder, root, real_root, want_dir, ancestors)
    if found:
        return found
    if outside is not None and not _starts_inside(view, relative, tried):
        return Resolved(escapes=outside)  # '/etc/passwd': no part of it is in the repository
    return Resolved(tried=tuple(tried), near=_near(view, relative, tried, want_dir))


def _near(view, relative: str, tried: list, want_dir: bool) -> Optional[str]:
    """``relative`` with its last part the name of a file (a folder: ``want_dir``) in the folder it names in one of
    the ``tried`` folders, the first first, that is a few typing slips from it (``_slips``); None when there is none."""
    parent, name = os.path.split(relative)
    for folder in tried:
        where = os.path.normpath(os.path.join(folder, parent))
        deps.note(where)
        names = (view.subfolders(where) if want_dir else view.files_in(where)) if name and view.isdir(where) else ()
        near = next((other for other in names if other != name and _slips(name, other)), None)
        if near is not None:
            return os.path.join(parent, near).replace(os.sep, "/")
    return None


def _slips(name: str, other: str) -> bool:
    """Whether ``other`` is ``name`` but for a few typing slips in the part before its suffix (``suggest.edit_distance``:
    2, 1 for a part of four letters or fewer; none of two), case aside."""
    from evallint.suggest import edit_distance

    (stem, suffix), (other_stem, other_suffix) = (os.path.splitext(n.lower()) for n in (name, other))
    limit = 2 if len(stem) > 4 else 1 if len(stem) > 2 else 0
    return suffix == other_suffix and abs(len(stem) - len(other_stem)) <= limit \
        and edit_distance(stem, other_stem, limit) <= limit


def _absolute(view, value: str, root: str, real_root: str, want_dir: bool) -> tuple:
    """(what an absolute ``value`` inside the root leads to, or None; ``value`` normalized when it is
    absolute and outside the root, else None)."""
    if not (os.path.isabs(value) or value.startswith(("/", "\\"))):
        return None, None
    absolute = os.path.normpath(value)
    if not inside(absolute, root):  # never looked at: whether it exists would tell a CI log what files this machine has
        return None, absolute
    deps.note(absolute)
    if view.lexists(absolute):
        return _exists(view, absolute, os.path.dirname(absolute), real_root, want_dir), None
    return None, None


def _folders_up(folder: str, root: str, ancestors: bool):
    """``folder``, then (with ``ancestors``) each folder above it up to the root."""
    here = folder
    while True:
        yield here
        if not ancestors or here == root or not inside(here, root):
            return
        parent = os.path.dirname(here)
        if parent == here:
            return
        here = parent


def _upwards(view, relative: str, folder: str, root: str, real_root: str, want_dir: bool, ancestors: bool) -> tuple:
    """(what ``relative`` leads to from ``folder`` or a folder above it, or None; the folders tried)."""
    # a relative path that stays below its folder: each candidate is the folder's prefix and the path
    # (already normalized, inside the root, its own folder known) with no join, normpath or check
    below = relative != "." and relative != os.pardir and not relative.startswith(os.pardir + os.sep) and \
        inside(folder, root)
    head = os.path.dirname(relative)
    tried: list = []
    for step, here in enumerate(_folders_up(folder, root, ancestors)):
        if below:
            prefix = here if here.endswith(os.sep) else here + os.sep
            candidate, parent = prefix + relative, (prefix + head if head else here)
        else:
            candidate = os.path.normpath(os.path.join(here, relative))
            if not inside(candidate, root):
                if step == 0:
                    return Resolved(escapes=candidate), tried
                continue
            parent = os.path.dirname(candidate)
        tried.append(here)
        found = _exists(view, candidate, parent, real_root, want_dir)
        if found:
            return found, tried
    return None, tried


def _starts_inside(view, relative: str, folders: list) -> bool:
    """The first part of ``relative`` is in one of ``folders``: an absolute path such as '/refs/x.md' that is
    meant from the repository, not one that leads out of it. Only folders inside the root are looked at."""
    first = relative.split(os.sep, 1)[0]
    return any(view.lexists(os.path.join(folder, first)) for folder in folders)
