"""The per-file pipeline: read -> parse (positions) -> kind -> schemas (rules; the model, ``models.py``)
-> references -> diagnostics. One bad file never stops the others."""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Callable, Optional

from evallint.config import Config
from evallint.diagnostics import GENERATIONS, Diagnostic, Finding, Severity
from evallint.format.base import models_built
from evallint.format.generations import dataset_version, needed
from evallint.load import files, history
from evallint.load.evidence import Evidence
from evallint.load.jsonl import CASES_KEY, parse_jsonl
from evallint.load.positions import Index
from evallint.load.recognize import kind_of
from evallint.load.secrets import secret_spans
from evallint.load.source import PEEK, Content, Source, opened
from evallint.load.yaml_merges import read_as_agentv4
from evallint.models import (external_tests, file_version, found_files_only, includes_expanded, is_folder_case,
                             load_dataset, load_model, reference_suites, sidecar_settings,
                             template_sites, workspace_file_found)
from evallint.report import suppress
from evallint.report.fixes import make_fix
from evallint.report.resolve import to_diagnostics
from evallint.report.result import FileResult, masked_messages, snippets
from evallint.rules import config_file, datasets, references, style, targets_file
from evallint.rules.registry import RULES


def _internal(path: str, exc: BaseException) -> Diagnostic:
    return Diagnostic("EV000", Severity.ERROR,
                      f"internal error: {type(exc).__name__}: {exc}; the other files are still linted "
                      "(run with --verbose for the traceback, and please report it)",
                      path, 1, 1, 1, 2)


# what the case file of a folder of tests' subfolder must hold
CASE_NEEDED = ("the case file of a folder of tests' subfolder must be a mapping, its one test; the runner rejects "
               "the suite that names the folder ('Case file must contain a YAML object')")


def _not_a_mapping(data: Any, empty: bool, needed: str) -> Finding:
    if empty or data is None:
        what = "empty (no YAML document)" if empty else "null"
    else:
        what = "a list" if isinstance(data, list) else f"a scalar ({type(data).__name__})"
    return Finding("EV008", f"the top level is {what}; {needed}", path=())


def _finish(result: FileResult, findings: list, *, index: Index, data: Any, config: Config, text: str,
            secrets: Callable[[], list]) -> FileResult:
    """``result`` with the diagnostics of ``findings`` and their snippets, the values of ``secrets()`` (the
    index ranges that the parse of ``text`` found) starred out of both."""
    commented = result.kind not in (files.DATASET, files.SKILLS)  # JSON takes no comments: no fixes, no suppressions
    fixer = make_fix if commented else None
    result.diagnostics = to_diagnostics(findings, path=result.path, index=index, data=data, config=config, text=text,
                                        fixer=fixer)
    # the rules read such a value as YAML 1.2, the runner as 1.1: only EV014 says what it is (one of another file, at
    # the reference to it, is of a value there: models.workspace_file_found)
    yaml11 = {(d.line, d.column) for d in result.diagnostics if d.code == "EV014" and not d.related}
    if yaml11:
        result.diagnostics = [d for d in result.diagnostics if d.code == "EV014" or (d.line, d.column) not in yaml11]
    if commented:
        result.diagnostics = suppress.apply(result.diagnostics, text, result.path, config)
    result.diagnostics.sort(key=Diagnostic.sort_key)  # in the file's order, whichever stage found them
    if result.diagnostics:
        spans = secret_spans(text, secrets())
        result.diagnostics = masked_messages(text, result.diagnostics, spans)
        result.lines = snippets(text, result.diagnostics, spans)
    return result


def lint_source(source: Source, path: str, kind: Optional[str], config: Config, *, explicit: bool = True,
                root: Optional[str] = None) -> FileResult:
    """Lint decoded text: as a dataset when ``kind`` is DATASET; else as YAML whose path gives ``kind``
    (None: no kind), its content deciding (``recognize``)."""
    content = Content.decoded(source)
    if kind == files.DATASET:
        return _lint_as(files.DATASET, Evidence(path, content, kind), config, root)
    evidence = Evidence(path, content, kind, jsonl=None if kind == files.SKILLS else False, explicit=explicit,
                        git_root=config.root_of(path), max_bytes=config.max_bytes)
    return _lint(evidence, config, root)


