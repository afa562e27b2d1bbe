"""The Python API: load an eval suite, or lint files and folders."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Optional, Union

from evallint.config import Config
from evallint.diagnostics import GENERATIONS, Diagnostic, EvalFileError, Severity
from evallint.lint import FileResult, lint_file, lint_source
from evallint.load import deps, files
from evallint.load.source import Source
from evallint.rules import registry
from evallint.run.discovery import expand_paths  # noqa: F401  (part of the API)
from evallint.run.settings import ConfigError  # noqa: F401  (raised by configuration())


def _raise_on_errors(result: FileResult, allow: Iterable[str] = ()):
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if [d for d in errors if d.code not in set(allow)] or errors and result.suite is None:
        raise EvalFileError(errors)
    if result.suite is None:
        raise EvalFileError([Diagnostic("EV101", Severity.ERROR, "not an eval file: no 'evalcases' list",
                                        result.path, 1, 1, 1, 2)])
    return result.suite


def load_eval_file(path: Union[str, os.PathLike], *, root: Optional[str] = None, references: bool = False,
                   allow: Iterable[str] = ()):
    """Load one eval suite; raises EvalFileError holding every error of the file but those whose code is in
    ``allow`` (mistakes the runner loads the file in spite of, such as EV108: the model says what it runs)."""
    return _raise_on_errors(read_eval_file(path, root=root, references=references), allow)


def read_eval_file(path: Union[str, os.PathLike], *, root: Optional[str] = None, references: bool = False,
                   agentv_version: Optional[str] = None) -> FileResult:
    """Lint one eval suite and build its model when its structure allows: ``suite`` (or None) and every
    diagnostic of the file. A file not recognised by its content is read as an eval file all the same.
    ``agentv_version``: the AgentV version whose format it is read as (default: its keys tell)."""
    path = os.fspath(path)
    config = Config(root=root, references=references, agentv_version=agentv_version)
    result = lint_file(path, config, explicit=True)
    if result.kind is None:
        from evallint.load.source import read_source

        source = read_source(path, config.root, config.max_bytes)
        if isinstance(source, Source):  # a '.json' file as the runner reads one: an Agent Skills evals file
            kind = files.SKILLS if path.endswith(".json") else files.EVAL
            result = lint_source(source, path, kind, config, root=config.root_of(path))
    return result


def load_eval_text(text: str, *, path: str = "<string>", allow: Iterable[str] = ()):
    """Load an eval suite from a string (no references are checked)."""
    result = lint_source(Source(text), path, files.EVAL, Config(references=False))
    return _raise_on_errors(result, allow)


def lint_paths(paths: Iterable[Union[str, os.PathLike]], *, config: Optional[Config] = None) -> list[Diagnostic]:
    """Lint files and folders; every diagnostic, sorted by path, line, column, code."""
    config = config or Config()
    out: list[Diagnostic] = []
    with deps.run_scope():  # one run: a prompt or targets file shared by several files is looked at once
        for path, explicit in expand_paths([os.fspath(p) for p in paths], config):
            out += lint_file(path, config, explicit=explicit, model=False).diagnostics
    return sorted(out, key=Diagnostic.sort_key)


# Editors: the same entry points as the command line (a text linted as a given file, its fixes, the rules'
# documentation, the JSON Schemas), for ``evallint server`` and other integrations.

RULES_URL = registry.DOCS_URL


@dataclass(frozen=True)
class TextResult:
    """What linting a text as a given file found."""

    path: str
    kind: Optional[str]  # eval, dataset, sidecar, targets or config; None: not an AgentV file, nothing reported
    text: str  # the text linted: the given text without a leading UTF-8 byte order mark
    bom: bool  # the given text started with a byte order mark, which offsets into ``text`` leave out
    diagnostics: tuple
    looked_at: frozenset  # absolute paths of the other files the result depends on, present or absent
    version: Optional[str] = None  # the AgentV version whose format the text was read as ("2.2", "4.42")


@dataclass(frozen=True)
class Place:
    """A range in a file: 1-based, the end column one past the last character, as a diagnostic's."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class Reference:
    """A value that names another file or a target, where it is written and where it leads."""

    kind: str  # file, prompt, script, cwd, target or judge_target
    value: str
    at: Place
    leads_to: Optional[Place]  # the file (at its start) or the target's entry; None when it leads nowhere


