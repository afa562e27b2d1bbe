"""What linting one file produced; kept free of heavy imports so that a run
served from the cache never loads the parser or the schemas."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Optional

from evallint.rules.registry import REDACTED
from evallint.rules.secrets import secret_spans

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
    """The text for snippets, with every secret-looking value starred out (``secrets.secret_spans``), and
    the values of secret findings too."""
    spans = [(d.line - 1, d.end_line - 1, d.column - 1, d.end_column - 1) for d in diagnostics if d.code in REDACTED]
    spans += [(n, n, start, end) for n, start, end in secret_spans(text)]
    if not spans:
        return text
    lines = text.split("\n")
    for first, last, first_column, last_column in spans:
        for n in range(first, min(last + 1, len(lines))):
            line = lines[n]
            start = first_column if n == first else 0
            end = last_column if n == last else len(line)
            lines[n] = line[:start] + "*" * max(0, min(end, len(line)) - start) + line[max(start, end):]
    return "\n".join(lines)


def masked_messages(text: str, diagnostics: list) -> list:
    """``diagnostics`` with each secret-looking value of ``text`` starred out of their messages."""
    lines = text.split("\n")
    values = {lines[n][start:end].strip("'\"") for n, start, end in secret_spans(text)}
    values = sorted((v for v in values if len(v) >= 4), key=len, reverse=True)
    if not values:
        return diagnostics
    out = []
    for d in diagnostics:
        message = d.message
        for value in values:
            message = message.replace(value, "*" * len(value))
        out.append(d if message == d.message else replace(d, message=message))
    return out


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
