"""Finding the targets file the runner would use, and the targets it defines."""
from __future__ import annotations

import os
from typing import Optional

from evallint.load import deps
from evallint.load.files import TARGETS_NAMES
from evallint.load.source import Source
from evallint.load.view import current
from evallint.load.yaml12 import parse_yaml

NAMES = TARGETS_NAMES  # looked for in each folder, then in its .agentv folder
KEPT = 256  # targets files whose targets are kept at most
_targets: dict = {}  # a targets file's text -> its targets by name: a file linted earlier is not parsed again


def definitions_of(data) -> Optional[dict]:
    """Each target name of a parsed targets file -> its first definition; None when it has no 'targets' list."""
    targets = data.get("targets") if isinstance(data, dict) else None
    if not isinstance(targets, list):
        return None
    out: dict = {}
    for target in targets:
        if isinstance(target, dict) and isinstance(target.get("name"), str):
            out.setdefault(target["name"], target)
    return out


def names_of(data) -> Optional[list]:
    """Target names defined by a parsed targets file; None when it has no 'targets' list."""
    definitions = definitions_of(data)
    return None if definitions is None else list(definitions)


def remember(path: str, text: str, data, root: Optional[str] = None) -> None:
    """Keep the targets of a targets file parsed while linting it: ``definitions_in`` need not parse it again."""
    _keep(text, definitions_of(data))


def _keep(text: str, definitions: Optional[dict]) -> Optional[dict]:
    if len(_targets) >= KEPT:
        _targets.clear()
    _targets[text] = definitions
    return definitions


def names_in(path: str, root: str, max_bytes: int) -> Optional[list]:
    """Target names defined in a targets file of the current file view; None when it cannot be read
    (over ``max_bytes``, the size cap). Read once per run, however many folders below it ask."""
    definitions = definitions_in(path, root, max_bytes)
    return None if definitions is None else list(definitions)


def definitions_in(path: str, root: str, max_bytes: int) -> Optional[dict]:
    """Each target name of a targets file of the current file view -> its first definition, as ``names_in``."""
    view = current()
    return deps.memoized(("targets of", view, path, root, max_bytes), _read_targets, view, path, root, max_bytes)


def _read_targets(view, path: str, root: str, max_bytes: int) -> Optional[dict]:
    source = view.source(path, root, max_bytes)
    if not isinstance(source, Source):
        return None
    if source.text in _targets:
        return _targets[source.text]
    parsed = parse_yaml(source.text)
    return _keep(source.text, definitions_of(parsed.data) if parsed.ok else None)


def unusable(path: str, root: str, max_bytes: int) -> Optional[str]:
    """Why the runner cannot read targets from the targets file at ``path`` (of the current file view): it does not
    parse, or holds no 'targets' list; None when it can, or when it cannot be read here (over ``max_bytes``). Worked
    out once per run, however many targets an eval file names."""
    view = current()
    return deps.memoized(("unusable targets", view, path, root, max_bytes), _unusable, view, path, root, max_bytes)


def _unusable(view, path: str, root: str, max_bytes: int) -> Optional[str]:
    source = view.text_of(path, root, max_bytes)
    if source is None:
        return None
    parsed = parse_yaml(source.text)
    if not parsed.ok:
        return "is no YAML the runner parses"
    return "holds no 'targets' list" if definitions_of(parsed.data) is None else None


def nearest(folder: str, root: str, max_bytes: int) -> Optional[tuple]:
    """(path, names) of the first targets file of the current file view walking up from ``folder`` to
    ``root``, both absolute and normalized, its names None when it is over ``max_bytes`` (the size cap) or
    cannot be read; each folder on the way up is looked at once per run."""
    view = current()
    return deps.memoized_nearest(lambda at: ("targets", view, at, root, max_bytes), folder, root,
                                 lambda at: _targets_in(view, at, root, max_bytes))


def _targets_in(view, folder: str, root: str, max_bytes: int) -> Optional[tuple]:
    """(path, names) of the targets file of ``folder`` (or of its '.agentv'); None when it has none."""
    path = file_of(view, folder)
    return None if path is None else (path, names_in(path, root, max_bytes))


def file_of(view, folder: str) -> Optional[str]:
    """The targets file the runner takes in ``folder`` (absolute) of ``view``: its own, else its '.agentv''s, each
    name in turn; None when it has none. Every place looked at is noted."""
    prefix = folder if folder.endswith(os.sep) else folder + os.sep
    agentv = prefix + ".agentv"
    deps.note(agentv)  # absent, it stands for the two candidates inside it
    starts = (prefix, agentv + os.sep) if view.isdir(agentv) else (prefix,)
    for start in starts:
        for name in NAMES:
            path = start + name
            deps.note(path)
            if view.isfile(path):
                return path
    return None
