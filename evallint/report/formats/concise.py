"""One line per diagnostic: ``path:line:col: CODE [severity] message``, control characters escaped."""
from __future__ import annotations

from evallint.report.formats.base import Reporter, RunSummary, printable, summary_line


class ConciseReporter(Reporter):
    def report(self, run: RunSummary) -> None:
        write = self.stream.write
        for d in run.diagnostics:
            write(f"{printable(d.path)}:{d.line}:{d.column}: {d.code} [{d.severity.value}] {printable(d.message)}\n")
        if not self.quiet:
            write(summary_line(run) + "\n")
