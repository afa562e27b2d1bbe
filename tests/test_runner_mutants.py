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
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES

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


def _edited_file(mutant: dict) -> str:
    lines = (CORPUS / mutant["source"]).read_text(encoding="utf-8").splitlines(keepends=True)
    for start, end, new in reversed(mutant["edits"]):
        lines[start:end] = new
    return "".join(lines)


def _lint(folder: Path, paths: list) -> dict:
    """path -> its diagnostics (JSON), from one run of the command line over ``paths``."""
    proc = subprocess.run([sys.executable, "-m", "evallint", "--no-cache", "--format", "json", "--exit-zero", *paths],
                          cwd=folder, capture_output=True, text=True, check=True)
    out: dict = {path: [] for path in paths}
    for d in json.loads(proc.stdout):
        out.setdefault(d["path"], []).append(d)
    return out


@pytest.fixture(scope="module")
def linted(tmp_path_factory) -> dict:
    repo = tmp_path_factory.mktemp("mutants") / "agentv-examples"
    shutil.copytree(CORPUS, repo)
    for mutant in MUTANTS:
        shutil.copyfile(CORPUS / mutant["source"], repo / mutant["file"])
    git = ["git", "-c", "user.name=evallint", "-c", "user.email=evallint@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "the unmutated files"], cwd=repo, check=True)
    for mutant in MUTANTS:
        (repo / mutant["file"]).write_bytes(_edited_file(mutant).encode("utf-8"))
    sources = sorted({m["source"] for m in MUTANTS})
    return {**_lint(repo, sources), **_lint(repo, [m["file"] for m in MUTANTS]), "<repo>": repo}


def _new_errors(mutant: dict, linted: dict) -> list:
    """The mutant's errors that its unmutated file does not have (same code and message)."""
    base = Counter((d["code"], d["message"]) for d in linted[mutant["source"]] if d["severity"] == "error")
    out = []
    for d in linted[mutant["file"]]:
        if d["severity"] != "error":
            continue
        if base[(d["code"], d["message"])] > 0:
            base[(d["code"], d["message"])] -= 1
        else:
            out.append(d)
    return out


def _place(mutant: dict, text: str) -> set:
    """The lines (1-based) at the place of the edit: the lines it wrote (for a cut, the lines around it), the
    first line of each node that holds it (found by indentation), the other lines of the innermost mapping
    that holds it (a missing key is reported at its mapping, a value whose meaning the edit changed at the
    value), and for an edit of the top level, the file's first key (a finding about the whole file)."""
    lines = text.splitlines()
    source = (CORPUS / mutant["source"]).read_text(encoding="utf-8").splitlines()
    place = set()
    offset = 0
    for start, end, new in sorted(mutant["edits"]):
        first, last = start + offset, start + offset + len(new)
        offset += len(new) - (end - start)
        place.update(range(first, max(last, first + 1)))
        if last == first:
            place.add(first - 1)
        place.update(_holders(lines, min(first, len(lines) - 1)))
        written = [line for line in list(new) + source[start:end] if _content(line)]
        if not written or _indent(written[0]) == 0:
            keys = [n for n, line in enumerate(lines) if _content(line) and not line.startswith(("%", "---"))]
            place.update(keys[:1] or [0])
    return {n + 1 for n in place}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


def _holders(lines: list, at: int) -> set:
    """The first line of each node holding line ``at``, and the other lines of the innermost one."""
    while at >= 0 and not _content(lines[at]):
        at -= 1
    if at < 0:
        return set()
    out, depth, innermost = set(), _indent(lines[at]), True
    for n in range(at - 1, -1, -1):
        if _content(lines[n]) and _indent(lines[n]) < depth:
            out.add(n)
            depth = _indent(lines[n])
            if innermost:
                below = n + 1
                while below < len(lines) and (not _content(lines[below]) or _indent(lines[below]) > depth):
                    out.add(below)
                    below += 1
                innermost = False
    return out


def _verdicts(linted: dict) -> dict:
    """id -> why the mutant fails its verdict, for every mutant that does."""
    repo = linted["<repo>"]
    wrong = {}
    for mutant in MUTANTS:
        if mutant["hazard"]:
            continue
        errors = _new_errors(mutant, linted)
        if mutant["runtime_affecting"]:
            place = _place(mutant, (repo / mutant["file"]).read_text(encoding="utf-8", errors="replace"))
            if not errors:
                wrong[mutant["id"]] = "no error: " + mutant["desc"]
            elif not any(d["line"] in place for d in errors):
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
        (trace, "EV115", 125),
        (trace, "EV115", 128),
        (trace, "EV409", 16),
        ("examples/features/tool-trajectory-simple/evals/dataset.yaml", "EV409", 29),
    ]
