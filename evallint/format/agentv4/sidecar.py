"""The sidecar of an AgentV 4.42.4 JSONL dataset (`dataset.yaml` beside `dataset.jsonl`): the suite settings
its loader reads (the suite's name, its description, its default graders and its default grader kind), no tests.
Each key's type is declared with EV703; unknown keys are ``rules/datasets.py``'s, as for AgentV 2.2's."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from marshmallow import fields

from evallint.diagnostics import KEY
from evallint.format.agentv4.execution import ExecutionSchema, config_only, kind_name
from evallint.format.agentv4.graders import assertion_list
from evallint.format.base import LintSchema
from evallint.format.fields import Record, Text
from evallint.format.keys import known_keys
from evallint.rules import grader_lists as lists
from evallint.rules.common import check_unknown_keys, finding
from evallint.rules.datasets import check_sidecar

EXECUTION = ExecutionSchema()  # a suite's, whose settings a sidecar's 'execution' does not have


def check_sidecar_execution(execution: dict, place) -> Iterator:
    """EV703 for a suite setting in a sidecar's 'execution', which the runner does not read: the JSONL loader reads
    only the default graders there, and the command line reads a dataset's target (and its other run settings)
    from the '.jsonl' file itself (cli targets.ts, yaml-parser.ts), which has none, so it runs the target named
    'default' (which a sidecar may name: that runs as written). Other keys are unknown; one of config.yaml's 'execution'
    says so."""
    settings = tuple(key for key in known_keys(EXECUTION) if key not in place.keys.known)
    for key in execution:
        if key in settings and not (key == "target" and execution[key] == "default"):
            yield finding("EV703", f"'{key}' in a sidecar's 'execution' is not read: the runner reads only the default "
                          "graders there ('assertions', 'assert', 'evaluators'); a dataset's target and run settings "
                          "come from the command line", place.at + (key,), KEY)
    yield from check_unknown_keys(execution, place.keys, place.at, "sidecar execution", skip=settings, code="EV703",
                                  misplaced={key: replace(where, code="EV703") for key, where in config_only().items()})
    yield from lists.shadowed(execution, place.at, lists.LINE_DEFAULT_LISTS)


class SidecarExecutionSchema(LintSchema):
    """A JSONL dataset's sidecar 'execution': the default graders of its lines."""

    checks = (check_sidecar_execution,)
    assertions = assertion_list("execution.assertions", metadata={"description": "Default graders of every line."})
    assert_ = assertion_list("execution.assert", data_key="assert",
                             metadata={"description": "Deprecated alias.", "deprecated": True})
    evaluators = assertion_list("execution.evaluators", metadata={"description": "Deprecated alias.", "deprecated": True})


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