def configuration(start: str, *, config_file: Optional[str] = None) -> Config:
    """The settings of a command line run in folder ``start`` without options: the nearest
    ``.evallint.toml`` or ``pyproject.toml`` with ``[tool.evallint]`` walking up (``config_file`` when
    given, as ``--config``). Raises ConfigError for a file with a mistake."""
    from evallint.run.settings import find_config_file, load_config_file

    path = config_file or find_config_file(start)
    return Config(**load_config_file(path)) if path else Config()


def read_text(path: str, config: Config) -> Optional[str]:
    """The text of the file at ``path`` (a byte order mark kept) as the linter reads a file: a regular file
    only, opened without blocking, not read over ``config.max_bytes``, decoded strictly; None when it
    cannot be read."""
    from evallint.load.source import read_source

    source = read_source(path, config.root_of(path), config.max_bytes)
    return ("\ufeff" if source.bom else "") + source.text if isinstance(source, Source) else None


def _linted(text: str, path: str, config: Config, open_files: Optional[Mapping[str, str]]):
    """(TextResult, the lint's FileResult or None when the file is not linted)."""
    from evallint.lint import lint_bytes
    from evallint.load.overlay import Overlay, encoded
    from evallint.load.view import viewing
    from evallint.run.discovery import excluded, is_candidate

    bom = text.startswith("\ufeff")
    if not is_candidate(path) or excluded(path, config):
        return TextResult(path, None, text[1:] if bom else text, bom, (), frozenset()), None
    view = Overlay(open_files or {})
    # one run: the suites that may name the file, its sidecar, its templates are each read once
    with deps.recording() as looked_at, viewing(view), deps.run_scope():
        # a folder walk's view of the file: one that is not an AgentV file is not reported, however broken
        result = lint_bytes(encoded(text), path, config, explicit=False, model=False)
    source = result.source
    linted = source.text if isinstance(source, Source) else (text[1:] if bom else text)
    looked_at.pop(os.path.abspath(path), None)
    return TextResult(path, result.kind, linted, bom, tuple(result.diagnostics), frozenset(looked_at),
                      result.version), result


def lint_text(text: str, path: str, config: Config, *,
              open_files: Optional[Mapping[str, str]] = None) -> TextResult:
    """Lint ``text`` as the file at ``path``, as ``evallint - --stdin-filename PATH`` does, but as a folder
    walk finds files: a path that ``exclude`` leaves out, or a file that is not an AgentV file, gets
    nothing. ``open_files`` (absolute path -> text) are read in place of those files (an editor's unsaved
    prompts and targets files)."""
    return _linted(text, path, config, open_files)[0]


def fixed_text(text: str, path: str, config: Config, *, unsafe: bool = False,
               open_files: Optional[Mapping[str, str]] = None) -> str:
    """What ``--fix`` (with ``unsafe``, ``--unsafe-fixes``) makes of ``text`` as the file at ``path``: the
    same passes, the same edits; a byte order mark stays."""
    from evallint.load.overlay import Overlay
    from evallint.load.view import viewing
    from evallint.run.autofix import fix_file

    linted, result = _linted(text, path, config, open_files)
    if result is None or result.source is None:
        return text
    with viewing(Overlay(open_files or {})):
        fixed = fix_file(result, config, unsafe=unsafe)
    return ("\ufeff" if linted.bom else "") + fixed.text if fixed.changed else text


def rule_url(code: str) -> Optional[str]:
    """The rule's section in docs/rules.md, on the web."""
    return registry.doc_url(code)


def explain_rule(code: str) -> Optional[str]:
    """What ``evallint rule CODE`` prints (markdown); None for an unknown code."""
    from evallint.rules import docs

    rule = docs.find_rule(code)
    return docs.render(rule) if rule else None


def json_schema(kind: str, version: str = "2.2") -> dict:
    """What ``evallint schema KIND --agentv-version VERSION`` prints, for ``eval``, ``targets`` or ``config``
    of AgentV ``2.2`` or ``4.42``, and ``skills`` (an Agent Skills evals file) and ``template`` (an assertion
    template) of ``4.42``."""
    if version == "4.42":
        from evallint.format.agentv4.jsonschema import SCHEMAS
    else:
        from evallint.format.agentv2.jsonschema import SCHEMAS
    return SCHEMAS[kind]()


