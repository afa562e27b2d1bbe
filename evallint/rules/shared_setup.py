"""The setup of the folder an AgentV 4.42 suite's tests share, which reads the first test's workspace merged with the
suite's, once (workspace/setup.ts): the settings a later test's workspace gives that it never reads (EV125), and the
modes its settings contradict (EV110), for inline workspaces and workspace files alike. A workspace file is judged
once it is read (``loaded_files``), with what the suite's lint knows of its place carried in its site
(``setup_role``)."""
from __future__ import annotations

import os
from typing import Any, Iterator

from evallint.diagnostics import KEY, Finding
from evallint.rules.common import finding, is_text
from evallint.rules.hook_runs import NOT_SHARED, ONCE, first_command, later_never_runs, replaced
from evallint.rules.kept_tests import first_test, kept_by_loader
from evallint.rules.workspace_kept import (FOLDER_SETTINGS, command_of, first_workspace, inline_hooks, merged_settings,
                                          merged_written, sets_a_workspace, shares_a_folder, shares_with)
from evallint.rules.workspace_repos import kept_repos
from evallint.suggest import quote

# what the setup takes without the key: a later test's setting that says so changes nothing
SETUP_DEFAULTS = {"isolation": "shared", "repos": []}


def ignored_settings(own: dict, setup: dict, at: tuple) -> Iterator:
    """EV125 for each setting of a later test's workspace ``own`` (written at ``at``) that differs from what the
    setup of the folder the tests share reads (``setup``, ``first_workspace``) and from the setup's default."""
    for key in FOLDER_SETTINGS:
        if own.get(key) is not None and not _same_setting(key, own[key], SETUP_DEFAULTS.get(key, setup[key])) \
                and not _same_setting(key, own[key], setup[key]):
            yield finding("EV125", f"this test's workspace {quote(key)} is never read: the tests share one workspace "
                          "folder, which the run sets up from the first test's workspace (merged with the suite's) "
                          "alone; set it in the suite's workspace, or in the first test's", at + (key,), KEY)


def _same_setting(key: str, value, other) -> bool:
    """Whether two values of the workspace setting ``key`` are the same, a folder ('template', 'path') once
    normalized: the tests' paths are resolved from one folder, the suite's."""
    if key in ("template", "path") and is_text(value) and is_text(other):
        return os.path.normpath(value) == os.path.normpath(other)
    return value == other


def contradictions(settings: dict) -> Iterator:
    """``check_workspace_mode`` of the settings the setup reads, each (its value, where it is written)."""
    (mode, mode_at), (path, _), (isolation, isolation_at), (repos, _) = (
        settings[key] for key in ("mode", "path", "isolation", "repos"))
    has_path, has_repos = isinstance(path, str) and path != "", kept_repos({"repos": repos})
    static = mode == "static" or (mode not in ("pooled", "temp") and has_path)
    if has_path and mode in ("pooled", "temp"):
        yield finding("EV110", f"workspace 'path' needs mode static, not {quote(mode)}; the run fails before any test",
                      mode_at)
    if static and not has_path and has_repos:
        yield finding("EV110", "a static workspace with repos needs a 'path'; the run fails before any test, "
                      "unless the command line gives --workspace-path", mode_at)
    elif static and not has_path:
        yield finding("EV110", "a static workspace needs a 'path': without one (or the command line's "
                      "--workspace-path) the run ignores the mode and falls back to temp", mode_at)
    elif static and (has_path or has_repos) and isolation == "per_test":
        yield finding("EV110", "a static workspace cannot have isolation 'per_test'; the run fails before any test "
                      "(write isolation: shared)", isolation_at)


def setup_role(document: Any, at: tuple) -> dict:
    """What the site of a workspace file carries, the suite's (``at`` empty) or the test's at ``at``: {'later': the
    settings the shared folder's setup reads} for a later test when the tests share a folder (known from inline
    workspaces), {'first': the suite's inline workspace} for the first test, {'first_test': (the first test's inline
    workspace, where it is written)} for the suite's; with these two, 'later_inline': (where it is written, the
    workspace) of each later test's inline workspace, which the file's settings decide whether the setup reads; {}
    otherwise."""
    tests = document.get("tests") if isinstance(document, dict) else None
    first = first_test(tests, document) if isinstance(tests, list) else None
    if first is None:
        return {}
    if not at:
        return _of_suite_file(document, tests, first)
    if len(at) != 2 or not isinstance(at[1], int) or at[1] >= len(tests):
        return {}
    suite = document.get("workspace")
    if tests[at[1]] is first:
        return {"first": suite if isinstance(suite, dict) else {}, "later_inline": _inline_later(document, tests, first)} \
            if not isinstance(suite, str) else {}
    if later_in_shared(document, at[1]) and kept_by_loader(tests[at[1]], suite=document):
        return {"later": first_workspace(document)}
    return {}


