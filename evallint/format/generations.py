"""The schemas each AgentV version's files are loaded with, by kind of file, and which version a file is
read as: the one table the linter reads. AgentV 4.42.4's JSONL lines are tests of its dataset schema (its suite
schema, whose tests count as something to grade by what a JSONL line's loader counts)."""
from __future__ import annotations

from typing import Any, Optional

from functools import lru_cache
from importlib import import_module

from evallint.diagnostics import GENERATIONS
from evallint.load.files import CONFIG, DATASET, EVAL, SIDECAR, SKILLS, TARGETS, TEMPLATE, is_later_format

# what the file must be, by kind, when it is no mapping
NEEDED = {
    "2.2": {EVAL: "an eval file must be a mapping with 'evalcases'"},
    "4.42": {EVAL: "an eval file must be a mapping with 'tests'"},
}
NEEDED_ANY = {TARGETS: "a targets file must be a mapping with 'targets'", CONFIG: "a config file must be a mapping",
              SIDECAR: "a dataset sidecar must be a mapping of suite settings",
              SKILLS: "an Agent Skills evals file must be an object with an 'evals' list; the runner rejects the file",
              TEMPLATE: "an assertion template must be a mapping with an 'assertions' list; the runner skips every "
                        "test that includes it"}

LATER_TEST_KEYS = ("criteria", "assertions", "assert", "input_files")  # keys of a test only AgentV 4.42.4 reads


# where the schema of each kind of file is declared, by AgentV version: (module, name)
_DECLARED = {
    GENERATIONS[0]: {EVAL: ("agentv2.suite", "SUITE_SCHEMA"), DATASET: ("agentv2.suite", "SUITE_SCHEMA"),
                     TARGETS: ("agentv2.project", "TARGETS_SCHEMA"), CONFIG: ("agentv2.project", "CONFIG_SCHEMA"),
                     SIDECAR: ("agentv2.sidecar", "SIDECAR_SCHEMA")},
    GENERATIONS[1]: {EVAL: ("agentv4.suite", "AGENTV4_SUITE_SCHEMA"), DATASET: ("agentv4.suite", "AGENTV4_DATASET_SCHEMA"),
                     TARGETS: ("agentv4.project", "TARGETS_SCHEMA"), CONFIG: ("agentv4.project", "CONFIG_SCHEMA"),
                     SIDECAR: ("agentv4.sidecar", "SIDECAR_SCHEMA"), SKILLS: ("agentv4.skills", "SKILLS_SCHEMA"),
                     TEMPLATE: ("agentv4.templates", "TEMPLATE_SCHEMA")},
}


def schema(version: str, kind: str):
    """The schema a file of ``kind`` is loaded with in AgentV ``version``'s format; its module is imported when a
    file of that kind and version is first met, so that a run imports only what its files need."""
    module, name = _DECLARED[version][kind]
    return getattr(import_module(f"evallint.format.{module}"), name)


def sidecar_reads(version: str) -> tuple:
    """The keys of a dataset's sidecar that AgentV ``version``'s loader reads as the suite's settings."""
    from evallint.format.keys import known_keys

    return tuple(key for key in known_keys(schema(version, SIDECAR)) if key != "$schema")


def needed(version: str, kind: str) -> str:
    return NEEDED[version].get(kind) or NEEDED_ANY[kind]


@lru_cache(maxsize=1)
def _later_keys() -> tuple:
    """What only AgentV 4.42.4's targets and config files hold: its config keys, its target keys and its
    providers."""
    from evallint.format.agentv2 import project as project2
    from evallint.format.agentv4 import project as project4
    from evallint.format.keys import known_keys
    from evallint.rules import targets as targets2
    from evallint.rules import targets4

    config = frozenset(known_keys(project4.CONFIG_SCHEMA)) - frozenset(known_keys(project2.CONFIG_SCHEMA))
    target = (frozenset(known_keys(project4.TargetSchema())) - frozenset(known_keys(project2.TargetSchema()))
              - frozenset(targets2.COMMON_SETTINGS))
    providers = (frozenset(targets4.PROVIDERS + targets4.ALIASES) - frozenset(targets2.PROVIDERS)
                 - frozenset(targets2.ALIASES))
    return config, target, providers


