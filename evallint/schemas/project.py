"""Schemas of `.agentv/targets.yaml` and `.agentv/config.yaml`."""
from __future__ import annotations

from marshmallow import fields, post_load, pre_load

from ..rules.config_file import check_config
from ..rules.targets import check_target, check_targets_file
from ..model import ProjectConfig, Target, TargetsFile
from .base import LintSchema
from .context import AT


class TargetSchema(LintSchema):
    name = fields.String(metadata={"description": "Unique name of the target."})
    provider = fields.String(metadata={"description": "The provider (azure, anthropic, gemini, cli, ...)."})
    judge_target = fields.String(metadata={"description": "Target that judges this one's answers."})
    workers = fields.Integer(metadata={"description": "Parallel workers, > 0."})
    settings = fields.Dict(metadata={"description": "Provider settings (snake_case or camelCase)."})

    @pre_load
    def check(self, data, **kwargs):
        return check_target(data, data.get(AT, ()))

    @post_load
    def build(self, data, **kwargs):
        return Target(name=data.get("name", ""), provider=data.get("provider", ""),
                            judge_target=data.get("judge_target"), workers=data.get("workers"),
                            settings=data.get("settings", {}))


class TargetsFileSchema(LintSchema):
    targets = fields.Nested(TargetSchema, many=True)

    @pre_load
    def check(self, data, **kwargs):
        return {"targets": check_targets_file(data)}

    @post_load
    def build(self, data, **kwargs):
        return TargetsFile(path="", targets=tuple(data.get("targets", ())))


class ConfigSchema(LintSchema):
    guideline_patterns = fields.List(fields.String(), metadata={"description": "Globs of guideline files."})

    @pre_load
    def check(self, data, **kwargs):
        return check_config(data)

    @post_load
    def build(self, data, **kwargs):
        return ProjectConfig(path="", guideline_patterns=tuple(data.get("guideline_patterns", ())))


TARGETS_SCHEMA = TargetsFileSchema()
CONFIG_SCHEMA = ConfigSchema()
