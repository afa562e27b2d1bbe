"""evallint on AgentV 4.42.4's single-mistake variants (``fixtures/agentv-4.42.4-mutants``): what it says of
each variant beyond what it says of its source, against the runner's verdict.

The figures are what evallint does today, asserted exactly: a change that moves one is a behaviour change,
named in its commit. The goal is every variant the runner treats differently caught with an error at the
edit, and none it treats identically given one; ``python tests/mutantlint.py`` prints the figures."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import FIXTURES
from mutantlint import build, verdict

CORPUS = FIXTURES / "agentv-4.42.4-examples"
MUTANTS = [json.loads(line) for line in (FIXTURES / "agentv-4.42.4-mutants" / "mutants.jsonl").open(encoding="utf-8")]


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory) -> dict:
    linted = build(CORPUS, MUTANTS, tmp_path_factory.mktemp("mutants4"))
    return {m["id"]: verdict(CORPUS, m, linted) for m in MUTANTS}


def _figures(verdicts: dict, chosen: list) -> Counter:
    return Counter(verdicts[m["id"]] for m in chosen)


def test_the_variants_the_runner_treats_differently(verdicts):
    differ = [m for m in MUTANTS if not m["identical"] and not m["carried"]]
    assert len(differ) == 1438
    assert _figures(verdicts, differ) == Counter({"error at the edit": 1206, "silent": 196, "warning only": 28,
                                                  "error elsewhere": 8})


def test_the_variants_the_runner_treats_identically(verdicts):
    same = [m for m in MUTANTS if m["identical"]]
    assert len(same) == 132
    assert _figures(verdicts, same) == Counter({"silent": 88, "error at the edit": 14, "warning only": 30})


def test_every_broken_reference_the_runner_shows_is_an_error_at_the_edit(verdicts):
    """A broken reference the runner shows (a file it warns it cannot find, a file of tests it cannot read) is
    an error where the reference is written."""
    shown = [m for m in MUTANTS if m["kind"] == "reference-broken" and (m["runner"]["logs"] or m["runner"]["error"])]
    assert {m["id"]: verdicts[m["id"]] for m in shown if verdicts[m["id"]] != "error at the edit"} == {}
    assert len(shown) == 8
