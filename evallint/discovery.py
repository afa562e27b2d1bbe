"""Which files are linted, and as what kind.

A folder is walked in name order, without recursion, skipping ``.git``,
``node_modules``, ``__pycache__``, the cache folder and hidden folders (except
``.agentv``), and whatever the ``.gitignore`` files from the repository root
down ignore. The configuration's ``include`` and ``exclude`` globs are
gitignore patterns (``pathspec``), anchored at the repository root unless they
start with ``**/``."""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Iterator, Optional

from . import deps

EVAL, TARGETS, CONFIG, DATASET, SIDECAR = "eval", "targets", "config", "dataset", "sidecar"
YAML_SUFFIXES = (".yaml", ".yml")
CANDIDATE_SUFFIXES = YAML_SUFFIXES + (".jsonl",)
SKIP_DIRS = {".git", "node_modules", "__pycache__", ".evallint_cache"}
EVALCASES_KEYS = ("evalcases", "evalcase", "eval_cases", "evalCases")


def _anchored(pattern: str) -> str:
    """A glob as a gitignore pattern anchored at the root: ``*.yaml`` and ``evals/*.yaml`` match there
    only, ``**/x.yaml`` at any depth."""
    return pattern if pattern.startswith(("/", "**/")) else "/" + pattern


@lru_cache(maxsize=64)
def glob_spec(patterns: tuple):
    """A ``pathspec.PathSpec`` of the globs (gitignore's pattern syntax: ``*``, ``?``, ``[ab]``, ``**``)."""
    import pathspec

    return pathspec.PathSpec.from_lines("gitignore", [_anchored(p) for p in patterns])


def glob_escape(path: str) -> str:
    """``path`` as a glob that matches it alone (its glob characters escaped), where the separator is ``/``."""
    if os.sep != "/":
        return path
    return "".join("\\" + c if c in "\\[]*?" else c for c in path)


def glob_match(relpath: str, patterns) -> bool:
    """Whether ``relpath`` (relative to where the globs start; a folder ends with a separator) matches
    one of the globs."""
    return glob_spec(tuple(patterns)).match_file(relpath.replace(os.sep, "/"))


def repo_root(folder: str) -> str:
    """Nearest ancestor holding ``.git``; else one holding ``.agentv/``; else the folder itself."""
    folder = os.path.abspath(folder)
    git, agentv = _roots(folder)
    return git or agentv or folder


def _roots(folder: str) -> tuple:
    """(nearest folder with .git, nearest folder with .agentv/) at or above an absolute folder; each
    folder is looked at once per run."""
    return deps.memoized(("roots", folder), _find_roots, folder)


def _find_roots(folder: str) -> tuple:
    if os.path.exists(os.path.join(folder, ".git")):
        return folder, None
    return _roots_below(_parent_roots(folder), folder, os.path.isdir(os.path.join(folder, ".agentv")))


def _parent_roots(folder: str) -> tuple:
    parent = os.path.dirname(folder)
    return _roots(parent) if parent != folder else (None, None)


def _roots_below(parent_roots: tuple, folder: str, has_agentv: bool) -> tuple:
    """The roots of a folder without .git, from its parent's."""
    git, agentv = parent_roots
    return git, (folder if has_agentv else agentv)


def _listed_roots(folder: str, marks: set, parent_roots: tuple) -> tuple:
    """The roots of a folder the walk listed (``marks``: the names ``scan`` saw in it), kept for the run:
    the folder is not looked at again."""
    roots = (folder, None) if ".git" in marks else _roots_below(parent_roots, folder, ".agentv" in marks)
    return deps.memoized(("roots", folder), _given, roots)


def _given(value):
    return value


def _split_include(include: tuple) -> tuple:
    """(the '**/' globs, matched anywhere in the absolute path; the others, matched from the repository root)."""
    return tuple(p for p in include if p.startswith("**/")), tuple(p for p in include if not p.startswith("**/"))


def path_kind(path: str, root: str, include) -> Optional[str]:
    """The kind decided by the path alone, before reading."""
    absolute = os.path.abspath(path)
    folder, name = os.path.split(absolute)
    if os.path.basename(folder) == ".agentv":
        if name in ("targets.yaml", "targets.yml"):
            return TARGETS
        if name in ("config.yaml", "config.yml"):
            return CONFIG
    yaml_file = name.endswith(YAML_SUFFIXES)
    if yaml_file:
        sibling = os.path.splitext(absolute)[0] + ".jsonl"
        deps.note(sibling)
        if os.path.isfile(sibling):
            return SIDECAR
    if yaml_file or name.endswith(".jsonl"):
        anywhere, rooted = _split_include(tuple(include))
        if anywhere and glob_match(absolute.lstrip(os.sep), anywhere):
            return EVAL
        if rooted and glob_match(os.path.relpath(absolute, root), rooted):
            return EVAL
    return None


