"""``evallint server``'s hover, completion and goto definition, end to end."""
from __future__ import annotations

import pytest
from lsp import TARGETS, change, definition, editor_repo, open_text, published
from lsprotocol import types
from pytest_lsp import LanguageClient

from evallint import api
from evallint.format.agentv2.evaluators import EVALUATOR_KINDS

pytestmark = pytest.mark.asyncio

SUITE = """\
evalcases:
  - id: a
    expected_outcome: g
    input_messages:
      - role: user
        content: q
    execution:
      target: judge
      evaluators:
        - name: tools
          type: tool_trajectory
          mode: in_order
        - name: j
          type: llm_judge
          prompt: prompts/judge.md
        - name: c
          type: code_judge
          script: ["python", "check.py"]
"""


@pytest.fixture
def repo(tmp_path):
    editor_repo(tmp_path)
    (tmp_path / "evals" / "check.py").write_text("print(1)\n")
    return tmp_path


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


async def opened(client: LanguageClient, repo, text: str = SUITE) -> str:
    uri = open_text(client, repo / "evals" / "a.yaml", text)
    await published(client, uri)
    return uri


async def hover_text(client: LanguageClient, uri: str, line: int, character: int):
    found = await client.text_document_hover_async(types.HoverParams(text_document=doc(uri),
                                                                     position=at(line, character)))
    return None if found is None else (found.contents.kind, found.contents.value)


async def test_hover_on_a_key_describes_it_and_its_accepted_values(client: LanguageClient, repo):
    uri = await opened(client, repo)
    assert await hover_text(client, uri, 11, 12) == (
        "markdown", "**`mode`**: How tool calls are compared.\n\nAccepted values: `any_order`, `in_order`, `exact`")
    assert await hover_text(client, uri, 4, 11) == (
        "markdown", "**`role`**: system, user, assistant or tool.\n\n"
                    "Accepted values: `assistant`, `system`, `tool`, `user`")
    assert await hover_text(client, uri, 1, 5) == ("markdown", "**`id`**: Unique id of the case (a string).")
    assert await hover_text(client, uri, 0, 12) == ("markdown", "**`evalcases`**: The eval cases.")  # its value
    assert await hover_text(client, uri, 2, 1) is None  # indentation


async def test_hover_on_a_key_covers_the_key(client: LanguageClient, repo):
    uri = await opened(client, repo)
    found = await client.text_document_hover_async(types.HoverParams(text_document=doc(uri), position=at(11, 20)))
    assert (found.range.start.line, found.range.start.character, found.range.end.character) == (11, 10, 14)


async def test_hover_on_a_diagnostic_explains_its_rule(client: LanguageClient, repo):
    uri = await opened(client, repo, SUITE.replace("mode: in_order", "mode: in-order"))
    kind, value = await hover_text(client, uri, 11, 18)
    assert kind == "markdown"
    key_doc, rule_doc = value.split("\n\n---\n\n")
    assert key_doc.startswith("**`mode`**: How tool calls are compared.")
    assert rule_doc == api.explain_rule("EV310")


async def completion(client: LanguageClient, uri: str, line: int, character: int) -> list:
    found = await client.text_document_completion_async(types.CompletionParams(text_document=doc(uri),
                                                                               position=at(line, character)))
    return [] if found is None else [(i.label, i.text_edit.new_text) for i in found.items]


async def test_completion_of_the_keys_a_mapping_accepts(client: LanguageClient, repo):
    text = SUITE.replace("          mode: in_order\n", "          mo\n")
    uri = await opened(client, repo, text)
    assert await completion(client, uri, 11, 12) == [("weight", "weight: "), ("mode", "mode: "),
                                                     ("minimums", "minimums: "), ("expected", "expected: ")]
    text = SUITE + "  - \n"
    change(client, uri, 2, text)
    await published(client, uri)
    labels = [label for label, _ in await completion(client, uri, 18, 4)]
    assert labels == ["id", "conversation_id", "description", "expected_outcome", "outcome", "input_messages",
                      "expected_messages", "execution", "evaluators", "rubrics", "evaluator", "input", "expected_output"]


async def test_completion_of_enumerated_values(client: LanguageClient, repo):
    uri = await opened(client, repo, SUITE.replace("mode: in_order", "mode: "))
    assert await completion(client, uri, 11, 16) == [("any_order", "any_order"), ("in_order", "in_order"),
                                                     ("exact", "exact")]
    assert [label for label, _ in await completion(client, uri, 4, 14)] == ["assistant", "system", "tool", "user"]
    assert [label for label, _ in await completion(client, uri, 10, 16)] == list(EVALUATOR_KINDS)  # every kind, in order


FLOW = SUITE.replace("      - role: user\n        content: q\n", "      - {role: , content: q}\n").replace(
    "          type: tool_trajectory\n          mode: in_order\n", "          type: tool_trajectory\n").replace(
    "        - name: tools\n", "        - {name: tools, type: tool_trajectory, mo}\n")
JSON_LINE = ('{"id": "b", "expected_outcome": "g", "input_messages": [{"role": "user", "content": "q"}], '
             '"execution": {"evaluators": [{"name": "t", "type": "tool_trajectory", "mo"}]}}')


async def test_hover_and_completion_in_a_flow_collection(client: LanguageClient, repo):
    uri = await opened(client, repo, FLOW)
    assert FLOW.splitlines()[4] == "      - {role: , content: q}"
    assert [label for label, _ in await completion(client, uri, 4, 15)] == ["assistant", "system", "tool", "user"]
    assert await hover_text(client, uri, 4, 19) == ("markdown", "**`content`**: A string, a mapping, or content blocks.")
    assert FLOW.splitlines()[8] == "        - {name: tools, type: tool_trajectory, mo}"
    assert await completion(client, uri, 8, 49) == [("weight", "weight: "), ("mode", "mode: "),
                                                    ("minimums", "minimums: "), ("expected", "expected: ")]


