"""Planning the upgrade of an eval suite, of a JSONL dataset's lines and of a dataset's sidecar: what AgentV
2.2 read in them, written as AgentV 4.42.4 reads it (``spellings.py``), and notes where that cannot be.

The plan keeps what 2.2 ran, not what the file wished: a case's own evaluators replace the suite's in 2.2,
so such a case gets ``skip_defaults: true``; what 2.2 dropped or did not give an evaluator and 4.42.4 would
run is commented out; a key both ignore stays as it is, with a warning."""
from __future__ import annotations

import os
from typing import Any

from evallint.rules.common import is_text
from evallint.rules.evaluators import MEMBER_IGNORED
from evallint.suggest import quote
from evallint.upgrade.plan import ERROR, WARNING, Plan
from evallint.upgrade.prompts import prompt_file
from evallint.upgrade.rubrics import plan_case_rubrics
from evallint.upgrade.scripts import payload_note
from evallint.upgrade.spellings import (
    AGGREGATOR_KINDS, ARGS_MATCH, CASE_KEYS, EVALUATOR_KEYS, KINDS, MEMBER_KINDS, METADATA,
    PROMPT_FILE_PREFIX, RUBRIC_ITEM_KEYS, SIDECAR_NAME, SUITE_KEYS, SUITE_NAME, SUITE_NAME_PATTERN,
)


class Where:
    """The file being upgraded: its folder and the root that references resolve within."""

    def __init__(self, path: str, root: str):
        self.folder = os.path.dirname(os.path.abspath(path))
        self.root = root
        self.templates: list = []  # the prompt templates whose 2.2 variables get their 4.42.4 names


def plan_suite(plan: Plan, where: Where) -> None:
    data = plan.doc.data
    if not isinstance(data, dict):
        return
    _rename_all(plan, (), data, SUITE_KEYS)
    _suite_name(plan, data)
    _kind_value(plan, ("evaluator",), data.get("evaluator"))
    execution = data.get("execution")
    suite_evaluators = isinstance(execution, dict) and "evaluators" in execution
    if suite_evaluators:
        _evaluators(plan, ("execution", "evaluators"), execution["evaluators"], where)
    cases = data.get("evalcases")
    if isinstance(cases, list):
        for i, case in enumerate(cases):
            if isinstance(case, dict):
                plan_case(plan, ("evalcases", i), case, suite_evaluators, where)


def plan_sidecar(plan: Plan, where: Where) -> None:
    data = plan.doc.data
    if not isinstance(data, dict):
        return
    if isinstance(data.get(SIDECAR_NAME[0]), str) and data[SIDECAR_NAME[0]].strip():
        plan.rename((SIDECAR_NAME[0],), SIDECAR_NAME[1])  # any text names a dataset: 4.42.4 checks no metadata here
    _kind_value(plan, ("evaluator",), data.get("evaluator"))
    execution = data.get("execution")
    if isinstance(execution, dict) and "evaluators" in execution:
        _evaluators(plan, ("execution", "evaluators"), execution["evaluators"], where)


def plan_dataset(plan: Plan, where: Where) -> None:
    """A JSONL dataset: each line a case. A line's own evaluators replace the sidecar's in 2.2; in 4.42.4 the
    line's 'execution' (else the sidecar's) also gives the defaults added after them, so a line with evaluators
    of its own gets 'skip_defaults' whatever its sidecar holds (else its own would run twice)."""
    for i, case in enumerate(plan.doc.data["evalcases"]):
        plan_case(plan, ("evalcases", i), case, True, where)


def _suite_name(plan: Plan, data: dict) -> None:
    """2.2's 'dataset' becomes 'name' when 4.42.4 accepts it as the suite's name."""
    key, new = SUITE_NAME
    if key not in data:
        return
    name = data[key]
    if not isinstance(name, str) or not SUITE_NAME_PATTERN.match(name):
        plan.note((key,), ERROR, f"AgentV 4.42.4 names the suite by 'name', which must be 1 to 64 lowercase letters, "
                                 f"digits or '-' (else it rejects the file); {quote(name)} is not, so 'dataset' is left "
                                 "as it is and 4.42.4 names the suite after its file: rename it by hand", target="value")
        return
    for other, (what, test) in METADATA.items():
        if other in data and not test(data[other]):
            plan.note((other,), ERROR, f"with a 'name', AgentV 4.42.4 rejects the file unless '{other}' is {what}; "
                                       f"'dataset' is left as it is until '{other}' is")
            return
    plan.rename((key,), new)


