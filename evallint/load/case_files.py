"""Which AgentV 4.42.4 suite names a file of tests from its 'tests': a ``.jsonl`` file so named is a file of
external tests, which the runner reads with the suite's rules (one test per line, graded by 'assertions',
'criteria', ... as in a YAML test), not as a JSONL dataset with a sidecar; and the tests of a file so named (a
YAML list of tests too) get the defaults of each suite that names it (``suites_defaults``).

A suite names such a file by a path relative to its own folder (``tests: ./cases.jsonl``, or an item
``file://cases/x.jsonl`` of its list, a glob pattern included: ``globs.py``). The suites looked for are the YAML
files of the file's folder, of the folder above it and of that folder's other subfolders but ``.git`` (a suite in
``evals/`` naming ``../data/cases.jsonl``), never above the repository root, in the current file view (``view.py``:
the working tree, or the git index with ``--staged``). Each folder's suites are read once per run, and only those
whose skim (``yaml_skim``) may name a file of tests are parsed.
``named_by`` and ``names`` tell the same of one suite's text, for the files of tests that a suite changed, staged
or deleted names or named (``run/dependents.py``).

A suite's 'tests' may also name a folder (``tests: ./cases/``): the runner reads one test from each of its
immediate subfolders, from the subfolder's ``case.yaml`` (else ``case.yml``), a YAML mapping whose missing id is
the subfolder's name (``case_file``, ``folder_case``); such a file is a file of one test, found from the folder of
tests as a ``.jsonl`` file is found from its own folder."""
from __future__ import annotations

import os
from typing import Any, Iterator, Optional

from evallint.load import deps, files
from evallint.load.globs import is_glob, matches, static_folder
from evallint.load.paths import inside
from evallint.load.source import Source, decode
from evallint.load.view import current
from evallint.load.yaml12 import parse_yaml
from evallint.load.yaml_skim import skim, skimmed

FILE_PREFIX = "file://"


# what a suite gives each of its tests, its external tests too: input and input files in front, default graders
# after, metadata merged in, its workspace merged under each test's (and what the checks of those defaults compare a
# test with: its execution's target)
DEFAULT_KEYS = ("input", "input_files", "assertions", "assert", "execution", "metadata", "governance", "workspace")
TESTS_SUFFIXES = (".jsonl",) + files.YAML_SUFFIXES
# the file of a folder of tests' subfolder that the runner reads the subfolder's test from, the first that is a file
CASE_FILES = ("case.yaml", "case.yml")
# the keys that show a mapping is a test, of either AgentV version (a test written where the runner does not read it)
TEST_SIGNS = files.DATASET_SIGNS + ("criteria", "expected_output", "assertions", "assert", "turns")
# the subfolder of such a subfolder that is its test's workspace template when the test has no workspace
CASE_WORKSPACE = "workspace"
# how a folder's reference is told from a file's: it ends with a separator
FOLDER_MARK = os.sep


UNREADABLE = object()  # what ``yaml_data`` gives of a file that is missing, cannot be read or does not parse
BLANK = object()  # ... and of one of white space alone (null is a file that holds null, or comments only)


def yaml_data(path: str, root: str, max_bytes: int) -> Any:
    """What the YAML file at ``path`` (absolute) holds, a file a suite names (of tests, or a workspace); else
    ``UNREADABLE`` or ``BLANK``. Read once per run."""
    view = current()
    return deps.memoized(("yaml data", view, path, root, max_bytes), _yaml_data, view, path, root, max_bytes)


def tests_of(path: str, root: Optional[str], max_bytes: int) -> list:
    """The mappings of the file of tests at ``path`` (absolute): a YAML list's, or a ``.jsonl`` file's lines (a
    dataset's cases too); none when it cannot be read as one."""
    if not path.lower().endswith(".jsonl"):
        data = yaml_data(path, root, max_bytes)
        return [item for item in data if isinstance(item, dict)] if isinstance(data, list) else []
    view = current()
    return deps.memoized(("jsonl tests", view, path, root, max_bytes), _jsonl_tests, view, path, root, max_bytes)