async def test_hover_and_completion_in_a_dataset_line(client: LanguageClient, repo):
    # a dataset is known by its first line: a case
    first = '{"id": "a", "expected_outcome": "g", "input": "q"}\n'
    uri = open_text(client, repo / "evals" / "cases.jsonl", first + JSON_LINE + "\n" + '{"id": "c", exp\n', "jsonl")
    await published(client, uri)
    column = JSON_LINE.index('"mo"') + 3
    assert await completion(client, uri, 1, column) == [("weight", "weight"), ("mode", "mode"),
                                                        ("minimums", "minimums"), ("expected", "expected")]
    assert await hover_text(client, uri, 1, JSON_LINE.index('"role"') + 2) == (
        "markdown", "**`role`**: system, user, assistant or tool.\n\n"
                    "Accepted values: `assistant`, `system`, `tool`, `user`")
    found = await completion(client, uri, 2, 15)
    assert ("expected_outcome", '"expected_outcome": ') in found
    assert "id" not in [label for label, _ in found]


async def test_completion_of_target_names_from_the_targets_file_the_runner_uses(client: LanguageClient, repo):
    uri = await opened(client, repo)
    found = await client.text_document_completion_async(types.CompletionParams(text_document=doc(uri),
                                                                               position=at(7, 14)))
    assert [(i.label, i.detail) for i in found.items] == [("default", "target in .agentv/targets.yaml"),
                                                          ("judge", "target in .agentv/targets.yaml")]
    # an unsaved targets file counts
    targets_uri = open_text(client, repo / ".agentv" / "targets.yaml", TARGETS + "  - name: new\n    provider: mock\n")
    await published(client, targets_uri)
    assert [label for label, _ in await completion(client, uri, 7, 14)] == ["default", "judge", "new"]
    assert [label for label, _ in await completion(client, targets_uri, 5, 18)] == ["default", "judge", "new"]


async def test_goto_definition_of_targets_and_files(client: LanguageClient, repo):
    uri = await opened(client, repo)
    targets = (repo / ".agentv" / "targets.yaml").as_uri()
    assert await definition(client, uri, 7, 16) == [(targets, 3, 10, 3, 15)]
    assert await definition(client, uri, 14, 22) == [((repo / "evals" / "prompts" / "judge.md").as_uri(), 0, 0, 0, 0)]
    assert await definition(client, uri, 17, 32) == [((repo / "evals" / "check.py").as_uri(), 0, 0, 0, 0)]
    assert await definition(client, uri, 17, 21) is None  # the interpreter, not a file
    assert await definition(client, uri, 2, 22) is None
    targets_uri = open_text(client, repo / ".agentv" / "targets.yaml", TARGETS)
    await published(client, targets_uri)
    assert await definition(client, targets_uri, 5, 20) == [(targets, 1, 10, 1, 17)]


async def test_goto_definition_in_a_dataset_line(client: LanguageClient, repo):
    line = ('{"id": "a", "expected_outcome": "g", "input": "q", "execution": {"target": "default", "evaluators": '
            '[{"name": "j", "type": "llm_judge", "prompt": "prompts/judge.md"}]}}')
    uri = open_text(client, repo / "evals" / "cases.jsonl", line + "\n", "jsonl")
    await published(client, uri)
    assert await definition(client, uri, 0, line.index('default"') + 2) == [
        ((repo / ".agentv" / "targets.yaml").as_uri(), 1, 10, 1, 17)]
    assert await definition(client, uri, 0, line.index("prompts/judge.md") + 3) == [
        ((repo / "evals" / "prompts" / "judge.md").as_uri(), 0, 0, 0, 0)]


async def test_file_blocks_lead_to_their_files(client: LanguageClient, repo):
    (repo / "evals" / "data.txt").write_text("data\n")
    text = SUITE.replace("        content: q\n", "        content:\n          - type: file\n            value: data.txt\n")
    uri = await opened(client, repo, text)
    assert await definition(client, uri, 7, 21) == [((repo / "evals" / "data.txt").as_uri(), 0, 0, 0, 0)]


LATER_SUITE = """\
tests:
  - id: greet
    criteria: Greets the user.
    input: Hello
    assertions:
      - type: contains
        value: hello
      - type: 
"""


async def test_completion_in_an_agentv_4_file_offers_its_format(client: LanguageClient, repo):
    """A 'tests:' file is AgentV 4.42.4's: the keys of its tests and the kinds of its assertions are offered, but not
    its deprecated keys, which the runner reads with a warning (or not at all)."""
    uri = await opened(client, repo, LATER_SUITE + "  - \n")
    labels = [label for label, _ in await completion(client, uri, 8, 4)]
    assert labels[:3] == ["id", "criteria", "input"] and "evalcases" not in labels
    assert not {"expected_outcome", "evaluators", "evaluator", "rubrics"} & set(labels)
    kinds = [label for label, _ in await completion(client, uri, 7, 14)]
    assert kinds[:3] == ["contains", "icontains", "starts-with"] and "llm-grader" in kinds and "llm_judge" not in kinds


async def test_goto_definition_of_an_include_leads_to_its_template(client: LanguageClient, repo):
    """In an AgentV 4.42.4 suite, an include's value leads to the template the runner reads for it."""
    template = repo / ".agentv" / "templates" / "polite.yaml"
    template.parent.mkdir()
    template.write_text("assertions:\n  - Thanks the user.\n")
    uri = await opened(client, repo, "tests:\n  - id: a\n    input: q\n    assertions:\n      - include: polite\n")
    assert await definition(client, uri, 4, 20) == [(template.as_uri(), 0, 0, 0, 0)]
