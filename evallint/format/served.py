"""The AgentV version a project's targets or config file is read as when what it holds shows no sign of one: that of
the suites it serves. Most settings read alike in both releases (a target of provider 'openai' with a 'model'), but
AgentV 4.42.4's resolver rejects what 2.2's takes (a literal 'model'), so a file read by the wrong release's rules
hides what the runner the project uses will reject.

The runner looks for each settings file walking up from a suite's folder (the targets file in a folder or its
``.agentv``, then the folder above; the config file in a folder's ``.agentv``), so a settings file serves the suites
of the folder it belongs to (the one holding its ``.agentv``) and of the folders below it that discovery walks, but
not those below a folder with a settings file of its own (``_own``)."""
from __future__ import annotations

import os
import re
from collections import deque
from typing import Any, Callable, Optional

from evallint.diagnostics import GENERATIONS
from evallint.format.generations import LATER_TEST_KEYS, dataset_version, version_of
from evallint.load import deps
from evallint.load.case_files import tests_of, yaml_data
from evallint.load.eval_patterns import CONFIG as CONFIG_NAME
from evallint.load.files import (AGENTV_FOLDER, ANY_CHARACTER_ESCAPE, CONFIG, EVAL, LATER_CASES_KEY, TARGETS,
                                 TARGETS_NAMES, YAML_SUFFIXES, walked)
from evallint.load.view import current
from evallint.load.yaml_skim import skim, skimmed
from evallint.rules import targets_file

# what the text of a suite of AgentV 4.42.4 holds: the key of its tests or a key of a test only it reads; of a
# dataset, such a key of a test as JSON writes it; or an escape that may spell one
_LATER_WORDS = (LATER_CASES_KEY, *LATER_TEST_KEYS)
_LATER_LINE_WORDS = tuple(f'"{key}"' for key in LATER_TEST_KEYS)
_LETTER_ESCAPE = re.compile(ANY_CHARACTER_ESCAPE)


def served_version(kind: str, path: str, root: str, max_bytes: int) -> str:
    """AgentV 4.42.4's version when a suite that the settings file of ``kind`` (TARGETS or CONFIG) at ``path`` serves
    is of its format, else 2.2's; worked out once per run for the file. A file of another name (one its '$schema'
    makes a targets file) serves none: the runner reads it only when a run names it."""
    view = current()
    path = os.path.abspath(path)
    folder, name = os.path.split(path)
    if name not in (TARGETS_NAMES if kind == TARGETS else (CONFIG_NAME,)) or \
            kind == CONFIG and os.path.basename(folder) != AGENTV_FOLDER:
        return GENERATIONS[0]
    later = deps.memoized(("served", view, kind, path, root, max_bytes), _serves_later, view, kind, path, root,
                          max_bytes)
    return GENERATIONS[1] if later else GENERATIONS[0]


def _serves_later(view, kind: str, path: str, root: str, max_bytes: int) -> bool:
    """The folders are looked in nearer first, and the look stops at the first suite of the later format."""
    folder = os.path.dirname(path)
    if os.path.basename(folder) == AGENTV_FOLDER:
        folder = os.path.dirname(folder)
    queue = deque([folder])
    while queue:
        here = queue.popleft()
        # only a folder that holds one is kept: one entry per folder of a large tree would crowd the memo
        if deps.memoized_when(("later suite in", view, here, root, max_bytes), bool, _later_in, view, here, root,
                              max_bytes):
            return True
        queue.extend(below for below in (os.path.join(here, name) for name in view.subfolders(here) if
                                         walked(name) and name != AGENTV_FOLDER) if not _own(view, kind, below))
    return False


def _own(view, kind: str, folder: str) -> bool:
    """Whether ``folder`` has a settings file of ``kind`` of its own, which its suites and those below it take."""
    return (targets_file.file_of(view, folder) if kind == TARGETS else _config_of(view, folder)) is not None


def _config_of(view, folder: str):
    """The config file of ``folder``'s '.agentv' in ``view``, or None; the places looked at are noted."""
    agentv = os.path.join(folder, AGENTV_FOLDER)
    deps.note(agentv)
    deps.note(os.path.join(agentv, CONFIG_NAME))
    return os.path.join(agentv, CONFIG_NAME) if view.isfile(os.path.join(agentv, CONFIG_NAME)) else None


def _later_in(view, folder: str, root: str, max_bytes: int) -> bool:
    """Whether a file of ``folder`` is a suite of AgentV 4.42.4's format."""
    deps.note(folder)
    return any(_later(view, os.path.join(folder, name), root, max_bytes) for name in view.files_in(folder))


def _later(view, path: str, root: str, max_bytes: int) -> bool:
    """Whether the file at ``path`` is a suite of AgentV 4.42.4's format (``later_text``), read once per run."""
    if not (path.lower().endswith(".jsonl") or path.endswith(YAML_SUFFIXES)):
        return False
    deps.note(path)
    source = view.text_of(path, root, max_bytes)
    return source is not None and later_text(path, source.text, lambda: _parsed(path, root, max_bytes, source.text))


def _parsed(path: str, root: str, max_bytes: int, text: str) -> Any:
    if path.lower().endswith(".jsonl"):
        return tests_of(path, root, max_bytes)
    data = skimmed(path, root, max_bytes, text)
    # a text the skim's composer refuses (an anchor defined twice), which the parse may take
    return data if data is not None else yaml_data(path, root, max_bytes)


def later_text(path: str, text: str, parsed: Optional[Callable[[], Any]] = None) -> bool:
    """Whether ``text``, what the YAML or ``.jsonl`` file at ``path`` holds, is a suite of AgentV 4.42.4's format: a
    YAML file read as ``version_of`` reads one, or a dataset whose lines hold a key of a test only it reads. A file
    whose only sign of it is a grader's kind ('code-grader') is not looked for: its text holds none of
    ``_LATER_WORDS``. ``parsed()``: its data (a ``.jsonl`` file's lines), else read from ``text`` alone."""
    jsonl = path.lower().endswith(".jsonl")
    words = _LATER_LINE_WORDS if jsonl else _LATER_WORDS
    if not (any(word in text for word in words) or _LETTER_ESCAPE.search(text)):
        return False
    data = parsed() if parsed is not None else _jsonl_cases(text) if jsonl else skim(text)
    return (dataset_version(data, None, None) if jsonl else version_of(EVAL, data, None)) != GENERATIONS[0]


def _jsonl_cases(text: str) -> list:
    """The cases of a ``.jsonl`` text, each a JSON object, as its lint reads them."""
    from evallint.load.jsonl import parse_jsonl

    return parse_jsonl(text).cases


def nearest_settings(path: str, root: str, max_bytes: int) -> list:
    """The targets file and the config file that the runner takes for a suite at ``path`` (absolute), the nearest of
    each walking up from its folder to ``root`` (each folder looked at once per run): the ones whose release the
    suite may decide."""
    view, folder = current(), os.path.dirname(path)
    targets = targets_file.nearest(folder, root, max_bytes)
    config = deps.memoized_nearest(lambda at: ("config file", view, at, root), folder, root,
                                   lambda at: _config_of(view, at))
    return [found for found in (targets[0] if targets else None, config) if found is not None]
