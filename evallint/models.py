"""The model of a file, loaded as the runner loads it: an AgentV 2.2 suite; an AgentV 4.42.4 file of its kind; a
file of tests that suites name (a YAML list, a folder's case file, a ``.jsonl`` file), once with each naming
suite's defaults and its paths looked up from the suite's folder; a dataset with its sidecar's settings; the
items of an assertion template, whose references each including suite checks. Also which AgentV version a file
read with others is read as (a folder's case file, a ``.jsonl`` file of tests, a sidecar). ``lint.py`` runs the
rest of the pipeline around these."""
from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import replace
from typing import Any, Optional

from evallint.config import Config
from evallint.diagnostics import GENERATIONS, KEY, Finding
from evallint.format.base import building
from evallint.format.generations import dataset_version, schema, sidecar_reads, version_of
from evallint.format.served import served_version
from evallint.format.walk import Found, load_checked, rerooted
from evallint.load import deps, files
from evallint.load.case_files import (
    case_test, folder_case, folder_tests, naming_suite, suites_by_folder, suites_defaults, tests_of, yaml_data,
)
from evallint.load.environment import marked, refers
from evallint.load.files import LATER_CASES_KEY
from evallint.load.source import Source
from evallint.load.view import current
from evallint.load.yaml12 import Parsed, parse_yaml
from evallint.rules.kept_tests import first_test
from evallint.rules.registry import RULES
from evallint.rules.case_workspaces import unused_case_folder
from evallint.rules.workspace_kept import case_template
from evallint.rules.datasets import SIDECAR_SUFFIX


def load_suite(data: dict, path: str, sidecar: Optional[str] = None) -> tuple:
    """Run the suite schema over parsed data; returns (EvalSuite or None, ``walk.Found``). ``sidecar``: a
    JSONL dataset's sidecar file name."""
    from evallint.format.agentv2.suite import DATASET_SUITE_SCHEMA, SUITE_SCHEMA

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
    if kind == files.EVAL and is_folder_case(path, config):
        return _case_file(data, path, config)
    if kind == files.EVAL and isinstance(data, list):
        return _tests_file(data, path, (), _defaults(path, config))
    loaded, found = load_checked(schema(generation, kind), data)
    return (replace(loaded, path=path) if kind != files.SIDECAR and loaded else loaded), found


def _tests_file(tests: list, path: str, under: tuple, suites: list, key=LATER_CASES_KEY, after_first: bool = False
                ) -> tuple:
    """A file of tests (a YAML list, or the lines of a ``.jsonl`` file), which an AgentV 4.42.4 suite reads
    from its 'tests' (a path, or a ``file://`` item): loaded as that suite's tests, once with the defaults each
    suite naming it gives each test (``suites``: (the suite as shown, its defaults); the runner loads the file once
    per suite), each finding at its place in the file (``under``: where the file's tests, or what ``key`` is the
    data path of, are in its position tree), each the same finding once, naming the suite when not every suite
    gives it; the model is the first suite's. What concerns the suites' own settings is reported in the suites.
    ``after_first``: ``tests`` are a later case file's test after the suite's first (``_case_file``)."""
    from evallint.format.agentv4.suite import CASE_FILE_SCHEMA, TESTS_FILE_SCHEMA

    model, each_suite = None, []
    for i, (suite, defaults) in enumerate(suites or [("", {})]):
        loaded, found = load_checked(CASE_FILE_SCHEMA if after_first else TESTS_FILE_SCHEMA,
                                     {**defaults, LATER_CASES_KEY: tests})
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
    """The AgentV version an eval file is read as: a folder's case file, and a YAML list that a suite names (a file
    of tests: no other release reads a top-level list), are AgentV 4.42.4's, whatever keys their tests hold; else
    its keys or the configuration decide."""
    if is_folder_case(path, config) or isinstance(data, list) and external_tests(path, config):
        return GENERATIONS[1]
    return version_of(files.EVAL, data, config.agentv_version)


def file_version(kind: str, data: Any, path: str, root: Optional[str], config: Config) -> str:
    """The AgentV version a YAML file of ``kind`` holding ``data`` is read as: an eval file's (``eval_version``), a
    sidecar's (``sidecar_version``); a targets or config file's: the configured one, else AgentV 4.42.4's when what
    it holds, or a suite it serves (``served``), shows a sign of it; else ``version_of`` tells."""
    if kind == files.EVAL:
        return eval_version(data, path, config)
    if kind == files.SIDECAR:
        return sidecar_version(path, data, root, config)
    version = version_of(kind, data, config.agentv_version)
    if kind not in (files.TARGETS, files.CONFIG) or config.agentv_version or version != GENERATIONS[0] or root is None:
        return version
    return served_version(kind, path, root, config.max_bytes)


