"""EV9xx: style rules, off unless selected."""
from __future__ import annotations

from typing import Any

from evallint.diagnostics import FIRST_KEY, KEY, S, Finding, Rule

# the rules this module finds, explained in style.md beside it
EV901 = Rule("EV901", "prefer-expected-outcome", S, "the 'outcome' alias is used instead of 'expected_outcome'", fixable=True,
              generations=("2.2",))
EV902 = Rule("EV902", "legacy-target-key", S, "suite-level 'target' instead of 'execution.target'", fixable=True,
              generations=("2.2",))
EV903 = Rule("EV903", "legacy-rubric-type", S, "'type: rubric' where 'llm_judge' with 'rubrics' is current",
              generations=("2.2",))
EV904 = Rule("EV904", "missing-schema", S, "a recognised file without '$schema'", fixable=True, generations=("2.2",))

CODES = ("EV901", "EV902", "EV903", "EV904")
SCHEMA_IDS = {"eval": "agentv-eval-v2", "targets": "agentv-targets-v2.2", "config": "agentv-config-v2"}


def check(data: Any, kind: str, text: str) -> list:
    out: list = []
    if not isinstance(data, dict) or kind not in SCHEMA_IDS:
        return out
    if "$schema" not in data:
        schema = SCHEMA_IDS[kind]
        out.append(Finding("EV904", f"no '$schema' in this {kind} file; add '$schema: {schema}' as the first line so "
                           "editors and tools know what it is", (), FIRST_KEY, fix=("insert_schema", schema)))
    if kind != "eval":
        return out
    if "target" in data:
        fix = ("move_target",) if "execution" not in data else None
        out.append(Finding("EV902", "suite-level 'target' is the legacy spelling; use 'execution.target'",
                           ("target",), KEY, fix=fix))
    cases = data.get("evalcases")
    if isinstance(cases, list):
        for i, case in enumerate(cases):
            if not isinstance(case, dict):
                continue
            if "outcome" in case:
                fix = ("rename_key", "expected_outcome") if "expected_outcome" not in case else None
                out.append(Finding("EV901", "'outcome' is an alias; prefer the canonical 'expected_outcome'",
                                   ("evalcases", i, "outcome"), KEY, fix=fix))
            for where, evaluators in _evaluator_lists(case, ("evalcases", i)):
                _legacy_rubric(evaluators, where, out)
    execution = data.get("execution")
    if isinstance(execution, dict):
        _legacy_rubric(execution.get("evaluators"), ("execution", "evaluators"), out)
    return out


def _evaluator_lists(case: dict, at: tuple):
    yield at + ("evaluators",), case.get("evaluators")
    execution = case.get("execution")
    if isinstance(execution, dict):
        yield at + ("execution", "evaluators"), execution.get("evaluators")


def _legacy_rubric(evaluators: Any, at: tuple, out: list) -> None:
    if not isinstance(evaluators, list):
        return
    for i, ev in enumerate(evaluators):
        if isinstance(ev, dict):
            if ev.get("type") == "rubric":
                out.append(Finding("EV903", "'type: rubric' is the legacy spelling; use 'type: llm_judge' with "
                                   "'rubrics'", at + (i, "type")))
            if ev.get("type") == "composite":
                _legacy_rubric(ev.get("evaluators"), at + (i, "evaluators"), out)
