"""Which hooks of an AgentV 4.42.4 workspace the run never runs (EV124), as workspace/setup.ts runs them: with one
workspace folder the tests share (``workspace_kept.shares_a_folder``), the 'before_all' and 'after_all' of the first
test's workspace merged with the suite's, once; without one, each test's merged 'before_all' in a folder of its own,
and no 'after_all' at all. The loader merges a test's hooks over the suite's key by key (yaml-parser.ts
mergeWorkspaceConfigs), so the first test's own command replaces the suite's."""
from __future__ import annotations

from typing import Optional

from evallint.rules.kept_tests import first_test, kept_by_loader
from evallint.rules.workspace_kept import command_of, inline_hooks, shares_a_folder

ONCE = ("before_all", "after_all")
NOT_SHARED = ("the tests share no workspace folder (the first test's workspace, merged with the suite's, sets "
              "'isolation: per_test' or gives no template, hooks or repos), and the runner runs an 'after_all' only "
              "in a shared one")


def never_runs(name: str, hooks: dict, place) -> Optional[str]:
    """Why the run never runs the hook ``name`` of the inline workspace ``hooks`` at ``place`` (the suite's, or a
    test's of the suite), or None when it may run or that is not known here (a workspace file, a test from
    another file)."""
    document = place.document
    if name not in ONCE or command_of(hooks[name]) is None or not isinstance(document, dict):
        return None
    shared, first = shares_a_folder(document), first_test(document.get("tests"), document)
    if shared is None:
        return None
    if place.at == ("workspace", "hooks"):
        return _suites(name, hooks, shared, first)
    if len(place.at) == 4 and place.at[0] == "tests" and place.at[2:] == ("workspace", "hooks"):
        test = document["tests"][place.at[1]]
        if not kept_by_loader(test, suite=document) \
                or shared and command_of(hooks[name]) == first_command(name, document, first):
            return None  # a test the loader skips (EV105, EV106 say why); the command that runs anyway
        return _tests(name, shared, test is first)
    return None


def first_command(name: str, document: dict, first: dict):
    """The command of the hook ``name`` of the first test's workspace merged with the suite's: its own, else the
    suite's (``document`` and ``first``: what holds each inline workspace)."""
    own = inline_hooks(first).get(name)
    if isinstance(own, dict) and command_of(own) is not None:
        return command_of(own)
    hook = inline_hooks(document).get(name)
    return command_of(hook) if isinstance(hook, dict) else None


def _suites(name: str, hooks: dict, shared: bool, first: dict) -> Optional[str]:
    if name == "after_all" and not shared:
        return f"the suite's 'after_all' never runs: {NOT_SHARED}"
    own = inline_hooks(first)
    hook = own.get(name)
    if shared and own.get("enabled") is False:
        return (f"the suite's {name!r} never runs: the first test's workspace turns hooks off ('enabled: false'), and "
                f"the run runs only the first test's {name!r}, merged with the suite's")
    if shared and isinstance(hook, dict) and command_of(hook) is not None and command_of(hook) != command_of(hooks[name]):
        return f"the suite's {replaced(name)}"
    return None


def replaced(name: str) -> str:
    """Why the command of the suite's hook ``name`` never runs, the first test's own replacing it."""
    return (f"{name!r} command never runs: the first test's own {name!r} replaces it (the runner merges a test's hooks "
            f"over the suite's, key by key) and the run runs only the first test's; keep one of them")


def replacing(first) -> tuple:
    """(the names of the 'before_all' and 'after_all' hooks with a command in the inline workspace of the suite's
    first test ``first``, that workspace's 'isolation'); ((), None) when it has none or it is a file."""
    hooks = inline_hooks(first)
    if not hooks:
        return (), None
    return tuple(name for name in ONCE if isinstance(hooks.get(name), dict) and command_of(hooks[name])), \
        first["workspace"].get("isolation")


def later_never_runs(name: str) -> str:
    """Why a later test's hook ``name`` never runs when the tests share a folder."""
    return (f"this test's {name!r} never runs: the tests share one workspace folder, whose setup runs only the first "
            f"test's {name!r} (merged with the suite's); set it in the suite's workspace, or in the first test's")


def _tests(name: str, shared: bool, is_first: bool) -> Optional[str]:
    if shared and not is_first:
        return later_never_runs(name)
    if name == "after_all" and not shared:
        return f"this test's 'after_all' never runs: {NOT_SHARED}"
    return None
