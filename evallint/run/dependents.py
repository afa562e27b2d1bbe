"""The eval files that use the files a run is given. pre-commit passes a hook only the files a commit
changes, and ``--staged`` lints only those; but a change to a file that eval files use (a targets file, a
dataset's sidecar, a dataset, a suite that names files of tests, an assertion template, a prompt, a
script, a file block's file), or its deletion, changes their findings too. So when the files given (or staged)
include such a file, or name one that is gone, the eval files of its repository that use it are linted as well,
and reported like any other.

A sidecar's user is its dataset, a dataset's its sidecar (which takes the dataset's AgentV version from its
lines), and a suite's users are the files of tests it names (``.jsonl`` or YAML, or a folder's case files), or
named in ``HEAD`` (``named_users``):
their paths and the suite's texts tell. Which other files an eval file looks at is what its lint notes
(``deps.note``: every place a reference or the targets file is looked for, found or not). The result cache keeps
that for each file it holds a row for (the file unchanged since); any other eval file of the repository is linted
to learn it, when it can use the file at all: its text names the file (or holds an escape that may spell its
name; a template of ``.agentv/templates/`` is named by its name alone), or it lies in the folders a targets file
serves. The rest of the tree is never linted. A suite whose release differs from ``HEAD``'s is used in turn by the
targets and config files nearest above it whose lint looks at it to take their release (``format/served.py``)."""
from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Callable, Optional

from evallint.config import Config
from evallint.load import deps, files
from evallint.run.discovery import CANDIDATE_SUFFIXES, excluded, is_candidate, walk
from evallint.run.served_users import changed_release, decoded, served_users, told_kind

BATCH = 512  # eval files whose cache rows are asked for at a time: memory stays flat
# a text with such an escape may name a file without spelling its name
ESCAPE = re.compile(files.ANY_CHARACTER_ESCAPE.encode())
# a suite's list of tests at its top level, which no assertion template has
SUITE_TOP = re.compile(r"^(tests|evalcases)[ \t]*:", re.MULTILINE)


def may_be_used(path: str, config: Config) -> bool:
    """Whether eval files may use the file at ``path`` (given, staged or gone): a targets file (in any
    folder: the runner uses the nearest), a dataset's sidecar, a suite that names files of tests
    (any YAML file but a config file: one that names none may have named some before it changed or went), a
    ``.jsonl`` file (a dataset's sidecar reads its lines; a suite may name it as its file of tests), or any file
    that is not YAML or JSONL (a prompt, a script, a file block's file). A config file changes no eval file's
    findings but through which files are suites (its ``eval_patterns``), and so which are the data a suite names,
    which is not followed, as a suite that starts or stops naming a file as data is not."""
    name = os.path.basename(path)
    if not name.endswith(CANDIDATE_SUFFIXES) or name.endswith(".jsonl"):
        return True
    return name.endswith(files.YAML_SUFFIXES) and \
        not files.PathKind(path, config.root_of(path), config.include).gives(files.CONFIG)


def _told_by_text(path: str, read: Callable, config: Config) -> bool:
    """Whether ``named_users`` tells the users of the used file at ``path``: a YAML file that is no targets file
    and no assertion template (the suites that include a template look at it: their lint tells)."""
    from evallint.rules.targets_file import NAMES

    return path.endswith(files.YAML_SUFFIXES) and os.path.basename(path) not in NAMES and \
        not _is_template(path, read, config)


def _is_template(path: str, read: Callable, config: Config) -> bool:
    """Whether the YAML file at ``path`` is an assertion template: by its path, or by what it holds now
    (``read``), as the lint tells its kind; once per run (both ``may_have_users`` and ``_users`` ask)."""
    place = files.PathKind(path, config.root_of(path), config.include)
    if place.gives(files.TEMPLATE):
        return True
    from evallint.load.view import current

    return deps.memoized(("holds a template", current(), path), _holds_template, path, place, read, config)


