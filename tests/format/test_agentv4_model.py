"""AgentV 4.42.4's eval suites declared as schemas (``evallint/format/agentv4``): on AgentV's own examples the
model equals what the runner's loader made of each suite (``runner-loaded.json``), and each rule finds its
mistake at its exact place, with its code.

The comparison is on a normal form (``runner_form``, ``model_form``) of each test: its id, criteria, input and
expected messages (role and content; a content list as its blocks' type and value, where a file block's value
is the path the runner stores as 'path') and its assertions (name, type, weight). The runner loaded the
examples in an environment without their variables, so each ``${{ NAME }}`` is an empty string on the
model's side. Tests read from other files (a 'tests:' path, a 'file://' item) are references, which the
model lists (``Suite.external``) and does not read: for such suites only the inline tests are compared."""
from __future__ import annotations

import json
import re

import pytest

from conftest import FIXTURES
from evallint.format.agentv4.suite import AGENTV4_SUITE_SCHEMA
from evallint.format.walk import load_checked
from evallint.load.yaml12 import parse_yaml
from evallint.rules.registry import RULES

CORPUS = FIXTURES / "agentv-4.42.4-examples"
LOADED = json.loads((CORPUS / "runner-loaded.json").read_text(encoding="utf-8"))
SUITES = sorted(name for name, loaded in LOADED.items() if name.endswith(".yaml") and loaded["error"] is None)
# the one real mistake the runner shows: a prompt command naming a file that does not exist (the file is
# prompts/custom-evaluator.ts), so it skips both tests of the suite; whether a referenced file exists is a
# reference check, not the schemas'
SKIPPED = {"examples/features/prompt-template-sdk/evals/dataset.eval.yaml":
           ("prompt-template-basic", "prompt-template-with-config")}
# mistakes the schemas find where the runner drops what is written: expected tool calls' arguments under
# 'input', which a tool-trajectory's 'expected' does not read (the loaded 'expected' has no arguments)
# expected calls' arguments under 'input', which the loader drops; an llm-grader's settings the runner applies only
# with a target (registry/builtin-graders.ts), which the loader keeps
ERRORS = {"examples/features/tool-trajectory-advanced/evals/trace-file-demo.eval.yaml": [
    ("EV115", ("tests", 3, "assertions", 0, "expected", i, "input")) for i in (0, 1)],
    "examples/features/file-changes-graders/evals/dataset.eval.yaml": [
        ("EV115", ("tests", 0, "assertions", 1, key)) for key in ("temperature", "max_steps")]}
_ENV = re.compile(r"\$\{\{\s*[A-Za-z_]\w*\s*\}\}")


def _content(content):
    if isinstance(content, (list, tuple)):
        return [(block.get("type"), block.get("value", block.get("path"))) if isinstance(block, dict) else block
                for block in content]
    return content


