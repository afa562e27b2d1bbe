"""Which YAML files an eval suite uses as something else than an eval file: data it sends (input files, file and
image blocks), a prompt file, a file a command names, a working folder, a workspace file, the folder of a workspace
template or static workspace, an assertion template it includes; and what a workspace file or template so named
names in turn. Such a file, or a file below such a folder, is no eval file (``recognize``): the runner reads it for the
suite that names it, which is where what it holds is checked. A ``.jsonl`` file so named is no dataset either.

A suite names a path with a string under one of ``PATH_KEYS`` (any word of a command's), a ``file://`` prefix taken
off, looked up from the suite's folder and each folder above it up to the root, as the runner looks paths up; a
folder that holds the suite itself is never so named. So do the tests of its files of tests (those a ``file://``
pattern matches too) and the case files of its folders of tests, their paths looked up from their own folder and
from the suite's. The suites looked for are
the YAML files holding 'tests' (a list or a path) or 'evalcases' in the file's folder and each folder above it, in
the current file view (``view.py``), and in each subfolder of a folder above it and each of theirs (a suite in
'evals/areas/smoke/' names '../../data/x.yaml'; not below a folder with more than ``MANY_FOLDERS`` such folders, a
tree of many projects, where each file's result would depend on every one's listing), named as the runner's
discovery names a suite (``SUITE_NAMES``: ``*.eval.yaml``, ``eval.yaml``, in any case; or as the project's
``eval_patterns`` do), so that a folder of many data files is not read to find them; the folders above a
submodule's root include those of the repository it belongs to. Each suite is read for its strings alone
(``yaml_skim``). What the suites of a folder name is worked out once per run (``_named_in``), and a result depends
on those suites, the folders listed, the config files that name suites and the files the suites so name."""
from __future__ import annotations

import os
from typing import Any, Iterator, NamedTuple, Optional

from evallint.load import deps, eval_patterns
from evallint.load.case_files import (
    FILE_PREFIX, FOLDER_MARK, TESTS_SUFFIXES, folder_tests, pattern_files, tests_named, tests_of,
)
from evallint.load.files import AGENTV_FOLDER, YAML_SUFFIXES, folders_below, holds_suite, parent_roots, walked
from evallint.load.globs import is_glob
from evallint.load.paths import inside
from evallint.load.view import current
from evallint.load.yaml_skim import skimmed

# the keys whose strings the runner looks up as paths (a 'value' too, in a file or image block)
PATH_KEYS = frozenset({"input_files", "prompt", "command", "script", "cwd", "workspace", "template", "path",
                       "include"})
TEMPLATE_KEYS = frozenset({"template"})  # a workspace's template folder
BLOCK_KINDS = ("file", "image")
# the names of the suites looked for (config-loader.ts DEFAULT_EVAL_PATTERNS), lower-cased
SUITE_NAMES = tuple(f"{stem}{suffix}" for stem in (".eval", "eval") for suffix in YAML_SUFFIXES)
LONGEST = 4096  # a string longer than this names no path
MANY_FILES = 64  # a folder of more files has its suites remembered for the run: each of its files asks
MANY_FOLDERS = 256  # folders below a folder above the file that are looked in for suites, at most


class Named(NamedTuple):
    """What the suites of a folder name: every path, and the workspace templates among them."""

    paths: frozenset
    templates: frozenset


def named_as_data(path: str, root: str, max_bytes: int, directly: bool = False, template: bool = False) -> bool:
    """Whether a suite in the folder of the file at ``path``, a folder above it or a folder below one of those above
    it names the file, or a folder it lies in (not ``directly``: the file itself), as data (see the module's
    docstring); with ``template``, a folder it lies in as a workspace template."""
    absolute, root = os.path.normpath(os.path.abspath(path)), _outermost(os.path.abspath(root))
    chain = _upward(absolute, root)
    asked = chain[:1] if directly else chain
    def among(named: Named) -> frozenset:
        return named.templates if template else named.paths

    return any(any(one in among(_named_in(folder, root, max_bytes)) for one in asked) for folder in chain[1:]) or any(
        any(one in among(_named_below(folder, root, max_bytes)) for one in asked) for folder in chain[2:])


