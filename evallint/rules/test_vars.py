"""The ``{{ name }}`` of an AgentV 4.42 test that the runner leaves as written (EV406, a warning: the text runs as
written, though not as meant): a name the test's vars do not hold, in a value the loader fills them into, and a
name they hold in an assertion, where the loader fills none (yaml-parser.ts ``interpolateRawEvalCase``)."""
from __future__ import annotations

import re
from typing import Any, Iterator

from evallint.load.environment import REFERENCE, Reference
from evallint.rules.common import execution_of, finding
from evallint.rules.grader_files import TEMPLATE_VARIABLES_4
from evallint.rules.grader_lists import first_list, skips_defaults, suite_lists, value_at
from evallint.rules.template_vars import FILLED, VARIABLE, holds, inherits, is_null, variables
from evallint.suggest import did_you_mean, quote

FILLED_WHERE = "its criteria, input, input_files, expected_output and each turn's input and expected_output"


def check_vars(test: dict, place) -> Iterator:
    """EV406 for each ``{{ name }}`` of a test with vars that the runner leaves as written (or fills in with what
    every JavaScript mapping inherits); one of its vars in another var's value, which is filled in once only."""
    values = variables(test)
    if values is None:
        return
    turns = [(i, turn) for i, turn in enumerate(test.get("turns") or ()) if isinstance(turn, dict)] \
        if isinstance(test.get("turns"), list) else []
    filled = [((key,), test.get(key)) for key in FILLED] + \
        [(("turns", i, key), turn.get(key)) for i, turn in turns for key in ("input", "expected_output")]
    used = _suite_uses(place.document, test)
    for path, value in filled:
        yield from _unnamed(values, value, place.at + path)
        yield from _environment_for_var(values, value, place.at + path)
        for at, match in references_in(value, place.at + path):
            used.add(match.group(1).split(".")[0])
            if path != ("input_files",):  # a path left unfilled is looked up as written: EV401 says it is missing
                yield from _unfilled(values, at, match)
    for name in [name for name in values if name in used]:
        for at, match in references_in(values[name], place.at + ("vars", name)):
            if holds(values, match.group(1)) and inherits(values, match.group(1)) is None:
                yield finding("EV406", f"{quote(match.group(0))} in the value of var '{name}' is not filled in: the "
                              "runner fills a test's vars in once, not into their own values, so the test gets it as "
                              "written", at, needle=match.group(0))
    yield from _in_graders(test, values, turns, place.at)


# a '{{ ... }}' of any text, and what the loader takes for a name (template_vars.VARIABLE)
BRACED = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def _environment_for_var(values: dict, value: Any, at: tuple) -> Iterator:
    """EV406 for a '${{ name }}' of a name of the vars: an environment reference, which the runner replaces with the
    variable's value (empty when it is unset) before it fills in the vars."""
    for match in REFERENCE.finditer(value) if isinstance(value, Reference) else ():
        name = match.group(0)[3:-2].strip()
        if name in values:
            yield finding("EV406", f"{quote(match.group(0))} is an environment reference, not the test's var "
                          f"{quote(name)}: the runner fills it in from the environment (empty when {quote(name)} is not "
                          f"set there) before it fills in the vars; write '{{{{ {name} }}}}'", at, needle=match.group(0))


def _unnamed(values: dict, value: Any, at: tuple) -> Iterator:
    """EV406 for a '{{ key }}' of a key of the vars that is no name the loader fills (a '-', a space): sent as
    written."""
    for match in BRACED.finditer(value) if isinstance(value, str) and not isinstance(value, Reference) else ():
        key = match.group(1)
        if key in values and not NAME.fullmatch(key):
            yield finding("EV406", f"{quote(match.group(0))} is not filled in: the runner fills in only a name of "
                          "letters, digits, '_' and '.' that starts with a letter or '_', so the test gets the text as "
                          f"written; rename the var {quote(key)}", at, needle=match.group(0))


