"""A whole run handed to a reporter at once, for tests: the command hands a reporter its files one by one
(``Reporter.file``) and then the run's ``Totals`` (``Reporter.finish``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby

from evallint.diagnostics import Severity


@dataclass
class RunSummary:
    """A run's diagnostics, held whole; it answers what ``Totals`` answers."""

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


def report(reporter, run: RunSummary) -> None:
    """Give ``reporter`` the whole ``run``: each file's diagnostics, then the run's totals."""
    for path, group in groupby(run.diagnostics, key=lambda d: d.path):
        reporter.file(list(group), run.sources.get(path, {}), run.repo_path(path))
    reporter.finish(run)
