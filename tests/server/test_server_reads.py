"""What ``evallint server`` reads from disk it reads as the linter reads a file: a regular file only, opened
without blocking, and not read over the size cap (``max-file-size``; a configuration file at the default
cap). A reference to a file, and a related file of a diagnostic, lead to the file's start, which takes no
reading of it at all."""
from __future__ import annotations

import pytest
from clirun import run_concise
from lsp import TARGETS, cli_positions, definition, editor_repo, open_text, published, summary
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

BIG = 200 * 2**20  # bytes: over the default size cap

SUITE = """\
execution:
  target: judge
evalcases:
  - id: a
    expected_outcome: g
    input_messages:
      - role: user
        content:
          - type: file
            value: big.txt
          - type: file
            value: marked.txt
"""
UNKNOWN_TARGET = "execution:\n  target: jugde\nevalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"


@pytest.fixture
def repo(tmp_path):
    return editor_repo(tmp_path)


def sparse(path, size: int = BIG) -> None:
    """A file of ``size`` bytes that takes no disk space."""
    with open(path, "wb") as fh:
        fh.truncate(size)


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


async def test_a_file_reference_leads_to_the_start_of_a_file_over_the_size_cap(client: LanguageClient, repo):
    sparse(repo / "evals" / "big.txt")
    (repo / "evals" / "marked.txt").write_bytes(b"\xef\xbb\xbfdata\n")  # a byte order mark: not a character
    uri = open_text(client, repo / "evals" / "a.yaml", SUITE)
    assert summary(await published(client, uri)) == []
    assert await definition(client, uri, 9, 20) == [((repo / "evals" / "big.txt").as_uri(), 0, 0, 0, 0)]
    assert await definition(client, uri, 11, 20) == [((repo / "evals" / "marked.txt").as_uri(), 0, 0, 0, 0)]
    assert await definition(client, uri, 1, 11) == [((repo / ".agentv" / "targets.yaml").as_uri(), 3, 10, 3, 15)]


async def test_a_related_targets_file_is_its_start(client: LanguageClient, repo):
    (repo / ".agentv" / "targets.yaml").write_bytes(b"\xef\xbb\xbf" + TARGETS.encode())
    uri = open_text(client, repo / "evals" / "a.yaml", UNKNOWN_TARGET)
    [found] = await published(client, uri)
    assert (found.code, found.range.start.line, found.range.start.character) == ("EV409", 1, 10)
    assert [(r.location.uri, r.location.range.start.line, r.location.range.start.character,
             r.location.range.end.line, r.location.range.end.character, r.message)
            for r in found.related_information] == [
        ((repo / ".agentv" / "targets.yaml").as_uri(), 0, 0, 0, 0, "the targets file the runner uses")]


@pytest.mark.parametrize("cap", [None, 200], ids=["sparse file over the default cap", "max-file-size = 200"])
async def test_a_targets_file_over_the_size_cap_is_not_read(client: LanguageClient, repo, cap):
    targets = repo / ".agentv" / "targets.yaml"
    if cap is None:
        sparse(targets)
    else:
        (repo / ".evallint.toml").write_text(f"max-file-size = {cap}\n")
        targets.write_text(TARGETS + "  - name: padding\n    provider: mock\n" * 4)
        assert len(TARGETS) < cap < targets.stat().st_size
    path = repo / "evals" / "a.yaml"
    uri = open_text(client, path, UNKNOWN_TARGET)
    # no targets are known: the unknown target is not reported, as on the command line
    found = await published(client, uri)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in found] == \
        cli_positions(repo, str(path), UNKNOWN_TARGET) == []
    completed = await client.text_document_completion_async(types.CompletionParams(text_document=doc(uri),
                                                                                   position=at(1, 14)))
    assert list(completed.items) == []
    assert await definition(client, uri, 1, 11) is None


async def test_a_configuration_file_over_the_size_cap_is_not_read(client: LanguageClient, repo):
    config = repo / ".evallint.toml"
    sparse(config)
    message = f"{config}: cannot read configuration: file is {BIG} bytes, over the size cap of 10485760 bytes; " \
              "it is not read"
    assert await published(client, open_text(client, repo / "evals" / "a.yaml", SUITE)) == []
    assert [(m.type, m.message) for m in client.messages] == [(types.MessageType.Error, f"evallint: {message}")]
    assert run_concise(repo, "evals") == (2, "", f"evallint: error: {message}\n")


async def test_a_buffer_over_the_size_cap_is_not_parsed(client: LanguageClient, repo):
    (repo / ".evallint.toml").write_text("max-file-size = 200\n")
    text = UNKNOWN_TARGET.replace("jugde", "judge") + "#" * 200 + "\n"
    path = repo / "evals" / "a.yaml"
    uri = open_text(client, path, text)
    found = await published(client, uri)
    assert [(d.code, d.range.start.line, d.range.start.character, d.message) for d in found] == [
        ("EV006", 0, 0, "file is over the size cap of 200 bytes; it is not read")]
    assert [(d.code, d.range.start.line, d.range.start.character) for d in found] == \
        cli_positions(repo, str(path), text)
    # completion reads the lines around the cursor, and the targets file; goto definition would parse the text
    completed = await client.text_document_completion_async(types.CompletionParams(text_document=doc(uri),
                                                                                   position=at(1, 14)))
    assert [item.label for item in completed.items] == ["default", "judge"]
    assert await definition(client, uri, 1, 11) is None
