"""Effective settings of a run: which rules, which files."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

from evallint.diagnostics import Severity
from evallint.load import files
from evallint.rules.registry import RULES

DEFAULT_INCLUDE = ("**/evals/**/*.yaml", "**/evals/**/*.yml", "**/*.eval.yaml", "**/*.eval.yml")


@dataclass
class Config:
    """A field for each setting of ``run.settings_schema`` (a file's keys, and those only the command line sets)."""

    select: Optional[tuple] = None  # None: the default set (every non-style rule)
    ignore: tuple = ()
    extend_select: tuple = ()
    strict: bool = False
    references: bool = True
    root: Optional[str] = None
    include: tuple = DEFAULT_INCLUDE
    exclude: tuple = ()
    force_exclude: bool = True  # exclude applies to the paths named too (off: --no-force-exclude)
    severity: dict = field(default_factory=dict)
    per_file_ignores: tuple = ()  # (absolute glob, codes)
    max_bytes: int = 10 * 1024 * 1024
    agentv_version: Optional[str] = None  # the format generation of every eval file; None: each file's keys tell

    def root_of(self, path: str) -> str:
        """The repository root of ``path``: ``--root`` when given, else the nearest folder with .git or .agentv."""
        return self.root_of_folder(os.path.dirname(os.path.abspath(path)))

    def root_of_folder(self, folder: str) -> str:
        """``root_of`` a file in ``folder``: an absolute, normalized path, as every lookup up to it compares."""
        return os.path.abspath(self.root) if self.root else files.repo_root(folder)

    def file_ignores(self, path: str) -> tuple:
        """Codes that ``per-file-ignores`` turns off for this file."""
        if not self.per_file_ignores:
            return ()
        absolute = os.path.abspath(path).lstrip("/")
        out: tuple = ()
        for pattern, codes in self.per_file_ignores:
            if files.glob_match(absolute, (pattern.lstrip("/"),)):
                out += codes
        return out

    def _match(self, code: str, prefixes) -> int:
        """Length of the longest prefix in ``prefixes`` that matches ``code`` (0: none)."""
        best = -1
        for prefix in prefixes:
            p = prefix.upper()
            if p == "ALL":
                best = max(best, 0)
            elif code.startswith(p):
                best = max(best, len(p))
        return best

    def enabled(self, code: str, extra_ignore: tuple = ()) -> bool:
        return self._remembered(code, extra_ignore, self._enabled)

    def any_enabled(self, codes: tuple) -> bool:
        """Whether any of ``codes`` is enabled (one remembered answer for the lot)."""
        return self._remembered(codes, (), self._any_enabled)

    def _remembered(self, codes, extra_ignore: tuple, answer) -> bool:
        key = (codes, self.select, self.extend_select, self.ignore, extra_ignore)
        try:
            found = _ENABLED.get(key)
        except TypeError:  # a program set a list of codes: answered without the memo
            return answer(codes, extra_ignore)
        if found is None:
            if len(_ENABLED) >= 4096:
                _ENABLED.clear()
            found = _ENABLED[key] = answer(codes, extra_ignore)
        return found

    def _any_enabled(self, codes: tuple, extra_ignore: tuple) -> bool:
        return any(self._enabled(code, extra_ignore) for code in codes)

    def _enabled(self, code: str, extra_ignore: tuple) -> bool:
        rule = RULES.get(code)
        if rule is None:
            return True
        if self.select is None:
            chosen = 0 if rule.default_enabled else -1
        else:
            chosen = self._match(code, self.select)
        chosen = max(chosen, self._match(code, self.extend_select))
        if chosen < 0:
            return False
        ignored = self._match(code, self.ignore + extra_ignore)
        return ignored < 0 or chosen > ignored  # the more specific prefix wins; a tie goes to ignore

    def severity_of(self, code: str) -> Severity:
        if code in self.severity:
            return Severity(self.severity[code])
        rule = RULES.get(code)
        return rule.severity if rule else Severity.ERROR


# enabled()'s answers: a code's and a set of prefixes' (every run asks the same few questions for each file)
_ENABLED: dict = {}