def _outermost(root: str) -> str:
    """The repository that a submodule at ``root`` (its '.git' is a file) belongs to, and so on: a workspace template
    that is a submodule is named by a suite of the repository around it. Not the home folder or a folder above it
    (a repository of the user's settings); not for a repository merely lying in another (a copy, a corpus), whose
    files are its own."""
    home = os.path.expanduser("~")
    outer = parent_roots(root)[0]
    while os.path.isfile(os.path.join(root, ".git")) and outer is not None and not inside(home, outer):
        root, outer = outer, parent_roots(outer)[0]
    return root


def _named_below(folder: str, root: str, max_bytes: int) -> Named:
    """What the suites of the folders below ``folder`` that discovery walks name, ``files.SUITES_BELOW`` levels down
    (a sibling's suite names '../data/x.yaml'), worked out once per run: one answer, however many folders. Nothing
    when there are more than ``MANY_FOLDERS`` of them (a tree of many projects): each file's result would depend on
    the listing of every one."""
    view = current()
    return deps.memoized(("named below", view, folder, root, max_bytes), _read_below, view, folder, root, max_bytes)


def _read_below(view, folder: str, root: str, max_bytes: int) -> Named:
    below = folders_below(view, folder, limit=MANY_FOLDERS)
    return NOTHING if below is None else _union([_named_in(one, root, max_bytes) for one in below])


NOTHING = Named(frozenset(), frozenset())


def _union(found: list) -> Named:
    return Named(frozenset().union(*(one.paths for one in found)), frozenset().union(*(one.templates for one in found)))


def _upward(path: str, root: str) -> list:
    """``path``, then each folder above it up to ``root`` (none above a path outside it)."""
    found = [path]
    while found[-1] != root and inside(found[-1], root):
        found.append(os.path.dirname(found[-1]))
    return found


def _named_in(folder: str, root: str, max_bytes: int) -> Named:
    """The paths the suites of ``folder`` name as data, and those that the YAML files they so name name in turn;
    worked out once per run for a folder that holds a suite (a memo entry for each folder of a large tree would
    crowd the others out)."""
    view = current()
    suites, _ = deps.memoized_when(("suites named in", view, folder, root, max_bytes), lambda found: found[1] > MANY_FILES,
                                   _suites_named_in, view, folder, root, max_bytes)
    if not suites:
        return NOTHING
    return deps.memoized(("named as data", view, folder, root, max_bytes), _read_named, view, suites, root, max_bytes)


def _suites_named_in(view, folder: str, root: str, max_bytes: int) -> tuple:
    """(the suites of ``folder``, named as discovery names them; how many files it holds)."""
    deps.note(folder)
    names = view.files_in(folder)
    return suites_among(folder, names, root, max_bytes), len(names)


def _read_named(view, suites: list, root: str, max_bytes: int) -> Named:
    named: list = []
    for suite in suites:
        data = skimmed(suite, root, max_bytes)
        if not holds_suite(data):
            continue
        read = [_paths_and_templates(data, suite, root)] + [
            _paths_and_templates(tests, base, root) for namer, tests in _tests_elsewhere(data, suite, root, max_bytes)
            for base in (namer, suite)]
        found = set().union(*(paths for paths, _ in read))
        for path in [path for path in found if path.endswith(YAML_SUFFIXES) and view.isfile(path)]:
            held = skimmed(path, root, max_bytes)
            if isinstance(held, dict):
                read.append(_paths_and_templates(held, path, root))  # a workspace file's template, a template's include
        named.append(Named(frozenset().union(*(paths for paths, _ in read)),
                           frozenset().union(*(templates for _, templates in read))))
    return _union(named)


def _tests_elsewhere(data: dict, suite: str, root: str, max_bytes: int) -> Iterator[tuple]:
    """(the file, the tests it holds) of each file of tests the suite at ``suite`` holding ``data`` names (each a
    glob pattern matches, of a suffix the runner reads tests from), and of each case file of a folder of tests it
    names."""
    for named in tests_named(data.get("tests"), os.path.dirname(suite)):
        if named.endswith(FOLDER_MARK):
            yield from ((case, test) for test, case in folder_tests(named[:-len(FOLDER_MARK)], root, max_bytes))
        elif is_glob(named):
            yield from ((path, tests_of(path, root, max_bytes)) for path in pattern_files(named, root) or ()
                        if path.lower().endswith(TESTS_SUFFIXES))
        else:
            yield named, tests_of(named, root, max_bytes)


