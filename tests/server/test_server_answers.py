"""Every request to ``evallint server`` gets an answer, a result or an error, however it is written: a
position out of the protocol's range, a body that is not UTF-8. A message without a readable id (a
notification, a body that is no JSON) cannot be answered: it is logged and shown, and the server goes on.
The server is a process fed raw bytes (tests/server/rawlsp.py), as an editor's bytes reach it."""
from __future__ import annotations

import json

import pytest
from lsp import editor_repo
from rawlsp import RawServer

SUITE = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
MARK = "<not UTF-8>"  # where a byte that is not UTF-8 goes in a body
REQUESTS = ("textDocument/hover", "textDocument/completion", "textDocument/definition")


@pytest.fixture
def server(tmp_path_factory):
    repo = editor_repo(tmp_path_factory.mktemp("repo"))
    log_path = tmp_path_factory.mktemp("log") / "server.log"
    with open(log_path, "wb") as log:
        raw = RawServer(repo, log)
        raw.repo, raw.log_path = repo, log_path
        try:
            raw.start(repo)
            raw.uri = (repo / "evals" / "a.yaml").as_uri()
            raw.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": raw.uri, "languageId": "yaml", "version": 1, "text": SUITE}}})
            yield raw
            assert raw.stop() == 0
        finally:
            if raw.process.poll() is None:
                raw.process.kill()
                raw.process.wait()


def at(uri: str, line: int, character: int) -> dict:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def hover_of_id(server: RawServer, msg_id: str) -> dict:
    """A hover on the case's 'id' key, answered as usual: the server goes on."""
    server.send({"id": msg_id, "method": "textDocument/hover", "params": at(server.uri, 1, 5)})
    return server.answer(msg_id)["result"]["contents"]["value"]


@pytest.mark.parametrize("method", REQUESTS)
def test_a_position_out_of_range_is_answered_with_invalid_params(server: RawServer, method):
    cases = [(-1, 0, "line", -1), (0, -1, "character", -1), (2**31, 0, "line", 2**31),
             (0, 2**40, "character", 2**40)]
    for n, (line, character, field, value) in enumerate(cases):
        server.send({"id": n, "method": method, "params": at(server.uri, line, character)})
        assert server.answer(n) == {"jsonrpc": "2.0", "id": n, "error": {
            "code": -32602, "message": f"{method}: Invalid Params: Position.{field} should be in range "
                                       f"[0:2147483647], but was {value}."}}
    server.send({"id": "missing", "method": method, "params": {"textDocument": {"uri": server.uri}}})
    assert server.answer("missing")["error"] == {"code": -32602,
                                                 "message": f"{method}: Invalid Params: 'position' is missing"}
    assert hover_of_id(server, "after") == "**`id`**: Unique id of the case (a string)."
    # pygls' log says why, in one line each, without the traceback of reading the message
    log = server.log_path.read_text()
    assert [line for line in log.splitlines() if method in line][:2] == [
        f'Exception occurred for message "0": {method}: Invalid Params: Position.line should be in range '
        "[0:2147483647], but was -1.",
        f'Exception occurred for message "1": {method}: Invalid Params: Position.character should be in range '
        "[0:2147483647], but was -1."]
    assert "Unable to deserialize message: Position.line should be in range [0:2147483647], but was -1.\n" in log
    assert "Traceback" not in log


def test_a_request_that_is_not_utf8_is_answered_with_a_parse_error(server: RawServer):
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": at(server.uri + MARK, 1, 5)})
    offset = body.index(MARK)
    server.send_body(body.encode("utf-8").replace(MARK.encode(), b"\xff"))
    assert server.answer(7) == {"jsonrpc": "2.0", "id": 7, "error": {
        "code": -32700, "message": f"textDocument/hover: the message is not UTF-8 (byte 0xff at offset {offset})"}}
    assert hover_of_id(server, "after") == "**`id`**: Unique id of the case (a string)."


def test_a_message_without_a_readable_id_is_logged_and_shown(server: RawServer):
    change = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": server.uri, "version": 2}, "contentChanges": [{"text": MARK}]}})
    server.send_body(change.encode("utf-8").replace(MARK.encode(), b"\xff"))  # a notification: nothing to answer
    broken = b'{"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", \xff'  # no JSON: no id to read
    server.send_body(broken)
    deep = b"[" * 100_000 + b"\xff"  # nested deeper than a JSON reader goes
    server.send_body(deep)
    assert hover_of_id(server, "after") == "**`id`**: Unique id of the case (a string)."
    shown = [m["params"]["message"] for m in server.notifications if m.get("method") == "window/showMessage"]
    assert shown == [f"Error in server: 'utf-8' codec can't decode byte 0xff in position {where}: invalid start byte"
                     for where in (change.index(MARK), broken.index(b"\xff"), len(deep) - 1)]
    assert [m for m in server.notifications if "id" in m] == []  # none was answered
    assert server.log_path.read_text().count("Unable to handle message") == 3


def test_a_position_beyond_the_end_of_its_line_or_the_document_is_their_end(server: RawServer):
    def ask(msg_id: str, method: str, line: int, character: int):
        server.send({"id": msg_id, "method": method, "params": at(server.uri, line, character)})
        return server.answer(msg_id)["result"]

    assert ask("line end", "textDocument/hover", 1, 500)["contents"]["value"] == \
        "**`id`**: Unique id of the case (a string)."
    assert ask("hover", "textDocument/hover", 50, 3) is None  # the last line is empty
    assert ask("definition", "textDocument/definition", 50, 3) is None
    found = ask("completion", "textDocument/completion", 50, 3)["items"]
    assert [(item["label"], item["textEdit"]["range"]) for item in found][:2] == [
        ("$schema", {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 0}}),
        ("description", {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 0}})]
    server.send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": server.uri, "version": 2},
                                                                "contentChanges": [{"text": SUITE.rstrip()}]}})
    assert ask("end", "textDocument/hover", 50, 0) == {  # in the last line's value, 'q'
        "contents": {"kind": "markdown", "value": "**`input`**: Alias of input_messages: a string is one user "
                                                  "message, a list is the messages."},
        "range": {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 9}}}
