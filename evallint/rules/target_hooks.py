"""The checks of a hook of a target in a suite's 'execution.targets' (explained with the rules they report, EV110,
EV124, EV408, EV414 and EV509): the runner runs it with the executor of a workspace's hooks (workspace/script-executor.ts),
in a test's workspace folder only (orchestrator.ts)."""
from __future__ import annotations

import os
from typing import Iterator, Optional

from evallint.diagnostics import KEY, Finding
from evallint.load.environment import refers
from evallint.rules.common import Site, check_unknown_keys, finding, is_text
from evallint.rules.reference_words import from_run_folder, shown
from evallint.rules.workspace_kept import a_test_has_a_folder, command_of, shares_a_folder
from evallint.rules.workspaces import hook_script, no_command, no_time, unfilled_placeholders, var_names
from evallint.suggest import quote


def check_target_hook(hook: dict, place) -> Iterator:
    """Unknown keys; no command, or no time to run (EV110); placeholders the runner does not fill (EV509); a hook
    that never runs, for want of a workspace folder (EV124); else the script it runs (EV408)."""
    yield from check_unknown_keys(hook, place.keys, place.at, "target hook")
    yield from no_command(hook, place, "target hook")
    yield from unfilled_placeholders(hook, place.at, var_names(place))
    yield from no_time(hook, place.at, ("timeout_ms", "timeoutMs"))  # 'timeoutMs' when 'timeout_ms' is no number
    never = _never_runs(place.at[-1], place.document) if command_of(hook) is not None else None
    if never is not None:
        yield finding("EV124", f"target hook {place.at[-1]!r} never runs: {never}", place.at, KEY)
    elif not is_text(hook.get("cwd")) and _workspaces_inline(place.document):
        yield from hook_script(hook, place.at, None, {})  # run in the eval file's folder; a 'cwd' is the run's own
    elif is_text(hook.get("cwd")) and not refers(hook["cwd"]) and not os.path.isabs(hook["cwd"]):
        yield Site("run_cwd", hook["cwd"], place.at + ("cwd",), {"hook": place.at[-1]})  # EV414


def _never_runs(name: str, document) -> Optional[str]:
    """Why the runner never runs a target's hook ``name`` for the suite ``document``: it runs a target's hooks in a
    workspace folder only, its 'before_all' and 'after_all' in the one the tests share (orchestrator.ts,
    workspace/setup.ts); None when it may, or a workspace file or a test from another file leaves that unknown."""
    if not isinstance(document, dict) or not isinstance(document.get("tests"), list):
        return None
    shared = shares_a_folder(document)
    if a_test_has_a_folder(document, shared) is False:
        return ("no test of the suite has a workspace folder, and the runner runs a target's hooks only in one (unless "
                "the command line gives --workspace-path); give the suite a workspace with a template, hooks or repos, "
                "or run the command elsewhere")
    if name in ("before_all", "after_all") and shared is False:
        return ("the tests share no workspace folder, and the runner runs a target's 'before_all' and 'after_all' only "
                "in a shared one; drop the suite's 'isolation: per_test', or make it a 'before_each' hook")
    return None


def _workspaces_inline(document) -> bool:
    """Whether no workspace of the suite ``document`` or of its tests is a file: a target's hook without a 'cwd' then
    runs in the eval file's folder (workspace/script-executor.ts; with a workspace file, in that file's folder). Its
    'cwd' is taken from the folder the run starts in (loaders/config-loader.ts), which is not known here."""
    tests = document.get("tests") if isinstance(document, dict) else None
    return isinstance(tests, list) and not is_text(document.get("workspace")) and not any(
        isinstance(test, dict) and is_text(test.get("workspace")) for test in tests)


def run_folder(site: Site, folder: str, root: str) -> list:
    """EV414 for a target hook's relative 'cwd' (``site``) in the eval file at ``folder``: the runner passes it on as
    written, so it is taken from the folder the run starts in (loaders/config-loader.ts, workspace/script-executor.ts),
    not from the eval file's (``from_run_folder``)."""
    found = from_run_folder(site.value, folder, root)
    if found is None:
        return []
    from_root, there = found
    then = "" if there else ", which is not there, so the hook fails"
    return [Finding("EV414", f"target hook {site.extra['hook']!r} 'cwd' {quote(site.value)} is taken from the folder "
                    "the agentv command runs in, not from the eval file's (as a workspace hook's is): run from the "
                    f"repository root, the hook runs in {shown(from_root, root)}{then}; remove 'cwd' (the hook then "
                    "runs in the eval file's folder), or write the folder from the repository root", site.path)]
