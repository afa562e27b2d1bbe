"""EV7xx rules of a dataset's sidecar YAML that need more than one key: the
schema id, unknown keys, the execution's own checks and the evaluator kind.
The type of each key is declared on the schema (``schemas/sidecar.py``)."""
from __future__ import annotations

from ..discovery import EVALCASES_KEYS
from .common import check_unknown_keys
from .structure import check_evaluator_kind, check_execution, check_schema_id

SIDECAR_KEYS = ("$schema", "description", "dataset", "execution", "evaluator")


def check_sidecar(data: dict) -> dict:
    """EV012, EV703 for an unknown key, EV114 for an unknown evaluator kind; ``data`` with a mapping
    'execution' replaced by its checked fields, each mapping in it knowing its path."""
    check_schema_id(data)
    cases_here = "; cases belong in the .jsonl file, one JSON object per line"
    check_unknown_keys(data, SIDECAR_KEYS, (), "dataset sidecar", code="EV703",
                       notes={key: cases_here for key in EVALCASES_KEYS})
    if isinstance(data.get("evaluator"), str):
        check_evaluator_kind(data, ())
    if isinstance(data.get("execution"), dict):
        data = {**data, "execution": check_execution(data, ())}
    return data
