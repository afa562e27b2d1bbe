"""``evallint server`` end to end: a real client starts it as a process and drives it over standard input
and output. Diagnostics are the command line's for the buffer's text; unsaved buffers of targets files
and prompts count; a hostile document gets diagnostics and the server lives on."""
from __future__ import annotations

import pytest
from conftest import FIXTURES
from lsp import TARGETS, change, cli_concise, cli_positions, close, editor_repo, open_text, published, summary
from lsprotocol import types
from pytest_lsp import LanguageClient

from evallint import api

pytestmark = pytest.mark.asyncio

SUITE = """\
evalcases:
  - id: a
    expected_outcome: g
    input: q
    execution:
      target: jugde
      evaluators:
        - name: j
          type: llm_judge
          prompt: prompts/judge.md
  - id: a
    expected_outcome: g
    input: q
"""


@pytest.fixture
def repo(tmp_path):
    editor_repo(tmp_path)
    return tmp_path


async def test_diagnostics_on_open_are_the_command_lines(client: LanguageClient, repo):
    path = repo / "evals" / "a.yaml"
    found = await published(client, open_text(client, path, SUITE))
    assert summary(found) == [("EV116", 5, 6, 5, 12), ("EV409", 5, 14, 5, 19), ("EV104", 10, 8, 10, 9)]
    assert [(code, line + 1, column + 1) for code, line, column, _, _ in summary(found)] == \
        cli_concise(repo, str(path), SUITE)
    first, missing, duplicate = found
    assert missing.message == ("target 'jugde' is not defined in .agentv/targets.yaml (did you mean 'judge'?); "
                               "its targets: 'default', 'judge'")
    assert (missing.severity, missing.source) == (types.DiagnosticSeverity.Error, "evallint")
    assert missing.code_description.href == api.RULES_URL + "#ev409-unknown-target"
    assert [(r.location.uri, r.location.range.start.line, r.message) for r in missing.related_information] == \
        [((repo / ".agentv" / "targets.yaml").as_uri(), 0, "the targets file the runner uses")]
    assert [(r.location.uri, r.location.range.start.line, r.location.range.start.character, r.message)
            for r in duplicate.related_information] == [(path.as_uri(), 1, 8, "first occurrence")]
    assert first.related_information is None


async def test_diagnostics_follow_the_buffer_not_the_file(client: LanguageClient, repo):
    path = repo / "evals" / "a.yaml"
    path.write_text("evalcases: []\n")  # what is saved does not matter: the buffer is linted
    uri = open_text(client, path, SUITE)
    assert [d.code for d in await published(client, uri)] == ["EV116", "EV409", "EV104"]
    fixed_target = SUITE.replace("jugde", "judge")
    misspelt = fixed_target.replace("input: q\n    execution", "input: q\n    descripton: x\n    execution")
    head, tail = misspelt.rsplit("  - id: a", 1)
    last = head + "  - id: b" + tail
    texts = {2: fixed_target, 3: misspelt, 4: last}
    expected = {2: ["EV116", "EV104"], 3: ["EV109", "EV116", "EV104"], 4: ["EV109", "EV116"]}
    for version, text in texts.items():
        assert [d.code for d in api.lint_text(text, str(path), api.Config()).diagnostics] == expected[version]
        change(client, uri, version, text)
    # edits in a burst are linted once after it ends; whatever comes before is of an earlier text
    codes = [d.code for d in await published(client, uri)]
    while codes != expected[4]:
        assert codes in (expected[2], expected[3])
        codes = [d.code for d in await published(client, uri)]


async def test_unsaved_targets_and_prompts_count(client: LanguageClient, repo):
    eval_uri = open_text(client, repo / "evals" / "a.yaml", SUITE)
    assert [d.code for d in await published(client, eval_uri)] == ["EV116", "EV409", "EV104"]
    targets = repo / ".agentv" / "targets.yaml"
    targets_uri = open_text(client, targets, TARGETS + "  - name: jugde\n    provider: mock\n")
    assert await published(client, targets_uri) == []
    assert [d.code for d in await published(client, eval_uri)] == ["EV116", "EV104"]
    prompt_uri = open_text(client, repo / "evals" / "prompts" / "judge.md", "Judge it.\n", "markdown")
    assert await published(client, prompt_uri) == []
    assert [d.code for d in await published(client, eval_uri)] == ["EV116", "EV405", "EV104"]
    close(client, targets_uri)  # the targets file as saved counts again
    assert await published(client, targets_uri) == []
    assert [d.code for d in await published(client, eval_uri)] == ["EV116", "EV409", "EV405", "EV104"]


async def test_an_unsaved_template_counts_for_the_suites_that_include_it(client: LanguageClient, repo):
    """A change to an assertion template's buffer lints the open suites that include it again: what the
    template's items point at is looked up from the suite's folder."""
    template = repo / ".agentv" / "templates" / "judged.yaml"
    template.parent.mkdir()
    template.write_text("assertions: [{type: is-json}]\n")
    suite_uri = open_text(client, repo / "evals" / "a.eval.yaml", "tests:\n  - {id: a, input: q, assertions: "
                                                                   "[include: judged]}\n")
    assert await published(client, suite_uri) == []
    template_uri = open_text(client, template, "assertions: [{type: llm-grader, prompt: 'file://missing.md'}]\n")
    assert await published(client, template_uri) == []
    [found] = await published(client, suite_uri)
    assert (found.code, found.range.start.line, found.range.start.character) == ("EV404", 1, 44)
    assert found.message.startswith("in assertion template 'judged': prompt file 'missing.md' not found")
    change(client, template_uri, 2, "assertions: [{type: is-json}]\n")
    assert await published(client, template_uri) == []
    assert await published(client, suite_uri) == []


