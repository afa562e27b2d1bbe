"""Which files are linted: the paths named, and the folders walked.

A folder is walked in path order, without recursion, skipping ``.git``,
``node_modules``, ``__pycache__``, the cache folder and hidden folders (except
``.agentv``), and whatever the ``.gitignore`` files from the repository root
down ignore; ``exclude`` applies to what the walk finds and, unless
``force_exclude`` is off (``--no-force-exclude``), to the paths named too
(``load/files.py`` holds the globs and the kinds of file)."""
from __future__ import annotations

import os
from typing import Iterator

from evallint.load.files import YAML_SUFFIXES, glob_match, listed_roots, parent_roots, repo_root, skills_named, walked
from evallint.load.source import read_bytes

CANDIDATE_SUFFIXES = YAML_SUFFIXES + (".jsonl",)
# a JSON file named on the command line may be an Agent Skills evals file whatever its name (AgentV loads any
# '.json' file it is given as one); a walk takes only those named as the convention names them
NAMED_SUFFIXES = CANDIDATE_SUFFIXES + (".json",)


def is_candidate(path: str) -> bool:
    """Whether a file a walk (or the git index) holds may be one evallint lints: YAML, JSONL, or an Agent Skills
    evals file (``files.skills_named``)."""
    return path.endswith(CANDIDATE_SUFFIXES) or skills_named(path)


class _Ignore:
    """The .gitignore files met on the way down, as (absolute folder, its prefix, spec)."""

    def __init__(self):
        self.specs: list = []

    def load(self, folder: str) -> bool:
        """Add ``folder``'s .gitignore, if it has one that can be read: a regular file (a FIFO there would
        block the walk) of at most the file size cap."""
        data = read_bytes(os.path.join(folder, ".gitignore"), None)
        if not isinstance(data, bytes):
            return False
        lines = data.decode("utf-8", "replace").splitlines()
        import pathspec

        self.specs.append((_as_prefix(folder), pathspec.GitIgnoreSpec.from_lines(lines)))
        return True

    def ignored(self, absolute: str, is_dir: bool) -> bool:
        """Whether the deepest .gitignore with a pattern for ``absolute`` ignores it."""
        for prefix, spec in reversed(self.specs):
            rel = absolute[len(prefix):].replace(os.sep, "/") + ("/" if is_dir else "")
            include = spec.check_file(rel).include
            if include is not None:
                return include
        return False


def walk(folder: str, exclude=()) -> Iterator[str]:
    """Candidate files below ``folder``, depth first in path order, honouring .gitignore files and the
    ``exclude`` globs. Paths below a normalized ``folder`` come out normalized."""
    top = os.path.abspath(folder)
    root = repo_root(top)
    ignore = _Ignore()
    above = []  # the .gitignore files between the repository root and the folder apply too
    current = top
    while current != root and os.path.dirname(current) != current:
        current = os.path.dirname(current)
        above.append(current)
    for parent in reversed(above):
        ignore.load(parent)
    # a stack of (prefix of the paths given, absolute prefix, the folder's remaining entries, pushed a
    # .gitignore, the folder's roots)
    stack = [_opened(folder, top, ignore, parent_roots(top))]
    while stack:
        prefix, absolute_prefix, entries, pushed, roots = stack[-1]
        for name, is_dir in entries:
            absolute = absolute_prefix + name
            if ignore.specs and ignore.ignored(absolute, is_dir):
                continue
            if exclude and glob_match(os.path.relpath(absolute, root) + ("/" if is_dir else ""), exclude):
                continue
            if is_dir:
                stack.append(_opened(prefix + name, absolute, ignore, roots))
                break  # this folder's remaining entries come after the subfolder's
            yield prefix + name
        else:
            stack.pop()
            if pushed:
                ignore.specs.pop()


def _opened(folder: str, absolute: str, ignore: _Ignore, parent_roots: tuple) -> tuple:
    """A walk's stack entry for ``folder``: its entries are listed, its .gitignore loaded and its roots
    noted."""
    marks, entries = scan(folder)
    pushed = ".gitignore" in marks and ignore.load(absolute)
    prefix = "" if folder == os.curdir else _as_prefix(folder)
    return prefix, _as_prefix(absolute), iter(entries), pushed, listed_roots(absolute, marks, parent_roots)