def is_folder_case(path: str, config: Config) -> bool:
    """Whether the file at ``path`` is the case file of a subfolder of a folder of tests that an AgentV 4.42.4
    suite names (never when every file is read as AgentV 2.2's)."""
    return config.agentv_version != GENERATIONS[0] and folder_case(path, config.root_of(path), config.max_bytes)


def _case_file(test: dict, path: str, config: Config) -> tuple:
    """The one test of a folder of tests' subfolder, read from its case file as the suite naming the folder reads
    it: with the suite's defaults, the subfolder's name for an id when it has none (or a null one), and the
    subfolder's ``workspace`` folder for a workspace template when it has no workspace (one the loader's
    JavaScript counts as unset), written from the folder of the first suite naming it. That folder exists, so the
    template the loader puts there is no reference to check. A later case is loaded after the suite's first test
    (``_earlier_first``), whose workspace the run sets the shared folder up from, and what is found of that test
    is left out."""
    subfolder = os.path.dirname(os.path.abspath(path))
    suites = tests_suites(path, config.root_of(path), config)
    folder = os.path.dirname(suites[0]) if suites else subfolder
    test = case_test(test, subfolder)
    implied = case_template(test, subfolder) is not None
    test = _with_template(test, subfolder, folder)
    first = _earlier_first(path, suites, folder, config)
    tests = [test] if first is None else [first, test]  # the run sets up the shared workspace from the first test's
    model, found = _tests_file(tests, path, (), _defaults(path, config), key=(LATER_CASES_KEY, len(tests) - 1),
                               after_first=first is not None)
    if first is not None and building():  # the model of this case alone, whatever the first case holds
        model = replace(model, tests=model.tests[1:]) if model is not None else \
            _tests_file([test], path, (), _defaults(path, config), key=(LATER_CASES_KEY, 0))[0]
    if implied:  # no key of the file: the suite says what is wrong with it
        found.sites = [site for site in found.sites if site.path[:1] != ("workspace",)]
        found.findings = [finding for finding in found.findings if finding.path[:1] != ("workspace",)]
    found.findings += unused_case_folder(test, subfolder, folder)
    return model, found


def _with_template(test: dict, subfolder: str, folder: str) -> dict:
    """A folder of tests' case ``test`` in ``subfolder`` with the template its ``workspace`` folder implies, written
    from the suite's ``folder``."""
    workspace = case_template(test, subfolder)
    if workspace is None:
        return test
    return {**test, "workspace": {"template": os.path.relpath(workspace, folder).replace(os.sep, "/")}}


def _earlier_first(path: str, suites: tuple, folder: str, config: Config) -> Optional[dict]:
    """The first test the loader keeps of the first suite naming the case file at ``path`` (in ``folder``), when
    that suite's tests are the folder of tests holding it (its 'tests' a path) and that test is an earlier case's:
    the run sets up the workspace folder the tests share from it; None otherwise."""
    root = config.root_of(path)
    data = yaml_data(suites[0], root, config.max_bytes) if suites else None
    if not isinstance(data, dict) or not isinstance(data.get("tests"), str):
        return None
    cases = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    first, where = deps.memoized(("first case", current(), cases, root, config.max_bytes), _first_case, cases, root,
                                 config.max_bytes)  # once per folder, however many cases
    if first is None or os.path.abspath(where) == os.path.abspath(path):
        return None
    return _with_template(first, os.path.dirname(where), folder)


def _first_case(folder: str, root: str, max_bytes: int) -> tuple:
    """(the first test of the folder of tests ``folder`` that the loader keeps, its case file), or (None, None)."""
    cases = folder_tests(folder, root, max_bytes)
    first = first_test([test for test, _ in cases])
    return next(((test, case) for test, case in cases if test is first), (None, None))


def _defaults(path: str, config: Config) -> list:
    """(the suite as shown, what it gives each of its tests) for each suite that names the file of tests at
    ``path`` (none without one)."""
    root = config.root_of(path)
    return [(_shown(suite, root), defaults) for suite, defaults in suites_defaults(path, root, config.max_bytes)]


