"""The script a code_judge runs: AgentV 4.42.4 runs it as 2.2 did, with other input. A script that reads a key
of 2.2's input (``PAYLOAD_KEYS``), in snake_case or as the SDK's camelCase, gets nothing there; the eval file
cannot say otherwise, so the upgrade reports it."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Optional

from evallint.load.reach import resolve
from evallint.rules.references import script_token
from evallint.suggest import quote
from evallint.upgrade.prompts import read_template
from evallint.upgrade.spellings import PAYLOAD_KEYS


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


# a compound name is specific enough as a word; a single word (question) counts only as a key or an attribute
_COMPOUND = sorted({name for key in PAYLOAD_KEYS if "_" in key for name in (key, _camel(key))}, key=len, reverse=True)
_SINGLE = sorted(key for key in PAYLOAD_KEYS if "_" not in key)
_KEYS = re.compile(r"\b(" + "|".join(_COMPOUND) + r")\b|(?<=[\"'.])(" + "|".join(_SINGLE) + r")\b")
_SNAKE = {_camel(key): key for key in PAYLOAD_KEYS}


@lru_cache(maxsize=256)  # a suite's cases often run the same script
def _read_keys(path: str) -> tuple:
    text = read_template(path)
    if text is None:
        return ()
    return tuple(dict.fromkeys(_SNAKE.get(name, name) for match in _KEYS.finditer(text)
                               for name in match.groups() if name))


def payload_note(command: Any, cwd: Any, folder: str, root: str) -> Optional[str]:
    """Why the script that ``command`` runs (in ``cwd``, else ``folder``) gets less from 4.42.4, or None."""
    found = script_token(command)
    if found is None:
        return None
    base = folder
    if isinstance(cwd, str):
        place = resolve(cwd, folder, root, want_dir=True)
        if place.path is None:
            return None
        base = place.path
    script = resolve(found[1], base, root, ancestors=False)
    keys = _read_keys(script.path) if script.path is not None else ()
    if not keys:
        return None
    read = ", ".join(f"{quote(key)} ({quote(PAYLOAD_KEYS[key]) if PAYLOAD_KEYS[key] else 'no longer sent'})"
                     for key in keys)
    return (f"the script {quote(found[1])} reads {read} of the input AgentV 2.2 gave it, which AgentV 4.42.4 gives "
            "a code grader under another name or not at all: update the script (the eval file cannot say it)")