def _parsed(text: str, path: str, config: Config):
    """(the text without a byte order mark, its data, its position tree, the file's kind) when it reads as a
    mapping or as a list of tests, a dataset as its cases under 'evalcases'; else None, as for a text over the
    size cap, which the lint does not parse either. Its kind is told as the lint tells it (a file of tests
    that a suite names, wherever it lies)."""
    from evallint.load.jsonl import parse_jsonl
    from evallint.load.overlay import encoded
    from evallint.load.evidence import Evidence
    from evallint.load.recognize import kind_of
    from evallint.load.source import Content

    if len(text) > config.max_bytes or len(encoded(text)) > config.max_bytes:
        return None

    body = text[1:] if text.startswith("\ufeff") else text
    root = config.root_of(path)
    evidence = Evidence(path, Content.decoded(Source(body)), files.PathKind(path, root, config.include), git_root=root,
                        max_bytes=config.max_bytes)
    if path.endswith(".jsonl"):
        if kind_of(evidence) != files.DATASET:
            return None
        dataset = parse_jsonl(body)
        return body, {"evalcases": dataset.cases}, dataset.root(), files.DATASET
    parsed = evidence.parsed
    kind = kind_of(evidence) if parsed.ok else None
    if not (isinstance(parsed.data, dict) or kind == files.EVAL and isinstance(parsed.data, list)):
        return None  # no mapping, nor a list of tests
    return body, parsed.data, parsed.root, kind


def _place(path: str, span, lines) -> Place:
    span = lines.span(span)
    return Place(path, span.line + 1, span.column + 1, span.end_line + 1, span.end_column + 1)


def _target_entry(targets: str, name: str, root: str, max_bytes: int) -> Optional[Place]:
    """Where the targets file defines ``name``: the value of its 'name' key; None when it does not, or the
    file is over ``max_bytes`` (the size cap) or cannot be read."""
    from evallint.load.positions import Index, LineMap
    from evallint.load.view import current
    from evallint.load.yaml12 import parse_yaml

    source = current().source(targets, root, max_bytes)
    if not isinstance(source, Source):
        return None
    parsed = parse_yaml(source.text)
    entries = parsed.data.get("targets") if parsed.ok and isinstance(parsed.data, dict) else None
    for i, entry in enumerate(entries if isinstance(entries, list) else ()):
        if isinstance(entry, dict) and entry.get("name") == name:
            return _place(targets, Index(parsed.root).locate(("targets", i, "name"), "value"), LineMap(source.text))
    return None


def _leads_to(site, path: str, folder: str, root: str, max_bytes: int) -> Optional[tuple]:
    """(the data path of the value, the name or path it holds, whether that is part of a string value,
    where it leads) of a reference site; None for a value that names nothing (inline prompt text, a
    command without a script file). A targets file over ``max_bytes`` is not read."""
    from evallint.load import reach
    from evallint.rules import script_files, targets_file

    if site.kind == "judge_target":
        return site.path, site.value, False, _target_entry(os.path.abspath(path), site.value, root, max_bytes)
    if site.kind in ("default_target", "repo_folder"):
        return None  # a name written nowhere; a repository cloned from GitHub
    if site.kind == "target":
        found = targets_file.nearest(folder, root, max_bytes)
        name = site.value.strip() or "default"  # as the runner reads a target name
        return site.path, site.value, False, found and _target_entry(found[0], name, root, max_bytes)
    if site.kind == "script":
        token = script_files.script_token(site.value)
        if token is None:
            return None
        base: Optional[str] = folder
        if isinstance(site.extra.get("cwd"), str):
            base = reach.resolve(site.extra["cwd"], folder, root, want_dir=True).path
        resolved = reach.resolve(token[1], base, root, ancestors=False) if base else None
        at = site.path + ((token[0],) if token[0] is not None else ())
        return at, token[1], token[0] is None, resolved and resolved.path
    if site.kind == "assertion_template":  # a template's name, or a path, looked up as the runner looks it up
        from evallint.load import templates

        return site.path, site.value, False, templates.find(site.value, folder, root).path
    if not isinstance(site.value, str) or site.kind == "prompt" and ("\n" in site.value or not site.value.strip()):
        return None
    return site.path, site.value, False, reach.resolve(site.value, folder, root, want_dir=site.kind == "cwd").path