def _holds_template(path: str, place: files.PathKind, read: Callable, config: Config) -> bool:
    """Whether the file at ``path``, which its path gives ``place``, is told an assertion template by what it
    holds. A text with a top-level 'tests' or 'evalcases' is none: suites are not parsed to know."""
    source = decoded(read(path))
    if source is None or SUITE_TOP.search(source.text) or \
            not any(key in source.text for key in files.TEMPLATE_KEYS):
        return False
    return told_kind(path, source, place, config) == files.TEMPLATE


def may_have_users(path: str, read: Callable, head: Callable, config: Config) -> bool:
    """Whether eval files may use ``path``, which ``may_be_used`` (``read``, ``head``: its bytes now and in
    ``HEAD``): a YAML file whose users its text tells
    (``_told_by_text``) has some only as a sidecar or as a suite that names files of tests now or in
    ``HEAD``, and a ``.jsonl`` file only when it has a sidecar or is gone (the suites that named it look for
    it), so that no other YAML or JSONL file given sends the run through the repository for its users (the walk
    of a checkout; the index's listing, which ``--staged`` reads, is at hand)."""
    from evallint.load import case_files

    if path.endswith(".jsonl"):
        from evallint.load.view import current

        return files.has_sidecar(path) or not current().lexists(path)
    if not _told_by_text(path, read, config) or \
            files.PathKind(path, config.root_of(path), config.include).gives(files.SIDECAR):
        return True
    texts = (lambda: read(path), lambda: head(path))  # the last commit's asked for only when needed
    return any(data is not None and case_files.named_by(path, data) for data in (text() for text in texts))


def named_users(candidates: list, used: set, texts: Callable, root_of: Callable) -> dict:
    """{candidate: the ``used`` YAML and ``.jsonl`` files it uses, sorted} for the ``candidates`` that use any: a
    dataset and its sidecar (the YAML file of its name) use each other, and a file of tests (a ``.jsonl`` or YAML
    file, or the case file of a folder of tests' subfolder) uses each suite that
    names it from its 'tests' (``case_files.names``) now or in ``HEAD``, so that a suite that starts naming it,
    stops naming it or goes brings it along. ``texts(suite)``: the suite's bytes now and in ``HEAD``, each None
    when it has none."""
    from evallint.load import case_files
    from evallint.load.case_files import CASE_FILES

    def of_tests(path: str) -> bool:
        return path.endswith(case_files.TESTS_SUFFIXES) or os.path.basename(path) in CASE_FILES

    stems: dict = {}
    for path in used:
        stems.setdefault(os.path.splitext(path)[0], []).append(path)
    # the suites' texts are read only when a candidate is a file of tests, which they may name
    named = _files_of_tests(used, texts) if any(of_tests(path) for path in candidates) else {}
    found = {}
    for path in candidates:
        dataset = path.endswith(".jsonl")
        hit = {other for other in stems.get(os.path.splitext(path)[0], ()) if other.endswith(".jsonl") != dataset}
        if of_tests(path):
            hit.update(suite for suite, references in named.items()
                       if case_files.names(suite, references, path, root_of(path)))
        if hit:
            found[path] = sorted(hit)
    return found


def _files_of_tests(used: set, texts: Callable) -> dict:
    """{suite: the files of tests it names now or in ``HEAD``} of the ``used`` YAML files that name any."""
    from evallint.load import case_files

    named = {}
    for suite in used:
        if suite.endswith(files.YAML_SUFFIXES):
            references = {reference for data in texts(suite) if data is not None
                          for reference in case_files.named_by(suite, data)}
            if references:
                named[suite] = tuple(sorted(references))
    return named


class _Reach:
    """Which eval files can look at any of the ``used`` files (absolute paths): one that lies in the folders
    a targets file serves (its own folder's, or the one above its ``.agentv``), or one whose text names a used
    file (or holds an escape, which may spell its name)."""

    def __init__(self, used: set):
        from evallint.rules.targets_file import NAMES

        self.served = []  # the folders that a targets file serves, each ending with a separator
        names = set()
        for path in used:
            folder, name = os.path.split(path)
            if name in NAMES:
                served = os.path.dirname(folder) if os.path.basename(folder) == ".agentv" else folder
                self.served.append(served.rstrip(os.sep) + os.sep)
            else:
                names.add(name.encode("utf-8", "surrogateescape"))
                if files.is_template(path):  # 'include: NAME' names the template without its suffix
                    names.add(os.path.splitext(name)[0].encode("utf-8", "surrogateescape"))
        self.named = re.compile(b"|".join(re.escape(n) for n in sorted(names))) if names else None

    def reaches(self, path: str, data: bytes) -> bool:
        """Whether the eval file at ``path``, holding ``data``, can look at a used file."""
        if any(path.startswith(folder) for folder in self.served):
            return True
        return self.named is not None and (self.named.search(data) is not None or ESCAPE.search(data) is not None)