def later_in_shared(document: dict, index: int) -> bool:
    """Whether the test at ``index`` of the suite ``document`` is a later test when the tests share a folder, whose
    setup never reads its workspace (known from inline workspaces)."""
    tests = document.get("tests")
    return tests[index] is not first_test(tests, document) and shares_a_folder(document) is True


def _of_suite_file(document: dict, tests: list, first: dict) -> dict:
    if isinstance(first.get("workspace"), str):
        return {}
    index = next(i for i, test in enumerate(tests) if test is first)
    return {"first_test": (first.get("workspace") or {}, ("tests", index, "workspace")),
            "later_inline": _inline_later(document, tests, first)}


def _inline_later(document: dict, tests: list, first: dict) -> tuple:
    """(where it is written, it) of the inline workspace of each later test the loader keeps."""
    return tuple((("tests", i, "workspace"), test["workspace"]) for i, test in enumerate(tests)
                 if test is not first and isinstance(test, dict) and isinstance(test.get("workspace"), dict)
                 and kept_by_loader(test, suite=document))


def file_findings(settings: dict, role: dict) -> tuple:
    """(the findings in the workspace file, whose ``settings`` are read, at its own paths; those in the suite) for the
    ``setup_role`` ``role`` of the test that names it."""
    if not sets_a_workspace(settings):
        return [], []
    if role.get("later") is not None:
        return list(ignored_settings(settings, role["later"], ())) + _unrun_once(settings, (), None), []
    if "first_test" in role:  # the suite's file, under the first test's own settings
        own, own_at = role["first_test"]
        written, outer, suite, first = merged_written(settings, own, own_at, ()), own_at[:1], settings, own
    elif "first" in role:
        written, outer, suite, first = merged_written(role["first"], settings, ()), ("workspace",), role["first"], settings
    else:
        return [], []
    found = list(contradictions(written)) if written is not None else []
    in_suite = [f for f in found if f.path[:1] == outer] + _later_inline(suite, first, role.get("later_inline", ()))
    return [f for f in found if f.path[:1] != outer], in_suite + (
        _suite_hooks_unrun(role["first"], settings) if "first" in role else [])


def _later_inline(suite: dict, first: dict, later: tuple) -> list:
    """EV125 and EV124 for the later tests' inline workspaces (``later``: (where each is written, it)) when the tests
    share a folder, set up from the first test's workspace (``first``) merged with the suite's (``suite``), one of
    them a file: the settings it never reads, and the 'before_all' and 'after_all' it never runs (but one of the
    very command the setup runs anyway)."""
    if not later or shares_with(suite, first) is not True:
        return []
    setup = merged_settings(suite, first)
    out = []
    for at, own in later:
        out += ignored_settings(own, setup, at)
        out += _unrun_once(own, at, lambda name: first_command(name, {"workspace": suite}, {"workspace": first}))
    return out


def _unrun_once(workspace: dict, at: tuple, runs_anyway) -> list:
    """EV124 for each 'before_all' and 'after_all' with a command of a later test's ``workspace`` (written at ``at``),
    when the tests share a folder: but one of the command the setup runs anyway (``runs_anyway``: the hook's name ->
    that command, or None when it is not known)."""
    hooks = inline_hooks({"workspace": workspace})
    return [Finding("EV124", later_never_runs(name), at + ("hooks", name), KEY) for name in ONCE
            if isinstance(hooks.get(name), dict) and command_of(hooks[name]) is not None
            and (runs_anyway is None or command_of(hooks[name]) != runs_anyway(name))]


def replaced_in_suite_file(settings: dict, names: tuple, isolation) -> list:
    """The hooks of the suite's workspace file (its ``settings``) that never run: those of ``names``, with a command,
    which the first test's own replace, when the tests share a folder (not ``isolation`` 'per_test', the first
    test's, else the file's: hook_runs)."""
    hooks = settings.get("hooks")
    if not names or not isinstance(hooks, dict) or (isolation or settings.get("isolation")) == "per_test":
        return []
    return [name for name in names if isinstance(hooks.get(name), dict) and command_of(hooks[name])]


def _suite_hooks_unrun(suite: dict, settings: dict) -> list:
    """EV124 for the suite's inline 'before_all' or 'after_all' that the first test's workspace file keeps from
    running: its own hook of that name replaces the suite's command in the folder the tests share, and without a
    shared folder no 'after_all' runs."""
    shared, own = shares_with(suite, settings), inline_hooks({"workspace": settings})
    out = []
    for name, hook in inline_hooks({"workspace": suite}).items():
        if name not in ONCE or not isinstance(hook, dict) or command_of(hook) is None:
            continue
        mine = own.get(name)
        if shared and isinstance(mine, dict) and command_of(mine) not in (None, command_of(hook)):
            out.append(Finding("EV124", f"the suite's {replaced(name)}", ("workspace", "hooks", name), KEY))
        elif shared is False and name == "after_all":
            out.append(Finding("EV124", f"the suite's 'after_all' never runs: {NOT_SHARED}", ("workspace", "hooks", name),
                               KEY))
    return out
