"""The schema of a dataset sidecar (`dataset.yaml` beside `dataset.jsonl`):
suite metadata, no cases.

Each key's type is declared with EV703; the schema id and unknown keys are rule
functions in ``rules/datasets.py``, the schema's ``checks``."""
from __future__ import annotations

from marshmallow import fields

from evallint.format.base import LintSchema
from evallint.format.fields import Record, Text
from evallint.format.keys import known_keys
from evallint.format.agentv2.suite import ExecutionSchema, KindName
from evallint.rules.datasets import check_sidecar


class SidecarSchema(LintSchema):
    checks = (check_sidecar,)
    schema_id = fields.Raw(data_key="$schema", metadata={"description": "The AgentV schema id of this file."})
    description = Text("EV703", "sidecar 'description' must be a string, {found}",
                       metadata={"description": "What this suite checks, for people reading it."})
    dataset = Text("EV703", "sidecar 'dataset' must be a string, {found}",
                   metadata={"description": "Dataset name; defaults to the file name without its extension."})
    execution = Record(ExecutionSchema, "EV703", "sidecar 'execution' must be a mapping with 'target' and/or "
                                                 "'evaluators', {found}",
                       metadata={"description": "Defaults for every case: the target and the evaluators."})
    evaluator = KindName("EV703", "sidecar 'evaluator' must be an evaluator kind, {found}",
                     metadata={"description": "Default evaluator kind (the runner falls back to llm_judge)."})


SIDECAR_SCHEMA = SidecarSchema()
SIDECAR_KEYS = known_keys(SIDECAR_SCHEMA)