def content_kind(path: str, data: Any, by_path: Optional[str]) -> Optional[str]:
    """The kind decided by the path and the parsed top level (first match wins)."""
    schema = data.get("$schema") if isinstance(data, dict) else None
    if isinstance(schema, str):
        if schema.startswith("agentv-targets-v2"):
            return TARGETS
        if schema == "agentv-config-v2":
            return CONFIG
    if by_path in (TARGETS, CONFIG, SIDECAR):
        return by_path
    if isinstance(data, dict) and "targets" in data and os.path.basename(path) in ("targets.yaml", "targets.yml"):
        return TARGETS
    if schema == "agentv-eval-v2":
        return EVAL
    if isinstance(data, dict) and any(k in data for k in EVALCASES_KEYS):
        return EVAL
    if by_path == EVAL:
        return EVAL
    if isinstance(schema, str) and schema.startswith("agentv-"):
        return EVAL  # an unknown AgentV schema id: linted by its other signs, EV012
    return None


DATASET_SIGNS = ("input_messages", "input", "expected_outcome", "outcome")


def jsonl_kind(text: str, by_path: Optional[str], explicit: bool) -> Optional[str]:
    """A .jsonl file is a dataset when its first line is an eval case (results
    files, with 'eval_id' rows, are not), when ``include`` names it, or when it
    was named on the command line and its first line is not even JSON."""
    from .jsonl import first_object

    first = first_object(text)
    if isinstance(first, dict) and "id" in first and any(k in first for k in DATASET_SIGNS):
        return DATASET
    if by_path == EVAL:
        return DATASET
    if explicit and first is None and text.strip():
        return DATASET
    return None


def looks_like_agentv(text: str) -> bool:
    """A cheap sniff for files that fail before their kind is known."""
    return "evalcases" in text or "agentv-" in text or "eval_cases" in text or "evalCases" in text


class _Ignore:
    """The .gitignore files met on the way down, as (absolute folder, its prefix, spec)."""

    def __init__(self):
        self.specs: list = []

    def load(self, folder: str) -> bool:
        """Add ``folder``'s .gitignore, if it has one that can be read."""
        try:
            with open(os.path.join(folder, ".gitignore"), encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            return False
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
    """Candidate files below ``folder``, depth first in name order, honouring .gitignore files and the
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
    stack = [_opened(folder, top, ignore, _parent_roots(top))]
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
    return prefix, _as_prefix(absolute), iter(entries), pushed, _listed_roots(absolute, marks, parent_roots)


_MARKS = {".gitignore": os.path.exists, ".git": os.path.exists, ".agentv": os.path.isdir}


def scan(folder: str) -> tuple:
    """(which of .gitignore, .git and an .agentv folder it holds, its candidate entries: (name, is a
    folder) pairs in name order, the folders the walk may enter and the files it may lint)."""
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
        if name in _MARKS and _MARKS[name](entry.path):
            marks.add(name)
        if is_dir:
            if name in SKIP_DIRS or (name[0] == "." and name != ".agentv"):
                continue
        elif not name.endswith(CANDIDATE_SUFFIXES):
            continue
        entries.append((name, is_dir))
    entries.sort()  # by name: a folder holds each name once
    return marks, entries


def _as_prefix(folder: str) -> str:
    """``folder`` ending with one separator, ready to have a name appended."""
    return folder if folder.endswith(os.sep) else folder + os.sep


def iter_paths(paths: list, config) -> Iterator[tuple]:
    """``expand_paths``, but one folder's files come as the walk finds them (in the
    walk's order), so linting can start while the tree is still being walked."""
    if len(paths) == 1 and os.path.isdir(paths[0]) and not os.path.islink(paths[0]) \
            and not paths[0].endswith(CANDIDATE_SUFFIXES):
        for path in walk(os.path.normpath(paths[0]), config.exclude):
            yield path, False
    else:
        yield from expand_paths(paths, config)


def expand_paths(paths: list, config) -> list:
    """(path, named explicitly) for every candidate, sorted, without duplicates."""
    items = []
    for p in paths:
        if os.path.isdir(p) and not os.path.islink(p) and not p.endswith(CANDIDATE_SUFFIXES):
            items.extend((os.path.normpath(f), False) for f in walk(p, config.exclude))
        else:
            items.append((p, True))
    items.sort(key=lambda item: item[0])
    if len(paths) == 1:
        return items  # one walk or one file: no path can appear twice
    seen = set()
    out = []
    for path, explicit in items:
        key = os.path.normpath(os.path.abspath(path))
        if key in seen:
            continue
        seen.add(key)
        out.append((path, explicit))
    return out
