"""The checks of an AgentV 4.42 workspace (``format/agentv4/workspace.py``) and of the hooks of a workspace or a
target: keys the loader rejects as removed (EV115), settings it rejects or that make the run fail before any
test (EV110), the folders and files a workspace names."""
from __future__ import annotations

import re
from typing import Iterator

from evallint.diagnostics import FIRST_KEY, KEY
from evallint.load.environment import is_whole_reference
from evallint.rules.agentv4 import deprecated_aliases
from evallint.rules.common import Site, check_unknown_keys, finding, is_text
from evallint.rules.script_files import script_token
from evallint.suggest import did_you_mean, near_misses, one_of, quote

HOOK_RESETS = ("none", "fast", "strict")  # a workspace hook that resets the workspace needs no command
REMOVED_WORKSPACE = {"static_path": "path", "pool": "mode: pooled", "static": "mode: static"}
# the placeholders the runner fills in a hook's command, and how they may be written (a string command is split
# on white space first, so '{{ name }}' is three words there)
HOOK_PLACEHOLDERS = ("workspace_path", "test_id", "eval_run_id", "case_input", "case_metadata")
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")
REMOVED_REPO = {"source": "repo", "checkout": "commit, base_commit and ancestor", "clone": "sparse"}
# what the runner does without a folder a workspace names (the end of the finding's message)
TEMPLATE = {"what": "workspace template", "folder": True,
            "then": "the run fails when the runner prepares the workspace"}
HOOK_CWD = {"what": "hook cwd", "local": True, "then": "the hook fails to start when the runner runs it"}


def check_workspace(workspace: dict, place) -> Iterator:
    """Unknown keys; removed keys, which make the loader reject the file (EV115)."""
    for key, new in REMOVED_WORKSPACE.items():
        if key in workspace:
            yield finding("EV115", f"'{key}' in workspace is a removed key and the runner rejects the file; write "
                          f"'{new}'", place.at + (key,), KEY)
    yield from check_unknown_keys(workspace, place.keys, place.at, "workspace", skip=tuple(REMOVED_WORKSPACE))
    if is_text(workspace.get("template")):  # a folder (or a .code-workspace file) from the eval file's folder
        yield Site("local_file", workspace["template"], place.at + ("template",), TEMPLATE)
    if place.at == ("workspace",):
        yield from _workspace_mode(workspace, place.at)


def _workspace_mode(workspace: dict, at: tuple) -> Iterator:
    """EV110 for a mode of the suite's workspace that its other settings contradict: the run's setup, which reads
    them from the first test's workspace (the suite's, unless that test replaces them), fails on it
    (workspace/setup.ts). A 'path' without a mode makes the mode static."""
    mode, path = workspace.get("mode"), workspace.get("path")
    if isinstance(path, str) and mode in ("pooled", "temp"):
        yield finding("EV110", f"workspace 'path' needs mode static, not {quote(mode)}; the run fails before any test",
                      at + ("mode",))
    static = mode == "static" or (mode is None and isinstance(path, str))
    if static and workspace.get("isolation") == "per_test":
        yield finding("EV110", "a static workspace cannot have isolation 'per_test'; the run fails before any test "
                      "(write isolation: shared)", at + ("isolation",))
    if mode == "static" and not isinstance(path, str) and isinstance(workspace.get("repos"), list) \
            and workspace["repos"]:
        yield finding("EV110", "a static workspace with repos needs a 'path'; the run fails before any test, "
                      "unless the command line gives --workspace-path", at + ("mode",))


def check_repo(repo: dict, place) -> Iterator:
    """Unknown keys; removed keys (EV115) and a 'commit' and 'base_commit' that differ (EV110), for which the
    loader rejects the file."""
    for key, new in REMOVED_REPO.items():
        if key in repo:
            yield finding("EV115", f"'{key}' in a workspace repo is a removed key and the runner rejects the file; "
                          f"write '{new}'", place.at + (key,), KEY)
    yield from check_unknown_keys(repo, place.keys, place.at, "workspace repo", skip=tuple(REMOVED_REPO))
    commit, base = (repo.get(key) for key in ("commit", "base_commit"))
    if is_text(commit) and is_text(base) and commit != base:
        yield finding("EV110", f"repo 'base_commit' {quote(base)} differs from its 'commit' {quote(commit)}; the "
                      "runner rejects the file (they must match when both are set)", place.at + ("base_commit",))


