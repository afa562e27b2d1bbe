"""The settings files a suite given or staged decides: a targets or config file that shows no release of its own is
read as the suites it serves are (``format/served.py``), so a suite that changes release changes its findings."""
from __future__ import annotations

import os
from typing import Callable, Optional

from evallint.config import Config
from evallint.load import files


def decoded(data: Optional[bytes]):
    """The ``Source`` of ``data``; None without bytes, or for bytes that are no UTF-8 text."""
    from evallint.load.source import Source, decode

    source = decode(data) if data is not None else None
    return source if isinstance(source, Source) else None


def told_kind(path: str, source, place: files.PathKind, config: Config) -> str:
    """The kind a lint tells the file at ``path`` holding ``source`` (a decoded ``Source``) is."""
    from evallint.load.evidence import Evidence
    from evallint.load.recognize import kind_of
    from evallint.load.source import Content

    return kind_of(Evidence(path, Content.decoded(source), place, git_root=config.root_of(path),
                            max_bytes=config.max_bytes))


def changed_release(used: set, read: Callable, head: Callable, committed: Callable, config: Config) -> set:
    """The ``used`` YAML and ``.jsonl`` files (but settings files) that are a suite of AgentV 4.42.4's format now
    (``read``) and not in ``HEAD`` (``head``), or the other way (a file that is not there is none): the release of a
    settings file that shows none of its own follows the suites it serves (``format/served.py``). Not when the
    configuration names a release, which every file is read as, nor in a repository with no commit to compare with
    (``committed(path)``)."""
    suites = [path for path in used if (path.lower().endswith(".jsonl") or path.endswith(files.YAML_SUFFIXES))
              and os.path.basename(path) not in files.TARGETS_NAMES
              and not files.PathKind(path, config.root_of(path), config.include).gives(files.CONFIG)]
    if config.agentv_version or not suites:
        return set()
    from evallint.format.served import later_text

    def later(path: str, data: Optional[bytes]) -> bool:
        source = decoded(data)
        return source is not None and later_text(path, source.text)

    return {path for path in suites if committed(path) and later(path, read(path)) != later(path, head(path))}


def served_users(changed: set, skip: set, read: Callable, looked_at: Callable, known: Optional[Callable],
                  config: Config) -> dict:
    """{settings file: the ``changed`` suites it looks at, sorted}: of the targets and config files nearest above
    each suite (``served.nearest_settings``; not one of ``skip``, the files given, nor one the configuration
    excludes, nor one that is linted as another kind: another tool's 'targets.yaml'), those whose lint looks at
    the suite, to take their release from it."""
    from evallint.format.served import nearest_settings
    from evallint.load.view import current
    from evallint.run.discovery import excluded

    view = current()
    settings = {found for suite in changed for found in nearest_settings(suite, config.root_of(suite), config.max_bytes)}
    settings = sorted(path for path in settings if path not in skip and not excluded(path, config))
    rows = known(settings) if known is not None and settings else [None] * len(settings)
    found = {}
    for path, noted in zip(settings, rows):
        data = read(path)
        source = decoded(data)
        if source is None or told_kind(path, source, files.PathKind(path, config.root_of(path), config.include),
                                   config) not in (files.TARGETS, files.CONFIG):
            continue
        if noted is None:
            noted = looked_at(path, data)
        # the served walk notes each suite it reads by its path; a deleted one, by the folder it was in
        hit = [suite for suite in sorted(changed) if suite in noted or
               not view.lexists(suite) and os.path.dirname(suite) in noted]
        if hit:
            found[path] = hit
    return found
