"""A file view in which some files hold other text than on disk: an editor's unsaved buffers. Eval files
that point at an open prompt or targets file are checked against what the editor shows, not what was
last saved; every other path is answered by the view underneath."""
from __future__ import annotations

import os
from typing import Iterator, Mapping, Optional, Union

from evallint.diagnostics import Finding
from evallint.load.source import Source, decode_capped
from evallint.load.view import FILE, WORKING_TREE, FileView


def encoded(text: str) -> bytes:
    """A buffer's text as the bytes a save would write; a lone surrogate (which JSON can carry) becomes
    bytes that are not UTF-8, so the file is reported as a file holding them would be."""
    return text.encode("utf-8", "surrogatepass")


class Overlay(FileView):
    """``base`` with the files of ``texts`` (absolute path -> text) replaced by that text, whether or not
    they exist on disk."""

    def __init__(self, texts: Mapping[str, str], base: FileView = WORKING_TREE):
        self.base = base
        self.files = {os.path.normpath(os.path.abspath(path)): encoded(text) for path, text in texts.items()}

    def entry(self, path: str, folder: str) -> Optional[tuple]:
        data, found = self.files.get(path), self.base.entry(path, folder)
        if data is None:
            return found
        # a saved file keeps its real path (a link out of the root stays one); a new one is where it will be
        real = found[0] if found is not None else os.path.join(self.base.real_folder(folder), os.path.basename(path))
        return real, FILE, len(data)

    def real_folder(self, folder: str) -> str:
        return self.base.real_folder(folder)

    def lexists(self, path: str) -> bool:
        return path in self.files or self.base.lexists(path)

    def isdir(self, path: str) -> bool:
        return path not in self.files and self.base.isdir(path)

    def isfile(self, path: str) -> bool:
        return path in self.files or self.base.isfile(path)

    def is_executable(self, path: str) -> bool:
        """A buffer's file keeps the mode it has on disk (a new one has none)."""
        return self.base.is_executable(path)

    def read(self, path: str, size: int, max_bytes: int) -> Optional[bytes]:
        data = self.files.get(path)
        if data is None:
            return self.base.read(path, size, max_bytes)
        return None if len(data) > max_bytes else data

    def source(self, path: str, root: Optional[str], max_bytes: int) -> Union[Source, Finding]:
        data = self.files.get(path)
        if data is None:
            return self.base.source(path, root, max_bytes)
        return decode_capped(data, max_bytes)

    def files_below(self, folder: str) -> Iterator[str]:
        prefix = folder.rstrip(os.sep) + os.sep
        opened = sorted(path for path in self.files if path.startswith(prefix))
        yield from opened
        yield from (path for path in self.base.files_below(folder) if path not in self.files)

    def files_in(self, folder: str) -> list:
        opened = {os.path.basename(path) for path in self.files if os.path.dirname(path) == folder}
        return sorted(opened.union(self.base.files_in(folder)))

    def subfolders(self, folder: str) -> list:
        return self.base.subfolders(folder)

    def linked_folders(self, folder: str) -> list:
        return self.base.linked_folders(folder)
