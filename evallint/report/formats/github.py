"""GitHub Actions workflow commands: inline annotations on the pull request."""
from __future__ import annotations

from evallint.diagnostics import Severity
from evallint.report.formats.base import Reporter, plural, printable


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubReporter(Reporter):
    def file(self, diagnostics: list, lines: dict, repo_path: str) -> None:
        write = self.stream.write
        path = printable(repo_path)
        for d in diagnostics:
            command = "error" if d.severity is Severity.ERROR else "warning"
            props = [f"title={escape_property(f'evallint ({d.code})')}", f"file={escape_property(path)}",
                     f"line={d.line}"]
            if d.line == d.end_line:
                props.append(f"col={d.column}")
            props.append(f"endLine={d.end_line}")
            if d.line == d.end_line:
                props.append(f"endColumn={d.end_column}")
            message = escape_data(f"{path}:{d.line}:{d.column}: {d.code} {printable(d.message)}")
            write(f"::{command} {','.join(props)}::{message}\n")

    def finish(self, totals) -> None:
        if totals.errors or totals.warnings:
            parts = [plural(n, w) for n, w in ((totals.errors, "error"), (totals.warnings, "warning")) if n]
            self.stream.write(f"evallint: {' and '.join(parts)} in {plural(totals.files_with_problems, 'file')} "
                              f"({plural(totals.files_checked, 'file')} checked); GitHub shows at most 10 error and "
                              "10 warning annotations per step, every one is listed above\n")
        else:
            self.stream.write(f"evallint: no problems found ({plural(totals.files_checked, 'file')} checked)\n")