def holds_no_test(path: str, root: Optional[str], max_bytes: int) -> bool:
    """Whether the file of tests at ``path`` (absolute) holds nothing the runner reads a test from: a YAML file of
    white space or an empty list, or a ``.jsonl`` file of blank lines (each trimmed as the runner trims it)."""
    if not path.lower().endswith(".jsonl"):
        data = yaml_data(path, root, max_bytes)
        return data is BLANK or data == []
    from evallint.load.numbers import js_trim

    source = current().text_of(path, root, max_bytes)
    return source is not None and not js_trim(source.text)


def _jsonl_tests(view, path: str, root: Optional[str], max_bytes: int) -> list:
    from evallint.load.jsonl import parse_jsonl

    deps.note(path)
    source = view.text_of(path, root, max_bytes)
    return parse_jsonl(source.text).cases if source is not None else []  # each a JSON object


def _yaml_data(view, path: str, root: str, max_bytes: int) -> Any:
    deps.note(path)
    source = view.text_of(path, root, max_bytes)
    parsed = parse_yaml(source.text) if source is not None else None
    if parsed is None or not parsed.ok:
        return UNREADABLE
    return BLANK if parsed.data is None and not source.text.strip() else parsed.data


def folder_tests(folder: str, root: str, max_bytes: int) -> tuple:
    """(each test of the folder of tests ``folder``, its case file), as the runner reads them (case-file-loader.ts
    loadCasesFromDirectory): a subfolder's case file, in the order of the subfolders' names, a mapping, whose id
    is the subfolder's name when it has none (or a null one); a subfolder without one is skipped. Worked out once
    per run: each of its case files asks."""
    view = current()
    return deps.memoized(("folder tests", view, folder, root, max_bytes), _folder_tests, folder, root, max_bytes)


def _folder_tests(folder: str, root: str, max_bytes: int) -> tuple:
    """Each case file read without a memo entry of its own: thousands of them would crowd out the folder's."""
    view, out = current(), []
    for name in sorted(_subfolders(folder)):
        path = case_file(os.path.join(folder, name))
        data = _yaml_data(view, path, root, max_bytes) if path is not None else None
        if isinstance(data, dict):
            out.append((case_test(data, os.path.join(folder, name)), path))
    return tuple(out)


def _subfolders(folder: str) -> frozenset:
    """The names of the subfolders of ``folder`` in the current file view (a link to a folder is none), listed once
    per run."""
    view = current()

    def listed() -> frozenset:
        deps.note(folder)
        return frozenset(view.subfolders(folder))

    return deps.memoized(("subfolders", view, folder), listed)


def case_test(data: dict, subfolder: str) -> dict:
    """The test a folder of tests' ``subfolder`` gives from its case file's ``data``: named after the subfolder when
    it has no id (or a null one), as the loader names it (loadCasesFromDirectory)."""
    return {**data, "id": os.path.basename(subfolder)} if data.get("id") is None else data


def naming_suite(path: str, root: str, max_bytes: int) -> Optional[str]:
    """The first suite (absolute path, in path order) whose 'tests' name the file at ``path``; None when none of
    the folders looked at holds one."""
    found = next(_naming(path, root, max_bytes), None)
    return found[0] if found else None


def suites_defaults(path: str, root: str, max_bytes: int) -> list:
    """(suite, the settings of ``DEFAULT_KEYS`` it gives each test) for each suite naming the file at ``path``, in
    path order, each set of settings once (with the first suite giving it): the runner loads the file once for each
    suite that names it, with its settings."""
    found: list = []
    for suite, defaults, _ in _naming(path, root, max_bytes):
        if all(defaults != seen for _, seen in found):
            found.append((suite, defaults))
    return found


