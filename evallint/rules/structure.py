"""EV1xx: suite and case structure, and the alias / shorthand forms of a case."""
from __future__ import annotations

from typing import Any, Optional

from ..diagnostics import FIRST_KEY, KEY
from ..kinds import EVALUATOR_KINDS
from ..schemas.context import AT, CONTENT_AT, reference, report
from ..suggest import did_you_mean, found, one_of, quote
from .common import check_string, check_unknown_keys, is_text
from .evaluators import check_evaluator_list, with_rubric_paths
from .messages import check_message_items, check_messages_list

SUITE_KEYS = ("$schema", "description", "dataset", "execution", "target", "evaluator", "evalcases")
EVALCASES_NEAR_MISSES = ("evalcase", "eval_cases", "evalCases", "eval_case", "evalCase", "cases", "eval-cases")
EXECUTION_KEYS = ("target", "evaluators")
CASE_KEYS = (
    "id", "conversation_id", "description", "expected_outcome", "outcome", "input_messages", "input",
    "expected_messages", "expected_output", "execution", "evaluators", "rubrics", "evaluator",
)
EVAL_SCHEMA = "agentv-eval-v2"
KNOWN_SCHEMAS = (EVAL_SCHEMA, "agentv-targets-v2.2", "agentv-config-v2")
# canonical key -> alias; the canonical key wins when both are present
ALIASES = (("expected_outcome", "outcome"), ("input_messages", "input"), ("expected_messages", "expected_output"))


def is_known_schema(value: Any) -> bool:
    return isinstance(value, str) and (value in KNOWN_SCHEMAS or value.startswith("agentv-targets-v2"))


def check_schema_id(data: dict) -> None:
    if "$schema" in data and not is_known_schema(data["$schema"]):
        value = data["$schema"]
        report("EV012", f"unknown '$schema' {quote(value)}{did_you_mean(value, KNOWN_SCHEMAS)}; known AgentV schema "
               f"ids: {one_of(KNOWN_SCHEMAS)} (or another 'agentv-targets-v2*')", ("$schema",))


def check_suite(data: dict, *, needs_cases: bool = True) -> dict:
    """Suite-level checks; returns the clean suite fields with annotated cases."""
    clean: dict = {}
    check_schema_id(data)
    near = [k for k in data if k in EVALCASES_NEAR_MISSES]
    check_unknown_keys(data, SUITE_KEYS, (), "eval suite", skip=near)
    for key in ("description", "dataset", "target"):
        if check_string(data, key, (), "eval suite"):
            clean[key] = data[key]
    if "target" in clean:
        reference("target", clean["target"], ("target",))
    evaluator = check_evaluator_kind(data, ())
    if evaluator:
        clean["evaluator"] = evaluator
    execution = check_execution(data, ())
    if execution:
        clean["execution"] = execution
    if not needs_cases:
        return clean
    if "evalcases" not in data:
        if near:
            report("EV101", f"no 'evalcases' list: found '{near[0]}' (did you mean 'evalcases'?); "
                   "the runner finds no cases in this file", (near[0],), KEY)
        else:
            report("EV101", "no 'evalcases' list; the runner finds no cases in this file", (), FIRST_KEY)
        return clean
    cases = data["evalcases"]
    if not isinstance(cases, list):
        report("EV101", f"'evalcases' must be a list of cases, {found(cases)}", ("evalcases",))
        return clean
    if not cases:
        report("EV111", "'evalcases' is an empty list; this suite runs nothing", ("evalcases",))
    items = []
    for i, case in enumerate(cases):
        if isinstance(case, dict):
            copy = dict(case)
            copy[AT] = ("evalcases", i)
            items.append(copy)
        else:
            report("EV102", f"an eval case must be a mapping with 'id', 'expected_outcome' and 'input', {found(case)}",
                   ("evalcases", i))
    check_duplicate_ids(items)
    clean["evalcases"] = items
    return clean


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


def check_evaluator_kind(data: dict, at: tuple) -> Optional[str]:
    if "evaluator" not in data:
        return None
    value = data["evaluator"]
    if not isinstance(value, str):
        report("EV110", f"'evaluator' must be the name of an evaluator kind, {found(value)}", at + ("evaluator",))
        return None
    if value not in EVALUATOR_KINDS:
        report("EV114", f"unknown evaluator kind '{value}'{did_you_mean(value, EVALUATOR_KINDS)}; the runner falls "
               f"back to 'llm_judge' (known kinds: {one_of(EVALUATOR_KINDS)})", at + ("evaluator",))
        return None
    return value


