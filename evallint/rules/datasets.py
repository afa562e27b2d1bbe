"""EV7xx rules of a dataset's sidecar YAML that need more than one key: the
schema id, unknown keys and the execution's own checks.
The type of each key is declared on the schema (``format/sidecar.py``)."""
from __future__ import annotations

from evallint.diagnostics import E, Rule
from evallint.load.files import EVALCASES_KEYS
from evallint.rules.common import Misplaced, check_unknown_keys
from evallint.rules.structure import check_schema_id, with_execution_path

# the rules this module finds, explained in datasets.md beside it
EV703 = Rule("EV703", "invalid-sidecar", E, "a dataset sidecar key that is unknown or of the wrong type")


# what the runner reads under a sidecar's 'execution', written beside it
MISPLACED_IN_SIDECAR = {
    "evaluators": Misplaced("under 'execution:' (as 'execution.evaluators')", list, code="EV703"),
    "target": Misplaced("under 'execution:' (as 'execution.target')", str, default="default", code="EV703"),
}


def check_sidecar(data: dict, known: tuple) -> dict:
    """EV012 and unknown keys (EV703) of the sidecar of ``name.jsonl``, which holds suite settings
    only (docs/format.md#the-sidecar); ``data`` with its execution knowing its path."""
    check_schema_id(data)
    cases_here = "; cases belong in the .jsonl file, one JSON object per line"
    check_unknown_keys(data, known, (), "dataset sidecar", code="EV703",
                       notes={key: cases_here for key in EVALCASES_KEYS}, misplaced=MISPLACED_IN_SIDECAR)
    return with_execution_path(data, ())
