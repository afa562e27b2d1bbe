"""What an AgentV 4.42 field-accuracy grader reads of a test's expected output: the expected data, and the value
each field's path names in it (graders/field-accuracy.ts)."""
from __future__ import annotations

import re
from typing import Any, Iterator

from evallint.load.numbers import js_trim
from evallint.rules.common import finding
from evallint.rules.grader_lists import TEST_LISTS, first_list, named_by_parts, normal_type, value_at
from evallint.rules.template_vars import render, variables
from evallint.suggest import quote

KNOWN_NOT = object()  # expected data that is not looked into
_MISSING = object()  # what a path names in data that has no value there
_PATH_PARTS = re.compile(r"\.|\[|\]")  # how the grader splits a field's path (resolvePath)


def expected_data(expected: Any) -> Any:
    """The expected data a field-accuracy grader finds in an 'expected_output' (field-accuracy.ts
    extractExpectedData): the content of the last assistant message with content (as JavaScript takes it: not '', 0
    or false) that is a mapping or list, or the JSON a text of it parses to; text that does not parse passes the
    search on to the message before; a text or a mapping is the content of one assistant message. None when it finds
    none; ``KNOWN_NOT`` for an expected output of another shape, whose data is not looked into here."""
    if isinstance(expected, str) or isinstance(expected, dict) and "role" not in expected:  # the loader's one message
        messages = [{"role": "assistant", "content": expected}]
    elif isinstance(expected, list) and expected and all(isinstance(m, dict) and "role" in m for m in expected):
        messages = expected
    else:
        return KNOWN_NOT
    for message in reversed(messages):
        content = message.get("content")
        if message.get("role") != "assistant" or isinstance(content, (bool, int, float)) or content in (None, ""):
            continue
        if not isinstance(content, str):
            return content
        parsed = _json_of_text(content)
        if parsed is not _UNPARSED:
            return parsed if isinstance(parsed, (dict, list)) or bool(parsed) else None
    return None


_UNPARSED = object()
_FENCES = re.compile(r"```json\n?|```")
_JSON_BLOB = re.compile(r"\{[\s\S]*\}")
_PASSED = re.compile(r'("passed"\s*:\s*)(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_-]*))', re.IGNORECASE)


def _json_of_text(text: str) -> Any:
    """What the grader parses of a text as JSON (scoring.ts parseJsonFromText): code fences cut, then the text from
    its first '{' to its last '}' (or the whole), with a verdict's 'passed' made a boolean; _UNPARSED when it is no
    JSON (JavaScript's JSON reads no NaN or Infinity)."""
    import json

    cleaned = js_trim(_FENCES.sub("", text))
    blob = _JSON_BLOB.search(cleaned)
    repaired = _PASSED.sub(lambda m: m.group(1) + ("true" if (m.group(2) or m.group(3)).strip().lower() == "true"
                                                   else "false"), blob.group(0) if blob else cleaned)
    try:
        return json.loads(repaired, parse_constant=_no_constant)
    except ValueError:
        return _UNPARSED
    except RecursionError:  # nested deeper than Python's parser follows, as JavaScript's does not stop: fields
        return {}


def _no_constant(name: str):
    raise ValueError(name)


def named_value(data: Any, path: str) -> Any:
    """The value a field's ``path`` names in ``data`` as the grader resolves it (resolvePath): split at '.', '[' and
    ']' (empty parts left out); ``_MISSING`` where there is none."""
    return named_by_parts(data, [part for part in _PATH_PARTS.split(path) if part], _MISSING)


def check_field_paths(test: dict, place) -> Iterator:
    """EV340 for a field of a test's own field-accuracy grader whose path names no value of the test's expected data:
    the grader scores that field 1 without comparing ('no expected value'), whatever the answer holds."""
    path = first_list(test, TEST_LISTS)
    graders = value_at(test, path) if path else None
    written, dataset = test.get("expected_output"), place.schema.dataset
    data = expected_data(written if dataset else render(written, variables(test)))
    if data is None or data is KNOWN_NOT or not isinstance(graders, list):
        return
    for i, grader in enumerate(graders):
        if not (isinstance(grader, dict) and isinstance(grader.get("type"), str)
                and normal_type(grader["type"]) == "field-accuracy" and isinstance(grader.get("fields"), list)):
            continue
        for j, field in enumerate(grader["fields"]):
            named = field.get("path") if isinstance(field, dict) else None
            if isinstance(named, str) and named and named_value(data, named) is _MISSING:
                yield finding("EV340", f"field path {quote(named)} names no value of the test's expected output: the "
                              "grader scores the field 1 without comparing it ('no expected value'), whatever the "
                              "answer holds; write the path of an expected field, its parts joined by '.' and lists "
                              "indexed as [0] (no '$' or '/')", place.at + path + (i, "fields", j, "path"))
