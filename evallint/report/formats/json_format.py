"""A JSON array of diagnostics and nothing else."""
from __future__ import annotations

import json

from evallint.report.formats.base import Reporter, RunSummary, json_text


class JsonReporter(Reporter):
    def report(self, run: RunSummary) -> None:
        self.stream.write(json_text(json.dumps([d.as_dict() for d in run.diagnostics], indent=2, ensure_ascii=False)))
        self.stream.write("\n")
