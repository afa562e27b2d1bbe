"""The 'execution' section of an AgentV 4.42 ``.agentv/config.yaml``: the run's settings that only that file gives
(an eval file's 'execution' does not read them, nor config.yaml the eval file's)."""
from __future__ import annotations

from functools import partial

from evallint.format.base import LintSchema
from evallint.format.fields import Flag, Setting, Text
from evallint.rules import config_file
from evallint.rules.common import is_finite_number

# a config.yaml setting (and a target's that the resolver reads loosely) the runner ignores when it is wrong (with
# a warning; in config.yaml often with the whole 'results' or config)
CONFIG_IGNORES = "the runner ignores it"


def config_flag(key: str) -> Flag:
    return Flag("EV110", f"'{key}' must be true or false, {{found}}; {CONFIG_IGNORES}",
                metadata={"description": f"'{key}': true or false."})


def config_text(key: str) -> Text:
    return Text("EV110", f"'{key}' must be a non-empty string, {{found}}; {CONFIG_IGNORES}", non_empty=True,
                metadata={"description": f"'{key}': a non-empty string."})


# the keys of an eval file's 'execution' (format/agentv4/execution.py, which a test keeps in step with this list):
# config.yaml's does not read them
EVAL_EXECUTION_KEYS = ("target", "targets", "workers", "threshold", "trials", "cache", "cache_path", "budget_usd",
                       "budgetUsd", "fail_on_error", "failOnError", "assertions", "assert", "evaluators")


class ConfigExecutionSchema(LintSchema):
    checks = (partial(config_file.check_config4_section, eval_keys=EVAL_EXECUTION_KEYS),)
    verbose = config_flag("verbose")
    keep_workspaces = config_flag("keep_workspaces")
    export_otel = config_flag("export_otel")
    otel_capture_content = config_flag("otel_capture_content")
    otel_group_turns = config_flag("otel_group_turns")
    pool_workspaces = config_flag("pool_workspaces")
    otel_file = config_text("otel_file")
    otel_backend = config_text("otel_backend")
    pool_slots = Setting(lambda value: is_finite_number(value) and value == int(value) and 1 <= value <= 50, "EV110",
                         f"'pool_slots' must be a whole number from 1 to 50, {{found}}; {CONFIG_IGNORES}",
                         metadata={"description": "Workspace pool slots, 1 to 50."})