def references_in(text: str, path: str, config: Config, *,
                  open_files: Optional[Mapping[str, str]] = None) -> list:
    """The References of an eval file's or a dataset's text (targets, prompts, scripts, files, folders), each
    with where it leads as the reference checks resolve it (a file at its start, a target at its entry); a
    targets file's judge_target values lead to their entries. Empty when the text does not parse or is over
    the size cap (``config.max_bytes``)."""
    from evallint.format.base import models_built
    from evallint.load.overlay import Overlay
    from evallint.load.view import viewing

    # one run over the editor's buffers: the suites that may name the file are each read once; only the values
    # that name files are read of the loads, not their model
    with viewing(Overlay({**(open_files or {}), os.path.abspath(path): text})), deps.run_scope(), models_built(False):
        return _references(text, path, config)


def _references(text: str, path: str, config: Config) -> list:
    from evallint.load.positions import Index, LineMap
    from evallint.models import eval_version, load_dataset, load_model, load_suite, reference_suites
    from evallint.rules.common import Site

    found = _parsed(text, path, config)
    if found is None or found[3] not in (files.EVAL, files.DATASET, files.TARGETS, files.SKILLS, files.TEMPLATE):
        return []
    body, data, tree, kind = found
    root = config.root_of(path)
    index, lines = Index(tree), LineMap(body)
    out = []
    generation = eval_version(data, path, config) if kind == files.EVAL else GENERATIONS[1]
    if kind == files.EVAL and generation == GENERATIONS[0]:
        sites = load_suite(data, path)[1].sites
    elif kind == files.DATASET:  # as the lint reads them: its cases, with its sidecar's settings
        sites = load_dataset(data["evalcases"], path, root, config)[1].sites
    elif kind in (files.EVAL, files.SKILLS, files.TEMPLATE):  # read as AgentV 4.42.4's
        sites = load_model(kind, generation, data, path, config)[1].sites
    else:
        entries = data.get("targets")
        sites = [Site("judge_target", entry["judge_target"], ("targets", i, "judge_target"), {})
                 for i, entry in enumerate(entries if isinstance(entries, list) else ())
                 if isinstance(entry, dict) and isinstance(entry.get("judge_target"), str)]
    # of a file of tests, its paths lead from its suite's folder, as the lint looks them up
    suites = reference_suites(kind, generation, data, path, root, config)
    folder = os.path.dirname(os.path.abspath(suites[0] if suites else path))
    for site in sites:
        found = _leads_to(site, path, folder, root, config.max_bytes)
        if found is None:
            continue
        at, value, inside, leads = found
        span = index.locate(at, "value")
        start = body.find(value, span.start, span.end) if inside else -1
        if start >= 0:  # the script file named inside a command string
            span = replace(span, start=start, end=start + len(value))
        if isinstance(leads, str):
            leads = Place(leads, 1, 1, 1, 1)
        out.append(Reference(site.kind, value, _place(path, span, lines), leads))
    return out


def target_names(text: str, path: str, config: Config, *,
                 open_files: Optional[Mapping[str, str]] = None) -> Optional[tuple]:
    """(targets file, the names it defines) that a target name in ``text`` must be one of: the file's own
    names for a targets file (its judge_target values), else those of the targets file the runner would
    use for it. None when there is none or it cannot be read."""
    from evallint.load.overlay import Overlay
    from evallint.load.view import viewing
    from evallint.rules import targets_file

    found = None if path.endswith(".jsonl") else _parsed(text, path, config)  # a dataset is no targets file
    if found is not None and found[3] == files.TARGETS:
        names = targets_file.names_of(found[1])
        return (os.path.abspath(path), tuple(names)) if names is not None else None
    with viewing(Overlay(open_files or {})):
        nearest = targets_file.nearest(os.path.dirname(os.path.abspath(path)), config.root_of(path), config.max_bytes)
    if nearest is None or nearest[1] is None:
        return None
    return nearest[0], tuple(nearest[1])


def disable_edit(text: str, path: str, config: Config, diagnostic: Diagnostic, *,
                 open_files: Optional[Mapping[str, str]] = None):
    """The Edit (offsets into the text without a byte order mark) that writes a suppression comment
    disabling ``diagnostic``'s code on its line, checked by linting the result: the same data and the same
    findings but those. None when no comment can do that (a line inside a multi-line string) or the file
    takes no comments (a JSONL dataset)."""
    from evallint.run.disable import disable_edit as edit_for

    linted = lint_text(text, path, config, open_files=open_files)
    if linted.kind in (None, files.DATASET, files.SKILLS):  # JSON takes no comments
        return None
    return edit_for(linted.text, diagnostic,
                    lambda body: list(lint_text(body, path, config, open_files=open_files).diagnostics))
