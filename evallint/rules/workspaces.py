"""The checks of an AgentV 4.42 workspace (``format/agentv4/workspace.py``) and of the hooks of a workspace or a
target: keys the loader rejects as removed (EV115), settings it rejects or that make the run fail before any
test (EV110), the folders and files a workspace names."""
from __future__ import annotations

import json
import os
import re
from functools import partial
from typing import Iterator

from marshmallow import ValidationError

from evallint.diagnostics import FIRST_KEY, KEY, Finding
from evallint.load.environment import REFERENCE, is_whole_reference, refers
from evallint.rules.agentv4 import deprecated_aliases
from evallint.rules.kept_tests import first_test, kept_by_loader
from evallint.rules.common import Site, check_unknown_keys, finding, is_finite_number, is_number, is_text
from evallint.rules import shellwords
from evallint.rules.grader_files import is_program, names_file, read_command
from evallint.rules.reference_words import from_run_folder, shown
from evallint.rules.hook_order import check_after_each
from evallint.rules.hook_runs import never_runs
from evallint.rules.script_files import SHELL_OPERATORS, script_token
from evallint.rules.shared_setup import contradictions, ignored_settings, later_in_shared
from evallint.rules.workspace_repos import removed_keys, repos_never_cloned
from evallint.rules.workspace_kept import (HOOK_RESETS, HOOKS, command_of, env_kept, env_unchecked,
                                          first_workspace, first_workspace_written, inline_hooks,
                                          shares_a_folder)
from evallint.suggest import did_you_mean, near_misses, one_of, quote

REMOVED_WORKSPACE = {"static_path": "path", "pool": "mode: pooled", "static": "mode: static"}
# the placeholders the runner fills in a hook's command, and how they may be written (a string command is split
# on white space first, so '{{ name }}' is three words there)
HOOK_PLACEHOLDERS = ("workspace_path", "test_id", "eval_run_id", "case_input", "case_metadata")
# a '$' a shell reads as written (before no name, '{' or '('), and one it expands
DOLLAR = re.compile(r"\$(?![A-Za-z_{(0-9@*#?$!-])")
EXPANDED = re.compile(r"\$[A-Za-z_{(]")
PLACEHOLDER = re.compile(r"(?<!\$)\{\{\s*(\w+)\s*\}\}")  # not '${{ NAME }}', which the loader fills first
# what the runner does without a folder a workspace names (the end of the finding's message)
TEMPLATE = {"what": "workspace template", "folder": True, "template": True,
            "then": "the run fails when the runner prepares the workspace"}
HOOK_CWD = {"what": "hook cwd", "local": True, "then": "the hook fails to start when the runner runs it"}
MAX_TIMER = 2**31 - 1  # the longest delay of a Node.js timer in ms; a longer one fires after 1 ms


def check_workspace(workspace: dict, place) -> Iterator:
    """Unknown keys; removed keys, which make the loader reject the file (EV115)."""
    yield from removed_keys(workspace, REMOVED_WORKSPACE, place.at, "workspace")
    yield from check_unknown_keys(workspace, place.keys, place.at, "workspace", skip=tuple(REMOVED_WORKSPACE))
    yield from repos_never_cloned(workspace, place)
    if is_text(workspace.get("template")):  # a folder (or a .code-workspace file) from the eval file's folder
        yield Site("local_file", workspace["template"], place.at + ("template",), TEMPLATE)
    path = workspace.get("path")
    if is_text(path) and not refers(path) and not os.path.isabs(path) and not _later_in_shared(place):
        yield Site("run_path", path, place.at + ("path",))  # from the run's folder: ``path_from_run_folder``


def _later_in_shared(place) -> bool:
    """Whether ``place`` is a later test's workspace when the tests share a folder, whose settings the run never
    reads (EV125)."""
    document, at = place.document, place.at
    tests = document.get("tests") if isinstance(document, dict) and len(at) == 3 and at[0] == "tests" else None
    return isinstance(tests, list) and isinstance(at[1], int) and at[1] < len(tests) and later_in_shared(document, at[1])