def _shown(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def tests_suites(path: str, root: Optional[str], config: Config) -> tuple:
    """The suites from whose folders the paths in the file of tests at ``path`` are looked up
    (``case_files.suites_by_folder``); none without the root."""
    return tuple(suites_by_folder(path, root, config.max_bytes)) if root is not None else ()


def reference_suites(kind: str, generation: str, data: Any, path: str, root: Optional[str], config: Config) -> tuple:
    """The suites from whose folders the paths in the file at ``path`` are looked up (``tests_suites``): those that
    name it, for a file of tests (an AgentV 4.42.4 list of tests, a folder's case file, a ``.jsonl`` file of
    tests); none for any other file, whose paths are looked up from its own folder."""
    of_tests = kind == files.EVAL and generation != GENERATIONS[0] and (
        isinstance(data, list) or is_folder_case(path, config)) or kind == files.DATASET and external_tests(path, config)
    return tests_suites(path, root, config) if of_tests else ()


def includes_expanded(path: str, generation: str, root: Optional[str], config: Config, suites: tuple = ()):
    """The context in which the file's grader lists are loaded: the model has their includes expanded, as the
    loader expands them, when the repository root is known (the templates are read for the model even without
    references: only EV4xx findings depend on those), from the file's folder, or the first of ``suites``'s for a
    file of tests they name. AgentV 2.2 has no includes, and a load that builds no model expands none."""
    if root is None or generation == GENERATIONS[0] or not building():
        return nullcontext()
    from evallint.format.agentv4.includes import expanding

    return expanding(os.path.dirname(os.path.abspath(suites[0] if suites else path)), os.path.abspath(root),
                     config.max_bytes)


def found_files_only(model: Any, generation: str, path: str, root: Optional[str], suites: tuple = ()) -> Any:
    """An AgentV 4.42.4 suite's ``model`` with each file or image block of its messages that the runner leaves out
    left out (it warns 'File not found', and EV401 or EV411 say why), when the root is known: looked up from the
    file's folder, or the first of ``suites``'s for a file of tests they name."""
    if root is None or generation == GENERATIONS[0] or not hasattr(model, "tests"):
        return model
    from evallint.load.environment import refers
    from evallint.load.reach import resolve
    from evallint.rules.messages import IMAGE_SUFFIXES

    folder, top = os.path.dirname(os.path.abspath(suites[0] if suites else path)), os.path.abspath(root)

    def found(block: Any) -> bool:
        kind = block.get("type") if isinstance(block, dict) else None
        value = block.get("value") if kind in ("file", "image") else None
        if not isinstance(value, str) or refers(value):
            return True
        resolved = resolve(value, folder, top)
        if kind == "image" and resolved.path is not None:  # an image of another type is left out too (EV411)
            return os.path.splitext(resolved.path)[1].lower() in IMAGE_SUFFIXES
        return resolved.path is not None or resolved.escapes is not None

    def whole(message: Any) -> bool:
        return not isinstance(message.content, tuple) or all(map(found, message.content))

    def kept(messages: tuple) -> tuple:  # the same tuple when nothing is left out
        if all(map(whole, messages)):
            return messages
        return tuple(m if whole(m) else replace(m, content=tuple(filter(found, m.content))) for m in messages)

    def kept_in(test: Any) -> Any:
        read = kept(test.input), kept(test.expected_output)
        return test if read[0] is test.input and read[1] is test.expected_output else \
            replace(test, input=read[0], expected_output=read[1])

    tests = tuple(map(kept_in, model.tests))
    if all(a is b for a, b in zip(tests, model.tests)) and kept(model.input) is model.input:
        return model
    return replace(model, input=kept(model.input), tests=tests)


def template_sites(items: tuple) -> list:
    """The references of an assertion template's items (its includes expanded), loaded as a template's
    assertions: each suite that includes the template checks them from its own folder (``references.check``)."""
    return load_checked(schema(GENERATIONS[1], files.TEMPLATE), {"assertions": list(items)})[1].sites


def workspace_file_found(path: str, root: str, max_bytes: int, env_unchecked: Optional[str] = None) -> Found:
    """What the runner rejects, drops or fails on in a workspace file, which the loader reads in the place of a
    'workspace' that names it (yaml-parser.ts ``resolveWorkspaceConfig``): what its YAML parser refuses, its
    settings checked as a workspace written in place, and what they name (looked up from the file's folder, unless
    the environment gives it); the 'env' it sets, when the run never checks it (EV123: ``env_unchecked`` says why);
    paths are the file's own."""
    from evallint.format.agentv4.workspace import WORKSPACE
    from evallint.rules.workspace_kept import env_kept, sets_a_workspace

    deps.note(path)
    source = current().source(path, root, max_bytes)
    parsed = parse_yaml(source.text) if isinstance(source, Source) else None
    if parsed is None:
        return Found()
    stopped = _parser_stops(parsed, source)
    if stopped is not None:  # the YAML parser's error stops the loader
        return Found([stopped])
    data = marked(parsed.data)  # the runner replaces its environment references first
    if not isinstance(data, dict):
        return Found([Finding("EV110", "it holds no mapping of workspace settings; the runner rejects the suite", ())])
    if isinstance(data.get("workspace"), dict) and not sets_a_workspace(data):
        return Found([Finding("EV110", "its settings are under a 'workspace:' key, where the runner does not look: it "
                              "rejects the suite (write them at the top level)", ("workspace",))])
    found = load_checked(WORKSPACE, data)[1]
    if isinstance(data.get("workspace"), dict):  # beside settings of its own, which are read: the wrapped are not
        found.findings = [f for f in found.findings if (f.code, f.path) != ("EV109", ("workspace",))] + [Finding(
            "EV115", "'workspace' is not read: the runner takes the file's own top-level keys for the workspace, so the "
                     "settings under it are dropped; move them to the top level", ("workspace",), KEY)]
    found.findings = _with_parser_findings(found.findings, parsed)
    if env_unchecked and env_kept(data.get("env")):
        found.findings.append(Finding("EV123", f"'env' is never checked: {env_unchecked}", ("env",)))
    found.sites = [site for site in found.sites if not refers(site.value)]
    return found


def _parser_stops(parsed: Parsed, source: Source) -> Optional[Finding]:
    """The finding, at the reference, for a workspace file that AgentV 4.42.4's YAML parser throws on; else None."""
    from evallint.load.yaml_merges import refused_by_agentv4

    if not parsed.ok:  # the parser's error ends its findings
        error = parsed.findings[-1]
        where = f"line {error.span.line + 1}, column {error.span.column + 1}: " if error.span else ""
        return Finding("EV110", f"it is not valid YAML ({where}{error.message}); the runner rejects the suite", ())
    refused = refused_by_agentv4(parsed, source.text, bom=source.bom)
    return replace(refused[0], path=()) if refused else None


def _with_parser_findings(findings: list, parsed: Parsed) -> list:
    """The findings of a workspace file the parser reads: first the parser's own AgentV 4.42 ones (EV004, EV014), at
    the reference; then the ``findings`` of its settings, without those of a value an EV014 is about: the checks
    read such a value as YAML 1.2, the runner as 1.1 (as ``lint.py`` leaves them out in an eval file)."""
    from evallint.load.positions import Index

    yaml11 = {f.span.start for f in parsed.findings if f.code == "EV014"}
    if yaml11:
        index = Index(parsed.root)
        findings = [f for f in findings if index.locate(f.path, f.target).start not in yaml11]
    return [replace(f, path=()) for f in parsed.findings if GENERATIONS[1] in RULES[f.code].generations] + findings


def sidecar_version(path: str, data: Any, root: Optional[str], config: Config) -> str:
    """The AgentV version of a sidecar: its dataset's (the ``.jsonl`` file of the same stem), as the two make
    one suite (in the current file view, as the sidecar's dataset reads the sidecar)."""
    if config.agentv_version:
        return config.agentv_version
    dataset = os.path.splitext(os.path.abspath(path))[0] + ".jsonl"
    return dataset_version(tests_of(dataset, root, config.max_bytes), data, None)


def sidecar_settings(path: str, root: Optional[str], config: Config) -> tuple:
    """(the raw suite settings of a dataset's sidecar in the current file view, its file name: '<stem>.yaml', the
    only one the runner reads), once per run. Its own findings are reported when the sidecar
    is linted as a file of its own."""
    sidecar = os.path.splitext(os.path.abspath(path))[0] + SIDECAR_SUFFIX
    data = yaml_data(sidecar, root, config.max_bytes)
    return (dict(data) if isinstance(data, dict) else {}), os.path.basename(sidecar)


def external_tests(path: str, config: Config) -> bool:
    """Whether the file at ``path`` (a ``.jsonl`` file, a YAML list) is a file of tests that an AgentV 4.42.4 suite
    names from its 'tests' (never when every file is read as AgentV 2.2's)."""
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
    settings, sidecar = sidecar_settings(path, root, config)
    generation = version or dataset_version(cases, settings, config.agentv_version)
    settings = {k: v for k, v in settings.items() if k in sidecar_reads(generation)}
    if generation == GENERATIONS[0]:
        suite, found = load_suite({**settings, "evalcases": cases}, path, sidecar)
    else:
        suite, found = load_checked(schema(generation, files.DATASET), {**settings, "tests": cases}, sidecar)
        suite = replace(suite, path=path) if suite else None
    key = "evalcases" if generation == GENERATIONS[0] else "tests"
    return suite, rerooted(found, key, ("evalcases",))
