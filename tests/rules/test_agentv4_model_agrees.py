"""Combinations that AgentV's own examples do not use, where evallint's model of a 4.42 test is checked against
what AgentV 4.42.4's loader makes of the same file: the tests kept, their criteria, input, expected output and
graders."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from clirun import run_concise
from evallint.config import Config
from evallint.lint import lint_file


def _blocks(content):
    """A message's content, its blocks cut to their type and value (the loader adds the file's text)."""
    if isinstance(content, (list, tuple)):
        return [{k: v for k, v in block.items() if k in ("type", "value")} if isinstance(block, dict) else block
                for block in content]
    return content


def runner_tests(root, name: str) -> list:
    loaded = load_tests(root, [name])[name]
    assert loaded["error"] is None
    return [(test["id"], test["criteria"], [(m["role"], _blocks(m.get("content"))) for m in test["input"]],
             [(m["role"], _blocks(m.get("content"))) for m in test["expected_output"]],
             [(a["name"], a["type"]) for a in test.get("assertions") or ()]) for test in loaded["tests"]]


def model_tests(root, name: str) -> list:
    model = lint_file(str(root / name), Config(root=str(root))).model
    return [(test.id, test.criteria, [(m.role, _blocks(m.content)) for m in test.input],
             [(m.role, _blocks(m.content)) for m in test.expected_output],
             [(a.name, a.type) for a in test.assertions]) for test in model.tests]


def _suite(tmp_path, text: str, name: str = "a.eval.yaml"):
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / name).write_text(text)
    return tmp_path


NULL_LISTS = (
    "execution:\n"
    "  assertions: null\n"
    "  assert: [{type: contains, value: SUITE}]\n"
    "tests:\n"
    "  - id: assert-after-null\n"
    "    input: q\n"
    "    assertions: null\n"
    "    assert: [{type: contains, value: A}]\n"
    "  - id: evaluators-after-null\n"
    "    input: q\n"
    "    criteria: c\n"
    "    assertions: ~\n"
    "    execution: {evaluators: null}\n"
    "    evaluators: [{type: equals, value: E}]\n")


def test_a_null_grader_list_is_passed_over_for_the_next_one(tmp_path):
    """The loader picks a grader list with '??': a null one counts as absent, so the next list is read, not
    shadowed (no EV113), and the null is no list it skips (no EV306)."""
    assert run_concise(_suite(tmp_path, NULL_LISTS), "--no-cache", "a.eval.yaml") == (0, "", "")
    assert [(test.id, [a.name for a in test.assertions]) for test in
            lint_file(str(tmp_path / "a.eval.yaml"), Config(root=str(tmp_path))).model.tests] == [
        ("assert-after-null", ["contains-A", "contains-SUITE"]),
        ("evaluators-after-null", ["equals-E", "contains-SUITE"])]


def test_a_null_grader_list_before_a_list_shadows_nothing_but_a_list_does(tmp_path):
    _suite(tmp_path, "assertions: null\nassert: [{type: contains, value: S}]\n"
                     "tests:\n  - {id: t, input: q, criteria: c, assertions: [], evaluators: [{type: is-json}]}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:4:52: EV113 [error] 'evaluators' is ignored because 'assertions' is also set; the runner reads "
        "only the first of 'assertions', 'assert', 'execution.evaluators', 'evaluators'\n"), "")


@pytest.mark.runner
def test_the_runner_reads_the_list_after_a_null_one(tmp_path):
    _suite(tmp_path, NULL_LISTS)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")
