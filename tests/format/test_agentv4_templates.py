"""The schema of an AgentV 4.42.4 assertion template, on a template with one mistake (its exact codes and data
paths) and on the same template put right (no finding at all)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from evallint.format.agentv4.model import Assertion, Include, Template
from evallint.format.agentv4.templates import TEMPLATE_SCHEMA
from evallint.format.walk import load_checked
from evallint.load.yaml12 import parse_yaml


def loaded(text: str) -> tuple:
    parsed = parse_yaml(text)
    assert parsed.ok and parsed.findings == []
    model, found = load_checked(TEMPLATE_SCHEMA, parsed.data)
    return model, [(f.code, f.path) for f in found.findings]


CASES = [
    # (what, the template with the mistake, its findings, the template put right)
    ("no assertions", "graders: [{type: is-json}]\n", [("EV119", ()), ("EV115", ("graders",))],
     "assertions: [{type: is-json}]\n"),
    ("assertions no list", "assertions: {type: is-json}\n", [("EV306", ("assertions",))],
     "assertions: [{type: is-json}]\n"),
    ("assertions null", "assertions:\n", [("EV306", ("assertions",))], "assertions: []\n"),
    ("an unknown key", "assertions: []\nname: t\n", [("EV109", ("name",))], "assertions: []\n"),
    ("an item of no kind", "assertions: [3]\n", [("EV306", ("assertions", 0))], "assertions: ['3']\n"),
    ("a grader's mistake", "assertions: [{type: contains, value: x, weight: -1}]\n",
     [("EV305", ("assertions", 0, "weight"))], "assertions: [{type: contains, value: x, weight: 1}]\n"),
]


@pytest.mark.parametrize("bad, expected, good", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_each_mistake_has_its_code_at_its_place(bad, expected, good):
    assert loaded(bad)[1] == expected
    assert loaded(good)[1] == []


def test_the_cases_use_every_rule_of_the_template_schema():
    import evallint.format.agentv4.templates as module

    used = set(re.findall(r'"(EV\d{3})"', Path(module.__file__).read_text(encoding="utf-8")))
    assert sorted(used - {code for case in CASES for code, _ in case[2]}) == []


def test_the_model_of_a_template_is_its_items_as_written():
    model, found = loaded("assertions:\n  - Is short.\n  - include: other\n  - {type: is-json}\n")
    assert found == [] and model == Template(path="", assertions=(
        "Is short.", Include("other"), Assertion(type="is-json", name="is-json")))
