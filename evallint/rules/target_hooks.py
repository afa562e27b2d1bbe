"""The checks of a hook of a target in a suite's 'execution.targets' (explained with the rules they report, EV110,
EV124, EV408 and EV509): the runner runs it with the executor of a workspace's hooks (workspace/script-executor.ts),
in a test's workspace folder only (orchestrator.ts)."""
from __future__ import annotations

from typing import Iterator

from evallint.diagnostics import KEY
from evallint.rules.common import check_unknown_keys, finding, is_text
from evallint.rules.workspace_kept import command_of, has_workspace
from evallint.rules.workspaces import hook_script, no_command, no_time, unfilled_placeholders


def check_target_hook(hook: dict, place) -> Iterator:
    """Unknown keys; no command, or no time to run (EV110); placeholders the runner does not fill (EV509); a hook
    that never runs, in a suite without a workspace (EV124); else the script it runs (EV408)."""
    yield from check_unknown_keys(hook, place.keys, place.at, "target hook")
    yield from no_command(hook, place, "target hook")
    yield from unfilled_placeholders(hook, place.at)
    yield from no_time(hook, place.at, ("timeout_ms", "timeoutMs"))  # the loader reads 'timeoutMs' when no number is
    if command_of(hook) is not None and _no_workspace_anywhere(place.document):
        yield finding("EV124", f"target hook {place.at[-1]!r} never runs: no test of the suite has a workspace, and "
                      "the runner runs a target's hooks only in a test's workspace folder (unless the command line "
                      "gives --workspace-path); give the suite a workspace (a template, hooks or repos), or run the "
                      "command elsewhere", place.at, KEY)
    elif not is_text(hook.get("cwd")) and _workspaces_inline(place.document):
        yield from hook_script(hook, place.at, None, {})  # run in the eval file's folder; a 'cwd' is the run's own


def _workspaces_inline(document) -> bool:
    """Whether no workspace of the suite ``document`` or of its tests is a file: a target's hook without a 'cwd' then
    runs in the eval file's folder (workspace/script-executor.ts; with a workspace file, in that file's folder). Its
    'cwd' is taken from the folder the run starts in (loaders/config-loader.ts), which is not known here."""
    tests = document.get("tests") if isinstance(document, dict) else None
    return isinstance(tests, list) and not is_text(document.get("workspace")) and not any(
        isinstance(test, dict) and is_text(test.get("workspace")) for test in tests)


def _no_workspace_anywhere(document) -> bool:
    """Whether neither the suite ``document`` nor any of its tests, all written in it, has a workspace
    (workspace/setup.ts then makes no workspace folder, and orchestrator.ts runs a target's hooks in none)."""
    tests = document.get("tests") if isinstance(document, dict) else None
    return isinstance(tests, list) and all(isinstance(test, dict) for test in tests) \
        and not has_workspace(document.get("workspace")) and not any(has_workspace(t.get("workspace")) for t in tests)
