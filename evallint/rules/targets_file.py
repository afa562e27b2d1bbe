"""Finding the targets file the runner would use, and the names it defines."""
from __future__ import annotations

import os
from typing import Optional

from .. import deps
from ..source import Source, read_source
from ..yaml12 import parse_yaml

CANDIDATES = ("targets.yaml", "targets.yml", os.path.join(".agentv", "targets.yaml"), os.path.join(".agentv", "targets.yml"))
_cache: dict = {}


def names_in(path: str, root: str) -> Optional[list]:
    """Target names defined in a targets file; None when it cannot be read."""
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        return None
    key = (path, stamp)
    if key not in _cache:
        if len(_cache) >= 1024:
            _cache.clear()
        source = read_source(path, root)
        names = None
        if isinstance(source, Source):
            parsed = parse_yaml(source.text, positions=False)
            targets = parsed.data.get("targets") if parsed.ok and isinstance(parsed.data, dict) else None
            if isinstance(targets, list):
                names = [t["name"] for t in targets if isinstance(t, dict) and isinstance(t.get("name"), str)]
        _cache[key] = names
    return _cache[key]


def nearest(folder: str, root: str) -> Optional[tuple]:
    """(path, names) of the first targets file walking up from ``folder`` to ``root``."""
    return deps.memoized(("targets", folder, root), lambda: _nearest(folder, root))


def _nearest(folder: str, root: str) -> Optional[tuple]:
    current = os.path.abspath(folder)
    root = os.path.abspath(root)
    while True:
        for name in CANDIDATES:
            path = os.path.join(current, name)
            deps.note(path)
            if os.path.isfile(path):
                return path, names_in(path, root)
        if current == root:
            return None
        parent = os.path.dirname(current)
        if parent == current or not (current + os.sep).startswith(root + os.sep):
            return None
        current = parent