def _lint(evidence: Evidence, config: Config, root: Optional[str]) -> FileResult:
    """Lint the file as the kind the table gives; nothing for a file that is not evallint's."""
    kind = kind_of(evidence)
    if kind is None:
        return FileResult(evidence.path)
    return _lint_as(kind, evidence, config, root)


def _lint_as(kind: str, evidence: Evidence, config: Config, root: Optional[str]) -> FileResult:
    path, source = evidence.path, evidence.source
    if not isinstance(source, Source):  # unreadable, over the size cap, or not UTF-8: why is reported
        result = FileResult(path, kind=kind)
        result.diagnostics = to_diagnostics([source], path=path, index=Index(None), data=None, config=config)
        return result
    if kind == files.DATASET:
        result = lint_dataset(source, path, config, root=root)
        result.source, result.root = source, root
        return result
    result = FileResult(path, kind=kind, source=source, root=root)
    parsed = evidence.parsed
    if not parsed.ok:
        return _finish(result, parsed.findings, index=Index(None), data=None, config=config, text=source.text,
                       secrets=lambda: parsed.secrets)
    case = kind == files.EVAL and is_folder_case(path, config)
    generation = result.version = file_version(kind, parsed.data, path, root, config)
    findings = list(parsed.findings)
    if generation != GENERATIONS[0]:
        findings += read_as_agentv4(parsed, source.text, merge=kind != files.SKILLS, bom=source.bom)
    if kind == files.TARGETS:
        targets_file.remember(path, source.text, parsed.data, root)  # eval files checked later need its names
    findings += _checked(result, kind, generation, parsed, case, config)
    findings = [f for f in findings if generation in RULES[f.code].generations]  # the rules of its version
    return _finish(result, findings, index=Index(parsed.root), data=parsed.data, config=config, text=source.text,
                   secrets=lambda: parsed.secrets)


def _checked(result: FileResult, kind: str, generation: str, parsed, case: bool, config: Config) -> list:
    """The findings of the file's model (which ``result`` gets), of its style and of its references; or why it
    has none: its top level is not what its kind needs. ``case``: it is a folder of tests' case file."""
    path, root, text = result.path, result.root, result.source.text
    tests_file = kind == files.EVAL and generation != GENERATIONS[0] and isinstance(parsed.data, list) and not case
    if kind == files.SIDECAR:  # one the runner never reads, or empty: nothing it holds is read
        unread = list(datasets.unread_sidecar(path)) or list(datasets.empty_sidecar(parsed.data, parsed.empty))
        if unread:
            return unread
    if not (isinstance(parsed.data, dict) or tests_file):
        return [_not_a_mapping(parsed.data, parsed.empty, CASE_NEEDED if case else needed(generation, kind))]
    suites = reference_suites(kind, generation, parsed.data, path, root, config)
    with includes_expanded(path, generation, root, config, suites):
        result.model, collected = load_model(kind, generation, parsed.data, path, config)
    result.model = found_files_only(result.model, generation, path, root, suites)
    findings = list(collected.findings)
    if kind == files.CONFIG:
        findings += config_file.unread_config(path)
    if generation != GENERATIONS[0]:
        from evallint.format.agentv4.turn_findings import turn_findings

        findings = turn_findings(findings, parsed.data)
    if config.any_enabled(style.CODES) and not (tests_file or case):  # style rules are off unless selected
        findings += style.check(parsed.data, kind, text)
    if config.references and root is not None:
        findings += references.check(_sites(kind, collected.sites), path, root, config.max_bytes, suites,
                                     template=kind == files.TEMPLATE, item_sites=template_sites,
                                     workspace_file=workspace_file_found)
    return findings


def _sites(kind: str, sites: list) -> list:
    """The references of a file checked from its own folder: of an assertion template, only its includes, which the
    runner looks up from the template's folder first; its other paths and names are looked up from the folder of
    each eval file that includes it."""
    return [site for site in sites if site.kind == "assertion_template"] if kind == files.TEMPLATE else sites


