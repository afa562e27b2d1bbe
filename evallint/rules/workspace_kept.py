"""What AgentV 4.42.4's loader keeps of a workspace (yaml-parser.ts ``parseWorkspaceConfig``): whether a suite's or
a test's ``workspace`` makes one, a hook it keeps and the command it reads, an ``env`` it checks, the folder a
template names (a file other than a '.code-workspace' one names the folder it is in: EV110)."""
from __future__ import annotations

import os
from typing import Optional

from evallint.diagnostics import Finding
from evallint.load import deps
from evallint.load.case_files import CASE_WORKSPACE
from evallint.load.view import current
from evallint.rules.common import is_text, js_truthy
from evallint.rules.grading_targets import run_targets_key
from evallint.rules.grader_files import read_command
from evallint.rules.kept_tests import first_test, kept_by_loader
from evallint.rules.model_graded import graded_by_a_model
from evallint.suggest import quote

HOOKS = ("before_all", "before_each", "after_each", "after_all")
HOOK_RESETS = ("none", "fast", "strict")  # a workspace hook that resets the workspace needs no command


def runs_outside_a_workspace(data) -> bool:
    """Whether the run starts the target of a test of the suite ``data`` (as written) in the eval file's folder, not
    in a workspace folder (orchestrator.ts: the provider's cwd is the test's workspace path when it has one). The run
    makes one shared folder when the first test's workspace (merged with the suite's) is static, or gives a template,
    hooks or repos without 'isolation: per_test'; without one, a test gets a folder of its own when its merged
    workspace gives a template, hooks or repos (workspace/setup.ts). False when a workspace file or a test from
    another file leaves it unknown."""
    if not isinstance(data, dict):
        return False
    tests, suite = data.get("tests"), data.get("workspace")
    tests = tests if isinstance(tests, list) else []
    if not has_workspace(suite) and not any(isinstance(test, dict) and has_workspace(test.get("workspace"))
                                            for test in tests):
        return True
    if shares_a_folder(data) is not False:
        return False
    merged = [merged_settings(suite, test.get("workspace")) for test in tests if kept_by_loader(test, suite=data)]
    return any(workspace is not None and not _gives_a_folder(workspace) for workspace in merged)


def case_template(test: dict, subfolder: str) -> Optional[str]:
    """The template the loader gives the test of a folder of tests' ``subfolder``: the subfolder's 'workspace'
    folder, when the test has no workspace (one JavaScript counts as unset) and the folder exists
    (case-file-loader.ts loadCasesFromDirectory); None otherwise."""
    return None if js_truthy(test.get("workspace")) else case_workspace_folder(subfolder)


def case_workspace_folder(subfolder: str) -> Optional[str]:
    """The 'workspace' folder of a folder of tests' ``subfolder``, when there is one (noted as looked at)."""
    workspace = os.path.join(subfolder, CASE_WORKSPACE)
    deps.note(workspace)
    return workspace if current().isdir(workspace) else None


def runs_on(document, reference: str) -> dict:
    """What a target site's check needs to know of the target ``reference`` names ('targets', 'execution.target'
    or the legacy 'target') when the suite (``document``) runs on it, the first of them that is set (apps/cli
    run-eval.ts): ``used``, ``runs`` when a test runs it in the eval file's folder (``runs_outside_a_workspace``:
    a workspace folder's files are not known here), and ``grades`` when the run's grader target grades a test
    (``model_graded``)."""
    if run_targets_key(document) != reference:
        return {}
    return {"used": True, **({"runs": True} if runs_outside_a_workspace(document) else {}),
            **({"grades": True} if graded_by_a_model(document) else {})}


def shares_a_folder(data: dict) -> Optional[bool]:
    """Whether the run makes one workspace folder that the tests of the suite ``data`` share, in whose setup it runs
    the 'before_all' and 'after_all' hooks of the first test's workspace merged with the suite's, and no others
    (workspace/setup.ts): that workspace is static, or gives a template, hooks or repos without 'isolation:
    per_test'. None when a workspace file or a test from another file leaves it unknown."""
    first = first_test(data.get("tests"), data)
    return shares_with(data.get("workspace"), first.get("workspace")) if first is not None else None


def shares_with(suite, own) -> Optional[bool]:
    """``shares_a_folder`` for a first test whose workspace is ``own`` in a suite whose workspace is ``suite`` (each
    settings, or None); None when either is a workspace file."""
    merged = merged_settings(suite, own)
    if merged is None:
        return None
    return _static(merged) or merged["isolation"] != "per_test" and _gives_a_folder(merged)