def dependents(candidates: list, used: set, read: Callable, looked_at: Callable,
               known: Optional[Callable] = None) -> dict:
    """{candidate: the ``used`` paths it looks at, sorted} for the ``candidates`` (absolute paths of eval
    files) that look at any. ``known(paths)``: what each looked at by the cache's rows (None: no row);
    for the others, ``read(path)`` gives the bytes (None: unreadable), and ``looked_at(path, data)`` lints
    them and gives the paths the lint noted, when they can look at a used file at all (``_Reach``)."""
    reach = _Reach(used)
    found = {}
    for start in range(0, len(candidates), BATCH):
        batch = candidates[start:start + BATCH]
        rows = known(batch) if known is not None else [None] * len(batch)
        for path, noted in zip(batch, rows):
            if noted is None:
                data = read(path)
                if data is None or not reach.reaches(path, data):
                    continue
                noted = looked_at(path, data)
            noted = set(noted)  # a folder noted absent (a new '.agentv') was looked in for the files below it
            hit = {path for path in used if path in noted or os.path.dirname(path) in noted}
            if hit:
                found[path] = sorted(hit)
    return found


def _users(candidates: list, used: set, read: Callable, looked_at: Callable, known: Optional[Callable],
           config: Config) -> dict:
    """{candidate: the ``used`` paths it uses, sorted}: ``named_users`` of the YAML files it tells of (their
    texts now as ``read`` reads them) and of the ``.jsonl`` files, ``dependents`` of the others and of a ``.jsonl``
    file that is gone from the current file view (the suites that named it look for it)."""
    from evallint.load.view import current

    told = {path for path in used if _told_by_text(path, read, config) or path.endswith(".jsonl")}
    found = named_users(candidates, told, lambda suite: (read(suite), _head(suite, config)), config.root_of)
    looked_for = (used - told) | {path for path in told if path.endswith(".jsonl") and not current().lexists(path)}
    if looked_for:
        _merge(found, dependents(candidates, looked_for, read, looked_at, known))
    return found


def on_disk(named: list, config: Config, cache_dir: Optional[str], use_cache: bool) -> dict:
    """{eval file (as a path from the working folder): the named paths it uses (likewise)} for the
    ``named`` paths (files, or paths that are gone) that eval files may use: the eval files found
    by a walk of each one's repository root (the named paths left out), and the settings files a named suite
    that changed release serves (``served_users``), with the cache's rows where it has them."""
    from evallint.load.history import has_head

    # the named files' bytes, now and in HEAD, read once for both questions asked of them
    read, head = lru_cache(maxsize=None)(lambda q: _read(q, config)), lru_cache(maxsize=None)(lambda q: _head(q, config))
    with deps.run_scope():  # one run: what a named file is, and what the eval files look at, are told once
        used = {os.path.abspath(p) for p in named if not os.path.isdir(p) and may_be_used(p, config)}
        changed = changed_release(used, read, head, lambda q: has_head(config.root_of(q)), config)
        used = {p for p in used if may_have_users(p, read, head, config)}
        found = _users_on_disk(named, used, changed, config, cache_dir, use_cache) if used or changed else {}
    return {os.path.relpath(p): [os.path.relpath(u) for u in hit] for p, hit in found.items()}


