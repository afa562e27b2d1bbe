"""The sidecar of an AgentV 4.42.4 JSONL dataset (`dataset.yaml` beside `dataset.jsonl`): the suite settings
its loader reads (the suite's name, its description, its execution and its default grader kind), no tests.
Each key's type is declared with EV703; unknown keys are ``rules/datasets.py``'s, as for AgentV 2.2's."""
from __future__ import annotations

from marshmallow import fields

from evallint.format.agentv4.execution import SidecarExecutionSchema, kind_name
from evallint.format.base import LintSchema
from evallint.format.fields import Record, Text
from evallint.rules import grader_lists as lists
from evallint.rules.datasets import check_sidecar


class SidecarSchema(LintSchema):
    checks = (check_sidecar,)
    interpolated = True
    schema_id = fields.Raw(data_key="$schema", metadata={"description": "Not read by the runner."})
    name = Text("EV703", "sidecar 'name' must be a string, {found}; the runner names the suite after the file",
                metadata={"description": "The suite's name; defaults to the file name without its extension."})
    description = Text("EV703", "sidecar 'description' must be a string, {found}",
                       metadata={"description": "What this suite checks, for people reading it."})
    execution = Record(SidecarExecutionSchema, "EV703", "sidecar 'execution' must be a mapping, {found}; the runner uses "
                                                 "the defaults", metadata={"description": "Defaults of every test "
                                                                                          "that has no execution of its own."})
    evaluator = kind_name()

    def reads(self, data):
        """Without the null lists of default graders in its 'execution' that the loader's ``??`` reads as absent."""
        execution = data.get("execution")
        if not isinstance(execution, dict):
            return data
        return {**data, "execution": lists.as_read(execution, lists.LINE_DEFAULT_LISTS)}


SIDECAR_SCHEMA = SidecarSchema()
