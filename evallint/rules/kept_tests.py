"""Which tests AgentV 4.42.4's loader keeps of a YAML suite (yaml-parser.ts: a test needs an id, an input that
makes a message and something to grade by, else it is skipped as incomplete), and the first of them, whose
workspace the run's setup reads."""
from __future__ import annotations

from collections import Counter
from typing import Any, Optional

from evallint.rules.common import is_finite_number
from evallint.rules.grader_lists import TEST_LISTS, default_graders, first_list, normal_type, value_at
from evallint.rules.input_files import names_files, suite_files_filled
from evallint.rules.messages import ROLES, is_message
from evallint.rules.template_vars import filled


def kept_by_loader(test: Any, dataset: bool = False, suite: Any = None) -> bool:
    """Whether the loader keeps ``test`` of a YAML suite: a mapping with an id, an input (not null, not an empty
    list: no message) that the input files it gets allow (``_files_taken``: its own, else those of ``suite``, the
    suite's mapping when known), and something to grade by, as written and with its vars filled in, whose graders'
    weights the grader parser takes (loaders/grader-parser.ts throws on another, and the loader skips the test). Of
    a JSONL ``dataset`` line, whose vars its loader does not fill in and which gets no suite's input files, as
    ``gradable`` says of one."""
    if not (isinstance(test, dict) and isinstance(test.get("id"), str) and test["id"] != ""):
        return False
    read = test if dataset else filled(test)
    return sends(test.get("input")) and sends(read.get("input")) and gradable(test, dataset) \
        and gradable(read, dataset) and _weighed(read) and _files_taken(test, read, None if dataset else suite)


def kept_where_twice(tests: list, suite: Any = None) -> list:
    """``tests`` (of the suite's mapping ``suite``), a test of an id written twice as None when the loader skips it:
    only the tests it keeps count."""
    counted = Counter(test["id"] for test in tests if isinstance(test, dict) and isinstance(test.get("id"), str))
    return [None if isinstance(test, dict) and isinstance(test.get("id"), str) and counted[test["id"]] > 1
            and not kept_by_loader(test, suite=suite) else test for test in tests]


def _files_taken(test: dict, read: dict, suite: Any) -> bool:
    """Whether the loader takes the input of a test (``read``: with its vars filled in) with the input files it
    gets, its own unless null, else the suite's (``suite_files_for``, the test's vars filled in: one '{{ name }}' may
    be the whole list): with none, any input; with some, they must be a list holding a string and the input a
    string, else the loader finds no input and skips the test (shorthand-expansion.ts resolveInputMessages,
    expandInputFilesShorthand)."""
    files = read.get("input_files") if read.get("input_files") is not None else suite_files_filled(test, suite)
    return files is None or names_files(files) and isinstance(read.get("input"), str)


def _weighed(test: dict) -> bool:
    """Whether the grader parser takes each of the test's own graders (the list the loader reads, ``TEST_LISTS``),
    and each member of a composite among them: a 'weight' it has is a finite number >= 0, and a code-grader's
    command ('command' ?? 'script') it has is a non-blank string or a list of non-blank strings."""
    path = first_list(test, TEST_LISTS)
    graders = value_at(test, path) if path else None
    return all(_taken(grader) for grader in (graders if isinstance(graders, list) else ()))


def _taken(grader: Any) -> bool:
    if not isinstance(grader, dict):
        return True
    members = grader.get("assertions") if grader.get("type") == "composite" else None
    return ("weight" not in grader or is_finite_number(grader["weight"]) and grader["weight"] >= 0) \
        and _command_taken(grader) and all(_taken(member) for member in (members if isinstance(members, list) else ()))


def _command_taken(grader: dict) -> bool:
    if not isinstance(grader.get("type"), str) or normal_type(grader["type"]) != "code-grader":
        return True
    command = grader["command"] if grader.get("command") is not None else grader.get("script", ...)  # 'a ?? b'
    if command is ...:  # none: the loader drops the grader (a null one throws)
        return True
    words = [command] if isinstance(command, str) else command if isinstance(command, list) and command else [None]
    return all(isinstance(word, str) and word.strip() for word in words)


