"""EV214: what of an AgentV 4.42 test's expected output no grader gets, when every grader of the test is an
llm-grader with a prompt of text: the messages before the last, and the last one's tool calls beside its content."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import write_suite
from clirun import run_concise

STEPS = ("    expected_output:\n"
         "      - {role: assistant, tool_calls: [{tool: get_weather, input: {city: Paris}}]}\n"
         "      - {role: assistant, content: It is 21 degrees.}\n")
HOW = "an llm-grader gets only the last message's content as the reference answer"
THEN = "put what the answer must show in that message or in the criteria, or check it with another grader"


def suite(graders: str = "", head: str = "") -> str:
    return f"{head}tests:\n  - id: w\n    input: Weather in Paris?\n    criteria: c\n{STEPS}{graders}"


@pytest.mark.parametrize("graders,head", [
    ("", ""),  # the default llm-grader
    ("    assertions: [Says 21 degrees, {type: rubrics, criteria: [warm]}]\n", ""),
    ("", "assertions: [{type: llm-grader, prompt: 'file://missing.md'}]\n"),  # the suite's, a template of text
])
def test_only_llm_graders_of_text_prompts_leave_the_earlier_messages_ungraded(tmp_path, graders, head):
    code, out, _ = run_concise(write_suite(tmp_path, suite(graders, head)), "--no-cache", "--select", "EV214",
                               "a.eval.yaml")
    line = 6 + head.count("\n")
    assert (code, out) == (0, f"a.eval.yaml:{line}:9: EV214 [warning] the expected message before the last reaches no "
                              f"grader of this test: {HOW}; {THEN} (a code-grader gets every message, tool-trajectory "
                              "the calls)\n")


@pytest.mark.parametrize("graders,head", [
    ("    assertions: [{type: code-grader, command: [node, g.js]}]\n", ""),
    ("", "assertions: [{type: code-grader, command: [node, g.js]}]\n"),
    ("    assertions: [{type: llm-grader, prompt: {command: [node, p.js]}}]\n", ""),  # a prompt script
    ("    assertions: [{type: llm-grader}, {type: contains, value: '21'}]\n", ""),
    ("    assertions: [{type: my-check}]\n", ""),  # a custom type
    ("    mode: conversation\n    turns: [{input: hi, expected_output: hello}]\n", ""),
])
def test_a_grader_of_another_kind_or_a_conversation_is_not_reported(tmp_path, graders, head):
    assert run_concise(write_suite(tmp_path, suite(graders, head)), "--no-cache", "--select", "EV214",
                       "a.eval.yaml")[1] == ""


def test_a_dataset_line_and_a_last_message_with_content_and_calls(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "d.jsonl").write_text(
        '{"id": "b", "input": "Book it.", "criteria": "c", "expected_output": {"role": "assistant", "content": '
        '"Booked.", "tool_calls": [{"tool": "book"}]}}\n'
        '{"id": "c", "input": "Book it.", "criteria": "c", "expected_output": {"role": "assistant", '
        '"tool_calls": [{"tool": "book"}]}}\n')
    assert run_concise(tmp_path, "--no-cache", "--select", "EV214", "d.jsonl") == (0, (
        f"d.jsonl:1:114: EV214 [warning] the expected tool calls reach no grader of this test: {HOW}, not its tool "
        f"calls; {THEN} (tool-trajectory checks calls)\n"), "")


@pytest.mark.runner
def test_the_loader_makes_the_last_messages_content_alone_the_reference_answer(tmp_path):
    write_suite(tmp_path, suite() + "  - id: b\n    input: Book it.\n    criteria: c\n    expected_output:\n"
                "      {role: assistant, content: Booked., tool_calls: [{tool: book}]}\n")
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert [(test["reference_answer"], test.get("assertions")) for test in loaded["tests"]] == [
        ("It is 21 degrees.", None), ("Booked.", None)]