def suite_at_or_below(folder: str, root: str, max_bytes: int) -> bool:
    """Whether a suite lies in ``folder`` or a folder below it that discovery walks: a file named as the runner's
    discovery names one, or another YAML file holding 'tests' or 'evalcases' (the runner runs any file it is given);
    worked out once per folder per run."""
    view = current()
    return deps.memoized(("suite at or below", view, folder, root, max_bytes), _suite_at_or_below, view, folder,
                         root, max_bytes)


def _suite_at_or_below(view, folder: str, root: str, max_bytes: int) -> bool:
    """A file named as a suite is looked for in the whole tree first, by the folders' listings alone; the other YAML
    files (not those of an '.agentv' folder, which holds settings) are read only when there is none."""
    folders, stack = [], [folder]
    while stack:
        here = stack.pop()
        deps.note(here)
        names = view.files_in(here)
        if suites_among(here, names, root, max_bytes):
            return True
        folders.append((here, names))
        stack.extend(os.path.join(here, name) for name in view.subfolders(here) if walked(name))
    return any(holds_suite(skimmed(os.path.join(here, name), root, max_bytes)) for here, names in folders
               if os.path.basename(here) != AGENTV_FOLDER for name in names if name.endswith(YAML_SUFFIXES))


def suite_named(path: str, root: Optional[str], max_bytes: int) -> bool:
    """Whether the file at ``path`` is named as the runner's discovery names a suite (``suites_among``)."""
    path = os.path.abspath(path)
    return bool(suites_among(os.path.dirname(path), [os.path.basename(path)], root, max_bytes))


def suites_among(folder: str, names: list, root: Optional[str], max_bytes: int) -> list:
    """The paths of the files of ``folder`` (absolute, normalized) among ``names`` that are named as the runner's
    discovery names a suite: as the default patterns name one (``SUITE_NAMES``), or, below ``root``, as their
    project's ``eval_patterns`` do (``eval_patterns``)."""
    patterns = eval_patterns.configured(os.path.normpath(folder), os.path.abspath(root), max_bytes) if root else ()
    return [os.path.join(folder, name) for name in names if _default_suite_name(name.lower()) or patterns and
            eval_patterns.matched(os.path.join(folder, name), patterns)]


def _default_suite_name(name: str) -> bool:
    return name.endswith(SUITE_NAMES[:2]) or name in SUITE_NAMES[2:]


def paths_named(data: Any, namer: str, root: str) -> set:
    """The paths the strings of ``data`` (the file at ``namer``) name, from its folder and each folder above it up
    to ``root``, but a folder that holds ``namer``."""
    return _paths_and_templates(data, namer, root)[0]


def _paths_and_templates(data: Any, namer: str, root: str) -> tuple:
    """(``paths_named``, those of them named under ``TEMPLATE_KEYS``), from one reading of ``data``."""
    folder = os.path.dirname(namer)
    bases = _upward(folder, root)
    found, templates = set(), set()
    for key, word in _path_words(data):
        for base in bases:
            named = os.path.normpath(os.path.join(base, word))
            if not inside(folder, named):
                found.add(named)
                if key in TEMPLATE_KEYS:
                    templates.add(named)
    return found, templates


def _path_words(data: Any) -> Iterator[tuple]:
    """(key, string) for the strings of ``data`` under ``PATH_KEYS`` (each word of one, for a command) and the
    'value' of a file or image block, without a ``file://`` prefix."""
    stack, seen = [(None, data)], set()
    while stack:
        key, value = stack.pop()
        if isinstance(value, (dict, list)):
            if (key, id(value)) in seen:
                continue  # an alias's node, read once under each key (a recursive one, once)
            seen.add((key, id(value)))
        if isinstance(value, dict):
            if value.get("type") in BLOCK_KINDS and isinstance(value.get("value"), str):
                stack.append(("path", value["value"]))
            stack.extend((k, v) for k, v in value.items() if k in PATH_KEYS or isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend((key, item) for item in value)
        elif key in PATH_KEYS and isinstance(value, str) and 0 < len(value) <= LONGEST:
            for word in value.split() if key in ("command", "script") else [value.strip()]:
                yield key, word[len(FILE_PREFIX):] if word.startswith(FILE_PREFIX) else word