def a_test_has_a_folder(data: dict, shared: Optional[bool]) -> Optional[bool]:
    """Whether a test of the suite ``data`` that the loader keeps works in a workspace folder: the one the tests share
    (``shared``, what ``shares_a_folder`` answers), or one of its own, when its workspace merged with the suite's is
    static or gives a template, hooks or repos (workspace/setup.ts); None when a workspace file or a test from another
    file leaves it unknown."""
    tests = data.get("tests")
    if shared is not False or not all(isinstance(test, dict) for test in tests):
        return shared
    merged = [merged_settings(data.get("workspace"), test.get("workspace")) for test in tests
              if kept_by_loader(test, suite=data)]
    return None if None in merged else any(_static(workspace) or _gives_a_folder(workspace) for workspace in merged)


# what decides a test's workspace folder, which the run's setup reads of the first test's workspace (merged with the
# suite's) alone when the tests share one (workspace/setup.ts)
FOLDER_SETTINGS = ("template", "isolation", "mode", "path", "repos")


def first_workspace(data: dict) -> Optional[dict]:
    """The settings of the first test's workspace merged with the suite's (``_merged``), which the run's setup
    reads; None when unknown."""
    first = first_test(data.get("tests"), data)
    return merged_settings(data.get("workspace"), first.get("workspace")) if first is not None else None


def first_workspace_written(data: dict) -> Optional[dict]:
    """Each of ``FOLDER_SETTINGS`` -> (its value in ``first_workspace``, the data path it is written at), (None,
    None) for none; None when unknown."""
    tests, first = data.get("tests"), first_test(data.get("tests"), data)
    if first is None:
        return None
    at = ("tests", next(i for i, test in enumerate(tests) if test is first), "workspace")
    return merged_written(data.get("workspace"), first.get("workspace"), at)


def merged_written(suite, own, own_at: tuple, suite_at: tuple = ("workspace",)) -> Optional[dict]:
    """``first_workspace_written`` of a test's workspace ``own`` (its settings written at ``own_at``) merged with the
    suite's ``suite`` (written at ``suite_at``); None when either is a workspace file."""
    layers = _layers(suite, own, own_at, suite_at)
    return None if layers is None else {key: _setting(layers, key) for key in FOLDER_SETTINGS}


def merged_settings(suite, own) -> Optional[dict]:
    """The settings that decide a test's workspace folder, of its workspace merged with the suite's (yaml-parser.ts
    mergeWorkspaceConfigs: the test's settings first); None when either is a workspace file, not read here."""
    layers = _layers(suite, own)
    if layers is None:
        return None
    read = {key: _setting(layers, key)[0] for key in FOLDER_SETTINGS}
    return {**read, "hooks": any(isinstance(w.get("hooks"), dict) and _keeps_hooks(w["hooks"]) for _, w in layers)}


def _layers(suite, own, own_at: tuple = (), suite_at: tuple = ("workspace",)) -> Optional[list]:
    """(data path, workspace) of the workspaces a test's is merged from, its own (written at ``own_at``) first, then
    the suite's (at ``suite_at``): those the loader keeps; None when either is a workspace file, not read here."""
    if is_text(suite) or is_text(own):
        return None
    return [(at, w) for at, w in ((own_at, own), (suite_at, suite)) if isinstance(w, dict) and sets_a_workspace(w)]


def _setting(layers: list, key: str) -> tuple:
    """(the value of ``key`` in the first of ``layers`` that sets it, its data path); (None, None) when none does."""
    return next(((w[key], at + (key,)) for at, w in layers if w.get(key) is not None), (None, None))


def _keeps_hooks(hooks: dict) -> bool:
    return isinstance(hooks.get("enabled"), bool) or any(kept_hook(hooks.get(name)) for name in HOOKS)


def _static(workspace: dict) -> bool:
    """A static workspace: its mode, or a 'path' without a mode (one without a path falls back to temp)."""
    path = is_text(workspace["path"])
    return path and workspace["mode"] in ("static", None)


def _gives_a_folder(workspace: dict) -> bool:
    return bool(is_text(workspace["template"]) or workspace["hooks"] or isinstance(workspace["repos"], list)
                and workspace["repos"])


def has_workspace(value) -> bool:
    """Whether the loader makes a workspace of a suite's or a test's ``workspace``: a workspace file's path, or
    settings it keeps (``sets_a_workspace``)."""
    return is_text(value) or isinstance(value, dict) and sets_a_workspace(value)


def sets_a_workspace(data: dict) -> bool:
    """Whether the loader makes a workspace of ``data`` (yaml-parser.ts ``parseWorkspaceConfig``): one setting it
    reads holds a value it keeps."""
    hooks, docker, env = (data.get(key) for key in ("hooks", "docker", "env"))
    return bool(is_text(data.get("template")) or data.get("isolation") in ("shared", "per_test")
                or isinstance(data.get("repos"), list) or data.get("mode") in ("pooled", "temp", "static")
                or is_text(data.get("path")) or isinstance(hooks, dict) and _keeps_hooks(hooks)
                or isinstance(docker, dict) and isinstance(docker.get("image"), str)
                or env_kept(env))