# what a folder's entry of each name must be to count (a .git file is a worktree's link to its repository)
_MARKS = {".gitignore": os.DirEntry.is_file, ".git": lambda entry: entry.is_dir() or entry.is_file(),
          ".agentv": os.DirEntry.is_dir}


def scan(folder: str) -> tuple:
    """(which of .gitignore, .git and an .agentv folder it holds, its candidate entries: (name, is a
    folder) pairs in path order, the folders the walk may enter and the files it may lint)."""
    try:
        with os.scandir(folder) as scanned:
            listed = list(scanned)
    except OSError:
        listed = []
    entries = []
    marks = set()
    for entry in listed:
        name = entry.name
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_dir = False
        if name in _MARKS and _is_mark(entry):
            marks.add(name)
        if is_dir:
            if not walked(name):
                continue
        elif not is_candidate(name):
            continue
        entries.append((name, is_dir))
    # in the order of the paths they lead to ('a.yaml' before 'a/x.yaml', as '.' sorts before '/'), so a
    # walk gives its files sorted by path, the order of the output
    entries.sort(key=lambda entry: entry[0] + "/" if entry[1] else entry[0])
    return marks, entries


def _is_mark(entry: os.DirEntry) -> bool:
    try:
        return _MARKS[entry.name](entry)
    except OSError:
        return False


def _as_prefix(folder: str) -> str:
    """``folder`` ending with one separator, ready to have a name appended."""
    return folder if folder.endswith(os.sep) else folder + os.sep


def excluded(path: str, config) -> bool:
    """Whether the ``exclude`` globs leave out a named ``path``, as a walk from its repository root
    would: the path itself or one of the folders above it (up to that root) matches. Never with
    ``force_exclude`` off (``--no-force-exclude``)."""
    if not config.exclude or not config.force_exclude:
        return False
    absolute = os.path.abspath(path)
    is_dir = os.path.isdir(absolute) and not os.path.islink(absolute)
    root = repo_root(absolute if is_dir else os.path.dirname(absolute))
    rel = os.path.relpath(absolute, root)
    if rel == os.curdir or rel.startswith(os.pardir + os.sep):
        return False
    parts = rel.split(os.sep)
    for depth in range(1, len(parts)):
        if glob_match(os.sep.join(parts[:depth]) + "/", config.exclude):
            return True
    return glob_match(rel + ("/" if is_dir else ""), config.exclude)


def _walked(path: str) -> bool:
    """Whether a path named is a folder to walk: not a link, nor named as a file to lint."""
    return os.path.isdir(path) and not os.path.islink(path) and not path.endswith(NAMED_SUFFIXES)


def iter_paths(paths: list, config) -> Iterator[tuple]:
    """``expand_paths``, but one folder's files come as the walk finds them (in path order), so linting
    can start while the tree is still being walked."""
    paths = [p for p in paths if not excluded(p, config)]
    if len(paths) == 1 and _walked(paths[0]):
        return ((path, False) for path in walk(os.path.normpath(paths[0]), config.exclude))
    return iter(_listed(paths, config))


def _listed(paths: list, config) -> list:
    """The candidates of the paths named, sorted, each file once."""
    items = []
    for p in paths:
        if _walked(p):
            items.extend((os.path.normpath(f), False) for f in walk(p, config.exclude))
        elif p.endswith(NAMED_SUFFIXES):
            items.append((p, True))
    unique: dict = {}  # the first of the paths that name the same file
    for path, explicit in sorted(items, key=lambda item: item[0]):
        unique.setdefault(os.path.normpath(os.path.abspath(path)), (path, explicit))
    return list(unique.values())


def expand_paths(paths: list, config) -> list:
    """(path, named explicitly) for every candidate, sorted, without duplicates. A file named that is not
    YAML, JSONL or JSON is no candidate: it is taken for a file that eval files use (a prompt, a script), whose
    users ``dependents.py`` finds (a JSON file named is both: linted when it is an Agent Skills evals file)."""
    return list(iter_paths(paths, config))
