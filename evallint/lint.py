"""The per-file pipeline: read -> parse (positions) -> kind -> schemas (rules)
-> references -> diagnostics. One bad file never stops the others."""
from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import replace
from typing import Any, Callable, Optional

from evallint.config import Config
from evallint.diagnostics import GENERATIONS, Diagnostic, Finding, Severity
from evallint.format.agentv2.suite import DATASET_SUITE_SCHEMA, SUITE_SCHEMA
from evallint.format.generations import dataset_version, needed, schema, sidecar_reads, version_of
from evallint.format.walk import Found, load_checked, rerooted
from evallint.load import deps, files, history
from evallint.load.case_files import CASE_WORKSPACE, folder_case, naming_suite, suites_by_folder, suites_defaults
from evallint.load.files import LATER_CASES_KEY
from evallint.load.jsonl import parse_jsonl
from evallint.load.positions import Index
from evallint.load.recognize import Evidence, kind_of
from evallint.load.secrets import secret_spans
from evallint.load.source import PEEK, Content, Source, opened
from evallint.load.view import current
from evallint.load.yaml12 import merge_keys, parse_yaml
from evallint.load.yaml_aliases import alias_limit, may_pass_limit, tree_of
from evallint.load.yaml_merges import refused_merges
from evallint.report import suppress
from evallint.report.fixes import make_fix
from evallint.report.resolve import to_diagnostics
from evallint.report.result import FileResult, masked_messages, snippets
from evallint.rules import references, style, targets_file
from evallint.rules.common import js_truthy
from evallint.rules.registry import RULES


def _internal(path: str, exc: BaseException) -> Diagnostic:
    return Diagnostic("EV000", Severity.ERROR,
                      f"internal error: {type(exc).__name__}: {exc}; the other files are still linted "
                      "(run with --verbose for the traceback, and please report it)",
                      path, 1, 1, 1, 2)


def load_suite(data: dict, path: str, sidecar: Optional[str] = None) -> tuple:
    """Run the suite schema over parsed data; returns (EvalSuite or None, ``walk.Found``). ``sidecar``: a
    JSONL dataset's sidecar file name."""
    suite, collected = load_checked(DATASET_SUITE_SCHEMA if sidecar else SUITE_SCHEMA, data, sidecar)
    if suite is not None:
        dataset = suite.dataset or os.path.splitext(os.path.basename(path))[0]
        suite = replace(suite, path=path, dataset=dataset)
    return suite, collected


def load_model(kind: str, generation: str, data: Any, path: str, config: Config) -> tuple:
    """Load ``data`` through the schema of its kind and AgentV version; returns (model or None,
    ``walk.Found``), the model knowing its path. A file of tests (a folder's case file, a YAML list) is read as
    the suites naming it read it."""
    if kind == files.EVAL and generation == GENERATIONS[0]:
        return load_suite(data, path)
    if kind == files.EVAL and _folder_case(path, config):
        return _case_file(data, path, config)
    if kind == files.EVAL and isinstance(data, list):
        return _tests_file(data, path, (), _defaults(path, config))
    loaded, found = load_checked(schema(generation, kind), data)
    return (replace(loaded, path=path) if kind != files.SIDECAR and loaded else loaded), found


def _tests_file(tests: list, path: str, under: tuple, suites: list, key=LATER_CASES_KEY) -> tuple:
    """A file of tests (a YAML list, or the lines of a ``.jsonl`` file), which an AgentV 4.42.4 suite reads
    from its 'tests' (a path, or a ``file://`` item): loaded as that suite's tests, once with the defaults each
    suite naming it gives each test (``suites``: (the suite as shown, its defaults); the runner loads the file once
    per suite), each finding at its place in the file (``under``: where the file's tests, or what ``key`` is the
    data path of, are in its position tree), each the same finding once, naming the suite when not every suite
    gives it; the model is the first suite's. What concerns the suites' own settings is reported in the suites."""
    model, each_suite = None, []
    for i, (suite, defaults) in enumerate(suites or [("", {})]):
        loaded, found = load_checked(schema(GENERATIONS[1], files.EVAL), {**defaults, LATER_CASES_KEY: tests})
        if i == 0:
            model = replace(loaded, path=path) if loaded else None
        each_suite.append((suite, rerooted(found, key, under)))
    found = Found()
    for suite, each in each_suite:
        for finding in each.findings:
            if any(finding not in other.findings for _, other in each_suite):
                finding = replace(finding, message=f"{finding.message} (as {suite} loads this file)")
            if finding not in found.findings:
                found.findings.append(finding)
        found.sites += [site for site in each.sites if site not in found.sites]
    return model, found


