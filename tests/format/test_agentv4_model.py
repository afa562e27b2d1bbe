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
# the one real mistake the runner shows: a prompt command naming a file that was renamed, so it skips both
# tests of the suite; whether a referenced file exists is a reference check, not the schema's
SKIPPED = {"examples/features/prompt-template-sdk/evals/dataset.eval.yaml":
           ("prompt-template-basic", "prompt-template-with-config")}
# mistakes the schemas find where the runner drops what is written: expected tool calls' arguments under
# 'input', which a tool-trajectory's 'expected' does not read (the loaded 'expected' has no arguments)
ERRORS = {"examples/features/tool-trajectory-advanced/evals/trace-file-demo.eval.yaml": [
    ("EV115", ("tests", 3, "assertions", 0, "expected", i, "input")) for i in (0, 1)]}
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
def test_the_examples_have_no_error_but_the_dropped_arguments(name):
    _, found = _load(name)
    errors = [(f.code, f.path) for f in found.findings if RULES[f.code].level == "E"]
    assert errors == ERRORS.get(name, [])
    loaded = LOADED[name]["tests"]
    for code, path in errors:  # what the runner loaded of that entry holds no arguments
        entry = loaded[path[1]]["assertions"][path[3]]["expected"][path[5]]
        assert set(entry) == {"tool"}
