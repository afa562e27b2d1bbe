"""Suppression comments (docs/format.md#suppression-comments), parsed strictly:

    key: value  # evallint: disable=EV305,EV109     (this line)
    # evallint: disable=EV305                         (alone: the next line)
    # evallint: disable-file                          (the whole file)
    # evallint: disable-file=EV109                    (these codes, whole file)

A directive that is malformed, names an unknown code, or suppresses nothing is
itself reported (EV099), so suppressions never silently widen or go stale."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from evallint.config import Config
from evallint.diagnostics import Diagnostic
from evallint.rules.registry import RETIRED, RULES
from evallint.suggest import code_hint

_COMMENT = re.compile(r"(?:^|[ \t])#[ \t]*evallint[ \t]*:(?P<body>[^\n]*)")
_BODY = re.compile(r"[ \t]*(?P<kind>disable-file|disable)(?:[ \t]*=[ \t]*(?P<codes>[A-Za-z0-9, \t]*?))?[ \t]*\Z")


@dataclass
class Directive:
    """An ``# evallint: disable`` comment: the codes it turns off, on a line or in the whole file."""

    line: int  # 0-based line of the comment
    column: int  # 0-based column of '#'
    end: int
    kind: str  # "line" or "file"
    target: Optional[int]  # 0-based line it applies to (line kind)
    codes: Optional[tuple]  # None: every code (disable-file only)
    used: set = field(default_factory=set)


def parse(text: str) -> tuple:
    """(directives, problems); problems are (line, column, end, message)."""
    directives, problems = [], []
    if "evallint" not in text:
        return directives, problems
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if "evallint" not in line:
            continue
        match = _COMMENT.search(line)
        if not match:
            continue
        column = line.index("#", match.start())
        end = len(line.rstrip("\r"))
        body = match.group("body").rstrip("\r")
        parsed = _BODY.match(body)
        if not parsed:
            problems.append((number, column, end, f"malformed suppression '{line[column:end].strip()}'; write "
                             "'# evallint: disable=CODE[,CODE]' or '# evallint: disable-file[=CODE,...]'"))
            continue
        kind = parsed.group("kind")
        raw = parsed.group("codes")
        codes = None
        if raw is not None:
            codes = tuple(c.strip().upper() for c in raw.replace("\t", " ").split(",") if c.strip())
            unknown = [c for c in codes if c not in RULES]
            if unknown or not codes:
                what = ("no rule code in suppression" if not unknown else
                        f"retired rule code '{unknown[0]}' in suppression ({RETIRED[unknown[0]]})" if unknown[0] in RETIRED
                        else f"unknown rule code '{unknown[0]}' in suppression{code_hint(unknown[0], RULES)}")
                problems.append((number, column, end, f"{what}; it suppresses nothing (see 'evallint rules')"))
                continue
        if kind == "disable" and codes is None:
            problems.append((number, column, end, "'# evallint: disable' needs the codes it disables "
                             "('disable=EV305'); a blanket line suppression is not allowed"))
            continue
        if kind == "disable-file":
            directives.append(Directive(number, column, end, "file", None, codes))
        else:
            alone = not line[:column].strip()
            directives.append(Directive(number, column, end, "line", number + 1 if alone else number, codes))
    return directives, problems


def apply(diagnostics: list, text: str, path: str, config: Config) -> list:
    directives, problems = parse(text)
    if not directives and not problems:
        return diagnostics
    kept = []
    for d in diagnostics:
        if not _suppressed(d, directives):
            kept.append(d)
    if config.enabled("EV099"):
        severity = config.severity_of("EV099")
        for line, column, end, message in problems:
            kept.append(_ev099(path, line, column, end, message, severity))
        for directive in directives:
            for message in _unused(directive, config):
                kept.append(_ev099(path, directive.line, directive.column, directive.end, message, severity))
    return sorted(kept, key=Diagnostic.sort_key)


def _suppressed(d: Diagnostic, directives: list) -> bool:
    for directive in directives:
        if directive.kind == "line" and directive.target != d.line - 1:
            continue
        if directive.codes is None or d.code in directive.codes:
            directive.used.add(d.code)
            return True
    return False


def _unused(directive: Directive, config: Config) -> list:
    if directive.codes is None:
        return [] if directive.used else ["'# evallint: disable-file' suppresses nothing in this file"]
    where = "this file" if directive.kind == "file" else f"line {directive.target + 1}"
    return [f"suppression of {code} is unused: no {code} on {where}" for code in directive.codes
            if code not in directive.used and config.enabled(code)]


def _ev099(path: str, line: int, column: int, end: int, message: str, severity) -> Diagnostic:
    return Diagnostic("EV099", severity, message, path, line + 1, column + 1, line + 1, end + 1)
