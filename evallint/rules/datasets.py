"""EV7xx rules of a dataset's sidecar YAML that need more than one key: the
schema id, unknown keys and the execution's own checks.
The type of each key is declared on the schema (``format/agentv2/sidecar.py``)."""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Iterator

from evallint.diagnostics import FIRST_KEY, E, W, Rule
from evallint.load.files import EVALCASES_KEYS
from evallint.rules.common import Keys, Misplaced, check_unknown_keys, finding
from evallint.rules.grader_lists import LINE_DEFAULT_LISTS, first_list, value_at
from evallint.rules.structure import check_schema_id

# the rules this module finds, explained in datasets.md beside it
EV703 = Rule("EV703", "invalid-sidecar", E, "a dataset sidecar key that is unknown or of the wrong type")
EV704 = Rule("EV704", "sidecar-bypassed", W, "a suite names a dataset whose sidecar gives default graders as a file of "
             "tests, which the runner reads without its sidecar", generations=("4.42",))
EV705 = Rule("EV705", "empty-sidecar", W, "a dataset sidecar with no settings: no YAML document, or null")


# what the runner reads under a sidecar's 'execution', written beside it
MISPLACED_IN_SIDECAR = {
    "evaluators": Misplaced("under 'execution:' (as 'execution.evaluators')", list, code="EV703"),
    "target": Misplaced("under 'execution:' (as 'execution.target')", str, default="default", code="EV703"),
}


SIDECAR_SUFFIX = ".yaml"  # the runners read a dataset's sidecar as '<stem>.yaml' only (loaders/jsonl-parser.ts)


def unread_sidecar(path: str) -> Iterator:
    """EV703 for a sidecar candidate that the runner never reads: 'dataset.yml' beside 'dataset.jsonl'."""
    stem, suffix = os.path.splitext(os.path.basename(path))
    if suffix != SIDECAR_SUFFIX:
        yield finding("EV703", f"the runner never reads '{stem}{suffix}': it reads the settings of '{stem}.jsonl' only "
                      f"from '{stem}{SIDECAR_SUFFIX}', so the dataset runs without these; rename it", (), FIRST_KEY)


def empty_sidecar(data: Any, empty: bool) -> Iterator:
    """EV705 for a sidecar that holds nothing: the runners warn and run the dataset without settings
    (loaders/jsonl-parser.ts loadSidecarMetadata)."""
    if empty or data is None:
        yield finding("EV705", f"the sidecar is {'empty (no YAML document)' if empty else 'null'}: the runner warns "
                      "'Invalid sidecar metadata format' and runs the dataset without settings; write its settings "
                      "(a mapping) or remove the file", (), FIRST_KEY)


def sidecar_grading(sidecar: Any) -> str:
    """What a sidecar's data gives that changes how its dataset's lines are graded, for a message ("default graders
    ('execution.assertions')"); '' when nothing."""
    execution = sidecar.get("execution") if isinstance(sidecar, dict) else None
    path = first_list(execution, LINE_DEFAULT_LISTS) if isinstance(execution, dict) else None
    if path and value_at(execution, path):
        return f"default graders ('execution.{path[0]}')"
    evaluator = sidecar.get("evaluator") if isinstance(sidecar, dict) else None
    return f"a default grader kind ('evaluator: {evaluator}')" if isinstance(evaluator, str) and evaluator else ""


def check_sidecar(data: dict, place) -> Iterator:
    """EV012 and unknown keys (EV703) of the sidecar of ``name.jsonl``, which holds suite settings
    only (docs/format.md#the-sidecar)."""
    yield from check_schema_id(data)
    cases_here = "; cases belong in the .jsonl file, one JSON object per line"
    below = {key: replace(where, code="EV703") for key, where in place.keys.below.items()}  # 'execution.assertions'
    yield from check_unknown_keys(data, Keys(place.keys.known), (), "dataset sidecar", code="EV703",
                                  notes={key: cases_here for key in EVALCASES_KEYS},
                                  misplaced={**below, **MISPLACED_IN_SIDECAR})
