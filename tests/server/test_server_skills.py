"""``evallint server`` in an Agent Skills evals file (``evals.json``), end to end: hover, completion, goto
definition and code actions in pretty-printed JSON, whole or half typed."""
from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES
from lsp import change, definition, open_text, published
from lsprotocol import types
from pytest_lsp import LanguageClient

from evallint import api

pytestmark = pytest.mark.asyncio

SKILL = FIXTURES / "editor" / "skill"
TEXT = (SKILL / "evals" / "evals.json").read_text()
SHOULD_TRIGGER = ("**`should_trigger`**: Whether the skill should be used (written by 'agentv convert'; the loader "
                  "does not read it).")
PROMPT = "**`prompt`**: What the agent is asked: the test's user message. Without it the runner skips the eval."


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    shutil.copytree(SKILL, tmp_path / "skill")
    return tmp_path


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


async def opened(client: LanguageClient, repo, text: str = TEXT) -> str:
    uri = open_text(client, repo / "skill" / "evals" / "evals.json", text, "json")
    await published(client, uri)
    return uri


async def hover(client: LanguageClient, uri: str, line: int, character: int):
    """(markdown, (start line, start character, end line, end character) of the range) of the hover; None."""
    found = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at(line, character)))
    if found is None:
        return None
    span = found.range
    where = None if span is None else (span.start.line, span.start.character, span.end.line, span.end.character)
    return found.contents.value, where


async def completion(client: LanguageClient, uri: str, line: int, character: int) -> list:
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at(line, character)))
    return None if found is None else [(i.label, i.text_edit.new_text) for i in found.items]


async def test_hover_on_a_key_describes_it_as_its_declaration_says(client: LanguageClient, repo):
    uri = await opened(client, repo)
    assert TEXT.splitlines()[5].startswith('      "prompt": "Summarise')
    assert await hover(client, uri, 5, 9) == (PROMPT, (5, 6, 5, 14))
    assert await hover(client, uri, 5, 30) == (PROMPT, (5, 6, 5, 14))  # in its value
    assert await hover(client, uri, 1, 4) == ("**`skill_name`**: The skill's name, kept in each test's metadata.",
                                              (1, 2, 1, 14))
    assert await hover(client, uri, 2, 4) == ("**`evals`**: The eval cases.", (2, 2, 2, 9))
    assert await hover(client, uri, 13, 10) == (SHOULD_TRIGGER, (13, 6, 13, 22))
    assert await hover(client, uri, 7, 20) is None  # an item of a list
    assert await hover(client, uri, 3, 2) is None  # between the cases
    # on a diagnostic: its rule's explanation alone
    assert await hover(client, uri, 7, 45) == (api.explain_rule("EV401"), None)


async def test_hover_on_a_value_below_its_key_covers_the_key(client: LanguageClient, repo):
    text = TEXT.replace('"prompt": "What does', '"prompt":\n        "What does')
    uri = await opened(client, repo, text)
    assert await hover(client, uri, 13, 12) == (PROMPT, (12, 6, 12, 14))


async def test_completion_of_the_keys_not_written_yet(client: LanguageClient, repo):
    # a blank line in a case: the one key it lacks, quoted, with its colon
    uri = await opened(client, repo, TEXT.replace('"id": 1,\n', '"id": 1,\n      \n'))
    assert await completion(client, uri, 5, 6) == [("should_trigger", '"should_trigger": ')]
    # at the top
    change(client, uri, 2, TEXT.replace('  "skill_name": "pdf",\n', "  \n"))
    await published(client, uri)
    assert await completion(client, uri, 1, 2) == [("skill_name", '"skill_name": ')]
    # a key typed above another, before its comma: in quotes (closed by the editor or not), the name alone; the
    # key below counts as written
    names = ["expected_output", "files", "assertions"]
    for version, typed in enumerate(('"ex"', '"ex', "ex"), 3):
        change(client, uri, version, TEXT.replace('      "should_trigger"', f'      {typed}\n      "should_trigger"'))
        await published(client, uri)
        quoted = typed.startswith('"')
        assert await completion(client, uri, 13, 6 + quoted + 2) == [
            (name, name if quoted else f'"{name}": ') for name in names], typed
        # from the line below, the key above is no longer being typed: a closed one is read as a key, which leaves
        # the one below read; after an open quote or an unquoted key, the line below is their continuation
        below = (SHOULD_TRIGGER, (14, 6, 14, 22)) if typed == '"ex"' else None
        assert await hover(client, uri, 14, 10) == below, typed


async def test_completion_in_a_half_typed_document_reads_what_is_there(client: LanguageClient, repo):
    half = TEXT[:TEXT.index('"prompt": "Summarise')] + '"pro'
    uri = await opened(client, repo, half)
    assert await completion(client, uri, 5, 10) == [("prompt", "prompt"), ("expected_output", "expected_output"),
                                                    ("files", "files"), ("assertions", "assertions"),
                                                    ("should_trigger", "should_trigger")]
    assert await hover(client, uri, 2, 4) == ("**`evals`**: The eval cases.", (2, 2, 2, 9))
    # at the end of a text that is no JSON yet: the keys of the collection open there, nothing in a value
    top = [("skill_name", '"skill_name": '), ("evals", '"evals": ')]
    for version, (text, expected) in enumerate([("", None), ("{", top), ('{"evals": [{"id": 1, "prompt": "\\ud800', []),
                                                ("[", None), ("}}}", None), ('{"evals": [{"id"\t: ', [])], 2):
        change(client, uri, version, text)
        await published(client, uri)
        assert await completion(client, uri, 0, len(text)) == expected, text
        found = await hover(client, uri, 0, 1)  # nothing, or the explanation of the file's syntax error
        assert found is None or found[0] == api.explain_rule("EV701")


async def test_values_have_no_completion_the_format_enumerates_none(client: LanguageClient, repo):
    uri = await opened(client, repo)
    assert await completion(client, uri, 5, 17) == []


async def test_goto_definition_of_a_file_the_case_names(client: LanguageClient, repo):
    uri = await opened(client, repo)
    assert await definition(client, uri, 7, 20) == [
        ((repo / "skill" / "evals" / "files" / "report.txt").as_uri(), 0, 0, 0, 0)]
    assert await definition(client, uri, 7, 45) is None  # not found
    assert await definition(client, uri, 5, 30) is None  # a prompt is no path


async def test_no_code_action_edits_json(client: LanguageClient, repo):
    """The fixes and suppression comments are YAML's: none is offered for an evals file's findings."""
    text = (FIXTURES / "skills" / "bad" / "evals" / "evals.json").read_text()
    uri = await opened(client, repo, text)
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=at(0, 0), end=at(20, 0)),
        context=types.CodeActionContext(diagnostics=[])))
    assert list(found) == []

