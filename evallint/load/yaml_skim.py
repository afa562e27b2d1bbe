"""A quick read of a YAML file for what it names, not what its values mean: the tree PyYAML's composer (its C one
when present) makes of the text, each mapping a dict of its scalar keys' text (of a key written twice, the first,
as ``yaml12`` keeps it), each sequence a list, each scalar its text as written, but a null, which is None (a null is
written alike in YAML 1.1 and 1.2). Booleans, numbers and dates stay text, so the YAML 1.1 schema PyYAML resolves
them by never changes what is read: only which strings sit under which keys is. An alias is the node it names, read
once (no expansion grows, no cycle loops).

It is for finding which files the suites around a file name (``named_data``, ``case_files``), where each suite is
otherwise read again in full; a file's own lint reads it with ``yaml12``."""
from __future__ import annotations

from typing import Any, Optional

import yaml

from evallint.load import deps
from evallint.load.view import current
from evallint.load.yaml12 import LOADER
from evallint.load.yaml_directives import as_runner_reads

NULL_TAG = "tag:yaml.org,2002:null"


def skim(text: str) -> Any:
    """The tree of the one document ``text`` holds (see the module's docstring); None when it holds none or is
    no YAML the composer reads."""
    try:
        top = yaml.compose(as_runner_reads(text)[0], Loader=LOADER)
    except yaml.YAMLError:
        return None
    if top is None:
        return None
    made: dict = {}
    out = _made(top, made)
    stack = [top] if id(top) in made and not isinstance(top, yaml.ScalarNode) else []
    while stack:
        node = stack.pop()
        into = made[id(node)]
        pairs = node.value if isinstance(node, yaml.MappingNode) else [(None, item) for item in node.value]
        for key, value in pairs:
            if key is not None and (not isinstance(key, yaml.ScalarNode) or key.value in into):
                continue  # a complex key names no setting; a key written again is read as the first
            new = id(value) not in made
            item = _made(value, made)
            if new and not isinstance(value, yaml.ScalarNode):
                stack.append(value)
            if key is None:
                into.append(item)
            else:
                into[key.value] = item
    return out


def skimmed(path: str, root: str, max_bytes: int, text: Optional[str] = None) -> Any:
    """``skim`` of the YAML file at ``path``, once per run; None when it cannot be read. ``text``: what it holds, when
    the caller has read it already."""
    view = current()
    return deps.memoized(("skimmed", view, path, root, max_bytes), _skimmed, view, path, root, max_bytes, text)


def _skimmed(view, path: str, root: str, max_bytes: int, text: Optional[str]) -> Any:
    deps.note(path)
    if text is None:
        source = view.text_of(path, root, max_bytes)
        text = source.text if source is not None else None
    return skim(text) if text is not None else None


def _made(node: yaml.Node, made: dict) -> Any:
    """The container made for a collection node (filled later), or a scalar's value; each node made once."""
    if id(node) not in made:
        if isinstance(node, yaml.MappingNode):
            made[id(node)] = {}
        elif isinstance(node, yaml.SequenceNode):
            made[id(node)] = []
        else:
            made[id(node)] = None if node.tag == NULL_TAG else node.value
    return made[id(node)]
