"""The per-file pipeline: read -> parse (positions) -> kind -> schemas (rules)
-> diagnostics. One bad file never stops the others."""
from __future__ import annotations

import os
import traceback
from dataclasses import dataclass, field, replace
from typing import Any, Optional

from marshmallow import ValidationError

from . import discovery
from .config import Config
from .diagnostics import Diagnostic, Finding, Severity
from .positions import Index
from .resolve import to_diagnostics
from .rules import references, style
from .schemas.context import collecting
from .source import Source, read_source
from .yaml12 import parse_yaml


@dataclass
class FileResult:
    path: str
    kind: Optional[str] = None
    diagnostics: list = field(default_factory=list)
    text: str = ""
    suite: Any = None
    traceback: Optional[str] = None

    @property
    def linted(self) -> bool:
        return self.kind is not None


def _internal(path: str, exc: BaseException) -> Diagnostic:
    return Diagnostic("EV000", Severity.ERROR,
                      f"internal error: {type(exc).__name__}: {exc}; the other files are still linted "
                      "(run with --verbose for the traceback, and please report it)",
                      path, 1, 1, 1, 2)


def _file_level(path: str, findings: list, config: Config) -> list:
    return to_diagnostics(findings, path=path, index=Index(None), data=None, config=config)


def _validation_findings(messages: Any, path: tuple = ()) -> list:
    """A marshmallow error the rules did not foresee still gets a position."""
    out = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            out += _validation_findings(value, path + (key,))
    elif isinstance(messages, list):
        for message in messages:
            out += _validation_findings(message, path) if isinstance(message, (dict, list)) else \
                [Finding("EV110", f"invalid value at '{'.'.join(map(str, path))}': {message}", path)]
    return out


def load_suite(data: dict, path: str) -> tuple:
    """Run the schemas over parsed data; returns (suite or None, Collected)."""
    from .schemas.suite import SUITE_SCHEMA

    with collecting() as collected:
        try:
            suite = SUITE_SCHEMA.load(data)
        except ValidationError as exc:
            collected.findings.extend(_validation_findings(exc.messages))
            suite = None
    if suite is not None:
        dataset = suite.dataset or os.path.splitext(os.path.basename(path))[0]
        suite = replace(suite, path=path, dataset=dataset)
    return suite, collected


def lint_source(source: Source, path: str, kind: Optional[str], config: Config, *, explicit: bool = True,
                root: Optional[str] = None) -> FileResult:
    """Lint decoded text; ``kind`` None means decide by content."""
    result = FileResult(path, text=source.text)
    parsed = parse_yaml(source.text)
    if not parsed.ok:
        if kind is None and not explicit and not discovery.looks_like_agentv(source.text):
            return result
        result.kind = kind or discovery.EVAL
        result.diagnostics = _file_level(path, parsed.findings, config)
        return result
    kind = discovery.content_kind(path, parsed.data, kind)
    if kind is None:
        return result
    result.kind = kind
    index = Index(parsed.root)
    findings = list(parsed.findings)
    if kind == discovery.EVAL:
        if not isinstance(parsed.data, dict):
            findings.append(_not_a_mapping(parsed.data, parsed.empty))
        else:
            suite, collected = load_suite(parsed.data, path)
            findings += collected.findings
            if config.references and root is not None:
                findings += references.check(collected.sites, path, root)
            findings += style.check(parsed.data, kind, source.text)
            result.suite = suite
    result.diagnostics = to_diagnostics(findings, path=path, index=index, data=parsed.data, config=config,
                                        text=source.text)
    return result


def _not_a_mapping(data: Any, empty: bool) -> Finding:
    if empty or data is None:
        what = "empty (no YAML document)" if empty else "null"
    else:
        what = "a list" if isinstance(data, list) else f"a scalar ({type(data).__name__})"
    return Finding("EV008", f"the top level is {what}; an eval file must be a mapping with 'evalcases'",
                   span=None, path=())


def lint_file(path: str, config: Config, *, explicit: bool = True) -> FileResult:
    """Lint one file, whatever happens inside: an exception becomes EV000."""
    try:
        return _lint_file(path, config, explicit)
    except Exception as exc:  # isolation: one file never stops the others
        result = FileResult(path, kind="error")
        result.diagnostics = [_internal(path, exc)]
        result.traceback = traceback.format_exc()
        return result


def _lint_file(path: str, config: Config, explicit: bool) -> FileResult:
    folder = os.path.dirname(os.path.abspath(path))
    root = config.root or discovery.repo_root(folder)
    by_path = discovery.path_kind(path, root, config.include)
    if path.endswith(".jsonl") or by_path in (discovery.TARGETS, discovery.CONFIG, discovery.SIDECAR):
        return FileResult(path)  # datasets, targets and config: not linted yet
    source = read_source(path, root, config.max_bytes)
    if isinstance(source, Finding):
        if not explicit and by_path is None:
            return FileResult(path)
        result = FileResult(path, kind=by_path or discovery.EVAL)
        result.diagnostics = _file_level(path, [source], config)
        return result
    return lint_source(source, path, by_path, config, explicit=explicit, root=root)