def _no_env(value):
    if isinstance(value, str):
        return _ENV.sub("", value)
    if isinstance(value, list):
        return [_no_env(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_no_env(item) for item in value)
    if isinstance(value, dict):
        return {key: _no_env(item) for key, item in value.items()}
    return value


def runner_form(test: dict) -> dict:
    return {"id": test["id"], "criteria": test["criteria"],
            "input": [(m["role"], _content(m.get("content"))) for m in test["input"]],
            "expected_output": [(m["role"], _content(m.get("content"))) for m in test["expected_output"]],
            "assertions": [(a["name"], a["type"], a.get("weight")) for a in test.get("assertions", ())]}


def model_form(test) -> dict:
    return _no_env({"id": test.id, "criteria": test.criteria,
                    "input": [(m.role, _content(m.content)) for m in test.input],
                    "expected_output": [(m.role, _content(m.content)) for m in test.expected_output],
                    "assertions": [(a.name, a.type, a.weight) for a in test.assertions]})


def _load(name: str):
    parsed = parse_yaml((CORPUS / name).read_text(encoding="utf-8"))
    # EV010: the parser leaves a '<<' merge key out, as AgentV 2.2's runner does not merge it; 4.42's does,
    # and merges only metadata in these examples, which the comparison leaves out
    assert parsed.ok and [f.code for f in parsed.findings if f.code != "EV010"] == [], name
    return load_checked(AGENTV4_SUITE_SCHEMA, parsed.data)


@pytest.mark.parametrize("name", SUITES)
def test_the_model_of_each_example_is_what_the_runner_loaded(name):
    model, _ = _load(name)
    assert model is not None
    ours = [model_form(test) for test in model.tests if test.id not in SKIPPED.get(name, ())]
    theirs = [runner_form(test) for test in LOADED[name]["tests"]]
    if model.external:
        ids = {test["id"] for test in ours}
        theirs = [test for test in theirs if test["id"] in ids]
    assert ours == theirs


def test_the_runner_skips_the_tests_whose_prompt_command_names_a_renamed_file():
    for name, ids in SKIPPED.items():
        logs = LOADED[name]["logs"]
        assert [test_id for test_id in ids if any(f"'{test_id}'" in line and "prompt command file not found" in line
                                                  for line in logs)] == list(ids)
        model, _ = _load(name)
        assert [test.id for test in model.tests] == list(ids)


@pytest.mark.parametrize("name", SUITES)
def test_the_examples_have_no_error_but_the_dropped_arguments_and_unapplied_settings(name):
    _, found = _load(name)
    errors = [(f.code, f.path) for f in found.findings if RULES[f.code].level == "E"]
    assert errors == ERRORS.get(name, [])
    loaded = LOADED[name]["tests"]
    for code, path in errors:  # what the runner loaded of an expected call holds no arguments
        if "expected" in path:
            assert set(loaded[path[1]]["assertions"][path[3]]["expected"][path[5]]) == {"tool"}
        else:
            assert "target" not in loaded[path[1]]["assertions"][path[3]]


def _model(text: str):
    parsed = parse_yaml(text)
    model, found = load_checked(AGENTV4_SUITE_SCHEMA, parsed.data)
    return model, [(f.code, f.path) for f in found.findings]


def test_assertions_are_named_typed_and_weighed_as_the_loader_does():
    model, found = _model("""\
tests:
  - id: a
    criteria: c
    input: hi
    assertions:
      - first criterion
      - {type: contains, value: Paris}
      - second criterion
      - {type: regex, value: "^(one|two|three|four|five|six|seven)"}
      - {type: icontains_any, value: [a, b, c]}
      - {type: skill_trigger, skill: csv}
      - {type: rubrics, criteria: [clear], weight: 3}
      - {type: rubric, rubrics: [{outcome: clear}]}
      - {type: word-count, max: 3, weight: 0.5}
      - {type: code-grader, command: [python, check.py], threshold: 2}
      - {type: composite, name: gate, aggregator: {type: weighted_average}, assertions: [{name: j, type: is-json}]}
""")
    assert found == [("EV317", ("tests", 0, "assertions", 8, "max"))]  # which the runner does not give the grader
    [test] = model.tests
    assert [(a.name, a.type, a.weight) for a in test.assertions] == [
        ("rubrics", "llm-grader", 2.0),  # the strings pooled where the first one is, weighed by their count
        ("contains-Paris", "contains", None),
        ("regex-^(one|two|three|four|five|six|", "regex", None),  # the first 30 characters of the pattern
        ("icontains-any-3", "icontains-any", None),
        ("skill-trigger-csv", "skill-trigger", None),
        ("rubrics", "llm-grader", 3.0),
        ("rubric", "llm-grader", None),
        ("word-count", "word-count", 0.5),  # a custom grader: its type as written
        ("code-grader", "code-grader", None),
        ("gate", "composite", None),
    ]
    assert test.assertions[0].settings == {"criteria": ("first criterion", "second criterion")}
    assert test.assertions[7].settings == {"max": 3}  # the loader stores a custom grader's other keys as its configuration
    assert test.assertions[8].settings == {"command": ["python", "check.py"], "threshold": 2}
    assert [m.name for m in test.assertions[9].members] == ["j"]


def test_the_suite_defaults_apply_unless_a_test_skips_them():
    model, found = _model("""\
input: [{role: system, content: "Answer about {{ topic }}."}]
input_files: [guide.md]
assertions: [{type: is-json}]
tests:
  - id: a
    criteria: c
    vars: {topic: maps}
    input: "Where is {{ topic }}?"
    rubrics: [clear]
    assertions: [{type: contains, value: x}]
  - id: b
    criteria: c
    input: [{role: user, content: hi}]
    execution: {skip_defaults: true}
""")
    assert found == []
    a, b = model.tests
    assert [(m.role, m.content) for m in a.input] == [
        ("system", "Answer about maps."),
        ("user", ({"type": "file", "value": "guide.md"}, {"type": "text", "value": "Where is maps?"}))]
    assert [(x.name, x.type) for x in a.assertions] == [("rubrics", "llm-grader"), ("contains-x", "contains"),
                                                         ("is-json", "is-json")]
    assert [(m.role, m.content) for m in b.input] == [("user", "hi")] and b.assertions == ()
    assert model.assertions == a.assertions[-1:]
    assert [(m.role, m.content) for m in model.input] == [("system", "Answer about {{ topic }}.")]


def test_tests_the_loader_skips_and_members_it_drops_are_not_in_the_model():
    model, found = _model("""\
tests:
  - id: a
    input: hi
  - id: b
    criteria: c
    input: hi
    assertions:
      - {type: composite, aggregator: {type: weighted_average}, assertions: [{name: j, type: is-json}, {type: is-json}]}
  - file://more.yaml
""")
    assert found == [("EV106", ("tests", 0)), ("EV302", ("tests", 1, "assertions", 0, "assertions", 1))]
    assert [t.id for t in model.tests] == ["b"] and model.external == ("more.yaml",)
    assert [m.name for m in model.tests[0].assertions[0].members] == ["j"]


def test_a_file_with_an_error_of_a_field_has_no_model():
    model, found = _model("tests:\n  - {id: a, criteria: c, input: hi, assertions: [{type: contains}]}\n")
    assert model is None and found == [("EV110", ("tests", 0, "assertions", 0))]
