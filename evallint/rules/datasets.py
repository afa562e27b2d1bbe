"""EV7xx: JSONL datasets and their sidecar YAML."""
from __future__ import annotations

from ..discovery import EVALCASES_KEYS
from ..schemas.context import report
from ..suggest import found
from .common import check_unknown_keys
from .structure import check_evaluator_kind, check_execution, check_schema_id

SIDECAR_KEYS = ("$schema", "description", "dataset", "execution", "evaluator")


def check_sidecar(data: dict) -> dict:
    """The sidecar of ``name.jsonl`` holds suite metadata only (SPEC.md 4.3)."""
    clean: dict = {}
    check_schema_id(data)
    cases_here = "; cases belong in the .jsonl file, one JSON object per line"
    check_unknown_keys(data, SIDECAR_KEYS, (), "dataset sidecar", code="EV703",
                       notes={key: cases_here for key in EVALCASES_KEYS})
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
