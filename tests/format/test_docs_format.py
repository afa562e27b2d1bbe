"""docs/format.md lists exactly the keys the schemas declare: the documentation of the format and the
format evallint loads cannot drift apart."""
from __future__ import annotations

import re

import pytest
from conftest import ROOT

from evallint.format.agentv2.evaluator_parts import RUBRIC_ITEM
from evallint.format.agentv2.evaluators import EvaluatorSchema
from evallint.format.docs import regenerated
from evallint.format.keys import known_keys
from evallint.format.agentv2.suite import SUITE_SCHEMA, CaseSchema

DOC = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")


def _section(heading: str) -> str:
    start = DOC.index(heading + "\n")
    following = re.compile(r"^#{1,%d} " % heading.count("#"), re.M).search(DOC, start + len(heading) + 1)
    return DOC[start:following.start() if following else len(DOC)]


def _first_column(heading: str) -> set:
    """The keys in the first column of the section's table."""
    return set(re.findall(r"^\| `([^`]+)` \|", _section(heading), re.M))


@pytest.mark.parametrize("heading,keys", [
    ("### Suite keys", known_keys(SUITE_SCHEMA)),
    ("### Case keys", known_keys(CaseSchema())),
    ("### Common keys", known_keys(EvaluatorSchema())),
    ("#### Rubric items", known_keys(RUBRIC_ITEM)),
], ids=lambda value: value if isinstance(value, str) else "")
def test_a_table_of_keys_lists_the_declared_keys(heading, keys):
    assert _first_column(heading) == set(keys)


def test_the_tables_read_from_the_declarations_are_current():
    assert "<!-- generated: agentv2-evaluator-kinds -->\n| `type` | what it checks |" in DOC
    assert DOC == regenerated(DOC), "stale: run 'python -m evallint.format.docs'"
