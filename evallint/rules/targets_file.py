"""Finding the targets file the runner would use, and the names it defines."""
from __future__ import annotations

import os
from typing import Optional

from .. import deps, discovery
from ..bounded import MISSING, Bounded
from ..source import Source, read_source
from ..yaml12 import parse_yaml

NAMES = ("targets.yaml", "targets.yml")  # looked for in each folder, then in its .agentv folder
_names = Bounded(1024)  # (absolute path, text) -> names: a file linted earlier in the run is not parsed again


def names_of(data) -> Optional[list]:
    """Target names defined by a parsed targets file; None when it has no 'targets' list."""
    targets = data.get("targets") if isinstance(data, dict) else None
    if not isinstance(targets, list):
        return None
    return [t["name"] for t in targets if isinstance(t, dict) and isinstance(t.get("name"), str)]


def remember(path: str, text: str, data, root: Optional[str] = None) -> None:
    """Note the names of a targets file parsed while linting it: for this run (``names_in`` need not
    read it again), and for later runs that find it unchanged."""
    absolute = deps.absolute(path)
    names = _names.put((absolute, text), names_of(data))
    if root is not None:
        deps.known(("names", absolute, deps.absolute(root)), names)


def names_in(path: str, root: str) -> Optional[list]:
    """Target names defined in a targets file; None when it cannot be read. Read once per run,
    however many folders below it ask."""
    return deps.memoized(("names", path, root), _read_names, path, root)


def _read_names(path: str, root: str) -> Optional[list]:
    source = read_source(path, root)
    if not isinstance(source, Source):
        return None
    key = (path, source.text)
    names = _names.get(key, MISSING)
    if names is MISSING:
        parsed = parse_yaml(source.text)
        names = _names.put(key, names_of(parsed.data) if parsed.ok else None)
    return names


def nearest(folder: str, root: str) -> Optional[tuple]:
    """(path, names) of the first targets file walking up from ``folder`` to ``root``, both absolute
    and normalized."""
    return deps.memoized(("targets", folder, root), _nearest, folder, root)


def _nearest(current: str, root: str) -> Optional[tuple]:
    prefix = current if current.endswith(os.sep) else current + os.sep
    agentv = prefix + ".agentv"
    deps.note(agentv)  # absent, it stands for the two candidates inside it
    places = ((current, prefix), (agentv, agentv + os.sep)) if discovery.has_agentv(current) else ((current, prefix),)
    for folder, start in places:  # (folder, its prefix for the names in it)
        for name in NAMES:
            path = start + name
            deps.note(path)
            if discovery.file_in(folder, name, path):
                return path, names_in(path, root)
    parent = os.path.dirname(current)
    if current == root or parent == current or not (current + os.sep).startswith(root + os.sep):
        return None
    return nearest(parent, root)  # each folder on the way up is looked at once per run