def eval_version(data: Any, path: str, config: Config) -> str:
    """The AgentV version an eval file is read as: a folder's case file is AgentV 4.42.4's, else its keys or the
    configuration decide."""
    return GENERATIONS[1] if _folder_case(path, config) else version_of(files.EVAL, data, config.agentv_version)


def _folder_case(path: str, config: Config) -> bool:
    """Whether the file at ``path`` is the case file of a subfolder of a folder of tests that an AgentV 4.42.4
    suite names (never when every file is read as AgentV 2.2's)."""
    return config.agentv_version != GENERATIONS[0] and folder_case(path, config.root_of(path), config.max_bytes)


def _case_file(test: dict, path: str, config: Config) -> tuple:
    """The one test of a folder of tests' subfolder, read from its case file as the suite naming the folder reads
    it: with the suite's defaults, the subfolder's name for an id when it has none (or a null one), and the
    subfolder's ``workspace`` folder for a workspace template when it has no workspace (one the loader's
    JavaScript counts as unset), written from the folder of the first suite naming it. That folder exists, so the
    template the loader puts there is no reference to check."""
    subfolder = os.path.dirname(os.path.abspath(path))
    if test.get("id") is None:
        test = {**test, "id": os.path.basename(subfolder)}
    workspace = os.path.join(subfolder, CASE_WORKSPACE)
    deps.note(workspace)
    implied = not js_truthy(test.get("workspace")) and current().isdir(workspace)
    if implied:
        suites = tests_suites(path, config.root_of(path), config)
        folder = os.path.dirname(suites[0]) if suites else subfolder
        test = {**test, "workspace": {"template": os.path.relpath(workspace, folder).replace(os.sep, "/")}}
    model, found = _tests_file([test], path, (), _defaults(path, config), key=(LATER_CASES_KEY, 0))
    if implied:
        found.sites = [site for site in found.sites if site.path[:1] != ("workspace",)]
    return model, found


def _defaults(path: str, config: Config) -> list:
    """(the suite as shown, what it gives each of its tests) for each suite that names the file of tests at
    ``path`` (none without one)."""
    root = config.root_of(path)
    return [(_shown(suite, root), defaults) for suite, defaults in suites_defaults(path, root, config.max_bytes)]


