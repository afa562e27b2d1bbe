"""``--statistics``: how many diagnostics of each code, as text lines or (``--format json``) a JSON array."""
from __future__ import annotations

import json
from collections import Counter

from evallint.report.formats.base import Reporter, RunSummary, summary_line
from evallint.rules.registry import RULES


def _counts(run: RunSummary) -> tuple:
    """(code, count, fixable count) of each code found, the most frequent first."""
    counts = Counter(d.code for d in run.diagnostics)
    fixable = Counter(d.code for d in run.diagnostics if d.fixable)
    return tuple((code, count, fixable[code]) for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])))


class StatisticsReporter(Reporter):
    def report(self, run: RunSummary) -> None:
        for code, count, fixable in _counts(run):
            name = RULES[code].name if code in RULES else ""
            mark = "[*]" if fixable else "[ ]"
            self.stream.write(f"{count:>6}  {code}  {mark} {name}\n")
        if not self.quiet:
            self.stream.write(summary_line(run) + "\n")


class JsonStatisticsReporter(Reporter):
    """One object per code: code, rule name, count, how many are fixable; nothing else on stdout."""

    def report(self, run: RunSummary) -> None:
        rows = [{"code": code, "name": RULES[code].name if code in RULES else "", "count": count, "fixable": fixable}
                for code, count, fixable in _counts(run)]
        json.dump(rows, self.stream, indent=2, ensure_ascii=False)
        self.stream.write("\n")
