"""A JSON array of diagnostics and nothing else."""
from __future__ import annotations

import json

from evallint.report.formats.base import Reporter, RunSummary


class JsonReporter(Reporter):
    def report(self, run: RunSummary) -> None:
        json.dump([d.as_dict() for d in run.diagnostics], self.stream, indent=2, ensure_ascii=False)
        self.stream.write("\n")