def check_hook(hook: dict, place) -> Iterator:
    """Unknown keys; the deprecated 'script' (EV109) or 'script' beside 'command' (EV108); no command (EV110),
    unless the hook resets the workspace."""
    yield from deprecated_aliases(hook, place.at, (("command", "script"),), "a hook")
    yield from check_unknown_keys(hook, place.keys, place.at, "hook")
    if hook.get("reset") not in HOOK_RESETS and not is_whole_reference(hook.get("reset")):
        yield from hook_command(hook, place, "workspace hook")
    if is_text(hook.get("cwd")):  # a folder from the eval file's folder only
        yield Site("cwd", hook["cwd"], place.at + ("cwd",), HOOK_CWD)
    yield from _hook_script(hook, place.at)


def _hook_script(hook: dict, at: tuple) -> Iterator:
    """The script file a workspace hook's command runs (``script_files.script_token``), which the runner runs in the
    hook's 'cwd', else the eval file's folder (workspace/script-executor.ts)."""
    key = "command" if "command" in hook else "script"
    command = hook.get(key)
    words = command.split() if isinstance(command, str) else command  # the loader splits a string on white space
    found = script_token(words) if isinstance(words, list) and all(isinstance(w, str) for w in words) else None
    if found is not None and found[0] is not None and not PLACEHOLDER.search(found[1]):
        path = at + (key,) + ((found[0],) if isinstance(command, list) else ())
        cwd = hook["cwd"] if is_text(hook.get("cwd")) else None
        yield Site("command_file", found[1], path, {"cwd": cwd, "local": True, "what": "hook script file",
                                                    "then": "the hook fails when the runner runs it"})


def check_target_hook(hook: dict, place) -> Iterator:
    """Unknown keys; no command (EV110)."""
    yield from check_unknown_keys(hook, place.keys, place.at, "target hook")
    yield from hook_command(hook, place, "target hook")


def hook_command(hook: dict, place, what: str) -> Iterator:
    """EV110 for a hook without 'command' or 'script', which the loader drops (a near miss of one is EV115); EV509
    for a placeholder of its command that the runner does not fill."""
    if not any(isinstance(key, str) and near_misses(key, ("command", "script")) for key in hook):
        yield finding("EV110", f"{what} has no 'command' (or 'script'); the runner drops the hook, so nothing runs",
                      place.at, FIRST_KEY)
    key = "command" if "command" in hook else "script"
    command = hook.get(key)
    words = [((key,), command)] if isinstance(command, str) else \
        [((key, i), word) for i, word in enumerate(command) if isinstance(word, str)] if isinstance(command, list) else []
    for at, word in words:
        for match in PLACEHOLDER.finditer(word):
            yield from _unfilled(match, place.at + at)


def _unfilled(match, at: tuple) -> Iterator:
    """EV509 for a '{{ name }}' of a hook's command that the runner leaves as written: it fills only a known name
    written without spaces (workspace/script-executor.ts)."""
    name, written = match.group(1), match.group(0)
    if name not in HOOK_PLACEHOLDERS:
        yield finding("EV509", f"{quote(written)} is no placeholder the runner fills in a hook's command"
                      f"{did_you_mean(name, HOOK_PLACEHOLDERS)}, so the hook gets the text as written; known: "
                      f"{one_of(HOOK_PLACEHOLDERS)}", at, needle=written)
    elif written != "{{" + name + "}}":
        yield finding("EV509", f"{quote(written)} is not filled in: the runner fills a hook's placeholders only "
                      f"written without spaces, so the hook gets the text as written; write '{{{{{name}}}}}'", at,
                      needle=written)