def path_from_run_folder(site: Site, folder: str, root: str) -> list:
    """EV415 for a workspace's relative 'path' (``site``) in the file at ``folder``: the loader keeps it as written
    (yaml-parser.ts parseWorkspaceConfig) and the setup makes and uses the folder it names from the folder the run
    starts in (workspace/setup.ts), not from the file's (``from_run_folder``)."""
    found = from_run_folder(site.value, folder, root)
    if found is None:
        return []
    from_root, there = found
    made = "" if there else ", which the run makes"
    return [Finding("EV415", f"workspace 'path' {quote(site.value)} is taken from the folder the agentv command runs "
                    "in, not from this file's (as its 'template' is): run from the repository root, the agent works in "
                    f"{quote(shown(from_root, root), 120)}{made}, and the hooks get the path as written; write the folder "
                    "from the repository root, or an absolute path", site.path)]


def check_workspace_env(data: dict, place) -> Iterator:
    """EV123 for a workspace 'env', of the suite or of a test, the run never checks (``env_unchecked``); a workspace
    file's is reported where it is named (``models.workspace_file_found``)."""
    workspace, tests = data.get("workspace"), data.get("tests")
    if isinstance(workspace, dict) and env_kept(workspace.get("env")) and env_unchecked(data, ()):
        yield finding("EV123", f"the suite's workspace 'env' is never checked: {env_unchecked(data, ())}",
                      ("workspace", "env"), KEY)
    for i, test in enumerate(tests if isinstance(tests, list) else ()):
        own = test.get("workspace") if isinstance(test, dict) else None
        if isinstance(own, dict) and env_kept(own.get("env")) and env_unchecked(data, ("tests", i)):
            yield finding("EV123", f"this test's workspace 'env' is never checked: {env_unchecked(data, ('tests', i))}",
                          ("tests", i, "workspace", "env"), KEY)


def check_later_workspaces(data: dict, place) -> Iterator:
    """EV125 for a setting of a later test's own workspace that only the setup of the folder the tests share reads:
    the setup reads the first test's workspace (merged with the suite's), once (workspace/setup.ts)."""
    tests = data.get("tests")
    first, setup = first_test(tests, data), first_workspace(data)
    if first is None or setup is None or shares_a_folder(data) is not True:
        return
    for i, test in enumerate(tests):
        kept = isinstance(test, dict) and test is not first and kept_by_loader(test, suite=data)
        own = test.get("workspace") if kept else None
        yield from ignored_settings(own, setup, ("tests", i, "workspace")) if isinstance(own, dict) else ()


def check_workspace_mode(data: dict, place) -> Iterator:
    """EV110 for a mode of the workspace the run's setup reads that its other settings contradict, for which the
    setup fails before any test (workspace/setup.ts): the first test's workspace merged with the suite's, each
    setting the test's own when it has one (yaml-parser.ts mergeWorkspaceConfigs), reported where it is written. A
    non-empty 'path' without a mode makes the mode static; a static one without a path or repos falls back to
    temp. Not of a workspace file, read where it is named."""
    settings = first_workspace_written(data)
    yield from contradictions(settings) if settings is not None else ()


def check_hook(hook: dict, place) -> Iterator:
    """Unknown keys; the deprecated 'script' (EV109) or 'script' beside 'command' (EV108); no command (EV110),
    unless the hook resets the workspace."""
    yield from deprecated_aliases(hook, place.at, (("command", "script"),), "a hook")
    yield from check_unknown_keys(hook, place.keys, place.at, "hook")
    if hook.get("reset") not in HOOK_RESETS and not is_whole_reference(hook.get("reset")):
        yield from no_command(hook, place, "workspace hook")
    yield from no_time(hook, place.at, ("timeout_ms",))
    name = place.at[-1] if place.at else None
    if hook.get("reset") not in (None, "none") and name in ("before_all", "after_all"):  # a null one is none
        yield finding("EV115", f"'reset' is not read in the '{name}' hook: the runner resets the workspace only in "
                      "'before_each' and 'after_each' hooks (before and after each test), so this one resets nothing",
                      place.at + ("reset",), KEY)
    yield from _shell_words(hook, place.at)
    if is_text(hook.get("cwd")) and command_of(hook) is not None:  # kept beside a command; from the eval's folder only
        yield Site("cwd", hook["cwd"], place.at + ("cwd",), HOOK_CWD)


