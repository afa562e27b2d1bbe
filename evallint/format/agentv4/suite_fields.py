"""Fields of an AgentV 4.42 suite and its tests that the loader reads as lists of names or paths, and the suite's
name, which its metadata check reads (metadata.ts)."""
from __future__ import annotations

import re
from typing import Any, Optional

from marshmallow import ValidationError

from evallint.format.fields import Checked, Items, Problem, Text, describe
from evallint.rules import template_vars

SUITE_NAME = re.compile(r"[a-z0-9-]{1,64}")


def strings(key: str, code: str = "EV110", then: str = "", **kwargs) -> Items:
    """A list of strings under ``key``; ``then``: what the runner does with another value (its items are dropped)."""
    return Items(Text(code, f"an item of '{key}' must be a string, {{found}}; the runner drops it"), code,
                 f"'{key}' must be a list of strings, {{found}}; {then}", **kwargs)


class SuiteFiles(Items):
    """The suite's input files: a list of strings, or one '{{ name }}' that each test's vars fill in (the
    loader fills the suite's input files with the vars of each test it gives them to)."""

    def _deserialize(self, value: Any, attr: Optional[str], data: Any, **kwargs) -> Any:
        if template_vars.is_variable(value):
            return value
        return super()._deserialize(value, attr, data, **kwargs)

    def json_schema(self) -> dict:
        return {"anyOf": [{"type": "array", "items": {"type": "string"}},
                          {"type": "string", "pattern": f"^{template_vars.VARIABLE.pattern}$"}]}


class SuiteName(Checked):
    """The suite's name: 1-64 lower-case letters, digits and hyphens (the loader rejects another string)."""

    scalar = True  # a name may be given by an environment reference

    def check(self, value):
        if isinstance(value, str) and not SUITE_NAME.fullmatch(value):
            raise ValidationError(Problem("EV110", describe("suite 'name' {value} must be 1-64 lower-case letters, "
                                                            "digits and hyphens; the runner rejects the file", value)))
        if not isinstance(value, str):
            raise self.reject(value)
        return value