def _shown(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


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
    case = kind == files.EVAL and _folder_case(path, config)
    generation = result.version = (_sidecar_version(path, parsed.data, root, config) if kind == files.SIDECAR
                                   else GENERATIONS[1] if case else version_of(kind, parsed.data, config.agentv_version))
    findings = list(parsed.findings)
    if generation != GENERATIONS[0]:
        findings += _read_as_agentv4(parsed, kind, source.text)
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
    if not (isinstance(parsed.data, dict) or tests_file):
        return [_not_a_mapping(parsed.data, parsed.empty, CASE_NEEDED if case else needed(generation, kind))]
    suites = tests_suites(path, root, config) if tests_file or case else ()
    with _includes_expanded(path, root, config, suites):
        result.model, collected = load_model(kind, generation, parsed.data, path, config)
    findings = list(collected.findings)
    if config.any_enabled(style.CODES) and not (tests_file or case):  # style rules are off unless selected
        findings += style.check(parsed.data, kind, text)
    if config.references and root is not None:
        findings += references.check(_sites(kind, collected.sites), path, root, config.max_bytes, suites,
                                     template=kind == files.TEMPLATE, item_sites=template_sites)
    return findings


def tests_suites(path: str, root: Optional[str], config: Config) -> tuple:
    """The suites from whose folders the paths in the file of tests at ``path`` are looked up
    (``case_files.suites_by_folder``); none without the root."""
    return tuple(suites_by_folder(path, root, config.max_bytes)) if root is not None else ()


def _includes_expanded(path: str, root: Optional[str], config: Config, suites: tuple = ()):
    """The context in which the file's grader lists are loaded: the model has their includes expanded, as the
    loader expands them, when the repository root is known (the templates are read for the model even without
    references: only EV4xx findings depend on those), from the file's folder, or the first of ``suites``'s for a
    file of tests they name."""
    if root is None:
        return nullcontext()
    from evallint.format.agentv4.graders import expanding

    return expanding(os.path.dirname(os.path.abspath(suites[0] if suites else path)), os.path.abspath(root),
                     config.max_bytes)


def template_sites(items: tuple) -> list:
    """The references of an assertion template's items (its includes expanded), loaded as a template's
    assertions: each suite that includes the template checks them from its own folder (``references.check``)."""
    return load_checked(schema(GENERATIONS[1], files.TEMPLATE), {"assertions": list(items)})[1].sites


def _sites(kind: str, sites: list) -> list:
    """The references of a file checked from its own folder: of an assertion template, only its includes, which the
    runner looks up from the template's folder first; its other paths and names are looked up from the folder of
    each eval file that includes it."""
    return [site for site in sites if site.kind == "assertion_template"] if kind == files.TEMPLATE else sites


def _read_as_agentv4(parsed, kind: str, text: str) -> list:
    """What AgentV 4.42.4's YAML parser does that AgentV 2.2's does not: it merges '<<' keys (``parsed`` gets
    them), rejects some merges, and counts aliases; the findings of the files it rejects."""
    counted = parsed.aliased and may_pass_limit(parsed)  # before the merges are used up
    findings = []
    if kind != files.SKILLS:
        findings += refused_merges(parsed, text)
        merge_keys(parsed)
    if counted:
        findings += alias_limit(tree_of(text))
    return findings


def _sidecar_version(path: str, data: Any, root: Optional[str], config: Config) -> str:
    """The AgentV version of a sidecar: its dataset's (the ``.jsonl`` file of the same stem), as the two make
    one suite (in the current file view, as the sidecar's dataset reads the sidecar)."""
    if config.agentv_version:
        return config.agentv_version
    dataset, view = os.path.splitext(os.path.abspath(path))[0] + ".jsonl", current()
    cases = deps.memoized(("dataset cases", view, dataset, root, config.max_bytes), _dataset_cases, view, dataset,
                          root, config.max_bytes)
    return dataset_version(cases, data, None)


def _dataset_cases(view, path: str, root: Optional[str], max_bytes: int) -> list:
    """The cases of the dataset at ``path`` in ``view`` (none when it cannot be read)."""
    deps.note(path)
    source = view.source(path, root, max_bytes) if view.isfile(path) else None
    return parse_jsonl(source.text).cases if isinstance(source, Source) else []


def _sidecar_settings(path: str, root: Optional[str], config: Config) -> tuple:
    """(the raw suite settings of a dataset's sidecar in the current file view, its file name: the first of the
    names the runner looks for when there is none), once per run. Its own findings are reported when the sidecar
    is linted as a file of its own."""
    stem, view = os.path.splitext(os.path.abspath(path))[0], current()
    return deps.memoized(("sidecar settings", view, stem, root, config.max_bytes), _read_sidecar, view, stem, root,
                         config.max_bytes)


def _read_sidecar(view, stem: str, root: Optional[str], max_bytes: int) -> tuple:
    for suffix in files.YAML_SUFFIXES:
        sidecar = stem + suffix
        deps.note(sidecar)
        if view.isfile(sidecar):
            source = view.source(sidecar, root, max_bytes)
            if isinstance(source, Source):
                parsed = parse_yaml(source.text)
                if parsed.ok and isinstance(parsed.data, dict):
                    return dict(parsed.data), os.path.basename(sidecar)
    return {}, os.path.basename(stem) + files.YAML_SUFFIXES[0]


def external_tests(path: str, config: Config) -> bool:
    """Whether the ``.jsonl`` file at ``path`` is a file of tests that an AgentV 4.42.4 suite names from its
    'tests' (never when every file is read as AgentV 2.2's)."""
    return config.agentv_version != GENERATIONS[0] and \
        naming_suite(path, config.root_of(path), config.max_bytes) is not None


def load_dataset(cases: list, path: str, root: Optional[str], config: Config, version: Optional[str] = None,
                 external: Optional[bool] = None) -> tuple:
    """Run the suite schema of the dataset's AgentV version over its cases with the settings of its sidecar
    that version reads; returns (the suite or None, ``walk.Found``) with what concerns the cases only, under
    'evalcases': the sidecar's own findings and references are reported in the sidecar. ``version``: the
    dataset's AgentV version when the caller has told it already. A file of a suite's tests
    (``external_tests``, or ``external`` when the caller has found out) is loaded with the suite's rules,
    without a sidecar."""
    if external if external is not None else external_tests(path, config):
        return _tests_file(cases, path, ("evalcases",), _defaults(path, config))
    settings, sidecar = _sidecar_settings(path, root, config)
    generation = version or dataset_version(cases, settings, config.agentv_version)
    settings = {k: v for k, v in settings.items() if k in sidecar_reads(generation)}
    if generation == GENERATIONS[0]:
        suite, found = load_suite({**settings, "evalcases": cases}, path, sidecar)
    else:
        suite, found = load_checked(schema(generation, files.DATASET), {**settings, "tests": cases}, sidecar)
        suite = replace(suite, path=path) if suite else None
    key = "evalcases" if generation == GENERATIONS[0] else "tests"
    return suite, rerooted(found, key, ("evalcases",))


def lint_dataset(source: Source, path: str, config: Config, *, root: Optional[str] = None) -> FileResult:
    """Lint a ``.jsonl`` file: a file of external tests when an AgentV 4.42.4 suite names it from its 'tests'
    (read with the suite's rules, no sidecar), else a dataset."""
    dataset = parse_jsonl(source.text)
    external = external_tests(path, config)
    version = GENERATIONS[1] if external else dataset_version(
        dataset.cases, _sidecar_settings(path, root, config)[0], config.agentv_version)
    result = FileResult(path, kind=files.DATASET, version=version)
    suites = tests_suites(path, root, config) if external else ()
    with _includes_expanded(path, root, config, suites):
        result.model, collected = load_dataset(dataset.cases, path, root, config, version, external)
    findings = list(dataset.findings) + collected.findings
    if config.references and root is not None:
        findings += references.check(collected.sites, path, root, config.max_bytes, suites, item_sites=template_sites)
    return _finish(result, findings, index=Index(dataset.root()), data={"evalcases": dataset.cases}, config=config,
                   text=source.text, secrets=lambda: dataset.secret_ranges(source.text))


def _isolated(path: str, work, model: bool = True) -> FileResult:
    """``work()``, whatever happens inside: an exception becomes EV000 for this file only. With
    ``model`` False, the result carries no model (a worker process sends back only what is reported).
    The result notes why git could not tell what the file was in the last commit, when it could not."""
    try:
        with history.watching() as unanswered:
            result = work()
        result.notice = unanswered[0] if unanswered else None  # its last commit could not be read: why
        if not model:
            result.model = None
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
    place = files.path_kind(path, root or os.path.dirname(os.path.abspath(path)), config.include)
    evidence = Evidence(path, content, place, explicit=explicit, git_root=config.root_of(path),
                        max_bytes=config.max_bytes)
    return _lint(evidence, config, root)
