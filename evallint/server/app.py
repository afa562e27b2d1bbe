"""The language server: what each message does. Diagnostics are published when a buffer is opened,
``DEBOUNCE`` seconds after the last of a burst of changes, and when it is saved; a buffer whose result
depends on another file (a targets file, a prompt template) is linted again when that file's buffer
changes, or the file itself on disk (when the client watches files for the server)."""
from __future__ import annotations

import asyncio
import os
import sys
from typing import Iterable, Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from evallint import __version__
from evallint.server.actions import KINDS, code_actions
from evallint.server.completion import completion
from evallint.server.definition import definition
from evallint.server.diagnostics import to_lsp
from evallint.server.documents import Document, Documents, path_of
from evallint.server.guard import guarded
from evallint.server.hover import hover
from evallint.server.protocol import Incoming, Protocol, log_briefly

DEBOUNCE = 0.15  # seconds from the last change to the lint
CONFIG_NAMES = (".evallint.toml", "pyproject.toml")


class EvallintServer(LanguageServer):
    def __init__(self):
        # whole texts: a change is never applied by pygls' own line splitting, which breaks lines where
        # the protocol does not (form feed, U+2028)
        super().__init__("evallint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full,
                         protocol_cls=Protocol)
        self.documents = Documents(self._folders, self._encoding)
        self.pending: dict = {}  # uri -> the timer of its next lint
        self.shown: set = set()  # the configuration errors shown to the user already

    def _folders(self) -> list:
        found = [path_of(folder.uri) for folder in self.workspace.folders.values()]
        return [folder for folder in found + [self.workspace.root_path] if folder]

    def _encoding(self) -> str:
        return self.workspace.position_encoding or types.PositionEncodingKind.Utf16

    def log(self, text: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=text))

    def put(self, uri: str) -> Document:
        text = self.workspace.get_text_document(uri)
        return self.documents.put(uri, text.source, text.version)

    def publish(self, uri: str) -> None:
        """Lint the buffer (unless its result is current) and publish what was found."""
        timer = self.pending.pop(uri, None)
        if timer is not None:
            timer.cancel()
        doc = self.documents.open.get(uri)
        if doc is None:
            return
        result = self.documents.lint(doc)
        if doc.error is not None and doc.error not in self.shown:
            self.shown.add(doc.error)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                             message=f"evallint: {doc.error}"))
        positions = self.documents.positions(doc)
        found = [to_lsp(d, positions, self.documents.range_in) for d in result.diagnostics] if result else []
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found,
                                                                              version=doc.version))

    def later(self, uris: Iterable[str], delay: float = DEBOUNCE) -> None:
        """Publish the diagnostics of ``uris`` after ``delay``, unless they change again before."""
        loop = asyncio.get_running_loop()
        for uri in uris:
            timer = self.pending.pop(uri, None)
            if timer is not None:
                timer.cancel()
            self.pending[uri] = loop.call_later(delay, self._timed, uri)

    def _timed(self, uri: str) -> None:
        guarded("publishing diagnostics", self.log, request=False)(self.publish)(uri)

    def changed(self, doc: Document, delay: float, saved: bool = False) -> None:
        """``doc``'s text or file changed: the diagnostics of the documents that depend on it are due (all of
        them when a configuration file is saved: configuration is read from disk)."""
        if saved and doc.path is not None and os.path.basename(doc.path) in CONFIG_NAMES:
            others = [d for d in self.documents.open.values() if d is not doc]
        else:
            others = self.documents.dependents(doc.path)
        self.documents.stale(others)
        self.later([d.uri for d in others], delay)


def build() -> EvallintServer:
    server = EvallintServer()

    def handles(method: str, options=None, *, request: bool = False):
        def register(handler):
            server.feature(method, options)(guarded(method, server.log, request=request)(handler))
            return handler
        return register

    @handles(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        doc = server.put(params.text_document.uri)
        server.publish(doc.uri)
        server.changed(doc, DEBOUNCE)

    @handles(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        doc = server.put(params.text_document.uri)
        server.later([doc.uri])
        server.changed(doc, DEBOUNCE)

    @handles(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        doc = server.documents.open.get(params.text_document.uri)
        if doc is not None:
            server.publish(doc.uri)
            server.changed(doc, 0, saved=True)

    @handles(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        timer = server.pending.pop(uri, None)
        if timer is not None:
            timer.cancel()
        doc = server.documents.open.pop(uri, None)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if doc is not None:
            server.changed(doc, 0)  # the others now read the file as saved

    @handles(types.INITIALIZED)
    def initialized(params: types.InitializedParams) -> None:
        workspace = server.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is not None and watched.dynamic_registration:
            # files that open buffers depend on change on disk too (a checkout, another program)
            server.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
                id="evallint-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern="**/*")]))]))

    @handles(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        due: dict = {}
        for change in params.changes:
            path = path_of(change.uri)
            if path is None:
                continue
            if os.path.basename(path) in CONFIG_NAMES:
                due.update((doc.uri, doc) for doc in server.documents.open.values())
            else:
                due.update((doc.uri, doc) for doc in server.documents.dependents(path))
        server.documents.stale(due.values())
        server.later(due, 0)

    def open_doc(uri: str) -> Optional[Document]:
        doc = server.documents.open.get(uri)
        return doc if doc is not None and doc.path is not None else None

    @handles(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=KINDS), request=True)
    def on_code_action(params: types.CodeActionParams):
        doc = open_doc(params.text_document.uri)
        return code_actions(doc, server.documents, params) if doc else None

    @handles(types.TEXT_DOCUMENT_HOVER, request=True)
    def on_hover(params: types.HoverParams):
        doc = open_doc(params.text_document.uri)
        return hover(doc, server.documents, params.position) if doc else None

    @handles(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" "]), request=True)
    def on_completion(params: types.CompletionParams):
        doc = open_doc(params.text_document.uri)
        return completion(doc, server.documents, params.position) if doc else None

    @handles(types.TEXT_DOCUMENT_DEFINITION, request=True)
    def on_definition(params: types.DefinitionParams):
        doc = open_doc(params.text_document.uri)
        return definition(doc, server.documents, params.position) if doc else None

    return server


def serve() -> int:
    """Serve over standard input and output until the client says exit."""
    log_briefly()
    build().start_io(Incoming(sys.stdin.buffer))
    return 0
