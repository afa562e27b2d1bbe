"""EV1xx: suite and case structure, and the alias / shorthand forms of a case."""
from __future__ import annotations

from typing import Any, Optional

from evallint.diagnostics import E, FIRST_KEY, KEY, W, Rule
from evallint.load.files import EVALCASES_NEAR_MISSES
from evallint.rules.collect import AT, CONTENT_AT, SIDECAR, annotate, annotate_list, reference, report
from evallint.rules.common import Keys, Misplaced, check_unknown_keys
from evallint.rules.evaluators import check_evaluator_list, check_inline_rubric_text, with_rubric_paths
from evallint.rules.messages import check_message_items, check_messages_list
from evallint.suggest import did_you_mean, found, one_of, quote

# the rules this module finds, explained in structure.md beside it
EV012 = Rule("EV012", "unknown-schema", W, "'$schema' is not a known AgentV schema id")
EV101 = Rule("EV101", "missing-evalcases", E, "no 'evalcases' list")
EV102 = Rule("EV102", "case-not-mapping", E, "an 'evalcases' item is not a mapping")
EV103 = Rule("EV103", "invalid-case-id", E, "a case 'id' is missing, empty or not a string", fixable=True)
EV104 = Rule("EV104", "duplicate-case-id", E, "two cases share an 'id'")
EV105 = Rule("EV105", "missing-input", E, "a case has no input messages")
EV106 = Rule("EV106", "missing-expected-outcome", E, "a case has neither 'expected_outcome' nor 'outcome'")
EV107 = Rule("EV107", "invalid-expected-outcome", E, "'expected_outcome' is not a non-empty string")
EV108 = Rule("EV108", "alias-shadowed", E, "an alias and its canonical key are both present; the alias is ignored")
EV110 = Rule("EV110", "invalid-field-type", E, "a known field has the wrong type")
EV111 = Rule("EV111", "empty-evalcases", W, "'evalcases' is an empty list")
EV112 = Rule("EV112", "invalid-input-shape", E, "'input' or 'expected_output' has a shape the shorthand does not accept")
EV113 = Rule("EV113", "evaluators-shadowed", E, "a case has both 'execution.evaluators' and 'evaluators'; the latter is ignored")
EV114 = Rule("EV114", "unknown-evaluator-kind", E, "a suite- or case-level 'evaluator' is not an evaluator kind")
EV116 = Rule("EV116", "ignored-target", E, "a case's own target, or a root 'target' beside 'execution.target'")
EV117 = Rule("EV117", "description-not-text", W, "a 'description' that is not a string (the runner never reads it)")

EVAL_SCHEMA = "agentv-eval-v2"
KNOWN_SCHEMAS = (EVAL_SCHEMA, "agentv-targets-v2.2", "agentv-config-v2")
# canonical key -> alias; the canonical key wins when both are present
ALIASES = (("expected_outcome", "outcome"), ("input_messages", "input"), ("expected_messages", "expected_output"))
# keys the runner reads one level up or down from where they are written (its loader reads a suite's
# 'evaluator', 'dataset', 'execution.target' and 'execution.evaluators', and a case's 'evaluator', 'rubrics',
# 'evaluators' and 'execution.evaluators')
_SUITE_EVALUATORS = Misplaced("under 'execution:' (as 'execution.evaluators')", list)
_CASE_RUBRICS = Misplaced("in an eval case (as the case's 'rubrics')", list)
MISPLACED_IN_SUITE = {"evaluators": _SUITE_EVALUATORS, "rubrics": _CASE_RUBRICS}
MISPLACED_IN_EXECUTION = {
    "evaluator": Misplaced("at the top level of the file (as 'evaluator')", str, default="llm_judge"),
    "dataset": Misplaced("at the top level of the file (as 'dataset')", str),
    "rubrics": _CASE_RUBRICS,
}
MISPLACED_IN_CASE_EXECUTION = {
    "evaluator": Misplaced("in the eval case itself (as the case's 'evaluator')", str),
    "rubrics": Misplaced("in the eval case itself (as the case's 'rubrics')", list),
}


def is_known_schema(value: Any) -> bool:
    return isinstance(value, str) and (value in KNOWN_SCHEMAS or value.startswith("agentv-targets-v2"))


def check_schema_id(data: dict) -> None:
    if "$schema" in data and not is_known_schema(data["$schema"]):
        value = data["$schema"]
        report("EV012", f"unknown '$schema' {quote(value)}{did_you_mean(value, KNOWN_SCHEMAS)}; known AgentV schema "
               f"ids: {one_of(KNOWN_SCHEMAS)} (or another 'agentv-targets-v2*')", ("$schema",))


