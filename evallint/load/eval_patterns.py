"""The files AgentV 4.42.4's discovery takes for suites beyond the default names (``agentv eval`` without a file,
apps/cli eval/discover.ts): those the ``eval_patterns`` of a project's ``.agentv/config.yaml`` match, relative to
the folder holding that ``.agentv``, in any case (fast-glob's ``caseSensitiveMatch: false``); a pattern written
with a leading ``!`` leaves out what it matches. The config file is the nearest one the loader takes
(config-loader.ts ``loadConfig``): walking up from the suite's folder to the root, a file that is no mapping, whose
``required_version`` is no string or whose ``eval_patterns`` is no list of strings is passed over for the next; an
absent or empty list means the default patterns only. The user's own ``~/.agentv/config.yaml``, which the loader
reads when no project has one, is not looked at: what a project's files are does not depend on who lints them."""
from __future__ import annotations

import os
from typing import Optional

from evallint.load import deps
from evallint.load.files import AGENTV_FOLDER
from evallint.load.globs import matches
from evallint.load.view import current

CONFIG = "config.yaml"  # the one name the loader reads (a 'config.yml' is not: EV109 of config_file says so)
EXCLUDE = "!"


def configured(folder: str, root: str, max_bytes: int) -> tuple:
    """The absolute, lower-cased patterns (each ``!``-led one an exclusion) of the config file the loader takes for
    a suite in ``folder`` (absolute, normalized); () when it takes none or that one names none."""
    view = current()
    return deps.memoized_upward(lambda at: ("eval patterns", view, at, root, max_bytes), folder,
                                lambda at: _look(view, at, root, max_bytes))


def matched(path: str, patterns: tuple) -> bool:
    """Whether the absolute, normalized ``path`` is matched by one of ``patterns`` (``configured``) and by none of
    their exclusions."""
    lowered = path.lower()
    included = excluded = False
    for pattern in patterns:
        if pattern.startswith(EXCLUDE):
            excluded = excluded or matches(lowered, pattern[len(EXCLUDE):])
        else:
            included = included or matches(lowered, pattern)
    return included and not excluded


def _look(view, folder: str, root: str, max_bytes: int) -> tuple:
    """A folder whose ``.agentv/config.yaml`` the loader takes decides (and the root, or a folder outside it); any
    other folder has its parent's answer. The folder's listing tells whether an ``.agentv`` is there."""
    deps.note(folder)
    if AGENTV_FOLDER in view.subfolders(folder):
        agentv = os.path.join(folder, AGENTV_FOLDER)
        deps.note(agentv)
        path = os.path.join(agentv, CONFIG)
        deps.note(path)
        patterns = _patterns(view, path, root, max_bytes) if view.isfile(path) else None
        if patterns is not None:
            return True, tuple(_absolute(folder, pattern) for pattern in patterns)
    parent = os.path.dirname(folder)
    if folder == root or parent == folder or not (folder + os.sep).startswith(root + os.sep):
        return True, ()
    return False, _same


def _same(answer):
    return answer


def _patterns(view, path: str, root: str, max_bytes: int) -> Optional[list]:
    """The patterns of the config file at ``path`` ([] for none); None when the loader passes it over: its parser
    throws on a syntax error and on a duplicate key (EV003), and merges '<<' keys."""
    from evallint.load.yaml12 import EV003, merge_keys, parse_yaml

    source = view.text_of(path, root, max_bytes)
    parsed = parse_yaml(source.text) if source is not None else None
    if parsed is None or not parsed.ok or any(f.code == EV003.code for f in parsed.findings):
        return None
    merge_keys(parsed)
    data = parsed.data
    if not isinstance(data, dict) or not isinstance(data.get("required_version", ""), str):
        return None
    patterns = data.get("eval_patterns", [])
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        return None
    return patterns


def _absolute(folder: str, pattern: str) -> str:
    excluded = pattern.startswith(EXCLUDE)
    body = pattern[len(EXCLUDE):] if excluded else pattern
    body = body[2:] if body.startswith("./") else body  # fast-glob reads './x' as 'x'
    return (EXCLUDE if excluded else "") + os.path.join(folder, body).lower()