def _rename_all(plan: Plan, at: tuple, mapping: dict, renames: dict) -> None:
    """Rename each key of ``mapping`` that ``renames`` names; of two spellings of one key, the first in
    ``renames`` is the one 2.2 read, and the other is left, which 4.42.4 ignores too."""
    done: dict = {}
    for old, new in renames.items():
        if old not in mapping:
            continue
        if new in done:
            plan.not_read(at + (old,), WARNING, f"AgentV 2.2 read {quote(done[new])} instead of this {quote(old)}, and "
                                            f"4.42.4 ignores it too (it reads {quote(done[new])} as {quote(new)})")
        else:
            plan.rename(at + (old,), new)
            done[new] = old


def plan_case(plan: Plan, at: tuple, case: dict, suite_evaluators: bool, where: Where) -> None:
    _rename_all(plan, at, case, CASE_KEYS)
    _kind_value(plan, at + ("evaluator",), case.get("evaluator"))
    execution = case.get("execution")
    own = None
    if isinstance(execution, dict):
        if "evaluators" in execution:
            own = at + ("execution", "evaluators")
        if "target" in execution:
            plan.not_read(at + ("execution", "target"), WARNING,
                      f"AgentV 2.2 ran this case against the suite's target, not {quote(execution['target'])}, and "
                      "4.42.4 ignores a test's 'execution.target' too; to run it against that target, write "
                      "'execution.targets' (a list)")
    if "evaluators" in case:
        if own is None:
            own = at + ("evaluators",)
        else:
            plan.not_read(at + ("evaluators",), WARNING, "AgentV 2.2 read 'execution.evaluators' instead of these, "
                                                     "and 4.42.4 does too")
    if own is not None:
        _evaluators(plan, own, plan.value(own), where)
        if suite_evaluators:
            _skip_defaults(plan, at, own)
    if isinstance(case.get("rubrics"), list) and case["rubrics"]:
        plan_case_rubrics(plan, at, own)


def _skip_defaults(plan: Plan, at: tuple, own: tuple) -> None:
    """A case's own evaluators replace the suite's in 2.2; 4.42.4 adds the suite's unless told not to, by
    'skip_defaults: true' in the test's 'execution', written just before the evaluators."""
    execution = plan.value(at).get("execution")
    if isinstance(execution, dict) and execution:
        if execution.get("skip_defaults") is not True:
            before = own[-1] if own[-2] == "execution" else next(iter(execution))
            plan.put_before(at + ("execution",), before, "skip_defaults", True)
    elif execution is not None:
        plan.note(at + ("execution",), ERROR, "AgentV 2.2 ran only this case's own evaluators, and 4.42.4 adds the "
                                              "suite's to them unless 'execution' has 'skip_defaults: true': this "
                                              "'execution' is no mapping with keys, so write it by hand")
    else:
        plan.put_before(at, "evaluators", "execution", {"skip_defaults": True})


def _kind_value(plan: Plan, path: tuple, kind: Any) -> None:
    if isinstance(kind, str) and KINDS.get(kind, kind) != kind:
        plan.set(path, KINDS[kind])


def _evaluators(plan: Plan, at: tuple, items: Any, where: Where, members: bool = False) -> None:
    """The evaluators at ``at`` (a composite's ``members``). 2.2 dropped an evaluator without a name or with a
    type it did not know, where 4.42.4 names it or keeps it as a custom grader: such an entry is taken out."""
    for j, evaluator in enumerate(items if isinstance(items, list) else ()):
        if not isinstance(evaluator, dict):
            continue
        kind = evaluator.get("type")
        if not members and (not is_text(evaluator.get("name")) or not isinstance(kind, str) or kind not in KINDS):
            why = "it has no name" if not is_text(evaluator.get("name")) else f"it knows no type {quote(kind)}"
            plan.drop(at + (j,), f"AgentV 2.2 dropped this evaluator ({why}), and 4.42.4 would run it")
        elif isinstance(kind, str):
            _evaluator(plan, at + (j,), evaluator, where, members)