def check_hooks(hooks: dict, place) -> Iterator:
    """What the commands of a workspace's hooks name, unless the hooks are off ('enabled: false': none runs). A
    test's hooks are merged with the suite's workspace (yaml-parser.ts mergeWorkspaceConfigs): its 'enabled' is the
    suite's unless it sets its own, and a hook without its own 'cwd' runs in the 'cwd' of the suite's hook of that
    name (one the loader keeps, with a command); merged with a suite's workspace file, it runs in the 'cwd' of the
    file's hook of its name, else in the file's folder (looked up there: ``references``), as a suite's per-test hook
    without a 'cwd' does for a test whose own workspace is a file. The suite's hooks that are off run when a test
    turns them on: its per-test hooks for that test, its 'before_all' and 'after_all' only for the first test
    (setup.ts)."""
    suite, file = _merged_with(place)
    enabled = hooks.get("enabled") if isinstance(hooks.get("enabled"), bool) else suite.get("enabled")
    if enabled is not False:
        yield from _suite_command_kept(hooks, suite, place.at)
        yield from check_after_each(hooks, place)
    turned_on = _turned_on(place) if enabled is False else ()
    for name in HOOKS:
        if isinstance(hooks.get(name), dict) and (enabled is not False or name in turned_on):
            unrun = never_runs(name, hooks, place)
            if unrun is not None:  # what its command names does not matter
                yield finding("EV124", unrun, place.at + (name,), KEY)
                continue
            hook, inherited = hooks[name], suite.get(name)
            inherited = inherited if isinstance(inherited, dict) and command_of(inherited) is not None else {}
            cwd = next((h["cwd"] for h in (hook, inherited) if isinstance(h.get("cwd"), str)), None)
            yield from unfilled_placeholders(hook, place.at + (name,), var_names(place))
            merged = {"workspace_file": file, "hook": name} if file and cwd is None else {}
            yield from hook_script(hook, place.at + (name,), cwd, merged)
            if cwd is None and name in PER_TEST and place.at == ("workspace", "hooks"):
                for test_id, test_file in _tests_files(place.document):
                    yield from hook_script(hook, place.at + (name,), None, {"workspace_file": test_file, "hook": name,
                                                                             "for_test": test_id})


PER_TEST = ("before_each", "after_each")


def _suite_command_kept(hooks: dict, suite: dict, at: tuple) -> Iterator:
    """EV133 for a test's hook of 'reset: none' alone, over the suite's hook of its name that has a command and resets
    nothing: the loader merges a test's hook over the suite's key by key (yaml-parser.ts mergeWorkspaceConfigs), so
    the merged hook is the suite's, whose command runs for the test."""
    for name in PER_TEST:  # the hooks that reset the workspace
        own, inherited = hooks.get(name), suite.get(name)
        if isinstance(own, dict) and own.get("reset") == "none" and read_command(own)[1] is None \
                and isinstance(inherited, dict) and command_of(inherited) is not None \
                and inherited.get("reset") in (None, "none"):
            yield finding("EV133", f"this test's '{name}' hook changes nothing: the runner merges a test's hook over "
                          "the suite's key by key, and the suite's hook resets nothing either, so its command still "
                          "runs for this test; to run no hook for it, give the test 'hooks: {enabled: false}'",
                          at + (name, "reset"), KEY)


def _tests_files(document) -> list:
    """(id, workspace file as written) of the first test of each workspace file the suite's tests name as their own:
    a suite's hook without a 'cwd' runs in that file's folder for such a test (yaml-parser.ts mergeWorkspaceConfigs:
    the test's workspace file's folder over the suite's), unless the file's hook of its name replaces it."""
    tests = document.get("tests") if isinstance(document, dict) else None
    found: dict = {}
    for test in tests if isinstance(tests, list) else ():
        own = test.get("workspace") if isinstance(test, dict) else None
        if is_text(own) and not is_whole_reference(own) and isinstance(test.get("id"), str):
            found.setdefault(own, test["id"])
    return [(test_id, file) for file, test_id in found.items()]


def _turned_on(place) -> tuple:
    """The names of the suite's hooks that a test turns on with 'enabled: true' in its own workspace's hooks, when
    ``place`` is the suite's workspace hooks: the per-test ones for any test, all of them for the first."""
    document = place.document
    tests = document.get("tests") if place.at == ("workspace", "hooks") and isinstance(document, dict) else None
    on = [test for test in (tests if isinstance(tests, list) else ()) if isinstance(test, dict)
          and isinstance(test.get("workspace"), dict) and isinstance(test["workspace"].get("hooks"), dict)
          and test["workspace"]["hooks"].get("enabled") is True]
    if not on:
        return ()
    return HOOKS if first_test(tests, document) in on else ("before_each", "after_each")


