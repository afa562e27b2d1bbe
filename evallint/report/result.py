"""What linting one file produced; kept free of heavy imports so that a run
served from the cache never loads the parser or the schemas."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from evallint.rules.registry import REDACTED

EVAL, DATASET = "eval", "dataset"


@dataclass
class FileResult:
    path: str
    kind: Optional[str] = None
    diagnostics: list = field(default_factory=list)
    text: str = ""  # for snippets: secrets already masked
    source: Any = None  # the Source that was linted (fixes start from it)
    root: Optional[str] = None
    model: Any = None
    traceback: Optional[str] = None

    @property
    def linted(self) -> bool:
        return self.kind is not None

    @property
    def suite(self):
        return self.model if self.kind in (EVAL, DATASET) else None

    def slim(self) -> "FileResult":
        """What a reporter needs, cheap to send between processes."""
        return FileResult(self.path, self.kind, self.diagnostics, self.text if self.diagnostics else "",
                          traceback=self.traceback)


def masked(text: str, diagnostics: list) -> str:
    """The text for snippets, with the values of secret findings starred out."""
    secrets = [d for d in diagnostics if d.code in REDACTED]
    if not secrets:
        return text
    lines = text.split("\n")
    for d in secrets:
        for n in range(d.line - 1, min(d.end_line, len(lines))):
            line = lines[n]
            start = d.column - 1 if n == d.line - 1 else 0
            end = d.end_column - 1 if n == d.end_line - 1 else len(line)
            lines[n] = line[:start] + "*" * max(0, min(end, len(line)) - start) + line[max(start, end):]
    return "\n".join(lines)


def snippet_lines(text: str, diagnostics: list) -> dict:
    """Only the source lines the diagnostics point at: a long run keeps no whole files."""
    wanted = {d.line for d in diagnostics}
    out: dict = {}
    if not wanted or not text:
        return out
    lines = text.split("\n")
    for number in sorted(wanted):
        if 0 < number <= len(lines):
            out[number] = lines[number - 1].rstrip("\r")
    return out
