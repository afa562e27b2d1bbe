"""What a ``%YAML 1.1`` directive changes. The runner's parser follows the directive, so a plain scalar
that YAML 1.1 reads as another value than YAML 1.2's core schema (``no`` a boolean, ``2026-01-01`` a
timestamp, ``017`` octal) is not what evallint, reading YAML 1.2, checks (EV014)."""
from __future__ import annotations

import re
from typing import Any, Optional

from evallint.suggest import yaml_boolean

_BOOLEANS = frozenset(w for word in ("y", "yes", "n", "no", "on", "off") for w in (word, word.capitalize(), word.upper()))
_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ]|\Z)")
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?\Z")
_NUMBER = re.compile(r"[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?)\Z")
_OCTAL = re.compile(r"[-+]?0[0-7]+\Z")
_DIRECTIVE = "which the '%YAML 1.1' directive makes the runner use"


def boolean(text: str) -> Optional[bool]:
    """The boolean YAML 1.1 reads ``text`` as, when it is one of its words that YAML 1.2's core schema reads
    as a string (``yes``, ``Off``, ``N``), else None."""
    return text.lower() in ("y", "yes", "on") if text in _BOOLEANS else None


def meaning(text: str) -> Optional[str]:
    """What YAML 1.1 makes of a plain scalar that YAML 1.2's core schema reads as a string, or None."""
    if text in _BOOLEANS:
        return "the boolean " + yaml_boolean(boolean(text))
    if _TIMESTAMP.match(text):
        return "a timestamp"
    if _SEXAGESIMAL.match(text):
        return "a base-60 number"
    if _NUMBER.match(text) and ("_" in text or text.lstrip("+-").lower().startswith("0b")):
        return "a number"
    return None


def changed_meaning(text: str, value: Any) -> Optional[str]:
    """The EV014 message for a plain scalar ``text`` that YAML 1.2 read as ``value``, when YAML 1.1 reads it
    otherwise; else None."""
    if isinstance(value, str):
        other = meaning(text)
        if other is not None:
            return (f"'{text[:60]}' is {other} under YAML 1.1, {_DIRECTIVE}, and a string under YAML 1.2; quote it, "
                    "or remove the directive")
    elif isinstance(value, int) and not isinstance(value, bool) and _OCTAL.match(text):
        return (f"'{text}' is the octal number {int(text.lstrip('+-'), 8)} under YAML 1.1, {_DIRECTIVE}, and "
                f"{value} under YAML 1.2; quote it, or remove the directive")
    elif isinstance(value, int) and not isinstance(value, bool) and text.startswith("0o"):  # YAML 1.2's octal alone
        return (f"'{text}' is a string under YAML 1.1, {_DIRECTIVE}, and the number {value} under YAML 1.2; write "
                f"{value}, or remove the directive")
    return None
