"""Driving ``evallint server`` from tests: a real client (pytest-lsp) that starts the server as a process
and talks to it over standard input and output, and helpers to open, edit and read what it publishes."""
from __future__ import annotations

import asyncio
import io
import os
import re
import sys

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities, make_test_lsp_client

from evallint.cli import main


def make_client() -> LanguageClient:
    """pytest-lsp's test client, which also accepts the capabilities the server registers (an editor
    does), kept in its ``registrations``."""
    client = make_test_lsp_client()
    client.registrations = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    return client


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "evallint", "server"], client_factory=make_client)
PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
PATIENCE = 120  # seconds: a server that never answers fails the test instead of hanging it


async def start(client: LanguageClient, folder, client_name: str = "visual-studio-code") -> None:
    """Initialize a session whose one workspace folder is ``folder``."""
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(client_name),
        workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="repo")],
        root_uri=folder.as_uri()))


async def published(client: LanguageClient, uri: str) -> list:
    """The diagnostics the server publishes next for ``uri``: each publication is taken once, so a test
    waits for exactly the ones its actions cause."""
    while uri not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(PUBLISH), PATIENCE)
    return list(client.diagnostics.pop(uri))


def open_text(client: LanguageClient, path, text: str, language: str = "yaml") -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
    return uri


def change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))


async def definition(client: LanguageClient, uri: str, line: int, character: int):
    """(uri, start line, start character, end line, end character) of each place goto definition gives at
    the protocol position ``line``, ``character`` of ``uri``; None for none."""
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
    return None if found is None else [(f.uri, f.range.start.line, f.range.start.character, f.range.end.line,
                                        f.range.end.character) for f in found]


def summary(diagnostics) -> list:
    """(code, start line, start column, end line, end column) of each, 0-based as the protocol's."""
    return [(d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
            for d in diagnostics]


def cli_concise(cwd, path: str, text: str) -> list:
    """(code, line, column) of each finding of ``evallint - --stdin-filename PATH`` run in ``cwd``, 1-based."""
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        main(["-", "--stdin-filename", path, "--format", "concise", "--quiet"], stdout=out, stderr=err,
             stdin=io.BytesIO(text.encode("utf-8", "surrogatepass")))
    finally:
        os.chdir(old)
    found = re.findall(r"^.*:(\d+):(\d+): (EV\d+) ", out.getvalue(), re.M)
    return [(code, int(line), int(column)) for line, column, code in found]


def protocol_position(text: str, line: int, column: int) -> tuple:
    """The 0-based protocol (line, UTF-16 column) in a buffer's ``text`` of evallint's 1-based line (broken
    at LF only) and column (code points), which leave a byte order mark out."""
    bom = 1 if text.startswith("\ufeff") else 0
    lf_starts = [0] + [m.end() for m in re.finditer("\n", text[bom:])]
    offset = lf_starts[line - 1] + column - 1 + bom
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\n|\r", text)]
    number = max(n for n, start in enumerate(starts) if start <= offset)
    if offset > starts[number] and text[offset - 1] == "\r" and text[offset:offset + 1] == "\n":
        offset -= 1  # between CR and LF: the end of the line
    return number, len(text[starts[number]:offset].encode("utf-16-le")) // 2


def cli_positions(cwd, path: str, text: str) -> list:
    """(code, line, column) of each finding the command line reports, as protocol positions."""
    return [(code, *protocol_position(text, line, column)) for code, line, column in cli_concise(cwd, path, text)]


def _offset(text: str, position: types.Position) -> int:
    """The offset of a protocol position (UTF-16 columns) in ``text``."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\n|\r", text)]
    start = starts[position.line]
    units, column = 0, start
    while units < position.character:
        units += 2 if ord(text[column]) > 0xFFFF else 1
        column += 1
    return column


def apply(text: str, edits) -> str:
    """``text`` with the protocol's text edits applied, as an editor applies them."""
    spans = sorted(((_offset(text, e.range.start), _offset(text, e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


# the targets file of the editor tests' repositories: a target and a judge target
TARGETS = "targets:\n  - name: default\n    provider: mock\n  - name: judge\n    provider: mock\n    judge_target: default\n"


def editor_repo(tmp_path):
    """A repository with ``TARGETS`` and a prompt template, ``evals/prompts/judge.md``; ``tmp_path``."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(TARGETS)
    (tmp_path / "evals" / "prompts").mkdir(parents=True)
    (tmp_path / "evals" / "prompts" / "judge.md").write_text("Judge {{ candidate_answer }}\n")
    return tmp_path