def check_test_enabled(hooks: dict, place) -> Iterator:
    """A test's hooks 'enabled' that is no boolean, which the loader reads as absent (parseWorkspaceHooksConfig):
    the suite's applies (mergeWorkspaceConfigs), and without one the hooks run (setup.ts). Where the suite's
    workspace is a file, judged once the file is read (a site, ``references``, whose path is the finding's: that of a
    file of tests' test is moved to where the file holds it, ``walk.rerooted``)."""
    value = hooks.get("enabled")
    if value is None or isinstance(value, bool):
        return
    suite, file = _merged_with(place)
    judged = partial(_judged, place.schema.fields["enabled"], value)
    at = place.at + ("enabled",)
    if file is not None:
        yield Site("merged_enabled", None, at, {"file": file, "judged": judged})
    elif _of_suite_test(place):
        given = isinstance(suite.get("enabled"), bool)
        yield from judged(at, *((suite["enabled"], "the suite's 'enabled'") if given else (True, "its default")))
    else:
        yield from judged(at, None, "its default")


def _judged(flag, value, at: tuple, used, source: str) -> list:
    """The finding of the ``flag`` field's judgement of ``value`` at ``at``, given what the runner uses in its place
    (``Flag.judge``)."""
    try:
        flag.judge(value, used, source)
    except ValidationError as error:
        problem = error.messages[0]
        return [finding(problem.code, problem, at, problem.target, fix=problem.fix)]
    return []


def _of_suite_test(place) -> bool:
    """Whether ``place`` is the workspace hooks of a test written in its suite."""
    at = place.at
    return len(at) == 4 and at[0] == "tests" and at[2:] == ("workspace", "hooks") and isinstance(place.document, dict)


def _merged_with(place) -> tuple:
    """(the hooks of the suite's inline workspace, the suite's workspace file as written) when ``place`` is a test's
    workspace hooks in that suite, one of them empty; ({}, None) otherwise. A test's hook without a 'cwd' runs in the
    'cwd' of the file's hook of its name, else in the file's folder (``references``: the file is looked up there)."""
    document = place.document
    if not _of_suite_test(place):
        return {}, None
    workspace = document.get("workspace")
    if is_text(workspace) and not is_whole_reference(workspace):
        return {}, workspace
    return inline_hooks(document), None


def hook_script(hook: dict, at: tuple, cwd, merged: dict) -> Iterator:
    """The script file a workspace hook's command runs (``script_files.script_token``), which the runner runs in the
    hook's ``cwd``, else the eval file's folder (workspace/script-executor.ts); its first word when the runner looks
    it up on PATH (``grader_files.is_program``)."""
    key, command = read_command(hook)
    words = command_of(hook)
    if words is None or isinstance(command, list) and len(words) != len(command):
        return  # no command, or a word of the list that is no string: the places of the others are not known
    extra = {"cwd": cwd if is_text(cwd) else None, "local": True, "what": "hook script file",
             "then": "the hook fails when the runner runs it", **merged}
    found = script_token(words)
    if is_program(words[0]):
        yield Site("program", words[0], at + (key,) + ((0,) if isinstance(command, list) else ()), extra)
    if found is not None and found[0] is not None and not (found[0] == 0 and is_program(words[0])) \
            and not PLACEHOLDER.search(found[1]) and names_file(found[1]):
        yield Site("command_file", found[1], at + (key,) + ((found[0],) if isinstance(command, list) else ()),
                   {**extra, "direct": found[0] == 0})


def unfilled_placeholders(hook: dict, at: tuple, names: tuple = ()) -> Iterator:
    """EV509 for each placeholder of a hook's command that the runner leaves as written (``names``: the vars of the
    tests it runs for)."""
    key, command = read_command(hook)
    words = [((key,), command)] if isinstance(command, str) else \
        [((key, i), word) for i, word in enumerate(command) if isinstance(word, str)] if isinstance(command, list) else []
    for path, word in words:
        for match in PLACEHOLDER.finditer(word):
            yield from _unfilled(match, at + path, names)


def var_names(place) -> tuple:
    """The names of the vars of the tests a hook at ``place`` runs for: a test's own hooks' are its own, the suite's
    (a target's) any test's."""
    document = place.document if isinstance(place.document, dict) else {}
    tests = document.get("tests") if isinstance(document.get("tests"), list) else []
    if place.at[:1] == ("tests",) and len(place.at) > 1 and isinstance(place.at[1], int) and place.at[1] < len(tests):
        tests = [tests[place.at[1]]]
    return tuple(sorted({name for test in tests if isinstance(test, dict) and isinstance(test.get("vars"), dict)
                         for name in test["vars"] if isinstance(name, str)}))


