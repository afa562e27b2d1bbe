"""Golden fixtures: every bad file gives exactly its .out; good files give nothing."""
from __future__ import annotations

import pytest
from conftest import FIXTURES
from golden import code_of, fixture_files, lint_fixture, render

from evallint import lint_paths
from evallint.config import Config
from evallint.rules.registry import RULES

BAD = fixture_files(FIXTURES / "bad")
GOOD_RULES = fixture_files(FIXTURES / "good" / "rules")
GOOD = sorted(p for p in (FIXTURES / "good").rglob("*.yaml"))
# Codes whose triggers cannot live in a checked-in file: tested where the
# condition is made (test_files.py builds FIFOs and links; test_isolation.py
# breaks a rule on purpose).
MADE_AT_TEST_TIME = {"EV000", "EV009"}


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_fixture_output(path):
    diagnostics = lint_fixture(path)
    expected = path / "expected.out" if path.is_dir() else path.with_suffix(".out")
    assert render(diagnostics, path.parent) == expected.read_text(encoding="utf-8")
    assert code_of(path) in {d.code for d in diagnostics}


@pytest.mark.parametrize("path", GOOD_RULES, ids=lambda p: p.name)
def test_good_rule_fixture_is_clean_with_its_rule_selected(path):
    assert render(lint_fixture(path), path.parent) == ""


@pytest.mark.parametrize("path", GOOD, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_good_fixture_is_clean(path):
    assert render(lint_paths([path], config=Config(references=False)), path.parent) == ""


@pytest.mark.parametrize("code", sorted(set(RULES) - MADE_AT_TEST_TIME))
def test_every_rule_has_a_triggering_and_a_clean_fixture(code):
    assert any(code_of(p) == code for p in BAD), f"no fixtures/bad/{code}_*.yaml"
    assert any(code_of(p) == code for p in GOOD_RULES), f"no fixtures/good/rules/{code}_*.yaml"