def check_execution(data: dict, at: tuple) -> Optional[dict]:
    if "execution" not in data:
        return None
    execution = data["execution"]
    where = at + ("execution",)
    if not isinstance(execution, dict):
        report("EV110", f"'execution' must be a mapping with 'target' and/or 'evaluators', {found(execution)}", where)
        return None
    check_unknown_keys(execution, EXECUTION_KEYS, where, "execution")
    clean: dict = {}
    if check_string(execution, "target", where, "execution"):
        clean["target"] = execution["target"]
        reference("target", execution["target"], where + ("target",))
    if "evaluators" in execution:
        items = check_evaluator_list(execution["evaluators"], where + ("evaluators",))
        if items is not None:
            clean["evaluators"] = items
    return clean


def check_case(case: dict, at: tuple) -> dict:
    """Case-level checks and alias / shorthand expansion; returns canonical fields."""
    clean: dict = {}
    check_unknown_keys(case, CASE_KEYS, at, "eval case")
    for canonical, alias in ALIASES:
        if canonical in case and alias in case:
            report("EV108", f"'{alias}' is ignored because '{canonical}' is also present; remove one of them",
                   at + (alias,), KEY)

    _check_id(case, at, clean)
    for key in ("conversation_id", "description"):
        if check_string(case, key, at, "eval case"):
            clean[key] = case[key]

    key = "expected_outcome" if "expected_outcome" in case else "outcome" if "outcome" in case else None
    if key is None:
        report("EV106", "eval case has no 'expected_outcome' (or 'outcome'); the runner skips such a case", at, FIRST_KEY)
    elif not is_text(case[key]):
        report("EV107", f"'{key}' must be a non-empty string describing the goal, {found(case[key])}", at + (key,))
    else:
        clean["expected_outcome"] = case[key]

    if "input_messages" in case:
        messages = check_messages_list(case["input_messages"], at + ("input_messages",), "input_messages")
    elif "input" in case:
        messages = expand_input(case["input"], at + ("input",))
    else:
        report("EV105", "eval case has no 'input_messages' (or 'input'); there is nothing to send", at, FIRST_KEY)
        messages = None
    if messages is not None:
        clean["input_messages"] = messages

    if "expected_messages" in case:
        expected = check_messages_list(case["expected_messages"], at + ("expected_messages",), "expected_messages")
    elif "expected_output" in case:
        expected = expand_expected_output(case["expected_output"], at + ("expected_output",))
    else:
        expected = []
    if expected is not None:
        clean["expected_messages"] = expected

    evaluator = check_evaluator_kind(case, at)
    if evaluator:
        clean["evaluator"] = evaluator
    execution = check_execution(case, at)
    if execution is not None:
        clean["execution"] = execution
    # precedence: the case's execution.evaluators, then its evaluators (the model applies it); a list
    # that is present but invalid (reported) still shadows the suite's, as it does for the runner
    raw_execution = case.get("execution") if isinstance(case.get("execution"), dict) else {}
    if "evaluators" in raw_execution:
        if "evaluators" in case:
            report("EV113", "'evaluators' is ignored because 'execution.evaluators' is also set on this case",
                   at + ("evaluators",), KEY)
    elif "evaluators" in case:
        clean["evaluators"] = check_evaluator_list(case["evaluators"], at + ("evaluators",)) or []
    if "rubrics" in case:
        clean["rubrics"] = with_rubric_paths(case, at)["rubrics"]
    return clean


def _check_id(case: dict, at: tuple, clean: dict) -> None:
    if "id" not in case:
        report("EV103", "eval case has no 'id'; every case needs a unique string id", at, FIRST_KEY)
        return
    value = case["id"]
    if value is None:
        report("EV103", "case 'id' has no value; every case needs a unique string id", at + ("id",))
        return
    if isinstance(value, str):
        if value.strip():
            clean["id"] = value
        else:
            report("EV103", "case 'id' is an empty string; every case needs a unique string id", at + ("id",))
        return
    fix = ("quote",) if isinstance(value, (int, float)) else None
    report("EV103", f"case 'id' must be a string, {found(value)}; quote it", at + ("id",), fix=fix)


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
