"""Diagnostics, findings and the one place that turns marks into positions."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Optional


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


# a rule's default level: an error, a warning, or style (off unless selected)
E, W, S = "E", "W", "S"


# the generations of AgentV's format evallint knows: AgentV 2.2's eval v2 ('evalcases') and AgentV 4.42.4's
# ('tests'), named by the version a configuration gives (agentv-version)
GENERATIONS = ("2.2", "4.42")


@dataclass(frozen=True)
class Rule:
    """A rule, declared once as a constant named by its code in the module that finds it (``EV104 =
    Rule(...)``); ``evallint/rules/registry.py`` collects them and the markdown beside that module explains
    each. ``generations``: the versions of AgentV's format whose files it checks."""

    code: str
    name: str
    level: str  # E, W or S
    summary: str
    fixable: bool = False
    redacted: bool = False  # its finding sits on a secret: the text is starred out of every snippet
    generations: tuple = GENERATIONS

    @property
    def severity(self) -> Severity:
        return Severity.ERROR if self.level == E else Severity.WARNING

    @property
    def default_enabled(self) -> bool:
        return self.level != S


@dataclass(frozen=True)
class Edit:
    """One replacement of a fix: ``text[start:end]`` becomes ``replacement``."""

    start: int  # character offset into the decoded text
    end: int
    replacement: str


@dataclass(frozen=True)
class Fix:
    """What ``--fix`` (or an editor's quick fix) does about a diagnostic: its edits, applied together."""

    edits: tuple[Edit, ...]
    description: str = ""
    safe: bool = True  # an unsafe fix may change behaviour: applied only with --unsafe-fixes
    # what the fix does to the parsed data, checked on the fixed text before it is kept (report/fixcheck.py):
    # ("set", path, value), ("rename", path, new_key), ("nest", path, parent_key), ("insert", path, value),
    # ("insert_before", path, (value, next_key)), ("replace", path, (new_key, value)) or ("move_first", path,
    # (list_path, item)): the key at path goes and item becomes the first of the list at list_path; ("all", (),
    # changes): each of changes, made by one edit (of an anchored value, which its aliases share)
    change: tuple = ()


@dataclass(frozen=True)
class Related:
    """Another place a diagnostic points at: the first of two duplicates, the targets file that lacks a
    name, the prompt template at fault. 1-based positions, as a diagnostic's."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str


@dataclass(frozen=True)
class Diagnostic:
    """One finding at its place in a file, as every output format reports it (1-based positions)."""

    code: str
    severity: Severity
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    yaml_path: str = ""
    case_id: Optional[str] = None
    fix: Optional[Fix] = None
    # not part of a diagnostic's identity: a result from the cache, which does not keep it, equals a fresh one
    related: tuple = field(default=(), compare=False)

    @property
    def fixable(self) -> bool:
        """A fix that ``--fix`` applies without ``--unsafe-fixes``."""
        return self.fix is not None and self.fix.safe

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code, self.message)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "yaml_path": self.yaml_path,
            "case_id": self.case_id,
            "fixable": self.fixable,
        }


# Where in the located node a finding points: the value, the key, or the
# first key of the mapping (for a missing key; docs/format.md#positions).
VALUE = "value"
KEY = "key"
FIRST_KEY = "first_key"


@dataclass(frozen=True)
class Span:
    """0-based start and end (line, column, offset) of a piece of text."""

    line: int
    column: int
    end_line: int
    end_column: int
    start: int = 0
    end: int = 0


@dataclass
class Finding:
    """A rule violation located by data path; positions are resolved later."""

    code: str
    message: str
    path: tuple = ()
    target: str = VALUE
    span: Optional[Span] = None  # set when the position is known directly
    fix: Optional[Fix] = None
    extra: dict = field(default_factory=dict)


def yaml_path_text(path: tuple) -> str:
    out = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        else:
            out.append(("." if out else "") + str(part))
    return "".join(out)


class EvalFileError(Exception):
    """Raised by the loading API; ``diagnostics`` holds every error of the file."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        summary = (
            f"{first.path}:{first.line}:{first.column}: {first.code} {first.message}"
            if first
            else "invalid eval file"
        )
        more = len(self.diagnostics) - 1
        super().__init__(summary + (f" (and {more} more)" if more > 0 else ""))
