"""A fix is kept only when the fixed text means what the fix says: parsed again, its data must be the
original data with exactly the fixes' declared changes (``Fix.change``) made, and the YAML must get no
new file-level finding. Edits are computed from text positions, and YAML's anchors, tags, block scalars
and indentation give text edits meanings that positions alone do not show; this check catches them.

Data are compared by type and value (``1``, ``1.0``, ``True`` and ``"1"`` all differ) and mappings by
key order too. An alias shares its anchored value, so a change is made by copying the containers along
its path only: the same value reached through an alias elsewhere keeps the original, and a fix whose
edit would change it there too is found out."""
from __future__ import annotations

import math
from collections import Counter
from typing import Any, Optional

from evallint.diagnostics import yaml_path_text
from evallint.load.yaml12 import Parsed, parse_yaml


class _NotThere(Exception):
    """The declared change does not apply to the data: its path or key is not as the fix expects."""


def check(before: Parsed, fixed_text: str, fixes: list) -> Optional[str]:
    """Why ``fixed_text`` is not ``before`` with the changes of ``fixes`` made; None when it is."""
    if not before.ok:
        return "the file does not parse"
    after = parse_yaml(fixed_text)
    if not after.ok:
        finding = after.findings[-1]
        return f"the fixed file would not parse ({finding.code}: {finding.message})"
    new = Counter(f.code for f in after.findings) - Counter(f.code for f in before.findings)
    if new:
        return f"the fixed file would get {', '.join(sorted(new))}"
    return changed_otherwise(before.data, after.data, fixes)


def changed_otherwise(before: Any, after: Any, fixes: list) -> Optional[str]:
    """Why ``after`` is not ``before`` with the changes of ``fixes`` made; None when it is."""
    expected = before
    try:
        for fix in fixes:
            expected = _changed(expected, fix.change)
    except _NotThere:
        return "the data is not where the fix expects it"
    where = _difference(expected, after, ())
    if where is not None:
        return f"the fixed file would also change {_shown(where)}"
    return None


def _shown(path: tuple) -> str:
    return f"'{yaml_path_text(path)}'" if path else "the top level"


def _changed(data: Any, change: tuple) -> Any:
    """``data`` with ``change`` made, sharing everything off its path."""
    if not change:
        return data
    kind, path, arg = change
    if kind == "all":  # one edit that changes the data at several paths: an anchored value and its aliases
        for part in arg:
            data = _changed(data, part)
        return data
    if not path:
        raise _NotThere()
    if kind == "move_first":  # the key at path goes; its replacement becomes the first item of another list
        target, item = arg
        data = _along(data, target, lambda items: _first(items, item))
        return _along(data, path[:-1], lambda mapping: _edit(mapping, "delete", path[-1], None))
    return _along(data, path[:-1], lambda mapping: _edit(mapping, kind, path[-1], arg))


def _first(items: Any, item: Any) -> list:
    if not isinstance(items, list):
        raise _NotThere()
    return [item, *items]


def _along(node: Any, path: tuple, edit) -> Any:
    if not path:
        return edit(node)
    part, rest = path[0], path[1:]
    if isinstance(node, dict) and part in node:
        copy = dict(node)
        copy[part] = _along(node[part], rest, edit)
        return copy
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        items = list(node)
        items[part] = _along(node[part], rest, edit)
        return items
    raise _NotThere()


def _spliced(parent: dict, at: Any, entries) -> dict:
    """``parent`` with its entry ``at`` replaced, in place, by the entries ``entries(value)`` gives."""
    out: dict = {}
    for name, value in parent.items():
        if name == at:
            out.update(entries(value))
        else:
            out[name] = value
    return out


def _free(parent: dict, key: Any, new: Any) -> bool:
    """``key`` is in ``parent`` and ``new`` can take its place without meeting another key."""
    return key in parent and (new == key or new not in parent)


# how each kind of change edits the mapping that holds its key (None: the data is not as the change expects)
_MAPPING_EDITS = {
    "insert": lambda parent, key, arg: {key: arg, **parent} if key not in parent else None,
    "delete": lambda parent, key, arg: _spliced(parent, key, lambda value: {}) if key in parent else None,
    "rename": lambda parent, key, arg: _spliced(parent, key, lambda value: {arg: value})
    if _free(parent, key, arg) and arg != key else None,
    "nest": lambda parent, key, arg: _spliced(parent, key, lambda value: {arg: {key: value}})
    if _free(parent, key, arg) and arg != key else None,
    "replace": lambda parent, key, arg: _spliced(parent, key, lambda value: {arg[0]: arg[1]})
    if _free(parent, key, arg[0]) else None,
    "insert_before": lambda parent, key, arg: _spliced(parent, arg[1], lambda value: {key: arg[0], arg[1]: value})
    if key not in parent and arg[1] in parent else None,
}


def _edit(parent: Any, kind: str, key: Any, arg: Any) -> Any:
    if kind == "set" and isinstance(parent, (dict, list)):
        return _along(parent, (key,), lambda _old: arg)
    if kind == "delete" and isinstance(parent, list) and isinstance(key, int) and 0 <= key < len(parent):
        return parent[:key] + parent[key + 1:]
    edited = _MAPPING_EDITS[kind](parent, key, arg) if isinstance(parent, dict) and kind in _MAPPING_EDITS else None
    if edited is None:
        raise _NotThere()
    return edited


def _difference(a: Any, b: Any, path: tuple) -> Optional[tuple]:
    """The path of the first place where ``a`` and ``b`` differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            missing = [key for key in [*a, *b] if key not in a or key not in b]
            return path + tuple(missing[:1])  # a key added or lost; or the same keys in another order
        for key, value in a.items():
            where = _difference(value, b[key], path + (key,))
            if where is not None:
                return where
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return path
        for i, (x, y) in enumerate(zip(a, b)):
            where = _difference(x, y, path + (i,))
            if where is not None:
                return where
        return None
    if type(a) is not type(b):
        return path
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return None
    return None if a == b else path
