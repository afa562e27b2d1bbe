"""Which files are linted, and as what kind (SPEC.md section 1)."""
from __future__ import annotations

import os
import sys
from contextvars import ContextVar
from functools import lru_cache
from operator import attrgetter
TYPE_CHECKING = False  # typing is not imported at run time: a cached run never needs it
if TYPE_CHECKING:
    from typing import Any, Iterator, Optional

from . import deps
from .bounded import Bounded

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


def glob_match(relpath: str, patterns) -> bool:
    """Whether ``relpath`` (relative to where the globs start; a folder ends with a separator) matches
    one of the globs."""
    return glob_spec(tuple(patterns)).match_file(relpath.replace(os.sep, "/"))


def repo_root(folder: str) -> str:
    """Nearest ancestor holding ``.git``; else one holding ``.agentv/``; else the folder itself."""
    return _repo_root(deps.absolute(folder))


@lru_cache(maxsize=4096)
def folder_root(cwd: str, folder: str) -> str:
    """``repo_root`` of a file's folder as written (relative to ``cwd``, which is empty for an
    absolute folder): the files of one folder ask once."""
    return _repo_root(os.path.abspath(os.path.join(cwd, folder)))


def _repo_root(folder: str) -> str:
    """``repo_root`` of an absolute, normalized folder."""
    git, agentv = _roots(folder)
    return git or agentv or folder


_ROOTS = Bounded(8192)  # folder -> (nearest folder with .git, nearest folder with .agentv/), at or above it


def _roots(folder: str) -> tuple:
    """(nearest folder with .git, nearest folder with .agentv/) at or above ``folder``;
    each folder is looked at once, whatever number of files it holds (the walk
    tells what it saw in each folder it lists, so those cost nothing more)."""
    found = _ROOTS.get(folder)
    if found is None:
        found = _note_roots(folder, os.path.exists(os.path.join(folder, ".git")),
                            os.path.isdir(os.path.join(folder, ".agentv")))
    return found


def _note_roots(folder: str, has_git: bool, has_agentv: bool, parent_roots: Optional[tuple] = None) -> tuple:
    """Note what ``folder`` holds; ``parent_roots`` are its parent's, when known."""
    if has_git:
        found = (folder, None)
    else:
        if parent_roots is None:
            parent = os.path.dirname(folder)
            parent_roots = _roots(parent) if parent != folder else (None, None)
        git, agentv = parent_roots
        found = (git, folder if has_agentv else agentv)
    return _ROOTS.put(folder, found)


def _split_include(include: tuple) -> tuple:
    """(the '**/' globs, matched anywhere in the absolute path; the others, matched from the repository root)."""
    return tuple(p for p in include if p.startswith("**/")), tuple(p for p in include if not p.startswith("**/"))


_IN_AGENTV = os.sep + ".agentv"


def path_kind(path: str, root: str, include) -> Optional[str]:
    """The kind decided by the path alone, before reading."""
    absolute = deps.absolute(path)
    folder, _, name = absolute.rpartition(os.sep)  # absolute and normalized: no separator at the end
    if folder.endswith(_IN_AGENTV):
        if name in ("targets.yaml", "targets.yml"):
            return TARGETS
        if name in ("config.yaml", "config.yml"):
            return CONFIG
    yaml_file = name.endswith(YAML_SUFFIXES)
    if yaml_file:
        sibling = absolute[:absolute.rindex(".")] + ".jsonl"  # the name has a suffix, so a dot
        deps.note(sibling)
        if is_file(sibling):
            return SIDECAR
    if yaml_file or name.endswith(".jsonl"):
        anywhere, rooted = _split_include(tuple(include))
        if anywhere and glob_match(absolute.lstrip(os.sep), anywhere):
            return EVAL
        if rooted and glob_match(os.path.relpath(absolute, root), rooted):
            return EVAL
    return None


def is_file(path: str) -> bool:
    """``os.path.isfile`` of an absolute, normalized path, answered without asking the system when
    the walk listed its folder this run and saw no such file (the listing holds every non-folder
    entry with a candidate suffix; one it holds may still be a link to something else, so it is
    looked at)."""
    folder, name = os.path.split(path)
    return file_in(folder, name, path)


def file_in(folder: str, name: str, path: str) -> bool:
    """``is_file`` of ``path``, the file ``name`` in ``folder``, when the caller has both at hand."""
    if name.endswith(CANDIDATE_SUFFIXES):
        files = deps.listed_files(folder)
        if files is not None and name.lower() not in files:
            return False
    return os.path.isfile(path)


def has_agentv(folder: str) -> bool:
    """Whether an absolute, normalized folder holds an ``.agentv`` folder (from the walk's listing
    when it has one this run, except where file names ignore case: the listing knows ``.agentv``
    spelled so)."""
    seen = deps.listed(folder) if _CASE_SENSITIVE else None
    return seen[1] if seen is not None else os.path.isdir(os.path.join(folder, ".agentv"))


