"""A handler that fails never ends the server: the failure goes to the client's log with its traceback, a
request is answered with an error, and the next messages are answered as before. The server is the real
one with faults put in (tests/server/faulty_server.py), as no known input makes a real handler fail."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp import change, editor_repo, make_client, open_text, published, start, summary
from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio

FAULTY = ClientServerConfig(server_command=[sys.executable, str(Path(__file__).with_name("faulty_server.py"))],
                            client_factory=make_client)
SUITE = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    descripton: x\n"


@pytest.fixture
def repo(tmp_path):
    return editor_repo(tmp_path)


@pytest_lsp.fixture(config=FAULTY)
async def faulty(lsp_client: LanguageClient, repo):
    await start(lsp_client, repo)
    yield
    await lsp_client.shutdown_session()


def logged(client: LanguageClient) -> list:
    return [m.message for m in client.log_messages if m.type == types.MessageType.Error]


async def test_a_failing_request_is_answered_with_an_error_and_logged(faulty: LanguageClient, repo):
    uri = open_text(faulty, repo / "evals" / "a.yaml", SUITE)
    assert summary(await published(faulty, uri)) == [("EV109", 4, 4, 4, 14)]
    document, position = types.TextDocumentIdentifier(uri=uri), types.Position(line=1, character=5)
    with pytest.raises(JsonRpcInternalError, match="evallint: textDocument/hover failed: RuntimeError: "
                                                   "hover broke on purpose"):
        await faulty.text_document_hover_async(types.HoverParams(text_document=document, position=position))
    [log] = logged(faulty)
    assert log.startswith("evallint: textDocument/hover failed:\nTraceback (most recent call last):")
    assert log.endswith("RuntimeError: hover broke on purpose\n")
    # the server answers the next request, and lints the next change
    items = await faulty.text_document_completion_async(
        types.CompletionParams(text_document=document, position=position))
    assert "conversation_id" in [item.label for item in items.items]
    change(faulty, uri, 2, SUITE.replace("descripton", "description"))
    assert summary(await published(faulty, uri)) == []


async def test_a_failing_notification_is_logged_and_the_server_goes_on(faulty: LanguageClient, repo):
    broken = open_text(faulty, repo / "evals" / "explodes.yaml", SUITE)
    uri = open_text(faulty, repo / "evals" / "a.yaml", SUITE)
    assert summary(await published(faulty, uri)) == [("EV109", 4, 4, 4, 14)]
    [log] = logged(faulty)
    assert log.startswith("evallint: textDocument/didOpen failed:\nTraceback (most recent call last):")
    assert log.endswith("ValueError: a change to explodes.yaml broke on purpose\n")
    assert broken not in faulty.diagnostics
    change(faulty, uri, 2, SUITE.replace("descripton", "description"))
    assert summary(await published(faulty, uri)) == []

