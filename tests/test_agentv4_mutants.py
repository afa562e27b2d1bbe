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
from mutantlint import build, groups, verdict

CORPUS = FIXTURES / "agentv-4.42.4-examples"
MUTANTS = [json.loads(line) for line in (FIXTURES / "agentv-4.42.4-mutants" / "mutants.jsonl").open(encoding="utf-8")]


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory) -> dict:
    linted = build(CORPUS, MUTANTS, tmp_path_factory.mktemp("mutants4"))
    return {m["id"]: verdict(CORPUS, m, linted) for m in MUTANTS}


def _figures(verdicts: dict, chosen: list) -> Counter:
    return Counter(verdicts[m["id"]] for m in chosen)


GROUPS = dict(groups(MUTANTS))


def test_the_variants_the_runner_treats_differently(verdicts):
    """Among the warnings are YAML 1.1 words for a boolean that the loader leaves out of the grader it stores, whose
    grader then takes its own default, which is what the word says (a skill-trigger's 'should_trigger: yes', a
    field-accuracy field's 'required: yes' or 'relative: no'): the loaded grader differs, its run does not (EV120).
    So are a skill-trigger's 'should_trigger: true' misspelt, in another case or moved a level up (EV109): the
    loader leaves it out of the grader, which then takes its default, true, so the run is the same.
    A test whose 'vars' are deleted gets the names of its input as written: a warning too (EV406). So is an expected
    output's content made a list of its text, which the graders get as JSON text (EV213). So is a suite whose only
    grader, a code-grader, is deleted: its tests' default llm-grader gets none of their expected tool calls (EV214).
    So are a conversation's 'aggregation: mean' written 'Mean' (EV130) and its 'aggregation' key misspelt (EV109): the
    runner uses its default, 'mean', what the file says. So is a suite's 'execution.target' deleted where the targets
    file has no 'default' (EV416): the agentv command then needs --target.
    Among the silent ones are a workspace whose only key is deleted: 'workspace:' with no value, which the runner
    reads as no workspace, and a suite's 'execution' whose only key is deleted, read as no execution likewise.
    Among the errors are trials whose 'count' is deleted (EV110) and a workspace repo whose 'repo' is (EV128): the
    runner drops both without a word."""
    differ = GROUPS["treated differently"]
    assert len(differ) == 1386
    assert _figures(verdicts, differ) == Counter({"error at the edit": 1198, "silent": 160, "warning only": 28})


def test_every_variant_the_runner_complains_of_is_an_error_at_the_edit(verdicts):
    """A variant the runner prints a line for or throws on, and does not read alike, has an error where the
    mistake is written."""
    complained = GROUPS["of them complained of by the runner"]
    assert len(complained) == 462
    assert {m["id"]: verdicts[m["id"]] for m in complained if verdicts[m["id"]] != "error at the edit"} == {}


def test_the_variants_read_alike_but_for_a_printed_warning(verdicts):
    """A deprecated form the runner still reads alike runs as written: a warning. The errors are invalid
    values the runner warns of and replaces by its default, which here is what the source says."""
    warned = GROUPS["read alike but for a warning the runner prints"]
    assert len(warned) == 20
    assert _figures(verdicts, warned) == Counter({"warning only": 14, "error at the edit": 6})


def test_the_variants_carried_into_a_graders_config(verdicts):
    carried = GROUPS["carried into a grader's config"]
    assert len(carried) == 75
    assert _figures(verdicts, carried) == Counter({"silent": 71, "error at the edit": 4})


def test_the_variants_the_runner_treats_identically(verdicts):
    same = GROUPS["treated identically"]
    assert len(same) == 132
    assert _figures(verdicts, same) == Counter({"silent": 87, "warning only": 34, "error at the edit": 11})


def test_every_broken_reference_the_runner_shows_is_an_error_at_the_edit(verdicts):
    """A broken reference the runner shows (a file it warns it cannot find, a file of tests it cannot read) is
    an error where the reference is written."""
    shown = [m for m in MUTANTS if m["kind"] == "reference-broken" and (m["runner"]["logs"] or m["runner"]["error"])]
    assert {m["id"]: verdicts[m["id"]] for m in shown if verdicts[m["id"]] != "error at the edit"} == {}
    assert len(shown) == 8