def suites_by_folder(path: str, root: str, max_bytes: int) -> list:
    """The suites naming the file of tests at ``path``, the first of each folder, in path order: the runner looks
    up the paths that a test names (prompts, scripts, files, templates) from its suite's folder, not from the file
    of tests' own, so the file's references are checked from each of these suites' folders."""
    found: dict = {}
    for suite, _, _ in _naming(path, root, max_bytes):
        found.setdefault(os.path.dirname(suite), suite)
    return list(found.values())


def folder_case(path: str, root: str, max_bytes: int) -> bool:
    """Whether the file at ``path`` is the case file of a subfolder of a folder of tests that a suite names (as
    opposed to a file of tests named itself)."""
    if os.path.basename(path) not in CASE_FILES:
        return False
    found = next(_naming(path, root, max_bytes), None)
    return found is not None and found[2]


def inside_folder_of_tests(path: str, root: str, max_bytes: int) -> bool:
    """Whether the file at ``path`` lies below a folder of tests that a suite names, at any depth: the runner reads
    of such a folder only each subfolder's case file (``folder_case``), and nothing else there is an eval file (a
    note, a case file it does not read, a file of a case's workspace template)."""
    root, absolute = os.path.abspath(root), os.path.normpath(os.path.abspath(path))
    folder = os.path.dirname(absolute)
    while inside(folder, root):
        named = folder + FOLDER_MARK
        if next(_named_by_folders(folder, root, max_bytes, match=lambda _, reference: reference == named), None) or \
                _names_itself(folder, absolute, root, max_bytes):
            return True
        if folder == root:
            return False
        folder = os.path.dirname(folder)
    return False


def _names_itself(folder: str, absolute: str, root: str, max_bytes: int) -> bool:
    """Whether a suite of ``folder`` other than the file at ``absolute`` names ``folder`` itself as its folder of
    tests ('tests: ./')."""
    view = current()
    return any(suite != absolute and folder + FOLDER_MARK in named for suite, named, _ in
               deps.memoized(("suites", view, folder, root, max_bytes), _suites_in, view, folder, root, max_bytes))


def case_file(folder: str, isfile=None) -> Optional[str]:
    """The file the runner reads a folder of tests' subfolder ``folder`` from: the first of ``CASE_FILES`` that
    is a file (a link to one counts; ``isfile`` asks, by default the current file view), or None (the runner
    skips the subfolder with a warning)."""
    isfile = isfile or current().isfile
    for name in CASE_FILES:
        deps.note(os.path.join(folder, name))
        if isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None


def _naming(path: str, root: str, max_bytes: int) -> Iterator[tuple]:
    """(a suite naming the file at ``path``, the settings it gives each test, whether it names the file as the
    case file of a folder of tests' subfolder) for each such suite, in path order. The suites of a case file are
    looked for from its folder of tests, those of another file from its own folder."""
    absolute, root = os.path.normpath(os.path.abspath(path)), os.path.abspath(root)
    if os.path.basename(absolute) in CASE_FILES and case_file(os.path.dirname(absolute)) == absolute:
        found = list(_named_by_folders(os.path.dirname(absolute), root, max_bytes, folder_case=True))
        if found:
            yield from found
            return
    yield from _named_by_folders(absolute, root, max_bytes)


def _named_by_folders(absolute: str, root: str, max_bytes: int, folder_case: bool = False,
                      match=None) -> Iterator[tuple]:
    """The suites looked for from the folder of ``absolute`` (a file, or a case file's subfolder) that name it, in
    the current file view (``match``: how a reference names it, by default as a file or a case file's subfolder)."""
    if not inside(os.path.dirname(absolute), root):  # a suite above the root is none of the repository's
        return
    view = current()
    match = match or (_is_case if folder_case else _matches)
    for suite, named, defaults in _suites_around(view, os.path.dirname(absolute), root, max_bytes):
        if any(match(absolute, reference) for reference in named):
            yield suite, defaults, folder_case


