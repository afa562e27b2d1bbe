"""``--statistics``: how many diagnostics of each code."""
from __future__ import annotations

from collections import Counter

from evallint.report.formats.base import Reporter, RunSummary, summary_line
from evallint.rules.registry import RULES


class StatisticsReporter(Reporter):
    def report(self, run: RunSummary) -> None:
        counts = Counter(d.code for d in run.diagnostics)
        fixable = Counter(d.code for d in run.diagnostics if d.fixable)
        for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            name = RULES[code].name if code in RULES else ""
            mark = "[*]" if fixable[code] else "[ ]"
            self.stream.write(f"{count:>6}  {code}  {mark} {name}\n")
        if not self.quiet:
            self.stream.write(summary_line(run) + "\n")
