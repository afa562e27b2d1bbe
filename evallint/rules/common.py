"""Checks shared by several rule families: unknown keys, numbers, text."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Collection, Iterable, Iterator, Mapping, Optional, Union

from evallint.diagnostics import E, KEY, VALUE, W, Finding, Rule
from evallint.load.numbers import as_float
from evallint.suggest import compact, did_you_mean, near_misses, yaml_boolean

# the rules this module finds, explained in common.md beside it
EV109 = Rule("EV109", "unknown-key", W, "a key that is not part of the format")
EV115 = Rule("EV115", "misspelt-key", E, "a key written in place of a key the runner reads, which drops what it holds")


@dataclass(frozen=True)
class Place:
    """Where a checked value is (format/walk.py): its data path; the schema that loads it and the keys that
    schema declares (``Keys``); in a JSONL dataset, the file name of its sidecar, where suite settings go; the
    whole file's data, for a check of what the runner merges from around its value (a test's hooks with the
    suite's); ``above``: the keys of the mapping that holds this one, when a schema loads it (what the runner reads
    there, written here, is dropped)."""

    at: tuple = ()
    schema: Any = None
    keys: Any = None
    sidecar: Optional[str] = None
    document: Any = None
    above: Any = None


def finding(code: str, message: str, path: tuple, target: str = VALUE, fix: Optional[Any] = None,
            ref: Optional[tuple] = None, needle: Optional[str] = None) -> Finding:
    """A finding at the data path ``path``. ``ref`` is the data path of an earlier node whose line replaces
    ``{ref_line}`` in the message; ``needle`` is text inside the value where the finding points exactly;
    ``fix`` is a fix recipe (report/fixes.py)."""
    extra = {"ref": tuple(ref)} if ref is not None else {}
    if needle is not None:
        extra["needle"] = needle
    return Finding(code, message, tuple(path), target, fix=fix, extra=extra)


@dataclass(frozen=True)
class Site:
    """A value that names another file or a target, or whose verdict depends on another file, checked once the file
    is loaded (rules/references.py)."""

    kind: str
    value: Any
    path: tuple
    extra: Mapping[str, Any] = field(default_factory=dict)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_finite_number(value: Any) -> bool:
    """A number that is finite as the runner reads it (an integer beyond a double's range is infinite)."""
    return is_number(value) and math.isfinite(as_float(value))


def js_truthy(value: Any) -> bool:
    """Whether the loader's JavaScript counts ``value`` as set (``if (value)``): not null, "", 0 or false (an
    empty list or mapping is set)."""
    return value is not None and value is not False and value != "" and not (is_number(value) and value == 0)


def execution_of(mapping: Any) -> dict:
    """The 'execution' of a suite, a test or a dataset line: {} when it has none that is a mapping."""
    execution = mapping.get("execution") if isinstance(mapping, dict) else None
    return execution if isinstance(execution, dict) else {}


def is_text(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


@dataclass(frozen=True)
class Keys:
    """The keys a mapping may hold, as its schema declares them. ``read``: the ones the runner reads (a key
    written in place of one of them drops what it holds); ``confusable``: other names people give a read key
    (``workdir`` for ``cwd``); ``opposite``: names people give a read flag's negation (``should_not_trigger``
    for ``should_trigger``); ``default``: what the runner uses when a read key is absent (a value, or the
    ``Keys`` of a mapping: the same as one whose entries the runner reads all hold their defaults); ``below``:
    the keys the runner reads one level down, in what one key of this mapping holds, and not here (each with
    its ``Misplaced``)."""

    known: tuple
    read: tuple = ()
    confusable: Mapping[str, tuple] = field(default_factory=dict)
    default: Mapping[str, Any] = field(default_factory=dict)
    below: Mapping[str, Any] = field(default_factory=dict)
    opposite: Mapping[str, tuple] = field(default_factory=dict)

    def meant(self, key: str, mapping: dict) -> tuple:
        """The read keys absent from ``mapping`` that ``key`` is probably a misspelling of."""
        absent = tuple(k for k in self.read if k not in mapping)
        same = tuple(k for k in absent if compact(k) == compact(key))  # 'Required', 'maxCalls': no other guess
        if same:
            return same
        declared = tuple(k for k in absent if key.lower() in self.confusable.get(k, ()) or self.negates(k, key))
        if declared:  # a name people give a read key: no other guess
            return declared
        near = near_misses(key, absent)
        return tuple(k for k in absent if k in near)

    def negates(self, read: str, key: str) -> bool:
        """Whether ``key`` names the negation of the read flag ``read``."""
        return key.lower() in self.opposite.get(read, ())

    def as_read(self, read: str, key: str, value: Any) -> Any:
        """What ``value`` under ``key`` says of ``read``: a boolean under a name of its negation says the reverse."""
        return not value if isinstance(value, bool) and self.negates(read, key) else value

    def stands_for(self, key: str, mapping: dict) -> bool:
        """Whether ``key`` is another name people give a read key absent from ``mapping`` (a test's 'prompt'
        without 'input'): then it is about this level, whatever a level below reads under that name."""
        return any(key.lower() in self.confusable.get(k, ()) for k in self.read if k not in mapping)

    def is_default(self, key: str, value: Any) -> bool:
        """``value`` under ``key`` is what the runner uses anyway when ``key`` is absent."""
        if key not in self.default:
            return False
        default = self.default[key]
        if isinstance(default, Keys):  # a mapping: each entry the runner reads holds its default
            return isinstance(value, dict) and all(isinstance(k, str) and (k not in default.read
                                                                           or default.is_default(k, v))
                                                   for k, v in value.items())
        return value == default or (isinstance(value, str) and value.strip() == default)


_NO_DEFAULT = object()


@dataclass(frozen=True)
class Misplaced:
    """A key the runner reads one level up or down from where it is written: ``where`` says where (for the
    message: "under 'execution:' (as 'execution.evaluators')"), ``kind`` is the type it holds there (a value
    of another type is more likely a misspelling of a key of this level), ``default`` what the runner uses
    there without it, ``code`` the rule that reports it."""

    where: str
    kind: Any  # a type, or a tuple of types
    default: Any = _NO_DEFAULT
    code: str = "EV115"

    def fits(self, value: Any) -> bool:
        return isinstance(value, self.kind)


def _misplaced(key: str, value: Any, place: Misplaced, at: tuple, where: str, code: str) -> Finding:
    if value == place.default or (isinstance(value, str) and value.strip() == place.default):
        return finding(code, f"unknown key '{key}' in {where}: the runner reads it only {place.where}; what it holds "
               "is what the runner uses anyway", at + (key,), KEY)
    return finding(place.code, f"unknown key '{key}' in {where}: the runner reads it only {place.where}, so what it "
               "holds is dropped here; move it there", at + (key,), KEY)


def _belongs_elsewhere(key: str, mapping: dict, keys: Keys, misplaced: Optional[Mapping[str, Misplaced]]):
    """Where the runner reads ``key``, written here, when what it holds fits there and it is not another name of a
    read key absent here (``misplaced`` first, else the keys' ``below``); else None."""
    place = misplaced[key] if misplaced and key in misplaced else keys.below.get(key)
    fits = place is not None and place.fits(mapping[key]) and not keys.stands_for(key, mapping)
    return place if fits else None


def check_unknown_keys(mapping: dict, known: Union[Keys, Collection[str]], at: tuple, where: str,
                       skip: Collection[str] = (), code: str = "EV109", notes: Optional[dict] = None,
                       report_unknown: bool = True, elsewhere: Optional[Mapping[str, str]] = None,
                       misplaced: Optional[Mapping[str, Misplaced]] = None, carried: bool = False,
                       instead: Optional[Mapping[str, str]] = None) -> Iterator[Finding]:
    """Report each key not in ``known`` (nor in ``skip``) at the key. A key that ``misplaced`` names (or else
    the keys' ``below``), holding what the runner reads in that other place, says where it belongs (``code``
    when what it holds is the default there anyway). A key written for a read key that is absent (a near
    miss, or a name declared confusable) is EV115 unless what it holds is the default anyway, and so is a
    key that ``elsewhere`` names (key -> the kinds that read it: "'regex' assertions"); any other is ``code``, with a
    "did you mean" or the list of known keys (not reported without ``report_unknown``). ``notes`` adds a
    sentence for particular keys, ``instead`` says one in place of the "did you mean"; ``carried``: the runner
    passes the mapping's other keys on to what it runs. A key that is no string is reported elsewhere."""
    keys = known if isinstance(known, Keys) else Keys(tuple(known))
    for key in mapping:
        if not isinstance(key, str) or key in keys.known or key in skip:
            continue
        place = _belongs_elsewhere(key, mapping, keys, misplaced)
        if place is not None:
            yield _misplaced(key, mapping[key], place, at, where, code)
            continue
        meant = keys.meant(key, mapping)
        if meant and not all(keys.is_default(k, keys.as_read(k, key, mapping[key])) for k in meant):
            then = f"does not read it as {' or '.join(map(repr, meant))}: it passes it on to the grader in its " \
                "configuration" if carried else "does not read it, so what it holds is dropped"
            yield finding("EV115", f"unknown key '{key}' in {where} (did you mean {_meant(keys, key, meant, mapping)}); "
                          f"the runner {then}", at + (key,), KEY)
        elif elsewhere and key in elsewhere:
            yield finding("EV115", f"unknown key '{key}' in {where}: it belongs to {elsewhere[key]} (is 'type' "
                   f"right?); the runner does not read it here, so what it holds is dropped", at + (key,), KEY)
        elif report_unknown:
            note = (notes or {}).get(key, "") or ("; what it holds is what the runner uses anyway" if meant else "")
            yield finding(code, f"unknown key '{key}' in {where}{_hint(keys, key, meant, mapping, instead)}{note}",
                          at + (key,), KEY)


def _hint(keys: Keys, key: str, meant: tuple, mapping: dict, instead: Optional[Mapping[str, str]]) -> str:
    """What the message of an unknown ``key`` says it may be: the read keys ``meant``, what ``instead`` says of it,
    a known key it is near, or the known keys."""
    if meant:
        return f" (did you mean {_meant(keys, key, meant, mapping)})"
    return (instead or {}).get(key) or did_you_mean(key, keys.known) or \
        " (known keys: " + ", ".join(sorted(keys.known)) + ")"


def _meant(keys: Keys, key: str, meant: tuple, mapping: dict) -> str:
    """The "did you mean" of ``key`` for the read keys ``meant``: a boolean under a name of a flag's negation is
    the flag with the value it means."""
    reverse = next((k for k in meant if keys.negates(k, key) and isinstance(mapping[key], bool)), None)
    if reverse is not None:
        return f"'{reverse}: {yaml_boolean(keys.as_read(reverse, key, mapping[key]))}'? it says the opposite"
    return " or ".join(map(repr, meant)) + "?"


def takes(schema: Any, key: str, value: Any) -> bool:
    """Whether the field of ``schema`` that reads ``key`` takes ``value`` (a check about a value the schema's own
    field rejects leaves it to that field's finding); false when no field reads it."""
    from marshmallow import ValidationError

    field = next((f for name, f in schema.load_fields.items() if (f.data_key or name) == key), None)
    if field is None:
        return False
    try:
        field.deserialize(value)
    except ValidationError:
        return False
    return True


def repeats(named: Iterable) -> Iterator[tuple]:
    """(place, name, the place of its first) for each (place, name) of ``named`` whose name an earlier one has: a name
    or an id written twice in a list, where the runner keeps one of the items."""
    first: dict = {}
    for place, name in named:
        if name in first:
            yield place, name, first[name]
        else:
            first[name] = place