def _suites_around(view, folder: str, root: str, max_bytes: int) -> list:
    """``_suites_in`` the folder (a ``.jsonl`` file's), then, below the root, the folder above and the folders below
    that one that discovery walks, ``files.SUITES_BELOW`` levels down (a suite in 'evals/areas/smoke/' names
    '../../datasets/qa.jsonl'); worked out once per run for the folder: one answer, however many folders are looked
    in; each folder's, once per run for a folder that holds a YAML file (a memo entry for each folder of a large
    tree would crowd the others out); those of the folders below the folder above, once per run for that folder
    (its subfolders, a folder of thousands of tests, each ask)."""
    return deps.memoized(("suites around", view, folder, root, max_bytes), _around, view, folder, root, max_bytes)


def _around(view, folder: str, root: str, max_bytes: int) -> list:
    parent = _above(folder, root)
    if parent is None:
        return _suites_of(view, folder, root, max_bytes)
    below = deps.memoized(("suites below", view, parent, root, max_bytes), lambda: tuple(
        (looked, found) for looked in files.folders_below(view, parent)
        for found in [_suites_of(view, looked, root, max_bytes)] if found))
    return _suites_of(view, folder, root, max_bytes) + _suites_of(view, parent, root, max_bytes) + [
        suite for looked, found in below if looked != folder for suite in found]


def _suites_of(view, folder: str, root: str, max_bytes: int) -> list:
    deps.note(folder)
    if not any(name.endswith(files.YAML_SUFFIXES) for name in view.files_in(folder)):
        return []
    return deps.memoized(("suites", view, folder, root, max_bytes), _suites_in, view, folder, root, max_bytes)


def _above(folder: str, root: str) -> Optional[str]:
    """The folder above a ``.jsonl`` file's ``folder``, when its suites are looked for there too: below the root."""
    parent = os.path.dirname(folder)
    if folder == root or not inside(folder, root) or parent == folder:
        return None
    return parent


def names(suite: str, named: tuple, path: str, root: str) -> bool:
    """Whether the suite at ``suite``, whose 'tests' name ``named`` (``named_by``), names the file of tests at
    ``path`` (absolute paths) where ``naming_suite`` looks for it: from a folder ``_suites_around`` looks in; a case
    file as its subfolder of a folder of tests."""
    subfolder = os.path.dirname(path)
    if os.path.basename(path) in CASE_FILES and _looked_in(suite, subfolder, root) and \
            any(_is_case(subfolder, reference) for reference in named):
        return True
    return _looked_in(suite, path, root) and any(_matches(path, reference) for reference in named)


def _looked_in(suite: str, path: str, root: str) -> bool:
    """Whether ``suite`` lies in a folder that ``_suites_around`` looks in for the file (or subfolder) at ``path``."""
    folder, own = os.path.dirname(suite), os.path.dirname(path)
    parent = _above(own, root)
    return folder == own or (parent is not None and files.walked_to(folder, parent))


def _suites_in(view, folder: str, root: str, max_bytes: int) -> list:
    """[(suite, the absolute paths or glob patterns its 'tests' name, its ``DEFAULT_KEYS``)] of the AgentV 4.42.4
    suites in ``folder`` of ``view``."""
    deps.note(folder)
    found = []
    for name in view.files_in(folder):
        if not name.endswith(files.YAML_SUFFIXES):
            continue
        suite = os.path.join(folder, name)
        deps.note(suite)
        source = view.source(suite, root, max_bytes)
        # a text without the key's letters (nor an escape, which may spell them) names no tests: only one that may is
        # skimmed, once per run, so that a folder of many case files fills no memo
        if isinstance(source, Source) and (files.LATER_CASES_KEY in source.text or "\\" in source.text) and \
                _may_name_tests(skimmed(suite, root, max_bytes, source.text)):
            read = _read_suite(source.text, folder)
            found += [(suite, *read)] if read is not None else []
    return found


