"""pygls' protocol, with every request answered and no future kept for a keystroke.

The document notifications an editor sends on every keystroke are plain functions here: pygls' built-in
handlers for them are generators, and pygls keeps the future of every generator notification for good
(about half a kilobyte per edit, without end). These do what the built-in ones do (update the workspace,
then call the server's own handler) without a generator, so nothing is kept. A subclass given as
``protocol_cls`` is how pygls documents replacing its built-in handlers.

A request that cannot be read gets an error answer instead of none, which would leave the editor waiting:
one whose parameters are not its method's (a negative or out-of-range position) is answered with "invalid
params", one whose body is not UTF-8 with a parse error. Either is read as a request of the method
``UNREADABLE`` in its place, with its id, whose handler raises that error. A message without an id (a
notification) cannot be answered: pygls writes it to its log (standard error) and shows its error. Its log
says why a message could not be read in one line (``BriefLog``)."""
from __future__ import annotations

import json
import logging
import sys
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcParseError
from pygls.protocol import JsonRPCRequestMessage, LanguageServerProtocol, lsp_method

UNREADABLE = "$/evallint/unreadableRequest"  # no client sends it: it stands for a request that cannot be read


def _request_id(message: Any):
    """The id of a message that is a request (a method and an id, as JSON-RPC has them); None for any other."""
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return None
    msg_id = message.get("id")
    return msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None


def _reasons(error: BaseException) -> str:
    """What a failure to read parameters says: each of its causes (an exception group holds several)."""
    out = []
    stack = [error]
    while stack:
        found = stack.pop()
        inner = getattr(found, "exceptions", None)  # an exception group
        if inner:
            stack.extend(reversed(inner))
        elif isinstance(found, KeyError):
            out.append(f"'{found.args[0]}' is missing")
        else:
            out.append(str(found))
    return "; ".join(out)


def _unreadable(msg_id, code: int, message: str) -> dict:
    """The request that stands for an unreadable one: its answer is the error ``code`` with ``message``."""
    return {"jsonrpc": "2.0", "id": msg_id, "method": UNREADABLE, "params": [code, message]}


class BriefLog(logging.Filter):
    """pygls logs a message whose parameters it cannot read, and the error a request is answered with, each with
    the traceback of reading it: the reason alone says what was wrong with the client's message (an answer gives
    it to the client too), so such a record is one line. pygls logs them while it handles the error, which is
    then the one ``sys.exc_info`` gives."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = sys.exc_info()[1]
        if isinstance(error, JsonRpcException) or str(record.msg).startswith("Unable to deserialize message"):
            said = record.getMessage().split("\n")[0]  # what pygls says before its traceback
            record.msg, record.args = "%s: %s", (said, _reasons(error) if error is not None else "")
            record.exc_info = record.exc_text = None
        return True


def log_briefly() -> None:
    """pygls' log to standard error (as it goes by default) through ``BriefLog``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(BriefLog())
    logger = logging.getLogger("pygls")
    logger.addHandler(handler)
    logger.propagate = False


class Incoming:
    """Standard input as pygls reads it: header lines with ``readline``, then each message's body with
    ``read``. A body that is not UTF-8 is no JSON: when the request's id can still be read (the body decoded
    with replacement characters), a request of ``UNREADABLE`` with that id comes in its place; any other
    goes on as it is, for pygls to log."""

    def __init__(self, stream):
        self.stream = stream

    def readline(self) -> bytes:
        return self.stream.readline()

    def read(self, size: int) -> bytes:
        body = self.stream.read(size)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as exc:
            try:
                message = json.loads(body.decode("utf-8", "replace"))
            except (ValueError, RecursionError):  # no JSON, or nested too deep to read: pygls logs it
                return body
            msg_id = _request_id(message)
            if msg_id is None:
                return body
            reason = f"{message['method']}: the message is not UTF-8 (byte 0x{body[exc.start]:02x} at offset " \
                     f"{exc.start})"
            return json.dumps(_unreadable(msg_id, JsonRpcParseError.CODE, reason)).encode("utf-8")
        return body


class Protocol(LanguageServerProtocol):
    def structure_message(self, data: dict):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            msg_id = _request_id(data)
            if msg_id is None:
                raise
            reason = f"{data['method']}: {exc.message}"
            if exc.__cause__ is not None:  # what the parameters lack
                reason += f": {_reasons(exc.__cause__)}"
            return JsonRPCRequestMessage(**_unreadable(msg_id, exc.code, reason))

    @lsp_method(UNREADABLE)
    def lsp_unreadable_request(self, params: list) -> None:
        code, message = params
        raise JsonRpcException.from_error(types.ResponseError(code=code, message=message))

    def _then(self, method: str, params) -> None:
        handler = self.fm.features.get(method)
        if handler is not None:
            handler(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self.workspace.put_text_document(params.text_document)
        self._then(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        for change in params.content_changes:
            self.workspace.update_text_document(params.text_document, change)
        self._then(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self.workspace.remove_text_document(params.text_document.uri)
        self._then(types.TEXT_DOCUMENT_DID_CLOSE, params)