def lint_dataset(source: Source, path: str, config: Config, *, root: Optional[str] = None) -> FileResult:
    """Lint a ``.jsonl`` file: a file of external tests when an AgentV 4.42.4 suite names it from its 'tests'
    (read with the suite's rules, no sidecar), else a dataset."""
    dataset = parse_jsonl(source.text)
    external = external_tests(path, config)
    version = GENERATIONS[1] if external else dataset_version(
        dataset.cases, sidecar_settings(path, root, config)[0], config.agentv_version)
    result = FileResult(path, kind=files.DATASET, version=version)
    suites = reference_suites(files.DATASET, version, None, path, root, config)
    with includes_expanded(path, version, root, config, suites):
        result.model, collected = load_dataset(dataset.cases, path, root, config, version, external)
    result.model = found_files_only(result.model, version, path, root, suites)
    findings = list(dataset.findings) + collected.findings
    if config.references and root is not None:
        findings += references.check(collected.sites, path, root, config.max_bytes, suites, item_sites=template_sites)
    result = _finish(result, findings, index=Index(dataset.root()), data={CASES_KEY: dataset.cases}, config=config,
                     text=source.text, secrets=lambda: dataset.secret_ranges(source.text))
    if version != GENERATIONS[0]:  # AgentV 4.42.4 reads the lines as a list of tests, as a YAML file of tests holds
        result.diagnostics = [replace(d, yaml_path=d.yaml_path[len(CASES_KEY):]) if d.yaml_path.startswith(
            CASES_KEY + "[") else d for d in result.diagnostics]
    return result


def _isolated(path: str, work, model: bool = True) -> FileResult:
    """``work()``, whatever happens inside: an exception becomes EV000 for this file only. With
    ``model`` False, no model is built and the result carries none (a worker process sends back only what is
    reported). The result notes why git could not tell what the file was in the last commit, when it could not."""
    try:
        with history.watching() as unanswered, models_built(model):
            result = work()
        result.notice = unanswered[0] if unanswered else None  # its last commit could not be read: why
        return result
    except Exception as exc:  # isolation: one file never stops the others
        result = FileResult(path, kind="error")
        result.diagnostics = [_internal(path, exc)]
        import traceback

        result.traceback = traceback.format_exc()
        return result


def lint_file(path: str, config: Config, *, explicit: bool = True, model: bool = True) -> FileResult:
    """Lint one file, whatever happens inside: an exception becomes EV000. ``model`` False: the same
    findings, no model built (for callers that only report)."""
    return _isolated(path, lambda: _lint_file(path, config, explicit), model)


JSONL_PEEK = HEAD_PEEK = PEEK  # bytes of a file read to tell its kind before (or without) the rest


def _lint_file(path: str, config: Config, explicit: bool) -> FileResult:
    root = config.root_of(path)
    with opened(path, root, config.max_bytes) as content:  # read once, as far as telling and linting need
        return _lint_content(content, path, config, explicit, root)


def lint_bytes(data: bytes, path: str, config: Config, *, explicit: bool = True, references: bool = True,
               model: bool = True) -> FileResult:
    """Lint content that is not read from ``path`` (standard input, the git
    index) as if it were that file; ``model`` as for ``lint_file``."""
    def work() -> FileResult:
        root = config.root_of(path)
        return _lint_content(Content.given(data, config.max_bytes), path, config, explicit,
                             root if references else None)

    return _isolated(path, work, model)


def lint_too_large(path: str, size: int, head: bytes, config: Config, *, explicit: bool = True,
                   model: bool = True) -> FileResult:
    """A file over the size cap known by its size and its first bytes only (a blob of the git index):
    EV006 when it would be linted, as for a file read from disk; ``model`` as for ``lint_file``."""
    content = Content.over_cap(size, head, config.max_bytes)
    return _isolated(path, lambda: _lint_content(content, path, config, explicit, config.root_of(path)), model)


def lint_unread(path: str, finding: Finding, config: Config, *, explicit: bool = True,
                model: bool = True) -> FileResult:
    """A file that could not be read (``finding``, EV009 say): reported when it would be linted, as for a
    file on disk; ``model`` as for ``lint_file``."""
    content = Content.unread(finding)
    return _isolated(path, lambda: _lint_content(content, path, config, explicit, config.root_of(path)), model)


def _lint_content(content: Content, path: str, config: Config, explicit: bool, root: Optional[str]) -> FileResult:
    """Lint what the file holds (``content``, read as far as asked), its kind told by the path and what it
    holds (``recognize``)."""
    place = files.PathKind(path, root or os.path.dirname(os.path.abspath(path)), config.include)
    evidence = Evidence(path, content, place, explicit=explicit, git_root=config.root_of(path),
                        max_bytes=config.max_bytes)
    return _lint(evidence, config, root)
