"""The buffers the editor has open, each linted as the file it will be saved as, with the configuration the
command line reads for that file and with every open buffer read in place of its file."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Optional

from lsprotocol import types
from pygls.uris import to_fs_path

from evallint import api
from evallint.load.files import repo_root
from evallint.load.paths import inside
from evallint.server.positions import Positions


@dataclass
class Document:
    """A file the editor has open: its text, its version and the lint of that text."""

    uri: str
    path: Optional[str]  # None for a buffer that is no file (an untitled one)
    text: str
    version: Optional[int]
    result: Optional[api.TextResult] = None  # of ``text``, once linted
    error: Optional[str] = None  # why it could not be linted (a mistake in the configuration)
    positions: Optional[Positions] = None  # of ``text``, once asked


def path_of(uri: str) -> Optional[str]:
    """The file a ``file:`` URI names, absolute and normalized; None for any other scheme."""
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return os.path.normpath(path) if path else None


class Documents:
    """``folders()``: the workspace folders, where the command line would be run for the files inside
    them. ``encoding``: the position encoding the client and the server agreed on."""

    def __init__(self, folders: Callable[[], Iterable[str]], encoding: Callable[[], str]):
        self.folders = folders
        self.encoding = encoding
        self.open: dict = {}  # uri -> Document

    def put(self, uri: str, text: str, version: Optional[int]) -> Document:
        doc = self.open.get(uri)
        if doc is None:
            doc = self.open[uri] = Document(uri, path_of(uri), text, version)
        elif doc.text != text or doc.version != version:
            doc.text, doc.version, doc.result, doc.error, doc.positions = text, version, None, None, None
        return doc

    def open_files(self) -> dict:
        """Absolute path -> text of every open buffer that is a file."""
        return {doc.path: doc.text for doc in self.open.values() if doc.path is not None}

    def start_folder(self, path: str) -> str:
        """Where the command line is run for ``path``: the innermost workspace folder holding it, else its
        repository root."""
        holding = [f for f in self.folders() if inside(path, f)]
        return max(holding, key=len) if holding else api.Config().root_of(path)

    def configuration(self, path: str) -> Optional[api.Config]:
        """The command line's settings for ``path``; None when its configuration file has a mistake (which
        publishing its diagnostics shows)."""
        try:
            return self._configuration(path)
        except api.ConfigError:
            return None

    def _configuration(self, path: str) -> api.Config:
        """The settings of the command line run in ``start_folder(path)`` for ``path``: with the root it takes
        there (outside a repository, the working folder is the root), whatever folder the server started in."""
        start = self.start_folder(path)
        config = api.configuration(start)
        return config if config.root else replace(config, root=repo_root(os.path.dirname(path), start))

    def lint(self, doc: Document) -> Optional[api.TextResult]:
        """``doc``'s result for its current text (linted now unless it was already); None when it cannot be
        linted (``doc.error`` says why, or it is no file)."""
        if doc.result is not None or doc.error is not None or doc.path is None:
            return doc.result
        try:
            config = self._configuration(doc.path)
        except api.ConfigError as exc:
            doc.error = str(exc)
            return None
        doc.result = api.lint_text(doc.text, doc.path, config, open_files=self.open_files())
        return doc.result

    def positions(self, doc: Document) -> Positions:
        if doc.positions is None:
            doc.positions = Positions(doc.text, self.encoding())
        return doc.positions

    def positions_of(self, path: str) -> Optional[Positions]:
        """Positions in the file at ``path``: its open buffer, else the file as the linter reads it (None
        when it cannot be read: not a regular file, over the size cap, not UTF-8)."""
        for doc in self.open.values():
            if doc.path == os.path.normpath(path):
                return self.positions(doc)
        text = api.read_text(path, self.configuration(path) or api.Config())
        return Positions(text, self.encoding()) if text is not None else None

    def range_in(self, path: str, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        """The protocol range of a place (1-based lines and columns, as a diagnostic's) in the file at
        ``path``. A place from 1:1 to 1:1 stands for the whole file (where a reference to a file leads, a
        related file): it is the file's start, and the file is not read."""
        if (line, column, end_line, end_column) == (1, 1, 1, 1):
            return types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
        there = self.positions_of(path)
        if there is None:  # as evallint counts: its lines and code points
            return types.Range(start=types.Position(line=line - 1, character=column - 1),
                               end=types.Position(line=end_line - 1, character=end_column - 1))
        return there.evallint_range(line, column, end_line, end_column)

    def dependents(self, path: Optional[str]) -> list:
        """The other open documents whose last result looked at ``path``: a change to it changes theirs."""
        if path is None:
            return []
        return [doc for doc in self.open.values()
                if doc.path != path and doc.result is not None and path in doc.result.looked_at]

    def stale(self, docs: Iterable[Document]) -> None:
        """Forget the results of ``docs``: the files they depend on changed."""
        for doc in docs:
            doc.result, doc.error = None, None
