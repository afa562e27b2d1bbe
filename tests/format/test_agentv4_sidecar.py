"""The sidecar of an AgentV 4.42.4 JSONL dataset: the settings its loader reads ('name', 'description',
'execution', 'evaluator'), each of the wrong type EV703, any other key EV703 too."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from evallint.config import Config
from evallint.lint import lint_file
from evallint.format.agentv4.sidecar import SIDECAR_SCHEMA
from evallint.format.walk import load_checked


def _found(data: dict) -> list:
    model, found = load_checked(SIDECAR_SCHEMA, data)
    return [(f.code, f.path, f.message) for f in found.findings]


def test_the_settings_its_loader_reads_are_accepted():
    """And 'target: default', the target the command line runs a dataset against anyway."""
    assert _found({"name": "smoke", "description": "d",
                   "execution": {"target": "default", "assertions": [{"type": "is-json"}]}}) == []


def test_a_suite_setting_in_its_execution_is_not_read():
    """The loader reads only the default graders of a sidecar's 'execution' (below); the command line reads a
    dataset's target from the '.jsonl' file itself (cli targets.ts, through yaml-parser.ts readTestSuiteMetadata)."""
    not_read = ("in a sidecar's 'execution' is not read: the runner reads only the default graders there ('assertions', "
                "'assert', 'evaluators'); a dataset's target and run settings come from the command line")
    assert _found({"execution": {"target": "llm", "workers": 4, "threshold": 0.8, "asertions": [{"type": "is-json"}]}}) == [
        ("EV703", ("execution", "target"), f"'target' {not_read}"),
        ("EV703", ("execution", "workers"), f"'workers' {not_read}"),
        ("EV703", ("execution", "threshold"), f"'threshold' {not_read}"),
        ("EV115", ("execution", "asertions"), "unknown key 'asertions' in sidecar execution (did you mean 'assertions'?); "
                                              "the runner does not read it, so what it holds is dropped"),
    ]


def test_a_default_graders_list_after_the_one_read_is_reported():
    """The loader reads 'assertions ?? assert ?? evaluators' (grader-parser.ts)."""
    assert _found({"execution": {"assert": [{"type": "is-json"}], "evaluators": [{"type": "is-json"}]}}) == [
        ("EV113", ("execution", "evaluators"), "'evaluators' is ignored because 'assert' is also set; the runner reads "
                                               "only the first of 'assertions', 'assert', 'evaluators'")]


@pytest.mark.runner
def test_the_loader_reads_a_sidecars_default_graders_and_no_suite_setting(tmp_path):
    (tmp_path / "d.jsonl").write_text('{"id": "a", "criteria": "c", "input": "hi"}\n')
    (tmp_path / "d.yaml").write_text("execution:\n  target: llm\n  workers: 4\n  threshold: 0.8\n"
                                     "  assertions: [{type: contains, value: hi}]\n")
    loaded = load_tests(tmp_path, ["d.jsonl"], suite=True)["d.jsonl"]
    assert (loaded["suite"], [grader["type"] for grader in loaded["tests"][0]["assertions"]]) == ({}, ["contains"])


def test_default_graders_at_the_top_of_a_sidecar_say_where_they_go():
    dropped = "the runner reads it only in 'execution', so what it holds is dropped here; move it there"
    assert _found({"assertions": [{"type": "is-json"}], "assert": [{"type": "is-json"}]}) == [
        ("EV703", ("assertions",), f"unknown key 'assertions' in dataset sidecar: {dropped}"),
        ("EV703", ("assert",), f"unknown key 'assert' in dataset sidecar: {dropped}")]


@pytest.mark.runner
def test_the_loader_reads_no_default_graders_at_the_top_of_a_sidecar(tmp_path):
    (tmp_path / "d.jsonl").write_text('{"id": "a", "criteria": "c", "input": "hi"}\n')
    (tmp_path / "d.yaml").write_text("assertions: [{type: contains, value: hi}]\n")
    assert load_tests(tmp_path, ["d.jsonl"])["d.jsonl"]["tests"][0].get("assertions") is None


def test_a_setting_of_the_wrong_type_or_a_key_it_does_not_read_is_reported():
    assert _found({"name": 3, "dataset": "x", "execution": []}) == [
        ("EV703", ("name",), "sidecar 'name' must be a string, found 3 (a number); the runner names the suite after "
                             "the file"),
        ("EV703", ("execution",), "sidecar 'execution' must be a mapping, found a list; the runner uses the defaults"),
        ("EV703", ("dataset",), "unknown key 'dataset' in dataset sidecar (known keys: $schema, description, evaluator, "
                                "execution, name)"),
    ]


LINE_42 = '{"id": "a", "criteria": "Says hello.", "input": "hi"}\n'
LINE_22 = '{"id": "a", "expected_outcome": "Says hello.", "input": "hi"}\n'
JUDGE = "execution:\n  evaluators:\n    - {name: j, type: llm_judge}\n"


def _pair(tmp_path, lines: str, sidecar: str) -> tuple:
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "d.jsonl").write_text(lines)
    (tmp_path / "evals" / "d.yaml").write_text(sidecar)
    results = {name: lint_file(str(tmp_path / "evals" / name), Config(root=str(tmp_path))) for name in ("d.jsonl", "d.yaml")}
    return {name: (r.version, [(d.code, d.line) for d in r.diagnostics]) for name, r in results.items()}


def test_the_sidecar_of_a_dataset_of_agentv_4_42_is_read_as_4_42s(tmp_path):
    """A dataset and its sidecar are one suite: a sidecar without a sign of its own is read as its lines are,
    so AgentV 2.2's 'llm_judge', which 4.42.4 does not know, is reported there."""
    assert _pair(tmp_path, LINE_42, "description: greetings\n" + JUDGE) == {
        "d.jsonl": ("4.42", []), "d.yaml": ("4.42", [("EV301", 4)])}


def test_a_dataset_whose_sidecar_is_agentv_4_42s_is_read_as_4_42s(tmp_path):
    assert _pair(tmp_path, LINE_22, "name: greetings\n")["d.jsonl"][0] == "4.42"


def test_a_dataset_and_sidecar_without_a_sign_of_4_42_are_agentv_2_2s(tmp_path):
    assert _pair(tmp_path, LINE_22, "description: d\n") == {"d.jsonl": ("2.2", []), "d.yaml": ("2.2", [])}


INPUT_FILES = '{"id": "a", "input": "hi", "expected_output": "4"}\n{"id": "b", "input": "hi", "input_files": ' \
              '["d.yaml"], "expected_output": "ok"}\n'


def test_a_dataset_of_a_line_with_input_files_is_agentv_4_42s(tmp_path):
    """'input_files' is a key only AgentV 4.42.4 reads; its other lines need no criteria there (an expected output
    makes them complete)."""
    assert _pair(tmp_path, INPUT_FILES, "description: d\n") == {"d.jsonl": ("4.42", []), "d.yaml": ("4.42", [])}


@pytest.mark.runner
def test_the_loader_keeps_every_line_of_such_a_dataset(tmp_path):
    _pair(tmp_path, INPUT_FILES, "description: d\n")
    assert [test["id"] for test in load_tests(tmp_path, ["evals/d.jsonl"])["evals/d.jsonl"]["tests"]] == ["a", "b"]