def version_of(kind: str, data: Any, configured: Optional[str]) -> str:
    """The AgentV version whose format a file of ``kind`` is read as: the configured one, else what the file
    holds tells (``_SIGNS``); AgentV 2.2's without a sign. '$schema' is none: AgentV's own 4.42.4 examples
    carry 2.2's schema ids. An Agent Skills evals file and an assertion template are AgentV 4.42.4's whatever is
    configured: no other release reads one."""
    if kind in (SKILLS, TEMPLATE):
        return GENERATIONS[1]
    if configured:
        return configured
    sign = _SIGNS.get(kind)
    return GENERATIONS[1] if sign is not None and sign(data) else GENERATIONS[0]


def _later_eval(data: Any) -> bool:
    """Cases under 'tests', a top-level list of tests (a file of tests a suite names), or cases under AgentV
    4.42.4's deprecated 'evalcases' (or 'eval_cases') that hold a key only it reads ('criteria', 'assertions')."""
    return is_later_format(data) or _later_dataset(data) or _later_cases(data)


def _later_cases(data: Any) -> bool:
    if not isinstance(data, dict) or "tests" in data:
        return False
    cases = next((data[key] for key in ("eval_cases", "evalcases") if key in data), None)
    return _later_dataset(cases)


def _later_dataset(data: Any) -> bool:
    return isinstance(data, list) and any(_later_test(item) for item in data)


def _later_targets(data: Any) -> bool:
    """A target only AgentV 4.42.4 reads, or cli targets whose command is 'command' (2.2's is
    'command_template')."""
    targets = data.get("targets") if isinstance(data, dict) else None
    targets = [t for t in targets if isinstance(t, dict)] if isinstance(targets, list) else []
    return any(_later_target(t) for t in targets) or (
        any(t.get("provider") == "cli" and "command" in t for t in targets)
        and not any(k in t for t in targets for k in ("command_template", "commandTemplate")))


def _later_config(data: Any) -> bool:
    return isinstance(data, dict) and bool(_later_keys()[0] & set(data))


def _later_target(target: Any) -> bool:
    """A target only AgentV 4.42.4 reads: one of its keys or providers."""
    if not isinstance(target, dict):
        return False
    _, keys, providers = _later_keys()
    provider = target.get("provider")
    return bool(keys & set(target)) or isinstance(provider, str) and provider in providers


def _later_test(item: Any) -> bool:
    return isinstance(item, dict) and (any(key in item for key in LATER_TEST_KEYS) or _later_graders(item))


def _later_graders(test: dict) -> bool:
    """A grader, in a list both versions read, of a kind only AgentV 4.42.4 has ('code-grader')."""
    execution = test.get("execution")
    lists = (test.get("evaluators"), execution.get("evaluators") if isinstance(execution, dict) else None)
    types = [g.get("type") for graders in lists if isinstance(graders, list) for g in graders if isinstance(g, dict)]
    if not types:
        return False
    from evallint.format.agentv2.evaluators import EVALUATOR_KINDS

    others = [kind for kind in types if isinstance(kind, str) and kind not in EVALUATOR_KINDS]
    if not others:  # only AgentV 2.2's kinds: told without importing AgentV 4.42.4's package, which a run may not need
        return False
    from evallint.rules.grader_lists import normal_type

    return any(normal_type(kind) in _later_kinds() for kind in others)


@lru_cache(maxsize=1)
def _later_kinds() -> frozenset:
    """The grader kinds of AgentV 4.42.4 that AgentV 2.2 has not, as 4.42.4 matches them ('_' read as '-')."""
    from evallint.format.agentv2.evaluators import EVALUATOR_KINDS
    from evallint.rules.grader_lists import normal_type
    from evallint.format.agentv4.graders import KINDS

    return frozenset(KINDS) - {normal_type(kind) for kind in EVALUATOR_KINDS}


def _later_sidecar(data: Any) -> bool:
    """A dataset's sidecar that names its suite ('name'), or holds default graders in a list only AgentV 4.42.4
    reads ('execution.assertions') or of a kind only it has."""
    if not isinstance(data, dict):
        return False
    execution = data.get("execution")
    return "name" in data or _later_graders(data) or (
        isinstance(execution, dict) and any(key in execution for key in ("assertions", "assert")))


def dataset_version(cases: Any, sidecar: Any, configured: Optional[str]) -> str:
    """The AgentV version of a JSONL dataset and of its sidecar, which make one suite: the configured one, else
    AgentV 4.42.4's when either shows a sign of it."""
    if configured:
        return configured
    return GENERATIONS[1] if _later_dataset(cases) or _later_sidecar(sidecar) else GENERATIONS[0]


_SIGNS = {EVAL: _later_eval, DATASET: _later_dataset, TARGETS: _later_targets, CONFIG: _later_config,
          SIDECAR: _later_sidecar}