def check_suite(data: dict, known: Keys) -> dict:
    """EV012, unknown keys, EV111 and duplicate case ids (EV104); ``data`` with its execution and
    cases knowing their paths."""
    check_schema_id(data)
    check_unknown_keys(data, known, (), "eval suite", skip=[k for k in data if k in EVALCASES_NEAR_MISSES],
                       misplaced=MISPLACED_IN_SUITE)
    check_description(data, (), "eval suite")
    if isinstance(data.get("target"), str):
        reference("target", data["target"], ("target",))
    cases = data.get("evalcases")
    check_ignored_targets(data)
    if cases == []:
        report("EV111", "'evalcases' is an empty list; this suite runs nothing", ("evalcases",))
    if isinstance(cases, list):
        cases = annotate_list(cases, ("evalcases",))
        check_duplicate_ids([case for case in cases if isinstance(case, dict)])
        data = {**data, "evalcases": cases}
    return with_execution_path(data, ())


def check_description(data: dict, at: tuple, where: str) -> None:
    """EV117: a 'description' that is no string; the runner never reads it, so the run is the same."""
    if "description" in data and not isinstance(data["description"], str):
        report("EV117", f"'description' in {where} should be a string, {found(data['description'])}; the runner "
               "never reads it, so nothing changes in the run", at + ("description",))


def _target_name(value: Any) -> Optional[str]:
    """The target the runner uses for ``value``: trimmed, 'default' when empty; None for no string."""
    return (value.strip() or "default") if isinstance(value, str) else None


def check_ignored_targets(data: dict) -> None:
    """EV116: a target the runner never reads, when it names another target than the one used: a root
    ``target`` beside ``execution.target``, and a case's own ``execution.target`` or ``target`` (the runner
    uses the suite's for every case). A case's ``target`` naming the suite's target is EV109: the run is the
    same."""
    execution = data.get("execution") if isinstance(data.get("execution"), dict) else {}
    used = _target_name(execution.get("target"))
    root = _target_name(data.get("target"))
    if used is not None and root is not None and root != used:
        report("EV116", f"root 'target' {quote(data['target'])} is ignored: the runner uses 'execution.target' "
               f"{quote(execution['target'])}; remove one of them", ("target",), KEY)
    used = used or root or "default"
    # a JSONL dataset has no top level: its settings go in its sidecar
    whole, setting = (("dataset", f"in its sidecar '{data[SIDECAR]}'") if SIDECAR in data
                      else ("suite", "at the top of the file"))
    cases = data.get("evalcases")
    for i, case in enumerate(cases if isinstance(cases, list) else ()):
        if not isinstance(case, dict):
            continue
        own = case.get("execution") if isinstance(case.get("execution"), dict) else {}
        for at, value in ((("execution", "target"), own.get("target")), (("target",), case.get("target"))):
            name = _target_name(value)
            if at == ("target",) and "target" in case and name in (None, used):
                same = f" (it names the {whole}'s target here, so the run is the same)" if name else ""
                report("EV109", f"unknown key 'target' in eval case; the runner ignores a case's target{same}",
                       ("evalcases", i, "target"), KEY)
            elif name is not None and name != used:
                report("EV116", f"a case's target {quote(value)} is ignored: the runner runs every case of the {whole} "
                       f"against the {whole}'s target '{used}'; set 'execution.target' {setting}, or move the case to "
                       f"a {whole} of its own", ("evalcases", i) + at, KEY)


def missing_cases(data: dict) -> tuple:
    """(message, data path, target) of EV101 for a suite without 'evalcases'."""
    near = [k for k in data if k in EVALCASES_NEAR_MISSES]
    if near:
        return (f"no 'evalcases' list: found '{near[0]}' (did you mean 'evalcases'?); the runner finds no cases in "
                "this file", near[0], KEY)
    return "no 'evalcases' list; the runner finds no cases in this file", "_schema", FIRST_KEY


def check_duplicate_ids(cases: list) -> None:
    seen: dict = {}
    for case in cases:
        cid = case.get("id")
        if not isinstance(cid, str) or not cid:
            continue
        at = case[AT] + ("id",)
        if cid in seen:
            report("EV104", f"duplicate case id '{cid}' (first used on line {{ref_line}}); "
                   "results of the two cases overwrite each other", at, ref=seen[cid])
        else:
            seen[cid] = at