def sends(value: Any) -> bool:
    """Whether the loader makes a message of an input: a string, a mapping (a message with a role it knows and
    content, or the content of one), a list with such a message or a string."""
    if isinstance(value, str):
        return True
    if isinstance(value, dict):
        return "role" not in value or value.get("role") in ROLES and value.get("content") is not None
    return isinstance(value, list) and any(sends(item) for item in value)


def gradable(test: dict, dataset: bool = False) -> bool:
    """Whether the loader finds something to grade ``test`` by (else it skips the test as incomplete): a
    criteria text (``expected_outcome`` when the criteria is empty), however blank, an expected output that
    makes a message (an empty string does), an 'assertions' or 'assert' key (whatever it holds), or turns. A
    line of a JSONL ``dataset`` counts an 'assert' key, but neither 'assertions' nor turns."""
    if _read_criteria(test) or expects(test.get("expected_output")) or "assert" in test:
        return True
    turns = test.get("turns")
    return not dataset and ("assertions" in test or (isinstance(turns, list) and bool(turns)))


def graded_by_nothing(test: dict, suite: Any, dataset: bool = False) -> Optional[tuple]:
    """The path of what the loader finds to grade ``test`` by, when that is empty and all there is: its grader list
    (empty or null), else its criteria or expected output (white space, an empty list: ``_blank``), and the test
    gets no default grader of the suite (a mapping: a dataset's holds its sidecar's settings; None when it is
    unknown): the runner then grades the test with its default llm-grader against empty criteria. A ``dataset``
    line's own 'execution' list takes the place of the sidecar's. None otherwise."""
    turns, rubrics, expected = test.get("turns"), test.get("rubrics"), test.get("expected_output")
    criteria = _read_criteria(test)
    if criteria and test[criteria].strip() or expects(expected) and not _blank(expected) \
            or isinstance(turns, list) and turns or isinstance(rubrics, list) and rubrics or not isinstance(suite, dict):
        return None
    if default_graders(suite, test, dataset):
        return None
    path = first_list(test, TEST_LISTS) or next(((key,) for key in ("assertions", "assert") if key in test), None)
    if path is not None:
        return path if value_at(test, path) in (None, []) else None
    return (criteria,) if criteria else ("expected_output",) if expects(expected) else None


def _read_criteria(test: dict) -> Optional[str]:
    """The key of the criteria the loader reads: 'criteria', else 'expected_outcome', the first that is a non-empty
    string; None without one."""
    return next((key for key in ("criteria", "expected_outcome") if isinstance(test.get(key), str) and test[key]), None)


def _blank(value: Any) -> bool:
    """Whether an expected output holds nothing: white space, an empty list or mapping, messages whose content is
    so and that make no tool call."""
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list):
        return all(_blank(item) for item in value)
    if isinstance(value, dict) and ("role" in value or "content" in value):
        return _blank(value.get("content", "")) and not value.get("tool_calls")
    return value == {}


def expects(value: Any) -> bool:
    """Whether the loader makes at least one expected message of ``value``: a string (even empty), a mapping
    without 'role', a list whose first item is no message mapping is the content of one; a message, or a list
    starting with one, must hold a valid message."""
    if isinstance(value, list) and value and isinstance(value[0], dict) and "role" in value[0]:
        return any(is_message(item) for item in value)
    if isinstance(value, dict) and "role" in value:
        return is_message(value)
    return isinstance(value, (str, list, dict))


def first_test(tests, suite: Any = None) -> Optional[dict]:
    """The test whose workspace the run's setup reads: the first the loader keeps (of the suite's mapping
    ``suite``); None when a test comes from another file (a path, a 'file://' item) before it, or the suite has
    none."""
    for test in tests if isinstance(tests, list) else ():
        if not isinstance(test, dict):
            return None
        if kept_by_loader(test, suite=suite):
            return test
    return None