async def test_configuration_and_suppressions_as_the_command_line(client: LanguageClient, repo):
    (repo / ".evallint.toml").write_text('ignore = ["EV116"]\n')
    text = SUITE.replace("      target: jugde", "      target: jugde  # evallint: disable=EV409")
    path = repo / "evals" / "a.yaml"
    found = await published(client, open_text(client, path, text))
    assert summary(found) == [("EV104", 10, 8, 10, 9)]
    assert cli_concise(repo, str(path), text) == [("EV104", 11, 9)]


@pytest.mark.parametrize("name, text, language", [
    ("evals/ci.yaml", "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n", "yaml"),
    ("docs/notes.yaml", "key: [unclosed\n", "yaml"),
    ("evals/prompts/judge.md", "evalcases:\n  - id: 1\n", "markdown"),
])
async def test_a_file_that_is_not_an_agentv_file_gets_no_diagnostics(client: LanguageClient, repo, name, text,
                                                                     language):
    assert await published(client, open_text(client, repo / name, text, language)) == []


HOSTILE = sorted((FIXTURES / "hostile" / "evals").iterdir())


async def test_hostile_documents_get_diagnostics_and_the_server_lives_on(client: LanguageClient, repo):
    checked = 0
    for fixture in HOSTILE:
        # an editor shows bytes that are not UTF-8 as replacement characters
        text = fixture.read_bytes().decode("utf-8", "replace")
        path = repo / "evals" / f"{fixture.name}.yaml"
        uri = open_text(client, path, text)
        found = await published(client, uri)
        assert [(d.code, d.range.start.line, d.range.start.character) for d in found] == \
            cli_positions(repo, str(path), text), fixture.name
        close(client, uri)
        assert await published(client, uri) == []
        checked += 1
    assert checked == len(HOSTILE) > 300
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=(repo / "evals" / "a.yaml").as_uri()),
        position=types.Position(line=0, character=0)))
    assert hover is None  # answered: the document is not open


async def test_a_malformed_document_gets_its_syntax_error(client: LanguageClient, repo):
    text = "evalcases:\n  - id: a\n    input: [unclosed\n    expected_outcome: g\n"
    found = await published(client, open_text(client, repo / "evals" / "a.yaml", text))
    assert [d.code for d in found] == ["EV001"]
    assert [(d.code, d.range.start.line + 1, d.range.start.character + 1) for d in found] == \
        cli_concise(repo, str(repo / "evals" / "a.yaml"), text)


async def test_a_configuration_mistake_is_shown_once_and_nothing_is_reported(client: LanguageClient, repo):
    (repo / ".evallint.toml").write_text('ignroe = ["EV116"]\n')
    found = await published(client, open_text(client, repo / "evals" / "a.yaml", SUITE))
    assert found == []
    assert await published(client, open_text(client, repo / "evals" / "b.yaml", SUITE)) == []
    assert [(m.type, m.message) for m in client.messages] == [
        (types.MessageType.Error, f"evallint: {repo / '.evallint.toml'}:1: unknown configuration key 'ignroe' "
                                  "(did you mean 'ignore'?)")]
    # the other requests answer, with nothing
    where = types.TextDocumentIdentifier(uri=(repo / "evals" / "a.yaml").as_uri())
    at = types.Position(line=5, character=16)
    assert await client.text_document_definition_async(types.DefinitionParams(text_document=where, position=at)) \
        is None
    assert await client.text_document_hover_async(types.HoverParams(text_document=where, position=at)) is None
    found = await client.text_document_completion_async(types.CompletionParams(text_document=where, position=at))
    assert found is None
    assert list(await client.text_document_code_action_async(types.CodeActionParams(
        text_document=where, range=types.Range(start=at, end=at),
        context=types.CodeActionContext(diagnostics=[])))) == []
    assert client.log_messages == []


async def test_saving_the_configuration_lints_the_open_files_again(client: LanguageClient, repo):
    eval_uri = open_text(client, repo / "evals" / "a.yaml", SUITE)
    assert [d.code for d in await published(client, eval_uri)] == ["EV116", "EV409", "EV104"]
    config = repo / ".evallint.toml"
    config.write_text('ignore = ["EV104"]\n')
    config_uri = open_text(client, config, config.read_text(), "toml")
    assert await published(client, config_uri) == []
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=config_uri)))
    assert await published(client, config_uri) == []
    assert [d.code for d in await published(client, eval_uri)] == ["EV116", "EV409"]


async def test_a_file_changed_on_disk_lints_its_dependents_again(client: LanguageClient, repo):
    eval_uri = open_text(client, repo / "evals" / "a.yaml", SUITE)
    assert [d.code for d in await published(client, eval_uri)] == ["EV116", "EV409", "EV104"]
    [watching] = client.registrations  # the client said it can watch files for the server
    assert watching.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    assert watching.register_options == {"watchers": [{"globPattern": "**/*"}]}
    targets = repo / ".agentv" / "targets.yaml"
    targets.write_text(TARGETS + "  - name: jugde\n    provider: mock\n")  # a checkout, another program
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=(repo / "evals" / "unrelated.txt").as_uri(), type=types.FileChangeType.Created),
        types.FileEvent(uri=targets.as_uri(), type=types.FileChangeType.Changed)]))
    assert [d.code for d in await published(client, eval_uri)] == ["EV116", "EV104"]
    (repo / ".evallint.toml").write_text('ignore = ["EV116"]\n')
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=(repo / ".evallint.toml").as_uri(), type=types.FileChangeType.Created)]))
    assert [d.code for d in await published(client, eval_uri)] == ["EV104"]
