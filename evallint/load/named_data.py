"""Which YAML files an eval suite uses as something else than an eval file: data it sends (input files, file
blocks, prompt files), a file a hook's command names, a workspace file or the folder of a workspace template, an
assertion template it includes. Such a file is no suite (``recognize``): the runner reads it for the suite that
names it, which is where what it holds is checked.

The suites looked for are the YAML files that hold 'tests' or 'evalcases' in the file's folder and in each folder
above it, up to the repository root, in the current file view (``view.py``), each folder's read once per run, and
each file parsed only when its text mentions the file's name or a folder's it lies in. A
suite names the file when one of its strings (or a word of one, a ``file://`` prefix taken off) is the path of the
file, or of a folder the file lies in that does not hold the suite, from the suite's folder or a folder above it:
the runner looks a path up from the eval file's folder up to the root."""
from __future__ import annotations

import os
from typing import Any, Iterator

from evallint.load import deps
from evallint.load.case_files import FILE_PREFIX, yaml_data
from evallint.load.files import EVALCASES_KEYS, LATER_CASES_KEY, YAML_SUFFIXES
from evallint.load.source import Source
from evallint.load.view import current

LONGEST = 4096  # a string longer than this names no path


def named_as_data(path: str, root: str, max_bytes: int, depth: int = 2) -> bool:
    """Whether a suite in the folder of the YAML file at ``path`` or above it names the file, or a folder it lies
    in, as data (see the module's docstring); or (``depth`` above 1) a YAML file that a suite so names does (a
    workspace file its template, a template another it includes)."""
    absolute, root = os.path.normpath(os.path.abspath(path)), os.path.abspath(root)
    names = set(os.path.relpath(absolute, root).split(os.sep))
    folder = os.path.dirname(absolute)
    while folder == root or folder.startswith(root.rstrip(os.sep) + os.sep):
        for other, text in _texts_in(folder, root, max_bytes):
            if other == absolute or not any(name in text for name in names):
                continue
            data = yaml_data(other, root, max_bytes)
            suite = isinstance(data, dict) and any(key in data for key in (LATER_CASES_KEY,) + EVALCASES_KEYS)
            if (suite or depth > 1 and isinstance(data, dict)) and _names(data, other, absolute, root) and \
                    (suite or named_as_data(other, root, max_bytes, depth - 1)):
                return True
        if folder == root:
            break
        folder = os.path.dirname(folder)
    return False


def _texts_in(folder: str, root: str, max_bytes: int) -> list:
    """[(path, text)] of the YAML files of ``folder``, read once per run."""
    view = current()
    return deps.memoized(("yaml texts", view, folder, root, max_bytes), _read_texts, view, folder, root, max_bytes)


def _read_texts(view, folder: str, root: str, max_bytes: int) -> list:
    deps.note(folder)
    found = []
    for name in view.files_in(folder):
        if name.endswith(YAML_SUFFIXES):
            deps.note(os.path.join(folder, name))
            source = view.source(os.path.join(folder, name), root, max_bytes)
            if isinstance(source, Source):
                found.append((os.path.join(folder, name), source.text))
    return found


def _names(data: Any, suite: str, absolute: str, root: str) -> bool:
    """Whether a string of the suite ``data`` (at ``suite``) names the file at ``absolute``, or a folder it lies in
    that does not hold the suite, from the suite's folder or a folder above it."""
    folder = os.path.dirname(suite)
    bases = [folder]
    while bases[-1] != root and bases[-1].startswith(root.rstrip(os.sep) + os.sep):
        bases.append(os.path.dirname(bases[-1]))
    for word in _words(data):
        for base in bases:
            named = os.path.normpath(os.path.join(base, word))
            holds_suite = folder == named or folder.startswith(named.rstrip(os.sep) + os.sep)
            if not holds_suite and (absolute == named or absolute.startswith(named.rstrip(os.sep) + os.sep)):
                return True
    return False


def _words(data: Any) -> Iterator[str]:
    """Each string of ``data`` that may be a path, and each word of one with white space (a command), without a
    ``file://`` prefix."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and 0 < len(value) <= LONGEST and "\n" not in value:
            for word in value.split():
                yield word[len(FILE_PREFIX):] if word.startswith(FILE_PREFIX) else word
