"""The files AgentV 4.42.4's discovery takes for suites beyond the default names (the wizard of ``agentv eval`` without
a file, and the dashboard's runner: apps/cli eval/discover.ts): those the ``eval_patterns`` of a project's
``.agentv/config.yaml`` match, relative to the folder holding that ``.agentv``, in any case (fast-glob's
``caseSensitiveMatch: false``) but for the names that lead a pattern up to its first glob character (or its last
name), which fast-glob reads from the file system as written; a pattern written with a leading ``!`` leaves out what
it matches. The config file is the nearest one the loader takes (config-loader.ts ``loadConfig``): walking up from
the suite's folder to the root, a file that its YAML parser refuses, that is no mapping, whose ``required_version``
is no string or whose ``eval_patterns`` is no list of strings is passed over for the next; an absent or empty list
means the default patterns only. The user's own ``~/.agentv/config.yaml``, which the loader reads when no project
has one, is not looked at: what a project's files are does not depend on who lints them. Nor is the environment of
the run, from which the loader fills a ``${{ NAME }}`` in a pattern: such a pattern is matched as written."""
from __future__ import annotations

import os
from typing import NamedTuple, Optional

from evallint.load import deps
from evallint.load.files import AGENTV_FOLDER
from evallint.load.globs import expanded, glob_at, matches
from evallint.load.view import current

CONFIG = "config.yaml"  # the one name the loader reads (a 'config.yml' is not: EV109 of config_file says so)
EXCLUDE = "!"


class Pattern(NamedTuple):
    """A pattern of a config file: the folder its leading names give (``base``, absolute, as written), the rest
    (lower-cased, matched in any case below it), and whether it leaves out what it matches."""

    base: str
    rest: str
    excluded: bool


def configured(folder: str, root: str, max_bytes: int) -> tuple:
    """The ``Pattern``s of the config file the loader takes for a suite in ``folder`` (absolute, normalized); () when
    it takes none or that one names none."""
    view = current()
    return deps.memoized_nearest(lambda at: ("eval patterns", view, at, root, max_bytes), folder, root,
                                 lambda at: _taken(view, at, root, max_bytes), default=())


def discovered(path: str, root: str, max_bytes: int) -> bool:
    """Whether the file at ``path`` is one its project's patterns match (none when the project names none)."""
    path = os.path.normpath(os.path.abspath(path))
    patterns = configured(os.path.dirname(path), os.path.abspath(root), max_bytes)
    return bool(patterns) and matched(path, patterns)


def matched(path: str, patterns: tuple) -> bool:
    """Whether the absolute, normalized ``path`` is matched by one of ``patterns`` (``configured``) and by none of
    their exclusions."""
    hits = [pattern.excluded for pattern in patterns if _hits(path, pattern)]
    return False in hits and True not in hits


def _hits(path: str, pattern: Pattern) -> bool:
    base = os.path.join(pattern.base, "")
    return path.startswith(base) and matches(base + path[len(base):].lower(), base + pattern.rest)


def _taken(view, folder: str, root: str, max_bytes: int) -> Optional[tuple]:
    """The ``Pattern``s of ``folder``'s ``.agentv/config.yaml`` when the loader takes it; None when it has none or
    the loader passes it over. The folder's listing tells whether an ``.agentv`` is there."""
    deps.note(folder)
    if AGENTV_FOLDER in view.subfolders(folder):
        agentv = os.path.join(folder, AGENTV_FOLDER)
        deps.note(agentv)
        path = os.path.join(agentv, CONFIG)
        deps.note(path)
        patterns = _patterns(view, path, root, max_bytes) if view.isfile(path) else None
        if patterns is not None:
            return tuple(one for pattern in patterns for one in _split(folder, pattern))
    return None


def _patterns(view, path: str, root: str, max_bytes: int) -> Optional[list]:
    """The patterns of the config file at ``path`` ([] for none); None when the loader passes it over: its parser
    throws on it (``yaml_merges.refused_by_agentv4``, which merges its '<<' keys)."""
    from evallint.load.yaml12 import parse_yaml
    from evallint.load.yaml_merges import refused_by_agentv4

    source = view.text_of(path, root, max_bytes)
    parsed = parse_yaml(source.text) if source is not None else None
    if parsed is None or not parsed.ok or refused_by_agentv4(parsed, source.text, bom=source.bom):
        return None
    data = parsed.data
    if not isinstance(data, dict) or not isinstance(data.get("required_version", ""), str):
        return None
    patterns = data.get("eval_patterns", [])
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        return None
    return patterns


def _split(folder: str, pattern: str) -> tuple:
    """The ``Pattern``s of ``pattern``, written in the config file of the project at ``folder``: one for each pattern
    its braces expand to, as fast-glob reads each from its own folder (``globs.expanded``)."""
    excluded = pattern.startswith(EXCLUDE)
    absolute = os.path.join(folder, pattern[len(EXCLUDE):] if excluded else pattern)  # an absolute one is itself
    split = []
    for one in expanded(absolute.replace(os.sep, "/")):
        names = one.split("/")
        static = min(glob_at(names), len(names) - 1)  # the folder fast-glob reads (a static pattern's file's)
        split.append(Pattern(os.path.normpath("/".join(names[:static]) or "/"), "/".join(names[static:]).lower(),
                             excluded))
    return tuple(split)