def with_execution_path(data: dict, at: tuple) -> dict:
    if isinstance(data.get("execution"), dict):
        return {**data, "execution": annotate(data["execution"], at + ("execution",))}
    return data


def check_execution(execution: dict, known: Keys) -> dict:
    """Unknown keys, the target as a reference, EV303 among the evaluators; ``execution`` with its
    evaluators knowing their paths."""
    where = execution.get(AT, ())
    misplaced = MISPLACED_IN_CASE_EXECUTION if where[:1] == ("evalcases",) else MISPLACED_IN_EXECUTION
    check_unknown_keys(execution, known, where, "execution", misplaced=misplaced)
    if isinstance(execution.get("target"), str):
        reference("target", execution["target"], where + ("target",))
    if isinstance(execution.get("evaluators"), list):
        return {**execution, "evaluators": check_evaluator_list(execution["evaluators"], where + ("evaluators",))}
    return execution


def check_case(case: dict, at: tuple, known: Keys) -> dict:
    """Unknown keys, shadowed aliases (EV108) and evaluators (EV113), the input and expected output in their
    canonical form; ``case`` as the schema loads it."""
    check_unknown_keys(case, known, at, "eval case", skip=("target",))  # check_ignored_targets reports it
    check_description(case, at, "eval case")
    clean = dict(case)
    for canonical, alias in ALIASES:
        if canonical in case and alias in case:
            report("EV108", f"'{alias}' is ignored because '{canonical}' is also present; remove one of them",
                   at + (alias,), KEY)
            del clean[alias]

    clean.pop("input", None)
    if "input_messages" in case:
        messages = check_messages_list(case["input_messages"], at + ("input_messages",), "input_messages")
    elif "input" in case:
        messages = expand_input(case["input"], at + ("input",))
    else:
        report("EV105", "eval case has no 'input_messages' (or 'input'); there is nothing to send", at, FIRST_KEY)
        messages = None
    clean.pop("input_messages", None)
    if messages is not None:
        clean["input_messages"] = messages

    clean.pop("expected_output", None)
    if "expected_messages" in case:
        expected = check_messages_list(case["expected_messages"], at + ("expected_messages",), "expected_messages")
    elif "expected_output" in case:
        expected = expand_expected_output(case["expected_output"], at + ("expected_output",))
    else:
        expected = []
    clean.pop("expected_messages", None)
    if expected is not None:
        clean["expected_messages"] = expected

    # precedence: the case's execution.evaluators, then its evaluators (the model applies it)
    raw_execution = case.get("execution") if isinstance(case.get("execution"), dict) else {}
    if "evaluators" in raw_execution and "evaluators" in case:
        report("EV113", "'evaluators' is ignored because 'execution.evaluators' is also set on this case",
               at + ("evaluators",), KEY)
        del clean["evaluators"]
    elif isinstance(case.get("evaluators"), list):
        clean["evaluators"] = check_evaluator_list(case["evaluators"], at + ("evaluators",))
    if "rubrics" in case:
        check_inline_rubric_text(case, at)
        clean = with_rubric_paths(clean, at)
    return with_execution_path(clean, at)


def _message(role: str, content: Any, at: tuple) -> dict:
    return {"role": role, "content": content, AT: at, CONTENT_AT: at}


def expand_input(value: Any, at: tuple) -> Optional[list]:
    """``input`` shorthand: a string is one user message; a list is the messages."""
    if isinstance(value, str):
        if not value.strip():
            report("EV105", "'input' is an empty string; there is nothing to send", at)
            return None
        return [_message("user", value, at)]
    if isinstance(value, list):
        if not value:
            report("EV105", "'input' is an empty list; there is nothing to send", at)
            return None
        return check_message_items(value, at)
    if value is None:
        report("EV105", "'input' has no value; there is nothing to send", at)
        return None
    report("EV112", f"'input' must be a string or a list of messages, {found(value)}", at)
    return None


def expand_expected_output(value: Any, at: tuple) -> Optional[list]:
    """``expected_output`` shorthand: string, mapping (with or without 'role') or list."""
    if isinstance(value, str):
        return [_message("assistant", value, at)]
    if isinstance(value, dict):
        if "role" in value:
            message = dict(value)
            message[AT] = at
            return [message]
        return [_message("assistant", value, at)]
    if isinstance(value, list):
        if value and isinstance(value[0], dict) and "role" in value[0]:
            return check_message_items(value, at)
        return [_message("assistant", value, at)]
    report("EV112", f"'expected_output' must be a string, a mapping or a list, {found(value)}", at)
    return None
