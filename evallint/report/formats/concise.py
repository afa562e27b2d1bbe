"""One line per diagnostic: ``path:line:col: CODE [severity] message``, control characters escaped."""
from __future__ import annotations

from evallint.report.formats.base import Reporter, printable, summary_line


class ConciseReporter(Reporter):
    def file(self, diagnostics: list, lines: dict, repo_path: str) -> None:
        write = self.stream.write
        for d in diagnostics:
            write(f"{printable(d.path)}:{d.line}:{d.column}: {d.code} [{d.severity.value}] {printable(d.message)}\n")

    def finish(self, totals) -> None:
        if not self.quiet:
            self.stream.write(summary_line(totals) + "\n")