def _may_name_tests(data: Any) -> bool:
    """Whether a suite whose skim (``yaml_skim``) is ``data`` may name files of tests (``tests_named``): it is of
    the later format, and its 'tests' is a text or a list holding a ``file://`` text. What the skim says no to, the
    parse does too: the skim reads every scalar as its text, and of a key written twice the first, as the parse does;
    a text the composer refuses (None: an anchor defined twice, which the parse takes) is left to the parse."""
    if data is None:
        return True
    if not files.is_later_format(data):
        return False
    tests = data[files.LATER_CASES_KEY]
    return isinstance(tests, str) or isinstance(tests, list) and any(
        isinstance(item, str) and item.startswith(FILE_PREFIX) for item in tests)


def named_by(suite: str, data: bytes) -> tuple:
    """The paths of files of tests (absolute, or glob patterns) that the suite at ``suite`` (absolute), holding
    ``data``, names from its 'tests'; () when it names none or is no AgentV 4.42.4 suite."""
    source = decode(data)
    read = _read_suite(source.text, os.path.dirname(suite)) if isinstance(source, Source) and \
        _may_name_tests(skim(source.text)) else None
    return read[0] if read else ()


def _read_suite(text: str, folder: str) -> Optional[tuple]:
    """(the files of tests that a suite in ``folder`` holding ``text`` names, the settings it gives each of its
    tests: ``DEFAULT_KEYS``), or None when it names none or is no AgentV 4.42.4 suite. Its callers parse only a
    suite whose skim may name some (``_may_name_tests``)."""
    parsed = parse_yaml(text)
    if parsed.ok and files.is_later_format(parsed.data):
        named = tests_named(parsed.data[files.LATER_CASES_KEY], folder)
        if named:
            return named, {key: value for key, value in parsed.data.items() if key in DEFAULT_KEYS}
    return None


def tests_named(tests, folder: str) -> tuple:
    """The paths of files of tests (absolute, or glob patterns) that a suite's 'tests' name: a path, or the
    ``file://`` items of its list (a path given alone is read as written: no glob); a path given alone that is a
    folder is the folder's, ending with ``FOLDER_MARK``."""
    if isinstance(tests, str):
        path = os.path.normpath(os.path.join(folder, tests.strip()))
        deps.note(path)
        if current().isdir(path):
            return (path.rstrip(os.sep) + FOLDER_MARK,)
        references = [] if is_glob(tests) else [tests.strip()]
    elif isinstance(tests, list):
        references = [item[len(FILE_PREFIX):].strip() for item in tests
                      if isinstance(item, str) and item.startswith(FILE_PREFIX)]
    else:
        references = []
    return tuple(os.path.normpath(os.path.join(folder, reference)) for reference in references
                 if reference.endswith(TESTS_SUFFIXES) or is_glob(reference))


def pattern_files(pattern: str, root: str) -> Optional[tuple]:
    """The files the absolute glob ``pattern`` matches in the current file view, in path order; None for one whose
    folder lies outside the repository at ``root``, which is not walked. Worked out once per run: the suite's
    checks, its references and the files that ask what names them each ask."""
    view = current()
    return deps.memoized(("pattern files", view, pattern, root), _pattern_files, view, pattern, root)


def _pattern_files(view, pattern: str, root: str) -> Optional[tuple]:
    folder = static_folder(pattern)
    if not inside(folder, root):
        return None
    return tuple(sorted(path for path in view.files_below(folder) if matches(path, pattern)))


def _is_case(subfolder: str, reference: str) -> bool:
    """Whether ``subfolder`` is an immediate subfolder of the folder of tests ``reference`` names, in the current
    file view (a link to a folder is none)."""
    folder = reference[:-len(FOLDER_MARK)]
    return reference.endswith(FOLDER_MARK) and os.path.dirname(subfolder) == folder \
        and os.path.basename(subfolder) in _subfolders(folder)


def _matches(path: str, reference: str) -> bool:
    """Whether ``path`` is the file ``reference`` names, or one its glob pattern matches (a folder's reference
    names no file itself)."""
    if reference.endswith(FOLDER_MARK):
        return False
    return matches(path, reference) if is_glob(reference) else path == reference