def check_suite_graders(suite: dict, place) -> Iterator:
    """EV406 for a name that the vars of a test getting the suite's default graders hold, in those graders: the
    loader fills a test's vars into none of them either."""
    path = first_list(suite, suite_lists(suite))
    tests = suite.get("tests") if path else None
    getting = [variables(test) for test in (tests if isinstance(tests, list) else ()) if isinstance(test, dict)
               and not skips_defaults(test)]
    for where, match in references_in(value_at(suite, path), place.at + path) if path else ():
        if match.group(1) not in TEMPLATE_VARIABLES_4 and any(values and holds(values, match.group(1)) for values in getting):
            yield finding("EV406", f"{quote(match.group(0))} is not filled in: the runner fills a test's vars only into "
                          f"{FILLED_WHERE}, not into the suite's graders, so the grader gets the text as written", where,
                          needle=match.group(0))


def _suite_uses(document, test: dict) -> set:
    """The vars the suite's input and input files name, which the loader fills in with ``test``'s vars (unless the
    test skips the suite's defaults)."""
    if not isinstance(document, dict) or skips_defaults(test):
        return set()
    return {match.group(1).split(".")[0] for key in ("input", "input_files")
            for _, match in references_in(document.get(key), ())}


def _in_graders(test: dict, values: dict, turns: list, at: tuple) -> Iterator:
    """EV406 for a name of the vars in the test's or a turn's graders, which the loader does not fill."""
    execution = execution_of(test)
    graders = [((key,), test.get(key)) for key in ("assertions", "assert", "evaluators")] + \
        [(("execution", "evaluators"), execution.get("evaluators"))] + \
        [(("turns", i, "assertions"), turn.get("assertions")) for i, turn in turns]
    for path, value in graders:
        for where, match in references_in(value, at + path):
            if holds(values, match.group(1)) and match.group(1) not in TEMPLATE_VARIABLES_4:  # a grader's own
                yield finding("EV406", f"{quote(match.group(0))} is not filled in: the runner fills a test's vars "
                              f"only into {FILLED_WHERE}, so the grader gets the text as written", where,
                              needle=match.group(0))


def _unfilled(values: dict, at: tuple, match) -> Iterator:
    """EV406 for a ``{{ name }}`` of a value the vars fill that they do not hold: left as written, or filled in with
    what every JavaScript mapping inherits."""
    inherited = inherits(values, match.group(1))
    whole = match.start() == 0 and match.end() == len(match.string)
    if inherited is not None:
        sent = "leaves the value empty" if whole and inherited == "undefined" else f"fills in {quote(inherited)}"
        yield finding("EV406", f"{quote(match.group(0))} names no variable of the test's vars but what every "
                      f"JavaScript mapping inherits, so the runner {sent}", at, needle=match.group(0))
    elif not holds(values, match.group(1)):
        yield finding("EV406", f"{quote(match.group(0))} names no variable of the test's vars"
                      f"{did_you_mean(match.group(1), list(values))}, so the runner sends it as written", at,
                      needle=match.group(0))
    elif is_null(values, match.group(1)) and not whole:
        yield finding("EV406", f"{quote(match.group(0))} names the test's var {quote(match.group(1))}, which is null "
                      "(written with no value), so the runner fills in the text 'null'; give it a value", at,
                      needle=match.group(0))


def references_in(value: Any, at: tuple) -> Iterator:
    """(the data path of a string, a ``{{ name }}`` in it) for each name in ``value``, once per string; not in a
    string the environment makes (``Reference``), which is not known here, nor a '${{ ... }}' (another tool's)."""
    if isinstance(value, str) and not isinstance(value, Reference):
        first: dict = {}
        for match in VARIABLE.finditer(value):
            if value[match.start() - 1:match.start()] != "$":
                first.setdefault(match.group(1), match)
        yield from ((at, match) for match in first.values())
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from references_in(item, at + (i,))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from references_in(item, at + (key,))
