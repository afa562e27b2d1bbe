"""The checks that need more than one value, run by one walk over a file's data
along its schema tree, after marshmallow has loaded it.

A schema lists its ``checks``: plain functions ``check(data, place)`` that
return what they find (``Finding``s, and ``Site``s: values naming another file
or a target). A field may list checks of its own value too, and says which
parts of its value other schemas or fields read (``parts``). A mapping's checks
see it as written; the walk goes on into what its schema reads of it, as the
schema's ``pre_load`` does (``reads``: without the keys the runner ignores), so
a value the runner never reads is never checked.

``load_checked`` runs both on a file's data, after marking its environment
references when the runner replaces them first (``environment.py``), and turns
marshmallow's nested errors into findings (``findings_of``)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Optional

from marshmallow import Schema, ValidationError
from marshmallow.exceptions import SCHEMA

from evallint.diagnostics import FIRST_KEY, Finding, Severity
from evallint.load.environment import marked, refers
from evallint.format.base import building, load
from evallint.format.fields import ABSENT, Problem
from evallint.format.keys import keys_of
from evallint.rules.common import Place, Site
from evallint.rules.grader_lists import without
from evallint.rules.registry import RULES
from evallint.rules.structure import shadowed_alias
from evallint.suggest import suggestions_per_file


def walk(node: Any, value: Any, place: Place) -> Iterator:
    """What the checks of ``node`` (a schema or a field) and of everything it reads find in ``value``."""
    if isinstance(node, Schema):
        if not isinstance(value, dict):
            return
        place = Place(place.at, node, keys_of(node), place.sidecar, place.document, above=place.keys)
        for check in node.checks:  # on the mapping as written: what the runner ignores in it is reported
            yield from check(value, place)
        yield from _shadowed_aliases(node, value, place)
        value = node.reads(value)
        for key, declared in _walked(node):
            if key in value:
                yield from walk(declared, value[key], Place(place.at + (key,), node, place.keys, place.sidecar,
                                                            place.document))
        return
    for check in getattr(node, "checks", ()):
        yield from check(value, place)
    parts = getattr(node, "parts", None)
    for child, part, at in parts(value, place.at) if parts else ():
        yield from walk(child, part, Place(at, place.schema, place.keys, place.sidecar, place.document))


def _shadowed_aliases(schema: Schema, value: dict, place: Place) -> Iterator:
    """EV108 for a key's other spelling (``LintSchema.aliases``) beside the key set: the runner reads the key."""
    for alias, key in getattr(schema, "aliases", ()):
        if alias in value and value.get(key) is not None:
            yield shadowed_alias(alias, key, place.at)


_WALKED: dict = {}


def _walked(schema: Schema) -> tuple:
    """(key, field) of each field of ``schema`` that has checks or parts: the others hold nothing to walk."""
    kind = type(schema)
    if kind not in _WALKED:
        _WALKED[kind] = tuple((field.data_key or name, field) for name, field in schema.load_fields.items()
                              if getattr(field, "checks", ()) or getattr(field, "parts", None))
    return _WALKED[kind]


@dataclass
class Found:
    """What loading one file found besides its model: findings, and the values that name other files or
    targets (checked once the file is loaded: rules/references.py)."""

    findings: list = field(default_factory=list)
    sites: list = field(default_factory=list)


def load_checked(schema: Schema, data: Any, sidecar: Optional[str] = None) -> tuple:
    """(the model ``schema`` loads from ``data`` or None, ``Found``): marshmallow's field errors, then what
    the checks find. ``sidecar``: a JSONL dataset's sidecar file name, where its suite settings go. Within
    ``base.models_built(False)`` the model is None."""
    found = Found()
    if schema.interpolated:
        data = marked(data)
    with suggestions_per_file():  # one file's "did you mean"s
        try:
            model = load(schema, data)
        except ValidationError as exc:
            model, found.findings = None, findings_of(exc.messages)
            if building() and all(RULES[f.code].severity is Severity.WARNING and f.path for f in found.findings):
                model = _load_without(schema, data, [f.path for f in found.findings])
        for item in walk(schema, data, Place(sidecar=sidecar, document=data)):
            (found.sites if isinstance(item, Site) else found.findings).append(item)
    if schema.interpolated:  # what the run's environment names is not looked up as written
        found.sites = [site for site in found.sites if not refers(site.value)]
    return (model if building() else None), found


def _load_without(schema: Schema, data: Any, paths: list) -> Any:
    """The model ``schema`` loads from ``data`` without the values at ``paths``, those of its warnings: the runner
    uses its default in place of each (a YAML 1.1 word for a boolean), or never reads it; None when it still fails."""
    try:
        return load(schema, without(data, paths))
    except ValidationError:
        return None


def rerooted(found: Found, key, root: tuple) -> Found:
    """What ``found`` holds inside the top-level ``key`` (or below the data path ``key``, a tuple), its paths
    starting at ``root`` instead (the lines of a dataset, a file of tests, the one test of a case file: what a
    suite schema loads under a key the file does not have). A finding that refers to a place outside it (a test
    another file holds) is left out: what it says of the two is said where the suite's tests are all known."""
    prefix = key if isinstance(key, tuple) else (key,)

    def moved(path: tuple) -> tuple:
        return root + tuple(path[len(prefix):])

    inside = [f for f in found.findings if f.path[:len(prefix)] == prefix and len(f.path) > 1
              and f.extra.get("ref", prefix)[:len(prefix)] == prefix]
    return Found(
        findings=[replace(f, path=moved(f.path), extra={**f.extra, "ref": moved(f.extra["ref"])})
                  if "ref" in f.extra else replace(f, path=moved(f.path)) for f in inside],
        sites=[replace(s, path=moved(s.path)) for s in found.sites if s.path[:len(prefix)] == prefix])


def findings_of(messages: Any, path: tuple = ()) -> list:
    """The findings in marshmallow's nested error dictionary: each key is a step of the data path
    (``_schema`` names the mapping itself). A message that is no ``Problem`` comes from marshmallow's own
    fields and is EV110."""
    out = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            out += findings_of(value, path if key == SCHEMA else path + (key,))
    elif isinstance(messages, list):
        for message in messages:
            out += findings_of(message, path) if isinstance(message, (dict, list)) else [_finding(message, path)]
    return out


def _finding(message: Any, path: tuple) -> Finding:
    if not isinstance(message, Problem):
        return Finding("EV110", f"invalid value at '{'.'.join(map(str, path))}': {message}", path)
    if message.target == ABSENT:
        return Finding(message.code, str(message), path[:-1], FIRST_KEY, fix=message.fix)
    return Finding(message.code, str(message), path, message.target, fix=message.fix)
