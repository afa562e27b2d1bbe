"""A JSON array of diagnostics and nothing else, written as the files come: the same text as
``json.dumps(diagnostics, indent=2)``."""
from __future__ import annotations

import json

from evallint.report.formats.base import Reporter, json_text


def indented(value, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` writes it ``depth`` levels down inside a document."""
    text = json_text(json.dumps(value, indent=2, ensure_ascii=False))
    return "\n".join(" " * (2 * depth) + line for line in text.split("\n"))


class JsonReporter(Reporter):
    def __init__(self, stream, *, color: bool = False, quiet: bool = False):
        super().__init__(stream, color=color, quiet=quiet)
        self.written = 0

    def file(self, diagnostics: list, lines: dict, repo_path: str) -> None:
        for d in diagnostics:
            self.stream.write(("[\n" if not self.written else ",\n") + indented(d.as_dict(), 1))
            self.written += 1

    def finish(self, totals) -> None:
        self.stream.write("\n]\n" if self.written else "[]\n")
