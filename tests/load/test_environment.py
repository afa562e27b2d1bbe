"""Environment references (``${{ NAME }}``) in AgentV 4.42.4's files: the runner replaces them before it reads the
file, so a whole reference may stand for a number, a boolean or a word, and a path holding one is not looked up as
written. AgentV 2.2 reads its files as written."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import FIXTURES, ROOT

from agentv_runner import load_tests, read_configs
from agreement import write_suite
from clirun import run_concise
from evallint import Severity, lint_paths
from evallint.config import Config
from evallint.lint import lint_file
from evallint.load.environment import Reference, WholeReference, marked

PROJECT = FIXTURES / "environment"
# values each setting of the project accepts, as a run would set them
VALUES = {"THRESHOLD": "0.5", "TRIALS": "3", "STRATEGY": "mean", "WEIGHT": "2", "REQUIRED": "true",
          "NEGATE": "true", "MODE": "exact", "LATENCY_MS": "1000", "PROMPTS": "../prompts", "POOL_SLOTS": "4",
          "VERBOSE": "true", "KIND": "code-grader", "MIN_CALLS": "2", "ARGS_MATCH": "subset", "TOLERANCE": "0.1",
          "TARGET_ACCESS": "true", "LOW": "0", "SUITE_NAME": "from-env", "FILE_TYPE": "xlsx", "RESET": "fast",
          "ANY_ARGS": "any", "MEMBER_KIND": "contains", "ROLE": "user"}


def test_whole_references_stand_for_the_numbers_booleans_and_words_the_run_gives():
    assert run_concise(PROJECT, "--no-cache", ".") == (0, "", "")


@pytest.mark.runner
def test_the_runner_reads_each_reference_as_the_value_it_is_given(tmp_path):
    loaded = load_tests(PROJECT, ["evals/settings.eval.yaml", "evals/lines.jsonl"], suite=True, env=VALUES)
    settings, lines = loaded["evals/settings.eval.yaml"], loaded["evals/lines.jsonl"]
    assert (settings["error"], settings["logs"], lines["error"], lines["logs"]) == (None, [], None, [])
    assert settings["suite"] == {"threshold": 0.5, "trials": {"count": 3, "strategy": "mean"}}
    test, with_vars = settings["tests"]
    assert (with_vars["criteria"], with_vars["input"]) == ("Greets the user", [{"role": "user",
                                                                                "content": "Hello from the user"}])
    contains, trajectory, latency, grader, rubrics = test["assertions"]
    assert (contains["weight"], contains["required"], contains["negate"]) == (2, True, True)
    assert (trajectory["mode"], latency["threshold"], grader["resolvedPromptPath"]) == ("exact", 1000, "prompts/judge.md")
    assert rubrics["rubrics"] == [{"id": "polite", "outcome": "Is polite", "weight": 2, "required": True}]
    assert [a["weight"] for a in lines["tests"][0]["assertions"]] == [2]
    config = read_configs(PROJECT, [".agentv/config.yaml"], tmp_path, VALUES)[".agentv/config.yaml"]
    assert config == {"config": {"execution": {"pool_slots": 4, "verbose": True}}, "logs": []}


@pytest.mark.runner
def test_the_runner_reads_each_grader_setting_as_the_value_it_is_given():
    loaded = load_tests(PROJECT, ["evals/graders.eval.yaml"], env=VALUES)["evals/graders.eval.yaml"]
    assert (loaded["error"], loaded["logs"]) == (None, [])
    [test] = loaded["tests"]
    included, counted, trajectory, weighted, threshold, fields, code, rubrics = test["assertions"]
    assert (test["evaluator"], included["weight"], counted["minimums"], trajectory["argsMatch"]) == (
        "code-grader", 2, {"search": 2}, "subset")
    assert (weighted["aggregator"]["weights"], threshold["aggregator"]["threshold"]) == ({"mentions": 2}, 0.5)
    assert (fields["fields"][0]["tolerance"], code["target"]) == (0.1, {})
    assert rubrics["rubrics"][0]["score_ranges"][0]["score_range"] == [0, 5]
    assert (test["suite"], trajectory["expected"][0]["args"], threshold["assertions"][0]["type"]) == (
        "from-env", "any", "contains")
    assert (test["preprocessors"][0]["type"], test["workspace"]["hooks"]["after_each"]) == ("xlsx", {"reset": "fast"})


def test_the_model_keeps_a_whole_reference_as_written_and_expands_a_template_holding_one():
    """What the run gives a reference is not known: the model holds the text (a flag too, which it reads as
    false otherwise); an included template is read with its references, as the runner reads it."""
    settings = lint_file(str(PROJECT / "evals" / "settings.eval.yaml"), Config(root=str(PROJECT))).model
    assert (settings.tests[0].assertions[0].negate, settings.tests[0].assertions[0].weight) == (
        "${{ NEGATE }}", "${{ WEIGHT }}")
    graders = lint_file(str(PROJECT / "evals" / "graders.eval.yaml"), Config(root=str(PROJECT))).model
    included = graders.tests[0].assertions[0]
    assert (included.type, included.weight, included.settings) == ("contains", "${{ WEIGHT }}", {"value": "total"})


def test_a_reference_is_no_list_nor_a_mapping_and_one_inside_a_string_leaves_it_a_string(tmp_path):
    write_suite(tmp_path, "tests:\n"
                          "  - id: t\n"
                          "    criteria: c\n"
                          "    input: q\n"
                          "    assertions: ${{ ASSERTIONS }}\n"
                          "  - id: u\n"
                          "    criteria: c\n"
                          "    input: q\n"
                          "    assertions: [{type: contains, value: x, weight: \"1${{ W }}\"}]\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:5:17: EV306 [error] 'assertions' must be a list of assertions, found '${{ ASSERTIONS }}'; "
        "the runner skips them\n"
        "a.eval.yaml:9:53: EV304 [error] assertion 'weight' must be a finite number >= 0, found '1${{ W }}'; the "
        "runner skips the test\n"), "")


def test_a_score_band_after_one_the_environment_gives_is_still_checked(tmp_path):
    write_suite(tmp_path, "tests:\n"
                          "  - id: t\n"
                          "    criteria: c\n"
                          "    input: q\n"
                          "    assertions:\n"
                          "      - type: rubrics\n"
                          "        criteria:\n"
                          "          - id: r\n"
                          "            score_ranges:\n"
                          "              - {score_range: [0, \"${{ HIGH }}\"], outcome: low}\n"
                          "              - {score_range: [9, 3], outcome: high}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:11:17: EV361 [error] a score band needs 'score_range: [min, max]' (whole scores 0-10, min <= max) "
        "and a non-empty 'outcome'; the runner skips the test\n"), "")


def test_agentv_2_2_reads_a_reference_as_written(tmp_path):
    write_suite(tmp_path, "evalcases:\n"
                          "  - id: t\n"
                          "    expected_outcome: o\n"
                          "    input_messages: [{role: user, content: q}]\n"
                          "    evaluators:\n"
                          "      - {name: j, type: llm_judge, weight: \"${{ W }}\", prompt: \"${{ P }}/judge.md\"}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:44: EV304 [error] evaluator 'weight' must be a finite number >= 0, found '${{ W }}'\n"
        "a.eval.yaml:6:64: EV404 [error] prompt '${{ P }}/judge.md' looks like a path but names no file (looked in: "
        "./); it will be sent as inline prompt text\n"), "")


def test_marking_copies_only_the_way_to_a_reference():
    untouched = {"tests": [{"id": "t", "weight": 1}], "${{ KEY }}": "v"}
    assert marked(untouched) is untouched
    data = {"a": {"b": ["x", "${{ W }}", " ${{ W }}", "${{ 1W }}"]}, "c": {"d": "e"}}
    done = marked(data)
    assert done == data and done["c"] is data["c"] and done is not data
    assert [type(item) for item in done["a"]["b"]] == [str, WholeReference, Reference, str]


def _schema_errors(name: str, data, definition: str = "") -> list:
    """The messages of the shipped JSON Schema ``name`` (or of its ``definition``) on ``data``."""
    shipped = json.loads((ROOT / "evallint" / "jsonschemas" / name).read_text(encoding="utf-8"))
    if definition:
        shipped = {"$ref": f"#/definitions/{definition}", "definitions": shipped["definitions"]}
    return [error.message for error in jsonschema.Draft7Validator(shipped).iter_errors(data)]


def test_the_json_schemas_of_files_the_runner_interpolates_take_a_whole_reference_for_a_scalar():
    suite = yaml.safe_load((PROJECT / "evals" / "settings.eval.yaml").read_text(encoding="utf-8"))
    config = yaml.safe_load((PROJECT / ".agentv" / "config.yaml").read_text(encoding="utf-8"))
    assert (_schema_errors("eval-4.42.schema.json", suite), _schema_errors("config-4.42.schema.json", config)) == ([], [])
    contains = {**suite["tests"][0]["assertions"][0], "weight": "1${{ WEIGHT }}"}
    assert _schema_errors("eval-4.42.schema.json", contains, "Assertion_contains") == [
        "'1${{ WEIGHT }}' is not valid under any of the given schemas"]
    case = {"id": "t", "expected_outcome": "o", "input_messages": [{"role": "user", "content": "q"}],
            "evaluators": [{"name": "j", "type": "llm_judge", "weight": "${{ W }}"}]}
    assert _schema_errors("eval.schema.json", {"evalcases": [case]}) == ["'${{ W }}' is not of type 'number'"]


def _references_for_values(data, count: list):
    """``data`` with each number, boolean and one-word string a whole reference to a variable of its own."""
    if isinstance(data, dict):
        return {key: _references_for_values(value, count) for key, value in data.items()}
    if isinstance(data, list):
        return [_references_for_values(value, count) for value in data]
    word = isinstance(data, str) and len(data) < 30 and data.replace("-", "").replace("_", "").isalnum() \
        and data not in ("true", "false") and not data.replace(".", "").isdigit()
    if isinstance(data, (bool, int, float)) or word:
        count.append(data)
        return "${{ V%d }}" % len(count)
    return data


def test_a_whole_reference_for_any_value_of_agentvs_examples_adds_no_error(tmp_path):
    """Each number, boolean and word of AgentV 4.42.4's example suites given by a reference instead (all at once,
    each suite beside a copy of itself as written, both written by PyYAML) adds no error, but for a test's target
    beside the suite's, which the runner ignores whatever the reference holds (EV116)."""
    corpus = FIXTURES / "agentv-4.42.4-examples"
    shutil.copytree(corpus, tmp_path / "c")
    count: list = []
    pairs = []
    for path in sorted(corpus.rglob("*.eval.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "tests" in data:
            stem = tmp_path / "c" / path.relative_to(corpus).parent / path.name.replace(".eval.yaml", "")
            pairs.append((f"{stem}__as-written.eval.yaml", f"{stem}__referenced.eval.yaml"))
            Path(pairs[-1][0]).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
            Path(pairs[-1][1]).write_text(yaml.safe_dump(_references_for_values(data, count), sort_keys=False),
                                          encoding="utf-8")
    linted = lint_paths([Path(path) for pair in pairs for path in pair], config=Config(root=str(tmp_path / "c")))
    errors = Counter((d.path, d.code) for d in linted if d.severity is Severity.ERROR)
    added = {(Path(referenced).relative_to(tmp_path / "c").as_posix(), code): errors[(referenced, code)] - errors[
        (written, code)] for written, referenced in pairs for code in {c for _, c in errors} if errors[(referenced, code)]
        > errors[(written, code)]}
    assert (len(pairs), len(count) > 3000) == (98, True)
    assert added == {("examples/features/basic/evals/dataset__referenced.eval.yaml", "EV116"): 1}
