"""The reporter interface and the name -> reporter registry."""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import IO

from evallint.diagnostics import Severity


@dataclass
class RunSummary:
    """Everything a reporter may show about a run."""

    diagnostics: list
    files_checked: int
    sources: dict = field(default_factory=dict)  # path -> {line number: source line}, for snippets
    repo_paths: dict = field(default_factory=dict)  # path -> path relative to its repository root

    def repo_path(self, path: str) -> str:
        return self.repo_paths.get(path, path).replace("\\", "/")

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    @property
    def fixable(self) -> int:
        return sum(1 for d in self.diagnostics if d.fixable)

    @property
    def files_with_problems(self) -> int:
        return len({d.path for d in self.diagnostics})


_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# C0 controls, DEL, C1 controls, and the line and paragraph separators: what could split a line or drive a
# terminal; and lone surrogates, which a file name that is not UTF-8 holds (one per byte, from the
# 'surrogateescape' decoding of the operating system's names) and which no UTF-8 output can carry
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match) -> str:
    char = match.group()
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    return _NAMED_ESCAPES.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def printable(text: str) -> str:
    """``text`` with each control character written as an escape (``\\n``, ``\\t``, ``\\x1b``, ``\\u2028``), so
    a key or value holding one cannot split an output line or reach the terminal."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


def json_text(text: str) -> str:
    """JSON text from ``json.dumps(..., ensure_ascii=False)``, with DEL and the C1 controls, which JSON leaves
    raw, written as ``\\u`` escapes too (only strings can hold them, so the document means the same), and each
    byte of a file name that is not UTF-8 as the text ``\\xff``, so the output is always UTF-8."""
    text = _SURROGATE.sub(lambda m: "\\" + _escape(m), text)  # '\\xff' in JSON: the text '\xff', as elsewhere
    return re.sub("[\x7f-\x9f\u2028\u2029]", lambda m: f"\\u{ord(m.group()):04x}", text)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary_line(run: RunSummary) -> str:
    checked = f"({plural(run.files_checked, 'file')} checked)"
    if not run.diagnostics:
        return f"No problems found {checked}."
    parts = []
    if run.errors:
        parts.append(plural(run.errors, "error"))
    if run.warnings:
        parts.append(plural(run.warnings, "warning"))
    line = f"Found {', '.join(parts)} in {plural(run.files_with_problems, 'file')} {checked}."
    if run.fixable:
        line += f" {run.fixable} fixable with --fix."
    return line


class Reporter:
    """Writes one run's diagnostics to a stream."""

    def __init__(self, stream: IO[str], *, color: bool = False, quiet: bool = False):
        self.stream = stream
        self.color = color
        self.quiet = quiet

    def report(self, run: RunSummary) -> None:  # pragma: no cover - interface
        raise NotImplementedError


# name -> "module:Class"; imported only when chosen, so a run pays for one reporter
REPORTERS = {
    "text": "text:TextReporter",
    "concise": "concise:ConciseReporter",
    "json": "json_format:JsonReporter",
    "github": "github:GithubReporter",
    "sarif": "sarif:SarifReporter",
}


def get_reporter(name: str) -> type:
    module, cls = REPORTERS[name].split(":")
    return getattr(importlib.import_module(f"{__package__}.{module}"), cls)
