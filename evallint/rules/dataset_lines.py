"""The checks of a line of a JSONL dataset where its loader reads it otherwise than a case of a YAML suite.

In both versions a line's 'execution' (a mapping) replaces its sidecar's, so the sidecar's evaluators or default
graders do not reach the line (EV113). In AgentV 4.42's: the keys only a YAML suite's test has are not read
(EV115), the line's own default lists are what its 'skip_defaults' skips (EV113), and its
'execution.evaluators', with no other list beside it, is read both as the line's graders and as its defaults
(EV118)."""
from __future__ import annotations

from typing import Iterator

from evallint.diagnostics import KEY
from evallint.rules.grader_lists import LINE_DEFAULT_LISTS, TEST_LISTS, first_list, line_defaults, value_at
from evallint.rules.common import execution_of, finding

TWICE = ("execution", "evaluators")


def _not_read(mapping: dict, place, said: str) -> Iterator:
    """EV115 for each key of ``mapping`` that only a YAML suite's test reads (the schema's ``not_read``), ``said``
    of it (``{key}`` stands for the key)."""
    for key in place.schema.not_read:
        if key in mapping:
            yield finding("EV115", said.format(key=key) + ": the runner reads it only in a test of a YAML suite, so "
                          "what it holds is dropped", place.at + (key,), KEY)


def check_line(line: dict, place) -> Iterator:
    """EV115 for each key of a YAML suite's test that a dataset line has; EV118 for graders read twice."""
    yield from _not_read(line, place, "'{key}' is not read in a JSONL dataset line")
    if first_list(line, TEST_LISTS) == TWICE and line_defaults(line) == TWICE:
        yield finding("EV118", "this line's 'execution.evaluators' runs twice: the runner reads it as the line's "
                      "graders and again as its default graders (a line's 'execution' stands in for its sidecar's); "
                      "move the list to the line's 'assertions'", place.at + TWICE, KEY)


def check_line_execution(execution: dict, place) -> Iterator:
    """EV115 for each key of a YAML suite test's execution that a dataset line's has; EV113 for the default
    lists that its 'skip_defaults' skips."""
    yield from _not_read(execution, place, "'{key}' in a JSONL dataset line's 'execution' is not read")
    if execution.get("skip_defaults") is True:
        for (key,) in LINE_DEFAULT_LISTS[:2]:  # 'evaluators' is still read as the line's own graders
            if key in execution:
                yield finding("EV113", f"'execution.{key}' is ignored because 'skip_defaults' is true: in a JSONL "
                              "dataset line it holds the line's default graders, which that skips; move the list "
                              "to the line's 'assertions'", place.at + (key,), KEY)


def check_sidecar_defaults(data: dict, place) -> Iterator:
    """EV113 for each line whose 'execution' replaces the sidecar's while the sidecar's holds default graders
    (not when the line skips the defaults: then it means it)."""
    execution = execution_of(data)
    sidecar_list = first_list(execution, LINE_DEFAULT_LISTS)
    tests = data.get("tests")
    if sidecar_list is None or value_at(execution, sidecar_list) is None or not isinstance(tests, list):
        return  # a null list is read as absent: no defaults to lose
    for i, line in enumerate(tests):
        execution = line.get("execution") if isinstance(line, dict) else None
        if isinstance(execution, dict) and execution.get("skip_defaults") is not True:
            yield finding("EV113", f"this line's 'execution' replaces the one of its sidecar '{place.sidecar}', so the "
                          f"sidecar's default graders ('execution.{sidecar_list[0]}') do not apply to it; list them in "
                          "the line's own 'execution', or write 'skip_defaults: true' there if that is meant",
                          ("tests", i, "execution"), KEY)


def check_sidecar_evaluators(data: dict, place) -> Iterator:
    """AgentV 2.2: EV113 for each line whose 'execution' replaces the sidecar's while the sidecar's holds
    evaluators and the line has none of its own (which would replace them anyway)."""
    execution = data.get("execution")
    cases = data.get("evalcases")
    if not (isinstance(execution, dict) and "evaluators" in execution and isinstance(cases, list)):
        return
    for i, line in enumerate(cases):
        own = line.get("execution") if isinstance(line, dict) else None
        if isinstance(own, dict) and "evaluators" not in own and "evaluators" not in line:
            yield finding("EV113", f"this line's 'execution' replaces the one of its sidecar '{place.sidecar}', so the "
                          "sidecar's 'execution.evaluators' do not apply to it and the runner grades it with its "
                          "default evaluator only; list them in the line's own 'execution'", ("evalcases", i, "execution"),
                          KEY)