def _evaluator(plan: Plan, at: tuple, evaluator: dict, where: Where, member: bool) -> None:
    kind = evaluator["type"]
    if member and kind in MEMBER_IGNORED and _member(plan, at, evaluator):
        return
    _kind_value(plan, at + ("type",), kind)
    _rename_all(plan, at, evaluator, EVALUATOR_KEYS.get(kind, {}))
    if kind == "code_judge" and "script" in evaluator:
        why = payload_note(evaluator["script"], evaluator.get("cwd"), where.folder, where.root)
        if why:
            plan.note(at + ("script",), ERROR, why, target="value")
    if kind == "llm_judge" and isinstance(evaluator.get("prompt"), str) and not member:
        _prompt(plan, at + ("prompt",), evaluator["prompt"], where)
    if kind in ("llm_judge", "rubric") and isinstance(evaluator.get("rubrics"), list) and not member:
        _rubric_items(plan, at + ("rubrics",), evaluator["rubrics"])
    if kind == "composite":
        _composite(plan, at, evaluator, where)
    if kind == "tool_trajectory" and isinstance(evaluator.get("expected"), list):
        _trajectory(plan, at, evaluator)


def _member(plan: Plan, at: tuple, evaluator: dict) -> bool:
    """A composite's llm_judge (or rubric) member: 2.2 ran it with the default prompt and no rubrics (it gave
    a member none of its settings), where 4.42.4 reads them, so they go; whether its kind is written here
    (a rubric member runs as a plain llm-grader: a 'rubrics' grader needs its criteria)."""
    kind = evaluator["type"]
    for key in MEMBER_IGNORED[kind]:
        if key in evaluator:
            plan.drop(at + (key,), f"AgentV 2.2 graded with a composite member's default prompt, not its "
                                   f"{quote(key)}, and 4.42.4 would use it")
    if kind in MEMBER_KINDS:
        plan.set(at + ("type",), MEMBER_KINDS[kind])
        return True
    return False


def _composite(plan: Plan, at: tuple, evaluator: dict, where: Where) -> None:
    _evaluators(plan, at + ("evaluators",), evaluator.get("evaluators"), where, members=True)
    aggregator = evaluator.get("aggregator")
    combined = aggregator.get("type") if isinstance(aggregator, dict) else None
    if isinstance(combined, str) and AGGREGATOR_KINDS.get(combined, combined) != combined:
        plan.set(at + ("aggregator", "type"), AGGREGATOR_KINDS[combined])


def _trajectory(plan: Plan, at: tuple, evaluator: dict) -> None:
    """2.2 matched an expected call's 'args' as a subset of the call's; 4.42.4 matches them exactly unless told."""
    calls = [call for call in evaluator["expected"] if isinstance(call, dict)]
    for j, call in enumerate(evaluator["expected"]):
        if isinstance(call, dict) and "input" in call:
            plan.not_read(at + ("expected", j, "input"), WARNING,
                      "AgentV 2.2 did not read an expected call's 'input' (it reads 'args'), and 4.42.4 does "
                      "not either; left as it is, the call matches any arguments")
    key, value = ARGS_MATCH
    if any(isinstance(call.get("args"), dict) for call in calls) and key not in evaluator and "argsMatch" not in \
            evaluator:
        plan.put_before(at, "expected", key, value)


def _rubric_items(plan: Plan, at: tuple, items: list) -> None:
    for j, item in enumerate(items):
        if isinstance(item, dict):
            _rename_all(plan, at + (j,), item, RUBRIC_ITEM_KEYS)


def _prompt(plan: Plan, at: tuple, value: str, where: Where) -> None:
    """A prompt 2.2 read from a file is written 'file://...' (without it, 4.42.4 sends the words). An
    aggregator's prompt is no such prompt: both runners send its words as written, never a file's."""
    if value.startswith(PROMPT_FILE_PREFIX):
        return
    found = prompt_file(value, where.folder, where.root)
    if found.error:
        plan.note(at, ERROR, found.error, target="value")
    elif found.path is not None:
        plan.set(at, PROMPT_FILE_PREFIX + value)
        if found.rewrite:
            where.templates.append(found.path)
