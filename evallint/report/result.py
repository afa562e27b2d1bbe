"""What linting one file produced; kept free of heavy imports so that a run
served from the cache never loads the parser or the schemas."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Optional

from evallint.load.files import SUITE_FILE_KINDS
from evallint.rules.registry import REDACTED


@dataclass
class FileResult:
    """The lint of one file: its kind, its diagnostics and the source lines they point at."""

    path: str
    kind: Optional[str] = None
    diagnostics: list = field(default_factory=list)
    lines: dict = field(default_factory=dict)  # line number -> its text, for the diagnostics' snippets (``snippets``)
    source: Any = None  # the Source that was linted (fixes start from it)
    root: Optional[str] = None
    model: Any = None
    traceback: Optional[str] = None
    notice: Optional[str] = None  # why the file was judged without the git history (``history.watching``)
    version: Optional[str] = None  # the AgentV version whose format the file was read as

    @property
    def linted(self) -> bool:
        return self.kind is not None

    @property
    def suite(self):
        return self.model if self.kind in SUITE_FILE_KINDS else None

    def slim(self) -> "FileResult":
        """What a reporter needs, cheap to send between processes."""
        return FileResult(self.path, self.kind, self.diagnostics, self.lines, traceback=self.traceback,
                          notice=self.notice)


def snippets(text: str, diagnostics: list, secrets: list) -> dict:
    """The lines the diagnostics point at (line number -> its text; a long run keeps no whole files), with
    every secret-looking value starred out (``secrets``: ``secrets.secret_spans(text, ...)``) and the values
    of secret findings too."""
    if not text:
        return {}
    all_lines = text.split("\n")
    out = {n: all_lines[n - 1] for n in sorted({d.line for d in diagnostics}) if 0 < n <= len(all_lines)}
    spans = [(d.line, d.end_line, d.column - 1, d.end_column - 1) for d in diagnostics if d.code in REDACTED]
    spans += [(n + 1, n + 1, start, end) for n, start, end in secrets if n + 1 in out]
    for first, last, first_column, last_column in spans:
        for n in [n for n in out if first <= n <= last]:
            line = out[n]
            start = first_column if n == first else 0
            end = last_column if n == last else len(line)
            out[n] = line[:start] + "*" * max(0, min(end, len(line)) - start) + line[max(start, end):]
    return {n: line.rstrip("\r") for n, line in out.items()}


def secret_values(text: str, secrets: list) -> list:
    """The secret-looking values of ``text`` (``secrets`` as for ``snippets``), as written and as read, longest
    first (those of 4 characters or more: a shorter one would star parts of words)."""
    lines = text.split("\n")
    written = {lines[n][start:end].rstrip(",") for n, start, end in secrets}  # ',': a flow entry's end
    values = {value.strip("'\"") for value in written} | {_decoded(value) for value in written if "\\" in value}
    return sorted((v for v in values if len(v) >= 4), key=len, reverse=True)


def masked_messages(text: str, diagnostics: list, secrets: list) -> list:
    """``diagnostics`` with each secret-looking value of ``text`` (``secrets`` as for ``snippets``) starred
    out of their messages."""
    values = secret_values(text, secrets)
    if not values:
        return diagnostics
    out = []
    for d in diagnostics:
        message = d.message
        for value in values:
            message = _cut_short(message.replace(value, "*" * len(value)), value)
        out.append(d if message == d.message else replace(d, message=message))
    return out


def _cut_short(message: str, value: str) -> str:
    """``message`` with the start of ``value`` starred where a quote of a longer text cuts it short (the text
    before a '...' that ``suggest.quote`` ends it with, when that is at least 4 of the value's first characters)."""
    end = message.find("...")
    while end >= 0:
        cut = next((n for n in range(min(len(value) - 1, end), 3, -1) if message[end - n:end] == value[:n]), 0)
        if cut:
            message = message[:end - cut] + "*" * cut + message[end:]
        end = message.find("...", end + 3)
    return message


def _decoded(value: str) -> str:
    """A double-quoted value as the parser reads it (its escapes decoded: a message quotes the value read);
    the value as written when it is no whole quoted scalar."""
    import yaml

    if not (len(value) > 1 and value[0] == value[-1] == '"'):
        return value
    try:
        decoded = yaml.safe_load(value)
    except yaml.YAMLError:
        return value
    return decoded if isinstance(decoded, str) else value
