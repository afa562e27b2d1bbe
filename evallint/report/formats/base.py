"""The reporter interface and the name -> reporter registry."""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import IO

from evallint.diagnostics import Severity


@dataclass
class Totals:
    """The counts a run's summary shows, kept as the files go by (``Reporter.file``): a run holds no
    diagnostics once they are written."""

    files_checked: int = 0
    errors: int = 0
    warnings: int = 0
    fixable: int = 0
    files_with_problems: int = 0

    def count(self, diagnostics: list) -> None:
        """Count one checked file's diagnostics."""
        self.files_checked += 1
        if diagnostics:
            self.files_with_problems += 1
        for d in diagnostics:
            if d.severity is Severity.ERROR:
                self.errors += 1
            else:
                self.warnings += 1
            self.fixable += d.fixable


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


def summary_line(run) -> str:
    """The last line of a run, from its ``Totals``."""
    checked = f"({plural(run.files_checked, 'file')} checked)"
    if not (run.errors or run.warnings):
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
    """Writes a run's diagnostics to a stream as the files come, in output order: ``file`` for each file
    with diagnostics, then ``finish`` with the run's totals."""

    def __init__(self, stream: IO[str], *, color: bool = False, quiet: bool = False):
        self.stream = stream
        self.color = color
        self.quiet = quiet

    def file(self, diagnostics: list, lines: dict, repo_path: str) -> None:  # pragma: no cover - interface
        """One file's diagnostics, sorted; ``lines``: {line number: source line} of the lines they point
        at; ``repo_path``: the file's path from its repository root (only the formats that show it get it)."""
        raise NotImplementedError

    def finish(self, totals) -> None:  # pragma: no cover - interface
        """The end of the run: ``totals`` is its ``Totals``."""
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
