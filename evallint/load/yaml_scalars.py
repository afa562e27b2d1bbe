"""The value of a YAML scalar as the runner's YAML 1.2 core-schema parser reads it: a plain scalar
resolved by the core schema's patterns, a scalar with a standard tag by its tag, and the key that a scalar
makes of itself when an alias names it."""
from __future__ import annotations

import math
import re
from typing import Any, Optional

from evallint.load.numbers import as_float, decimal_int
from evallint.suggest import yaml_boolean

_T = "tag:yaml.org,2002:"
_READ_TAGS = ("str", "int", "float", "bool", "null", "map", "seq", "omap", "set", "pairs")
# tags of YAML 1.1's type repository of which the runner's parser builds a JavaScript object (a Date, a
# Uint8Array) from a scalar, where every key of an eval file reads text, a number or a collection
_OBJECT_TAGS = {"timestamp": "a date", "binary": "a byte array"}
STANDARD_TAGS = frozenset(_T + name for name in (*_READ_TAGS, *_OBJECT_TAGS)) | {"!"}
ACCEPTED_TAGS = ", ".join("!!" + name for name in _READ_TAGS)

_INT10 = re.compile(r"[-+]?[0-9]+\Z")
_INT8 = re.compile(r"0o[0-7]+\Z")
_INT16 = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(nan|NaN|NAN)\Z")
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}  # no other case


def shown_tag(tag: str) -> str:
    """A tag as it is written in a file: ``!!int`` for the core schema's, the others as they are."""
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag


def tag_problem(tag: str, scalar: bool) -> Optional[str]:
    """What is wrong with ``tag`` on a node (a scalar when ``scalar``), as EV004 says it; None for a tag whose
    value evallint reads as the runner does."""
    if tag not in STANDARD_TAGS:
        return f"tag '{shown_tag(tag)}' is not a standard YAML tag; nothing is constructed from it (accepted: {ACCEPTED_TAGS})"
    built = _OBJECT_TAGS.get(tag[len(_T):]) if scalar and tag.startswith(_T) else None
    if built:
        return (f"tag '{shown_tag(tag)}' makes the runner's YAML parser build {built} of the value, not text: where a "
                f"key reads text, the value is taken as missing (a test or a grader is skipped) or sent as an object; "
                f"remove the tag (accepted: {ACCEPTED_TAGS})")
    return None


def key_text(value: Any) -> str:
    """The key a scalar makes of itself when an alias names it (mapping keys are strings for the runner)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return yaml_boolean(value)
    if isinstance(value, int) and value.bit_length() > 1024:  # a double of it is infinite, as the runner reads it
        return "Infinity" if value > 0 else "-Infinity"
    return str(value)  # a float's str is its repr


def resolve_plain(text: str) -> Any:
    """YAML 1.2 core schema resolution of a plain scalar."""
    if text in _NULLS:
        return None
    first = text[0]
    if first in "tTfF":
        return _BOOLEANS.get(text, text)
    if first in "0123456789+-.":
        if _INT10.match(text):
            return decimal_int(text)
        if _INT8.match(text):
            return int(text[2:], 8)
        if _INT16.match(text):
            return int(text[2:], 16)
        if _FLOAT.match(text):
            return float(text)
        if _INF.match(text):
            return -math.inf if text[0] == "-" else math.inf
        if _NAN.match(text):
            return math.nan
    return text


def resolve_tagged(text: str, tag: str) -> Any:
    """The value of a scalar with a standard tag; ValueError when the text is not a value of that tag."""
    kind = tag[len(_T):] if tag.startswith(_T) else ""
    if kind == "int":
        value = resolve_plain(text)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif kind == "float":
        value = resolve_plain(text)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return as_float(value)
    elif kind == "bool":
        value = resolve_plain(text)
        if isinstance(value, bool):
            return value
    elif kind == "null":
        if text in _NULLS:
            return None
    else:
        return text
    raise ValueError(f"not a valid {shown_tag(tag)} value")
