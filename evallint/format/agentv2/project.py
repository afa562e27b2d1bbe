"""Schemas of `.agentv/targets.yaml` and `.agentv/config.yaml`, and the models they build (apart from the eval
suite's ``model.py``, which a lint of a suite alone loads).

Each field states its type, range and whether it is required, with the rule
code of each (``fields.py``). What needs more than one field or target (names
used twice, a judge_target naming another target, the settings a provider
reads, secrets) and the warnings are rule functions in ``rules/targets.py`` and
``rules/config_file.py``, the schemas' ``checks``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from evallint.format.base import LintSchema, builds
from evallint.format.fields import Checked, Items, Record, Text, missing
from evallint.rules import config_file
from evallint.rules import targets as rules
from evallint.rules.common import is_finite_number
from evallint.suggest import one_of


@dataclass(frozen=True)
class Target:
    """A target of ``.agentv/targets.yaml``: its name, provider and the provider's settings."""

    name: str
    provider: str
    judge_target: Optional[str] = None
    workers: Optional[int] = None
    settings: dict = field(default_factory=dict)


@dataclass(frozen=True)
class TargetsFile:
    """The targets of ``.agentv/targets.yaml``."""

    path: str
    targets: tuple[Target, ...] = ()


@dataclass(frozen=True)
class ProjectConfig:
    """``.agentv/config.yaml``: the globs the runner finds guideline files by."""

    path: str
    guideline_patterns: tuple[str, ...] = ()


class Count(Checked):
    """A whole number (a float without a fraction too) that is finite as the runner reads it, given back as
    an int; with ``minimum``, no smaller."""

    def __init__(self, code: str, template: str, *, minimum: Optional[int] = None, **kwargs: Any):
        super().__init__(code, template, **kwargs)
        self.minimum = minimum

    def check(self, value: Any) -> int:
        whole = is_finite_number(value) and (isinstance(value, int) or value.is_integer())
        if not whole or (self.minimum is not None and value < self.minimum):
            raise self.reject(value)
        return int(value)

    def json_schema(self) -> dict:
        return {"type": "integer"} if self.minimum is None else {"type": "integer", "minimum": self.minimum}


class TargetSchema(LintSchema):
    checks = (rules.check_target,)
    name = Text("EV503", "target 'name' must be a non-empty string, {found}", non_empty=True, required=True,
                error_messages=missing("EV503", "target has no 'name'"),
                metadata={"description": "Unique name of the target."})
    provider = Text("EV505", "target 'provider' must be a non-empty string, {found}", non_empty=True, required=True,
                    error_messages=missing("EV505", f"target has no 'provider' (known: {one_of(rules.PROVIDERS)})"),
                    # an editor offers the known providers; evallint warns about another (EV506)
                    metadata={"description": "The provider (azure, anthropic, gemini, cli, ...) or an alias.",
                              "json": {"enum": list(rules.PROVIDERS) + list(rules.ALIASES)}})
    judge_target = Text("EV511", "'judge_target' must be the name of a target in this file, {found}",
                        metadata={"description": "Another target in this file that judges this one's answers."})
    workers = Count("EV513", "'workers' must be a positive integer, {found}", minimum=1,
                    metadata={"description": "Parallel workers, a positive integer."})

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        return Target(name=data["name"], provider=data["provider"], judge_target=data.get("judge_target"),
                      workers=data.get("workers"), settings=rules.settings_of(original))


class TargetsFileSchema(LintSchema):
    checks = (rules.check_targets_file,)
    targets = Items(Record(TargetSchema, "EV502", "a target must be a mapping with 'name' and 'provider', {found}"),
                    "EV501", "'targets' must be a list of targets, {found}", required=True,
                    error_messages=missing("EV501", "no 'targets' list; the runner finds no targets in this file"),
                    metadata={"description": "The targets an eval can run against."})

    @builds
    def build(self, data, **kwargs):
        return TargetsFile(path="", targets=tuple(data["targets"]))


class ConfigSchema(LintSchema):
    checks = (config_file.check_config,)
    guideline_patterns = Items(Text("EV601", "a guideline pattern must be a glob string, {found}"),
                               "EV601", "'guideline_patterns' must be a list of glob strings, {found}",
                               metadata={"description": "Globs of files that are guidelines."})

    @builds
    def build(self, data, **kwargs):
        return ProjectConfig(path="", guideline_patterns=tuple(data.get("guideline_patterns", ())))


TARGETS_SCHEMA = TargetsFileSchema()
CONFIG_SCHEMA = ConfigSchema()