def env_kept(env) -> bool:
    """Whether the loader keeps a workspace's 'env' (parseWorkspaceEnvConfig): a list with a string to check."""
    return isinstance(env, dict) and any(isinstance(env.get(key), list) and any(isinstance(i, str) for i in env[key])
                                         for key in ("required_commands", "required_python_modules"))


def env_unchecked(document: dict, at: tuple) -> Optional[str]:
    """Why the run never checks the 'env' of the workspace at ``at`` in the suite ``document`` (the suite's: ``()``,
    a test's: ``("tests", i)``), or None when it may: the run checks the first kept test's workspace only, before the
    run (workspace/setup.ts), and the loader gives a test its own workspace merged with the suite's, leaving 'env'
    out (yaml-parser.ts mergeWorkspaceConfigs)."""
    tests = document.get("tests") if isinstance(document, dict) else None
    first = first_test(tests, document)
    if first is None:
        return None
    if not at:
        return ("the first test has a workspace of its own, which the runner merges with this one, leaving 'env' out, "
                "and it checks only the first test's workspace; move that test's workspace settings here") \
            if has_workspace(first.get("workspace")) else None
    if has_workspace(document.get("workspace")):
        return ("the runner merges this workspace with the suite's, leaving 'env' out; set 'env' in the suite's "
                "workspace, and give the first test no workspace of its own")
    own, checked = (test.get("workspace") if isinstance(test, dict) else None for test in (tests[at[1]], first))
    if tests[at[1]] is first or _same_file(own, checked) or _env_of(own) is not None and _env_of(own) == _env_of(checked):
        return None  # the first test's workspace, or one that sets the same 'env'
    return ("the runner checks only the first test's workspace, before the run; set it in the first test's workspace "
            "(or in a workspace of the suite's)")


def _same_file(one, other) -> bool:
    """Whether two workspaces are the same workspace file, however its path is spelled ('./ws.yaml', 'ws.yaml')."""
    return one == other or is_text(one) and is_text(other) and os.path.normpath(one) == os.path.normpath(other)


def _env_of(workspace):
    return workspace.get("env") if isinstance(workspace, dict) else None


def inline_hooks(holder) -> dict:
    """The 'hooks' of the inline workspace of a suite or a test (``holder``, as written); {} without them."""
    workspace = holder.get("workspace") if isinstance(holder, dict) else None
    hooks = workspace.get("hooks") if isinstance(workspace, dict) else None
    return hooks if isinstance(hooks, dict) else {}


def kept_hook(hook) -> bool:
    """Whether the loader keeps a hook (yaml-parser.ts parseWorkspaceHookConfig): one with a command, or a reset."""
    return isinstance(hook, dict) and (hook.get("reset") in HOOK_RESETS or command_of(hook) is not None)


def command_of(hook: dict):
    """The argv the loader reads of a hook's 'command ?? script' (a string split on white space, the strings of a
    list: parseCommandArray); None without one."""
    command = read_command(hook)[1]
    words = command.split() if isinstance(command, str) else \
        [word for word in command if isinstance(word, str)] if isinstance(command, list) else []
    return words or None


def file_hook_cwd(path: str, name: str, root: str, max_bytes: int) -> Optional[str]:
    """The 'cwd' of the hook ``name`` of the workspace file at ``path`` (absolute), as written, when the loader keeps
    it (beside a command), or None; once per run."""
    hooks = file_settings(path, root, max_bytes).get("hooks")
    hook = hooks.get(name) if isinstance(hooks, dict) else None
    return hook["cwd"] if isinstance(hook, dict) and is_text(hook.get("cwd")) and command_of(hook) else None


def file_settings(path: str, root: str, max_bytes: int) -> dict:
    """The settings of the workspace file at ``path`` (absolute), or {} when it holds none; read once per run."""
    from evallint.load.case_files import yaml_data

    data = yaml_data(path, root, max_bytes)
    return data if isinstance(data, dict) else {}


def template_file(site, path: str) -> list:
    """EV110 for a workspace template that names a file other than a '.code-workspace' one: the runner takes any file
    for one, and copies the whole folder it is in as the workspace (workspace/resolve.ts)."""
    if path.endswith(".code-workspace"):
        return []
    return [Finding("EV110", f"workspace template {quote(site.value)} is a file, neither a folder nor a '.code-workspace' "
                    "file: the runner takes any file for a '.code-workspace' one and copies the whole folder it is in "
                    "as the workspace; name the template's folder", site.path)]
