"""EV7xx: JSONL datasets and their sidecar YAML."""
from __future__ import annotations

from ..diagnostics import KEY
from ..schemas.context import report
from ..suggest import did_you_mean, found, one_of
from .structure import check_evaluator_kind, check_execution, check_schema_id

SIDECAR_KEYS = ("$schema", "description", "dataset", "execution", "evaluator")


def check_sidecar(data: dict) -> dict:
    """The sidecar of ``name.jsonl`` holds suite metadata only (SPEC.md 4.3)."""
    clean: dict = {}
    check_schema_id(data)
    for key in data:
        if isinstance(key, str) and key not in SIDECAR_KEYS:
            hint = did_you_mean(key, SIDECAR_KEYS) or f" (a dataset sidecar may hold {one_of(SIDECAR_KEYS)})"
            more = "; cases belong in the .jsonl file" if key in ("evalcases", "eval_cases", "evalCases") else ""
            report("EV703", f"unknown key '{key}' in dataset sidecar{hint}{more}", (key,), KEY)
    for key in ("description", "dataset"):
        if key in data and not isinstance(data[key], str):
            report("EV703", f"sidecar '{key}' must be a string, {found(data[key])}", (key,))
        elif key in data:
            clean[key] = data[key]
    if "execution" in data and not isinstance(data["execution"], dict):
        report("EV703", f"sidecar 'execution' must be a mapping with 'target' and/or 'evaluators', "
               f"{found(data['execution'])}", ("execution",))
    else:
        execution = check_execution(data, ())
        if execution:
            clean["execution"] = execution
    if "evaluator" in data and not isinstance(data["evaluator"], str):
        report("EV703", f"sidecar 'evaluator' must be an evaluator kind, {found(data['evaluator'])}", ("evaluator",))
    else:
        evaluator = check_evaluator_kind(data, ())
        if evaluator:
            clean["evaluator"] = evaluator
    return clean