_CASE_SENSITIVE = sys.platform not in ("darwin", "win32")


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
    """The .gitignore files met on the way down: (folder, compiled spec)."""

    def __init__(self):
        self.specs: list = []

    def load(self, folder: str) -> int:
        path = os.path.join(folder, ".gitignore")
        if not os.path.isfile(path):
            return 0
        memory = LISTINGS.get()
        if memory is not None:
            memory.walk_read(path)
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            return 0
        import pathspec  # only walks that meet a .gitignore pay for it

        self.specs.append((folder, pathspec.GitIgnoreSpec.from_lines(lines)))
        return 1

    def ignored(self, path: str, is_dir: bool) -> bool:
        for folder, spec in self.specs:
            rel = os.path.relpath(path, folder).replace(os.sep, "/")
            if spec.match_file(rel + ("/" if is_dir else "")):
                return True
        return False


# What a run remembers of folder listings between runs (the cache, when it is on): set for the
# run by runner.lint_many, which consumes the walk, so a walk under way sees it.
LISTINGS: ContextVar = ContextVar("evallint_listings", default=None)


def walk(folder: str, exclude=()) -> Iterator[str]:
    """Candidate files below ``folder``, sorted, honouring .gitignore files."""
    ignore = _Ignore()
    root = repo_root(folder)
    # .gitignore files between the repository root and the folder apply too
    chain = []
    current = deps.absolute(folder)
    while True:
        chain.append(current)
        if current == root or os.path.dirname(current) == current:
            break
        current = os.path.dirname(current)
    for parent in reversed(chain[1:]):
        ignore.load(parent)
    yield from _walk(folder, ignore, root, exclude)


def _walk(top: str, ignore: _Ignore, root: str, exclude) -> Iterator[str]:
    """Depth first in name order, without recursion: a folder's listing is an
    iterator on the stack, resumed after each subfolder is done. Paths below a
    normalized ``top`` come out normalized."""
    memory = LISTINGS.get()
    stack = [_listing(top, deps.absolute(top), ignore, None, root, memory)]
    while stack:
        prefix, absolute_prefix, entries, pushed, roots = stack[-1]
        for name, is_dir in entries:
            path = prefix + name
            if ignore.specs and ignore.ignored(path, is_dir):
                continue
            if exclude and glob_match(os.path.relpath(absolute_prefix + name, root) + ("/" if is_dir else ""), exclude):
                continue
            if is_dir:
                stack.append(_listing(path, absolute_prefix + name, ignore, roots, root, memory))
                break
            yield path
        else:
            stack.pop()
            if pushed:
                ignore.specs.pop()


def _listing(folder: str, absolute: str, ignore: _Ignore, parent_roots: Optional[tuple], root: str,
             memory) -> tuple:
    """(folder's prefix for its children's paths, its absolute path's, an iterator over its candidate
    entries as sorted (name, is a folder) pairs, whether it pushed a .gitignore, its roots); what the
    listing shows of .git and .agentv is noted for repository roots. With ``memory`` (the cache), a
    folder whose stat is unchanged since a run listed it is not listed again."""
    signature = known = None
    if memory is not None:
        signature, known = memory.listing(root, absolute)
    if known is None:
        known = scan(folder)
        if memory is not None:
            memory.remember_listing(root, absolute, signature, known)
    (has_gitignore, has_git, has_agentv), entries = known
    deps.remember_folder(absolute, entries, has_agentv)
    pushed = ignore.load(folder) if has_gitignore else 0
    roots = _ROOTS.get(absolute)
    if roots is None:
        roots = _note_roots(absolute, has_git, has_agentv, parent_roots)
    return ("" if folder == os.curdir else _as_prefix(folder)), _as_prefix(absolute), iter(entries), pushed, roots


def scan(folder: str) -> tuple:
    """((holds a .gitignore, holds .git, holds an .agentv folder), its candidate entries: (name, is a
    folder) pairs in name order, the folders the walk may enter and the files it may lint)."""
    try:
        scanned = sorted(os.scandir(folder), key=_name)
    except OSError:
        scanned = []
    entries = []
    has_gitignore = has_git = has_agentv = False
    for entry in scanned:
        name = entry.name
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_dir = False
        if name[0] == ".":
            if name == ".gitignore":
                has_gitignore = True
            elif name == ".git":
                has_git = True
            elif name == ".agentv":
                has_agentv = _is_dir(entry)
        if is_dir:
            if name in SKIP_DIRS or (name[0] == "." and name != ".agentv"):
                continue
        elif not name.endswith(CANDIDATE_SUFFIXES):
            continue
        entries.append((name, is_dir))
    return (has_gitignore, has_git, has_agentv), entries


_name = attrgetter("name")


def _as_prefix(folder: str) -> str:
    """``folder`` ending with one separator, ready to have a name appended."""
    return folder if folder.endswith(os.sep) else folder + os.sep


def _is_dir(entry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def iter_paths(paths: list, config) -> Iterator[tuple]:
    """``expand_paths``, but one folder's files come as the walk finds them (in the
    walk's order), so linting can start while the tree is still being walked. Nothing
    is looked at before the first item is asked for (a run sets up what the walk
    uses, such as the cache's listings, first)."""
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
