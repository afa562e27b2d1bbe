"""Where a test's vars fill in a value the loader reads (``rules/template_vars.py``), a problem of that value
says so: the value it quotes is not the one written at its place."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

from marshmallow import ValidationError

from evallint.format.fields import Problem
from evallint.format.walk import findings_of, walk
from evallint.rules.common import Place, Site, finding
from evallint.rules.grader_lists import skips_defaults, value_at
from evallint.rules.kept_tests import kept_by_loader
from evallint.rules.template_vars import FILLED_IN, holds, inherits, mentions, render, variables
from evallint.rules.test_vars import references_in
from evallint.suggest import quote

NOTHING = object()  # no value at a path (a null is one)


def said_filled(messages: Any, written: dict, read: dict, at: tuple = ()) -> Any:
    """marshmallow's nested ``messages`` with each problem of a value that the test's vars change (``written``
    and ``read``, its vars filled in, differ at its path) saying so."""
    if isinstance(messages, dict):
        return {key: said_filled(value, written, read, at + (key,)) for key, value in messages.items()}
    if isinstance(messages, list):
        return [said_filled(message, written, read, at) for message in messages]
    if isinstance(messages, Problem) and value_at(written, at, NOTHING) != value_at(read, at, NOTHING):
        return Problem(messages.code, f"{FILLED_IN}{messages}", messages.target, messages.fix)
    return messages


def check_suite_input(data: dict, place: Place) -> Iterator:
    """The suite's input as each test that gets it has it, that test's vars filled in (``SuiteSchema.reads``
    leaves an input that holds a '{{ name }}' to this check): each problem once, saying which test's vars make
    it when they change the value it is about. Without such a test, or with tests in other files, the input as
    written: only what no '{{ name }}' is in, since the vars may make it right."""
    written = data.get("input")
    if not mentions(written):
        return
    field, at = place.schema.load_fields["input"], place.at + ("input",)
    tests = next((data[key] for key in ("tests", "eval_cases", "evalcases") if key in data), None)
    getting = [test for test in tests if _gets_input(test, data)] if isinstance(tests, list) else []
    said = set()
    for value, by in _renderings(tests, getting, written):
        for item in _checked(field, value, replace(place, at=at)):
            inside = item.path[len(at):]
            key = (item.code, item.message, item.path) if not isinstance(item, Site) else (item.value, item.path)
            if key in said or (by is None and mentions(value_at(written, inside))):
                continue
            said.add(key)
            changed = value_at(written, inside, NOTHING) != value_at(value, inside, NOTHING)
            yield _said_by(item, by) if by is not None and changed else item
    yield from _unfilled(getting, written, at)


def _unfilled(getting: list, written: Any, at: tuple) -> Iterator:
    """EV406 for each '{{ name }}' of the suite's input that a test it goes to (``getting``) has no var of: the
    runner sends it to that test as written, or fills in what every JavaScript mapping inherits (the first such
    test is named)."""
    for path, match in references_in(written, at):
        name = match.group(1)
        lacking = next((test for test in getting if not holds(variables(test), name)
                        or inherits(variables(test), name) is not None), None)
        if lacking is None:
            continue
        inherited = inherits(variables(lacking), name)
        sent = "sends it to that test as written" if inherited is None else \
            f"fills in {quote(inherited)} for that test, what every JavaScript mapping inherits"
        yield finding("EV406", f"{quote(match.group(0))} names no variable of the vars of test {quote(lacking['id'])}, "
                      f"so the runner {sent}", path, needle=match.group(0))


def _renderings(tests: Any, getting: list, written: Any) -> list:
    """Each distinct (input as a test that gets it has it, that test's id quoted) of ``getting``, the tests of the
    suite's ``tests`` that do; and (the input as written, None) when no test of this file gets it or the suite's
    tests are in another file."""
    made = [(render(written, variables(test)), quote(test["id"])) for test in getting]
    if not getting or not isinstance(tests, list) or any(isinstance(test, str) for test in tests):
        made.append((written, None))
    out, seen = [], set()
    for value, by in made:
        if repr(value) not in seen:
            seen.add(repr(value))
            out.append((value, by))
    return out


def _gets_input(test: Any, suite: dict) -> bool:
    """Whether the loader puts the suite's input in front of ``test``'s: a test it keeps (an id, an input,
    something to grade by once its vars are filled in) that does not skip the suite's defaults."""
    return kept_by_loader(test, suite=suite) and not skips_defaults(test)


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
        warning = item.extra.get("warning", "File not found")
        return replace(item, extra={**item.extra, "then": f"the runner leaves it out of the input of test {test}, "
                                                          f"whose vars fill it in (warning '{warning}')"})
    # a fix would edit the written text, which does not hold the value
    return replace(item, message=f"with the vars of test {test} filled in, {item.message}", fix=None)
