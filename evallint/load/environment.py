"""Environment references (``${{ NAME }}``) in the files AgentV 4.42.4 reads whole (eval files, files of tests,
JSONL lines, sidecars, assertion templates, the config file). Before it reads anything else of such a file, the
runner replaces each reference in the document's strings (not its keys) with the variable's value, empty when it
is unset, and a string that is one reference and nothing else becomes a boolean or a number when the value reads
as one.

evallint cannot know the environment of a run, so it marks the strings that hold a reference (``marked``): a
setting that needs a number, a boolean or one of some words takes a whole reference as what the run may give it
(``scalar`` fields, ``OneOf``), and a path or name holding a reference is not looked up as written. A reference
cannot become a list or a mapping, so where one belongs it is reported as the string it is. AgentV 2.2 reads its
files as written: their data is never marked. The targets file resolves references setting by setting
(``format/agentv4/project.py``), not through this."""
from __future__ import annotations

import re
from typing import Any

# the runner's pattern: a name of letters, digits and '_' (not starting with a digit), blanks allowed inside
REFERENCE = re.compile(r"\$\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}")
# a target setting that is one whole reference, which AgentV 4.42.4's targets resolver fills in (resolveOptionalString)
RESOLVED_REFERENCE = re.compile(r"\$\{\{\s*[A-Za-z0-9_]+\s*\}\}\Z")


class Reference(str):
    """A string holding an environment reference: what the run gives it is not known."""


class WholeReference(Reference):
    """A string that is one environment reference as a whole: the run's value may make it a boolean or a
    number."""


def is_reference(text: str) -> bool:
    """Whether ``text`` is one reference and nothing else."""
    return REFERENCE.fullmatch(text) is not None


def is_whole_reference(value: Any) -> bool:
    """Whether ``value`` is a marked string that is one reference as a whole (``marked``): a value the run gives."""
    return isinstance(value, WholeReference)


def marked(data: Any) -> Any:
    """``data`` with each string holding a reference a ``Reference`` (a ``WholeReference`` when it is one);
    the mappings and lists on the way to one are copies, all else is ``data``'s own."""
    return _marked(data) if _mentions(data) else data


def _mentions(data: Any) -> bool:
    """Whether a string in ``data`` holds '${{': one pass that builds nothing, since most files hold none."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if "${{" in value:
                return True
        elif isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


def _marked(data: Any) -> Any:
    if isinstance(data, str):
        if "${{" not in data:
            return data
        if is_reference(data):
            return WholeReference(data)
        return Reference(data) if REFERENCE.search(data) else data
    if isinstance(data, dict):
        items = {key: _marked(value) for key, value in data.items()}
        return items if any(items[key] is not value for key, value in data.items()) else data
    if isinstance(data, list):
        items = [_marked(value) for value in data]
        return items if any(new is not old for new, old in zip(items, data)) else data
    return data


def refers(value: Any) -> bool:
    """Whether ``value`` (a string, or a list or mapping of them) holds a reference: a path or a name the run
    gives it, which is not looked up as written."""
    if isinstance(value, str):
        return "${{" in value and REFERENCE.search(value) is not None
    if isinstance(value, dict):
        return any(refers(item) for item in value.values())
    return isinstance(value, list) and any(refers(item) for item in value)
