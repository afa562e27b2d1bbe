"""evallint agrees with AgentV's runner on 1,566 single-mistake eval files.

``fixtures/runner-mutants/mutants.jsonl`` holds the runner's own verdicts: each line is one of the real
examples in ``fixtures/corpus/agentv-examples`` with one mistake made in it (its ``edits``), and what
AgentV's loader made of it. Every mutant is built into one copy of the corpus, a git repository whose last
commit holds each mutant's unmutated text at the mutant's path (the mistake is an edit of an eval file
that exists), and the copy is linted once by the command line. Then, for each mutant without a hazard
(a problem the loader cannot show, such as a duplicate id):

- ``runtime_affecting`` (the runner fails, or drops or changes something the author wrote): at least one
  error that the unmutated file does not have, at the place of the edit;
- ``runner_output_identical`` (the runner's output and warnings are the unmutated file's): no error that
  the unmutated file does not have (a warning is fine).

Where evallint does otherwise on purpose, the mutant is in ``ALLOWED`` with the reason; an allowed mutant
that no longer needs it fails the test, so the list stays exact."""
from __future__ import annotations

import json

import pytest
from conftest import FIXTURES
from mutantlint import build, new_errors, place

CORPUS = FIXTURES / "corpus" / "agentv-examples"
MUTANTS = [json.loads(line) for line in (FIXTURES / "runner-mutants" / "mutants.jsonl").open(encoding="utf-8")]

_CODE_JUDGE_CONFIG = ("a code_judge's keys other than its own are configuration for its script, which evallint "
                      "cannot read: renaming one changes what the script gets, not what evallint can check")
ALLOWED = {
    "m2047": _CODE_JUDGE_CONFIG,  # code_judge config key 'fields' renamed 'field'
    "m2048": _CODE_JUDGE_CONFIG,  # 'path' renamed 'field' inside a code_judge's config list
    "m2049": _CODE_JUDGE_CONFIG,  # 'path' renamed 'key' inside a code_judge's config list
    # a composite member renamed 'safety' -> 'on' (a string under YAML 1.2): the run changes where the
    # aggregator's weights still name 'safety', and that is where EV332 reports it
    "m1902": "the error is at the weight that names the renamed member, where the run changes (EV332)",
}


@pytest.fixture(scope="module")
def linted(tmp_path_factory) -> dict:
    return build(CORPUS, MUTANTS, tmp_path_factory.mktemp("mutants"))


def _verdicts(linted: dict) -> dict:
    """id -> why the mutant fails its verdict, for every mutant that does."""
    repo = linted["<repo>"]
    wrong = {}
    for mutant in MUTANTS:
        if mutant["hazard"]:
            continue
        errors = new_errors(mutant, linted)
        if mutant["runtime_affecting"]:
            at = place(CORPUS, mutant, (repo / mutant["file"]).read_text(encoding="utf-8", errors="replace"))
            if not errors:
                wrong[mutant["id"]] = "no error: " + mutant["desc"]
            elif not any(d["line"] in at for d in errors):
                wrong[mutant["id"]] = (f"errors elsewhere than the edit: {mutant['desc']}: "
                                       + ", ".join(f"{d['code']} line {d['line']}" for d in errors))
        elif mutant["runner_output_identical"] and errors:
            wrong[mutant["id"]] = (f"an error where the runner's output is the same: {mutant['desc']}: "
                                   + ", ".join(f"{d['code']} {d['message']}" for d in errors))
    return wrong


def test_the_set_is_the_runners_1566_verdicts():
    assert len(MUTANTS) == 1566
    assert sum(m["runtime_affecting"] and not m["hazard"] for m in MUTANTS) == 1051
    assert sum(m["runner_output_identical"] and not m["hazard"] for m in MUTANTS) == 202


def test_every_mutant_gets_the_runners_verdict(linted):
    wrong = _verdicts(linted)
    unexpected = {k: v for k, v in wrong.items() if k not in ALLOWED}
    assert unexpected == {}, "\n".join(f"{k}: {v}" for k, v in sorted(unexpected.items()))


def test_every_allowed_mutant_still_needs_it(linted):
    assert sorted(set(ALLOWED) - set(_verdicts(linted))) == []


def test_the_unmutated_files_give_only_the_corpus_mistakes(linted):
    sources = {m["source"] for m in MUTANTS}
    errors = sorted((path, d["code"], d["line"]) for path in sources for d in linted[path] if d["severity"] == "error")
    trace = "examples/features/tool-trajectory-advanced/evals/trace-file-demo.yaml"
    assert errors == [
        ("examples/features/basic/evals/dataset.yaml", "EV116", 74),
        ("examples/features/code-judge-sdk/evals/dataset.yaml", "EV409", 8),
        *(("examples/features/composite/evals/dataset.yaml", "EV333", line)
          for line in (27, 30, 55, 58, 82, 85, 111, 114, 122)),
        ("examples/features/composite/evals/dataset.yaml", "EV404", 88),
        (trace, "EV115", 125),
        (trace, "EV115", 128),
        (trace, "EV409", 16),
        ("examples/features/tool-trajectory-simple/evals/dataset.yaml", "EV409", 29),
    ]
