"""The default format: each diagnostic with its source line and a caret."""
from __future__ import annotations

from ..diagnostics import Severity
from .base import Reporter, RunSummary, summary_line

_RED, _YELLOW, _BOLD, _DIM, _CYAN, _RESET = "\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[2m", "\x1b[36m", "\x1b[0m"
_MAX_SNIPPET = 200


class TextReporter(Reporter):
    def paint(self, text: str, *styles: str) -> str:
        return "".join(styles) + text + _RESET if self.color else text

    def report(self, run: RunSummary) -> None:
        write = self.stream.write
        lines_cache: dict = {}
        for d in run.diagnostics:
            sev = _RED if d.severity is Severity.ERROR else _YELLOW
            fixable = " [*]" if d.fixable else ""
            write(f"{self.paint(f'{d.path}:{d.line}:{d.column}:', _BOLD)} {self.paint(d.code, _BOLD, sev)}"
                  f"{fixable} {d.message}\n")
            if self.quiet:
                continue
            text = run.sources.get(d.path)
            if text is None:
                continue
            lines = lines_cache.get(d.path)
            if lines is None:
                lines = lines_cache[d.path] = text.splitlines()
            if not 1 <= d.line <= len(lines):
                write("\n")
                continue
            source = lines[d.line - 1].expandtabs(1)
            width = max(1, (d.end_column if d.end_line == d.line else len(source) + 1) - d.column)
            width = min(width, max(1, len(source) - d.column + 1))
            gutter = str(d.line)
            pad = " " * len(gutter)
            shown = source if len(source) <= _MAX_SNIPPET else source[:_MAX_SNIPPET] + "..."
            write(f"{pad} {self.paint('|', _CYAN)}\n")
            write(f"{self.paint(gutter, _CYAN)} {self.paint('|', _CYAN)} {shown}\n")
            caret_at = min(d.column - 1, _MAX_SNIPPET)
            write(f"{pad} {self.paint('|', _CYAN)} {' ' * caret_at}{self.paint('^' * min(width, _MAX_SNIPPET), sev)}\n\n")
        if not self.quiet:
            write(summary_line(run) + "\n")