def no_time(hook: dict, at: tuple, keys: tuple) -> Iterator:
    """EV110 for the timeout the runner reads of a hook with a command (the first of ``keys`` that is a number),
    when it is 0 or less, or more than Node.js's timers hold (it takes such a delay as 1 ms): the hook's process is
    stopped at once (runtime/exec.ts), and the hook fails."""
    key = next((key for key in keys if is_number(hook.get(key))), None)
    timeout = hook.get(key) if key is not None else None
    if not is_finite_number(timeout) or 0 < timeout <= MAX_TIMER or command_of(hook) is None:
        return
    if timeout <= 0:
        yield finding("EV110", f"hook '{key}' must be > 0, found {timeout}; the hook times out at once and fails",
                      at + (key,))
    else:
        yield finding("EV110", f"hook '{key}' must be at most {MAX_TIMER} (about 24.8 days), found {timeout}: Node.js "
                      "takes a longer delay as 1 ms, so the hook times out at once and fails", at + (key,))


def _shell_words(hook: dict, at: tuple) -> Iterator:
    """EV110 for a hook's command string that a shell would read otherwise than the loader, which splits it at
    white space (parseCommandArray) and runs the words with no shell: quotes stay in the words, and a shell's
    operators ('|', '>', '&&', '$', ...) are passed to the program as written."""
    key, command = read_command(hook)
    words = command.split() if isinstance(command, str) else []
    plain = REFERENCE.sub("", command) if words else ""  # the loader fills '${{ NAME }}' first
    try:
        shell_words = shellwords.split(command) if words else None  # a shell's own reading, when it parses
    except ValueError:
        shell_words = None
    if shell_words is not None and (SHELL_OPERATORS.search(DOLLAR.sub("", plain)) or EXPANDED.search(plain)):
        meant = _as_list(["sh", "-c", command])  # the shell itself, to run the operators
    elif shell_words is not None and shell_words != words:  # quotes that a shell reads as quoting
        meant = _as_list(shell_words)
    else:
        return
    yield finding("EV110", f"the hook's command string is split at white space and run with no shell, so it runs "
                  f"{_as_list(words[:8])[:-1]}{', ...]' if len(words) > 8 else ']'}: quotes and shell operators are "
                  f"passed to the program as written; write it as a list, {meant}", at + (key,))


def _as_list(words: list) -> str:
    return "[" + ", ".join(json.dumps(word) for word in words) + "]"


def no_command(hook: dict, place, what: str) -> Iterator:
    """EV110 for a hook without 'command' or 'script', which the loader drops (a near miss of one is EV115)."""
    if not any(isinstance(key, str) and near_misses(key, ("command", "script")) for key in hook):
        yield finding("EV110", f"{what} has no 'command' (or 'script'); the runner drops the hook, so nothing runs",
                      place.at, FIRST_KEY)


def _unfilled(match, at: tuple, names: tuple) -> Iterator:
    """EV509 for a '{{ name }}' of a hook's command that the runner leaves as written: it fills only a known name
    written without spaces (workspace/script-executor.ts), and no test's vars (the loader fills them into a test's
    criteria, input and expected output alone). Another name may be text the command means, unless it is a near miss
    of a known one."""
    name, written = match.group(1), match.group(0)
    if name not in HOOK_PLACEHOLDERS and name in names:
        yield finding("EV509", f"{quote(written)} is not filled in: the runner fills a test's vars into its criteria, "
                      "input and expected output, not into a hook's command, so the hook gets the text as written; "
                      "write the value, or use one of the placeholders it fills: "
                      + ", ".join("'{{" + name + "}}'" for name in HOOK_PLACEHOLDERS), at,
                      needle=written)
    elif name not in HOOK_PLACEHOLDERS and near_misses(name, HOOK_PLACEHOLDERS):
        yield finding("EV509", f"{quote(written)} is no placeholder the runner fills in a hook's command"
                      f"{did_you_mean(name, HOOK_PLACEHOLDERS)}, so the hook gets the text as written; known: "
                      f"{one_of(HOOK_PLACEHOLDERS)}", at, needle=written)
    elif name in HOOK_PLACEHOLDERS and written != "{{" + name + "}}":
        yield finding("EV509", f"{quote(written)} is not filled in: the runner fills a hook's placeholders only "
                      f"written without spaces, so the hook gets the text as written; write '{{{{{name}}}}}'", at,
                      needle=written)
