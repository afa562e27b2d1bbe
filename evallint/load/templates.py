"""AgentV 4.42.4's assertion templates: an item ``{include: NAME}`` of a grader list stands for the 'assertions'
list of a template file, which its loader finds (``find``) and puts in the item's place (``expand``) before it
reads the list. A bare name (no '.' in front, no separator) is ``.agentv/templates/NAME.yaml`` (then ``.yml``),
anything else a path; each is looked up from the eval file's folder up to the repository root. An include in a
template is looked up in the template's folder first. The loader follows includes at most ``MAX_DEPTH`` deep,
refuses a template that includes itself, and needs each template to be a mapping with an 'assertions' list; when
it cannot expand one, it skips the test."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional

from evallint.load import deps
from evallint.load.environment import marked
from evallint.load.files import AGENTV_FOLDER
from evallint.load.reach import resolve
from evallint.load.source import Source
from evallint.load.view import current
from evallint.load.yaml12 import merge_keys, parse_yaml

MAX_DEPTH = 3  # the loader's limit on includes within includes (a suite's include is the first level)
FOLDER = (AGENTV_FOLDER, "templates")  # where a template named by a bare name lies, below a folder the loader searches
KEY = "assertions"  # the template's list


def is_include(value: Any) -> bool:
    """An 'include' entry of a grader list: a mapping whose one key 'include' holds a string."""
    return isinstance(value, dict) and list(value) == ["include"] and isinstance(value["include"], str)


def is_bare(value: str) -> bool:
    """A template's name rather than a path: the loader looks for it in ``.agentv/templates/``."""
    return not value.startswith(".") and "/" not in value and "\\" not in value


def candidates(value: str) -> tuple:
    """The paths the loader tries for an include's value, in order."""
    if not is_bare(value):
        return (value,)
    folder = "/".join(FOLDER)
    return f"{folder}/{value}.yaml", f"{folder}/{value}.yml"


@dataclass(frozen=True)
class Found:
    """Where an include's value leads: the template's path, or the path outside the root it escapes to, or
    neither (``tried``: the folders looked in)."""

    path: Optional[str] = None
    escapes: Optional[str] = None
    tried: tuple = ()


def find(value: str, folder: str, root: str, first: Optional[str] = None) -> Found:
    """The template that ``value`` names for an eval file in ``folder``; ``first``: a template's folder, looked
    in before the others (an include in that template)."""
    tried: list = []
    for candidate in candidates(value):
        for start, ancestors in ((first, False), (folder, True)) if first else ((folder, True),):
            resolved = resolve(candidate, start, root, ancestors=ancestors)
            if resolved.escapes:
                return Found(escapes=resolved.escapes)
            if resolved.path is not None:
                return Found(path=resolved.path)
            tried += [t for t in resolved.tried if t not in tried]
    return Found(tried=tuple(tried))


@dataclass(frozen=True)
class Expansion:
    """What an include stands for: the items the loader puts in its place (None when they cannot be known:
    a template outside the root or unreadable), or why the loader cannot expand it (``problem``)."""

    items: Optional[tuple] = None
    problem: Optional[str] = None


class _Unexpandable(Exception):
    pass


class _Unknown(Exception):
    pass


def expand(value: str, folder: str, root: str, max_bytes: int, within: Optional[str] = None) -> Expansion:
    """The items an include of ``value`` in an eval file of ``folder`` stands for, its includes expanded as the
    loader expands them; ``within``: the template that holds the include, when it is not the eval file. Once per
    run."""
    return deps.memoized(("template expansion", current(), value, folder, root, max_bytes, within), _expand, value,
                         folder, root, max_bytes, within)


def _expand(value: str, folder: str, root: str, max_bytes: int, within: Optional[str]) -> Expansion:
    try:
        return Expansion(items=tuple(_items(value, folder, root, max_bytes, within, (within,) if within else ())))
    except _Unexpandable as exc:
        return Expansion(problem=str(exc))
    except _Unknown:
        return Expansion()


def not_found(value: str, found: Found, root: str) -> str:
    """Where the loader looked for the template ``value`` names and did not find it, as messages say it."""
    looked = f"looked for '{candidates(value)[0]}' or '.yml' from" if is_bare(value) else "looked in"
    return f"{looked}: " + ", ".join(shown_folder(t, root) for t in found.tried)


def shown(path: str, root: str) -> str:
    """A template's path as messages show it: from the repository root, with '/'."""
    return os.path.relpath(path, root).replace(os.sep, "/")


def shown_folder(folder: str, root: str) -> str:
    """A folder looked in, as messages show it: from the repository root, ending with '/'."""
    rel = shown(folder, root)
    return "./" if rel == "." else rel + "/"


def _items(value: str, folder: str, root: str, max_bytes: int, template: Optional[str], chain: tuple) -> list:
    """The items of the template ``value`` names (from ``template``, the template holding the include, or None:
    the eval file), its own includes expanded; ``chain``: the templates it is included through."""
    if len(chain) + 1 > MAX_DEPTH:
        steps = " -> ".join([shown(path, root) for path in chain] + [f"'{value}'"])
        raise _Unexpandable(f"the includes go more than {MAX_DEPTH} templates deep ({steps})")
    found = find(value, folder, root, os.path.dirname(template) if template else None)
    if found.escapes:
        raise _Unknown()
    if found.path is None:
        if not chain:
            raise _Unknown()  # the include of the eval file itself: EV401 says so
        raise _Unexpandable(f"{shown(template, root)} includes '{value}', which is not found "
                            f"({not_found(value, found, root)})")
    if found.path in chain:
        steps = " -> ".join(shown(path, root) for path in chain + (found.path,))
        raise _Unexpandable(f"the includes make a cycle ({steps})")
    listed = _assertions(found.path, root, max_bytes)
    out: list = []
    for item in listed:
        if is_include(item):
            out += _items(item["include"], folder, root, max_bytes, found.path, chain + (found.path,))
        else:
            out.append(item)
    return out


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "a mapping"
    return "a string" if isinstance(value, str) else "a boolean" if isinstance(value, bool) else "a number"


def _assertions(path: str, root: str, max_bytes: int) -> list:
    """The 'assertions' list of the template at ``path``."""
    deps.note(path)
    source = current().source(path, root, max_bytes)
    if not isinstance(source, Source):
        raise _Unknown()
    parsed = parse_yaml(source.text)
    name = shown(path, root)
    if not parsed.ok:
        raise _Unexpandable(f"{name} is not valid YAML")
    merge_keys(parsed)
    data = parsed.data
    if not isinstance(data, dict):
        what = "empty" if parsed.empty or data is None else "a list" if isinstance(data, list) else "a scalar"
        raise _Unexpandable(f"{name} is {what}, not a mapping with an '{KEY}' list")
    if KEY not in data:
        raise _Unexpandable(f"{name} has no top-level '{KEY}' list")
    if not isinstance(data[KEY], list):
        raise _Unexpandable(f"{name} has '{KEY}' but not as a list (it holds {_kind(data[KEY])})")
    return marked(data[KEY])  # read, as the runner reads a template, with its environment references replaced
