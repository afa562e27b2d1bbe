"""The script a code_judge runs: AgentV 4.42.4 runs it as 2.2 did, with other input. A script that reads a key
of 2.2's input (``PAYLOAD_KEYS``), in snake_case or as the SDK's camelCase, gets nothing there; the eval file
cannot say otherwise, so the upgrade reports it."""
from __future__ import annotations

import re
from typing import Any, Optional

from evallint.load import deps
from evallint.load.view import current
from evallint.rules.script_files import script_file
from evallint.suggest import quote
from evallint.upgrade.spellings import PAYLOAD_KEYS

MAX_SCRIPT_BYTES = 1024 * 1024  # a script past this size is not read for the keys it uses


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


# a compound name is specific enough as a word; a single word (question) counts only as a key or an attribute
_COMPOUND = sorted({name for key in PAYLOAD_KEYS if "_" in key for name in (key, _camel(key))}, key=len, reverse=True)
_SINGLE = sorted(key for key in PAYLOAD_KEYS if "_" not in key)
_KEYS = re.compile(r"\b(" + "|".join(_COMPOUND) + r")\b|(?<=[\"'.])(" + "|".join(_SINGLE) + r")\b")
_SNAKE = {_camel(key): key for key in PAYLOAD_KEYS}


def _read_keys(view, path: str, size: int) -> tuple:
    data = view.read(path, size, MAX_SCRIPT_BYTES)
    if data is None:
        return ()
    text = data.decode("utf-8", "replace")
    return tuple(dict.fromkeys(_SNAKE.get(name, name) for match in _KEYS.finditer(text)
                               for name in match.groups() if name))


def payload_note(command: Any, cwd: Any, folder: str, root: str) -> Optional[str]:
    """Why the script that ``command`` runs (in ``cwd``, else ``folder``) gets less from 4.42.4, or None."""
    found = script_file(command, cwd, folder, root)
    script = found[3] if found is not None else None
    if script is None or script.path is None:
        return None
    view = current()
    keys = deps.memoized(("payload keys", view, script.path), _read_keys, view, script.path, script.size)
    if not keys:
        return None
    read = ", ".join(f"{quote(key)} ({quote(PAYLOAD_KEYS[key]) if PAYLOAD_KEYS[key] else 'no longer sent'})"
                     for key in keys)
    return (f"the script {quote(found[1])} reads {read} of the input AgentV 2.2 gave it, which AgentV 4.42.4 gives "
            "a code grader under another name or not at all: update the script (the eval file cannot say it)")
