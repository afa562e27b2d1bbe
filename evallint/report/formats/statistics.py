"""``--statistics``: how many diagnostics of each code, as text lines or (``--format json``) a JSON array."""
from __future__ import annotations

import json
from collections import Counter

from evallint.report.formats.base import Reporter, summary_line
from evallint.rules.registry import RULES


class _Counting(Reporter):
    """Counts the diagnostics of each code as the files come."""

    def __init__(self, stream, *, color: bool = False, quiet: bool = False):
        super().__init__(stream, color=color, quiet=quiet)
        self.counts: Counter = Counter()
        self.fixable: Counter = Counter()

    def file(self, diagnostics: list, lines: dict, repo_path: str) -> None:
        for d in diagnostics:
            self.counts[d.code] += 1
            self.fixable[d.code] += d.fixable

    def rows(self) -> tuple:
        """(code, count, fixable count) of each code found, the most frequent first."""
        return tuple((code, count, self.fixable[code])
                     for code, count in sorted(self.counts.items(), key=lambda item: (-item[1], item[0])))


class StatisticsReporter(_Counting):
    """One line per code: count, code, how many --fix fixes ([*] all, [-] some, [ ] none, as ruff marks
    them), rule name."""

    def finish(self, totals) -> None:
        for code, count, fixable in self.rows():
            name = RULES[code].name if code in RULES else ""
            mark = "[*]" if fixable == count else "[-]" if fixable else "[ ]"
            self.stream.write(f"{count:>6}  {code}  {mark} {name}\n")
        if not self.quiet:
            self.stream.write(summary_line(totals) + "\n")


class JsonStatisticsReporter(_Counting):
    """One object per code: code, rule name, count, ``fixable`` (a boolean, as in ``evallint rules --format
    json`` and ruff's statistics: whether --fix fixes every one of them) and ``fixable_count`` (how many it
    fixes); nothing else on stdout."""

    def finish(self, totals) -> None:
        rows = [{"code": code, "name": RULES[code].name if code in RULES else "", "count": count,
                 "fixable": fixable == count, "fixable_count": fixable}
                for code, count, fixable in self.rows()]
        json.dump(rows, self.stream, indent=2, ensure_ascii=False)
        self.stream.write("\n")
