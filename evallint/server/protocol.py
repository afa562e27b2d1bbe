"""pygls' protocol with the document notifications an editor sends on every keystroke as plain functions.

pygls' built-in handlers for these are generators, and pygls keeps the future of every generator
notification for good: about half a kilobyte per edit, without end. These do what the built-in ones do
(update the workspace, then call the server's own handler) without a generator, so nothing is kept.
A subclass given as ``protocol_cls`` is how pygls documents replacing its built-in handlers."""
from __future__ import annotations

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol, lsp_method


class Protocol(LanguageServerProtocol):
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
