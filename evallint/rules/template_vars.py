"""A 4.42 test's ``vars`` filled into it as the loader fills them: on the values as written, before any shorthand
is read, in its criteria, input, input files and expected output, its turns' input and expected output, and the
suite's input and input files it gets. A string that is one ``{{ name }}`` becomes the variable's value itself
(a list of messages, say); a ``{{ name }}`` within text becomes the value's JSON text (``true``, ``{"a":1}``);
a name that ``vars`` does not hold is left as written. A dotted name reads a mapping inside a mapping."""
from __future__ import annotations

import json
import math
import re
from typing import Any, Optional

from evallint.load.environment import Reference

FILLED = ("criteria", "expected_outcome", "input", "input_files", "expected_output")
FILLED_IN = "with the test's vars filled in, "  # a finding about what the vars make of a value written with them
VARIABLE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}")
_ABSENT = object()  # a name that vars does not hold (a null is a value)
# the members every JavaScript object inherits, which the loader's lookup of a name (`vars[name]`) finds in any
# mapping: functions, which text gets as 'undefined' and a whole value as no value the loader reads
INHERITED = ("constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "toString",
             "valueOf", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__")
PROTOTYPE = "__proto__"  # every mapping's: an empty mapping, whose own is null
_FUNCTION = object()


def variables(test: dict) -> Optional[dict]:
    """The test's ``vars`` when it is a mapping, even an empty one (the loader fills them in then, and ignores
    another value), else None."""
    values = test.get("vars")
    return values if isinstance(values, dict) else None


def is_variable(value: Any) -> bool:
    """Whether ``value`` is one ``{{ name }}``: what each test's vars fill in, whatever it then holds."""
    return isinstance(value, str) and VARIABLE.fullmatch(value) is not None


def mentions(value: Any) -> bool:
    """Whether a string in ``value`` holds a ``{{ name }}``: what a test's vars may fill in."""
    if isinstance(value, str):
        return VARIABLE.search(value) is not None
    if isinstance(value, list):
        return any(mentions(item) for item in value)
    if isinstance(value, dict):
        return any(mentions(item) for item in value.values())
    return False


def filled(test: dict) -> dict:
    """``test`` (as written) with its vars filled in where the loader fills them."""
    values = variables(test)
    if values is None:
        return test
    out = {**test, **{key: render(test[key], values) for key in FILLED if key in test}}
    if isinstance(test.get("turns"), list):
        out["turns"] = [{**turn, **{key: render(turn[key], values) for key in ("input", "expected_output")
                                    if key in turn}} if isinstance(turn, dict) else turn for turn in test["turns"]]
    return out


def render(value: Any, values: Optional[dict]) -> Any:
    """``value`` with the ``{{ name }}`` references of ``values`` filled in; a string holding an environment
    reference is left as it is: the runner fills the vars into the text the environment makes of it, which is not
    known here (``environment.py``). Without vars (None) nothing is filled in."""
    if isinstance(value, Reference) or values is None:
        return value
    if isinstance(value, str):
        whole = VARIABLE.fullmatch(value)
        if whole:
            found = _lookup(values, whole.group(1))
            return value if found is _ABSENT else None if found is _FUNCTION else found
        return VARIABLE.sub(lambda m: _text(_lookup(values, m.group(1)), m.group(0)), value)
    if isinstance(value, list):
        return [render(item, values) for item in value]
    if isinstance(value, dict):
        return {key: render(item, values) for key, item in value.items()}
    return value


def holds(values: Optional[dict], name: str) -> bool:
    """Whether the loader finds the (dotted) ``name`` in ``values``, as a variable or as what every mapping
    inherits (``inherits``)."""
    return _lookup(values, name) is not _ABSENT


def is_null(values: Optional[dict], name: str) -> bool:
    """Whether the (dotted) ``name`` is a variable of ``values`` whose value is null (a key written with none)."""
    return _lookup(values, name, inherited=False) is None


def inherits(values: Optional[dict], name: str) -> Optional[str]:
    """What the loader fills into text for the (dotted) ``name`` when it finds it through what every JavaScript
    mapping inherits, not as a variable of ``values`` ('undefined' for a function, '{}' for a prototype); None
    when it does not."""
    found = _lookup(values, name)
    if found is _ABSENT or _lookup(values, name, inherited=False) is not _ABSENT:
        return None
    return _text(found, "")


def _lookup(values: dict, name: str, inherited: bool = True) -> Any:
    """What the loader finds for the (dotted) ``name`` in ``values``: what every mapping inherits too, unless not
    ``inherited`` (a variable of its own only)."""
    found: Any = values
    for part in name.split("."):
        if not isinstance(found, dict) or found is _NULL_PROTOTYPE:
            return _ABSENT
        if part in found:
            found = found[part]
        elif inherited and part == PROTOTYPE:
            found = _NULL_PROTOTYPE if found is _OBJECT_PROTOTYPE else _OBJECT_PROTOTYPE
        elif inherited and part in INHERITED:
            found = _FUNCTION
        else:
            return _ABSENT
    return None if found is _NULL_PROTOTYPE else {} if found is _OBJECT_PROTOTYPE else found


_OBJECT_PROTOTYPE: dict = {}  # what '__proto__' finds (its members are INHERITED)
_NULL_PROTOTYPE: dict = {}  # what its own '__proto__' finds: null


def _text(value: Any, written: str) -> str:
    """A variable's value within text: a string as it is, another value as JSON (as JavaScript writes it)."""
    if value is _ABSENT:
        return written
    if value is _FUNCTION:
        return "undefined"  # JSON.stringify of a function
    return value if isinstance(value, str) else json.dumps(_js_numbers(value), ensure_ascii=False,
                                                           separators=(",", ":"))


def _js_numbers(value: Any) -> Any:
    """``value`` with each whole float an int (JavaScript has one number type and writes 1.0 as 1) and each
    number that is not finite null (JSON, as JavaScript writes it, has no NaN or Infinity)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_js_numbers(item) for item in value]
    if isinstance(value, dict):
        return {key: _js_numbers(item) for key, item in value.items()}
    return value
