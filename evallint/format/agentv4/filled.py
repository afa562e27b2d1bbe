"""Where a test's vars fill in a value the loader reads (``rules/template_vars.py``), a problem of that value
says so: the value it quotes is not the one written at its place."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

from marshmallow import ValidationError

from evallint.format.fields import Problem
from evallint.format.walk import findings_of, walk
from evallint.rules.common import Place, Site
from evallint.rules.grader_lists import value_at
from evallint.rules.template_vars import mentions, render, variables
from evallint.suggest import quote

NOTHING = object()  # no value at a path (a null is one)


def said_filled(messages: Any, written: dict, filled: dict, at: tuple = ()) -> Any:
    """marshmallow's nested ``messages`` with each problem of a value that the test's vars change (``written``
    and ``filled`` differ at its path) saying so."""
    if isinstance(messages, dict):
        return {key: said_filled(value, written, filled, at + (key,)) for key, value in messages.items()}
    if isinstance(messages, list):
        return [said_filled(message, written, filled, at) for message in messages]
    if isinstance(messages, Problem) and value_at(written, at, NOTHING) != value_at(filled, at, NOTHING):
        return Problem(messages.code, f"with the test's vars filled in, {messages}", messages.target, messages.fix)
    return messages


def check_suite_input(data: dict, place: Place) -> Iterator:
    """The suite's input as each test that gets it has it, that test's vars filled in (``SuiteSchema.reads``
    leaves an input that holds a '{{ name }}' to this check): each problem once, for the first test whose
    vars make it, saying so; as written when no test gets it."""
    written = data.get("input")
    if not mentions(written):
        return
    field, at = place.schema.load_fields["input"], place.at + ("input",)
    seen, said = set(), set()
    for test in _getting_defaults(data.get("tests")) or ({},):
        value = render(written, variables(test))
        if repr(value) in seen:
            continue
        seen.add(repr(value))
        by = None if value == written else quote(test.get("id"))
        for item in _checked(field, value, Place(at, place.schema, place.keys, place.sidecar)):
            key = (item.code, item.message, item.path) if not isinstance(item, Site) else (item.value, item.path)
            if key not in said:
                said.add(key)
                yield item if by is None else _said_by(item, by)


def _getting_defaults(tests: Any) -> list:
    """The tests (mappings) that the suite's input is put in front of: those not skipping the defaults."""
    return [test for test in tests if isinstance(test, dict) and not (
        isinstance(test.get("execution"), dict) and test["execution"].get("skip_defaults") is True)] \
        if isinstance(tests, list) else []


def _checked(field: Any, value: Any, place: Place) -> list:
    """What loading ``value`` with ``field`` and walking it find, at ``place``."""
    try:
        field.deserialize(value)
        out = []
    except ValidationError as error:
        out = findings_of(error.messages, place.at)
    return out + list(walk(field, value, place))


def _said_by(item: Any, test: str) -> Any:
    if isinstance(item, Site):
        return replace(item, extra={**item.extra, "then": f"the runner leaves it out of the input of test {test}, "
                                                          "whose vars fill it in (warning 'File not found')"})
    # a fix would edit the written text, which does not hold the value
    return replace(item, message=f"with the vars of test {test} filled in, {item.message}", fix=None)