def _users_on_disk(named: list, used: set, changed: set, config: Config, cache_dir: Optional[str],
                   use_cache: bool) -> dict:
    """``_users`` of the ``used`` paths among the eval files of their repositories' walks (the ``named`` paths
    left out), and ``served_users`` of the ``changed`` suites, with the cache's rows where it has them."""
    skip = {os.path.abspath(p) for p in named}
    cache = None
    if use_cache:
        from evallint.run.cache import ResultCache

        cache = ResultCache(config, cache_dir)
    found: dict = {}
    read, known = (lambda p: _read(p, config)), (_known(cache) if cache is not None else None)
    looked_at = (lambda p, data: _noted(p, data, config, cache))
    try:
        for root in sorted({config.root_of(u) for u in used}):
            candidates = [p for p in walk(root, config.exclude) if p not in skip]
            found.update(_users(candidates, used, read, looked_at, known, config))
        _merge(found, served_users(changed, skip, read, looked_at, known, config))
    finally:
        if cache is not None:
            cache.close()
    return found


def _merge(found: dict, more: dict) -> None:
    """Adds the users of ``more`` (user: the used paths, sorted) to ``found``."""
    for path, hit in more.items():
        found[path] = sorted(set(found.get(path, ())).union(hit))


def notes(users: dict) -> str:
    """What ``--verbose`` says of the eval files linted because they use a file given or staged."""
    return "".join(f"evallint: also linting {path}, which uses {', '.join(used)}\n"
                   for path, used in sorted(users.items()))


def _read(path: str, config: Config) -> Optional[bytes]:
    from evallint.load.source import read_bytes

    data = read_bytes(path, config.root_of(path), config.max_bytes)
    return data if isinstance(data, bytes) else None


def _head(path: str, config: Config) -> Optional[bytes]:
    """The file's bytes in the last commit, or None."""
    from evallint.load.history import head_bytes

    return head_bytes(path, config.root_of(path), config.max_bytes)


def _known(cache) -> Callable:
    """What each file looked at by the cache's rows: of its result as a file found, else as a file named."""
    def known(paths: list) -> list:
        found = cache.looked_at_many([(p, False) for p in paths])
        named = cache.looked_at_many([(p, True) for p in paths])
        return [a if a is not None else b for a, b in zip(found, named)]

    return known


def _noted(path: str, data: bytes, config: Config, cache) -> set:
    """The paths that linting the file at ``path``, holding ``data``, looks at. With the cache, its result
    is kept, which the run that reports it then answers from (the pool's ``lint_noting`` reads the file
    again: the row's stat is taken before its read)."""
    if cache is None:
        return _looked_at(path, data, config)
    from evallint.run.pool import lint_noting

    result, row, looked_at = lint_noting(path, False, config, cache.context)
    if row is not None:
        cache.store(path, row)
    return looked_at


def _looked_at(path: str, data: bytes, config: Config) -> set:
    """The paths that linting ``data`` as the file at ``path`` looks at."""
    from evallint.lint import lint_bytes

    with deps.recording() as noted:
        lint_bytes(data, path, config, explicit=False, model=False)
    return noted


def in_index(view, names: list, gone: list, config: Config) -> dict:
    """{eval file of the git index (a '/'-separated path from its top): the staged or deleted paths
    (``names``, ``gone``; likewise) that it uses}, each eval file linted from the index to learn what it
    looks at (``named_users`` aside, which reads the suites from the index)."""
    from evallint.load.view import viewing

    top = view.top
    with viewing(view), deps.run_scope():
        used = {os.path.join(top, n) for n in names if may_be_used(os.path.join(top, n), config)}
        used |= {os.path.join(top, n) for n in gone}
        if not used:
            return {}
        given = set(names)
        candidates = [os.path.join(top, n) for n in sorted(view.entries)
                      if is_candidate(n) and n not in given and not excluded(os.path.join(top, n), config)]
        read, looked_at = (lambda p: view.read(p, -1, config.max_bytes)), (lambda p, data: _looked_at(p, data, config))
        found = _users(candidates, used, read, looked_at, None, config)
        changed = changed_release(used, read, lambda p: view.committed(p, config.max_bytes),
                                   lambda p: view.has_head(), config)
        _merge(found, served_users(changed, {os.path.join(top, n) for n in given}, read, looked_at, None, config))
    return {_relative(p, top): [_relative(u, top) for u in hit] for p, hit in found.items()}


def _relative(path: str, top: str) -> str:
    return os.path.relpath(path, top).replace(os.sep, "/")
