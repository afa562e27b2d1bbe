"""GitHub Actions workflow commands: inline annotations on the pull request."""
from __future__ import annotations

from evallint.diagnostics import Severity
from evallint.report.formats.base import Reporter, RunSummary, plural, printable


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubReporter(Reporter):
    def report(self, run: RunSummary) -> None:
        write = self.stream.write
        for d in run.diagnostics:
            path = printable(run.repo_path(d.path))
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
        if run.diagnostics:
            parts = [plural(n, w) for n, w in ((run.errors, "error"), (run.warnings, "warning")) if n]
            write(f"evallint: {' and '.join(parts)} in {plural(run.files_with_problems, 'file')} "
                  f"({plural(run.files_checked, 'file')} checked); GitHub shows at most 10 error and 10 warning "
                  "annotations per step, every one is listed above\n")
        else:
            write(f"evallint: no problems found ({plural(run.files_checked, 'file')} checked)\n")
