"""Schemas of AgentV 4.42.4's `.agentv/targets.yaml` and `.agentv/config.yaml`,
and the models they build.

A target is loaded by the schema of the resolver its provider selects
(``SETTINGS``: each setting that resolver reads, and how it reads it), so the
keys a target may hold are its provider's. Each field carries the rule code of
what it rejects: AgentV 2.2's rule for the same mistake, or EV110 for a setting
2.2 has no rule of. What needs more than one value (names across the file,
required settings, secrets, cli command templates, camelCase keys) is
``rules/targets4.py`` and ``rules/config_file.py``, the schemas' ``checks``."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterator, Optional

from marshmallow import fields, validates_schema

from evallint.diagnostics import FIRST_KEY
from evallint.format.agentv2 import project as agentv2
from evallint.format.agentv2.project import Count
from evallint.format.base import LintSchema, builds, load
from evallint.format.agentv4.config_execution import CONFIG_IGNORES, ConfigExecutionSchema, config_flag, config_text
from evallint.format.fields import Flag, Items, Record, Setting, Text, invalid, missing, problem_at
from evallint.format.keys import known_keys
from evallint.format.jsonschema import folded
from evallint.load.environment import RESOLVED_REFERENCE
from evallint.load.numbers import NUMBER_TEXT, js_number, js_trim
from evallint.rules import config_file, targets4
from evallint.rules.common import is_finite_number, is_text
from evallint.suggest import any_of, one_of


@dataclass(frozen=True)
class Target:
    """A target of AgentV 4.42.4's ``.agentv/targets.yaml``, as its loader keeps it."""

    name: str
    provider: Optional[str] = None
    use_target: Optional[str] = None
    grader_target: Optional[str] = None  # 'grader_target', else its older name 'judge_target'
    workers: Optional[int] = None
    settings: dict = field(default_factory=dict)  # the provider's settings, as written


@dataclass(frozen=True)
class ProjectConfig:
    """AgentV 4.42.4's ``.agentv/config.yaml``: the settings its runner reads."""

    path: str
    required_version: Optional[str] = None
    eval_patterns: tuple = ()
    execution: dict = field(default_factory=dict)
    results: Optional[dict] = None
    hooks: dict = field(default_factory=dict)


REJECTS = "the runner rejects the target"


def _numeric(value: Any) -> Optional[float]:
    """What the resolver reads of a setting as a number (resolveOptionalNumber): a finite number, or what Number()
    makes of a string when that is finite (None: no number; '' is no value to the resolver, as null is, and only to
    Number() 0)."""
    if is_finite_number(value):
        return float(value)
    return js_number(value) if isinstance(value, str) else None


def _number(value: Any) -> bool:
    return _numeric(value) is not None


def _positive(value: Any) -> bool:
    return value == "" or (_numeric(value) or 0) > 0


def _flag(value: Any) -> bool:
    """A boolean, or the text of one; '' is no value (resolveOptionalBoolean), as null is."""
    return isinstance(value, bool) or value == "" or (isinstance(value, str)
                                                      and js_trim(value).lower() in ("true", "false", "1", "0"))


def _env(value: Any) -> bool:
    return isinstance(value, str) and (not value.strip() or bool(RESOLVED_REFERENCE.match(value.strip())))


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(is_text(item) for item in value)


def _numbers(value: Any) -> bool:
    return isinstance(value, list) and all(is_finite_number(item) for item in value)


def _one_of(*choices: str, fold: bool = False) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, str) and (js_trim(value).lower() if fold else value) in choices


def _filled(accepts: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """What ``accepts`` takes, or a whole '${{ NAME }}', which the resolver fills from the environment first and
    then checks (resolveOptionalString with optionalEnv): the run's environment decides."""
    return lambda value: accepts(value) or (isinstance(value, str) and bool(RESOLVED_REFERENCE.match(value.strip())))


def reader(accepts: Callable[[Any], bool], what: str, effect: str = REJECTS, allow_none: bool = True,
           shape: Optional[dict] = None, literal: bool = False, choices: Callable[[Any], tuple] = lambda value: ()):
    """A kind of setting: ``what`` it must be; ``effect``: what the runner does with another value; null is
    absent unless ``allow_none`` is false; ``shape``: the JSON Schema of what it accepts (None: any value);
    ``literal``: the resolver reads the text as written, filling no '${{ NAME }}' (``targets4.check_target``);
    ``choices``: what another value may have been meant as (a "did you mean")."""
    def make(key: str) -> Setting:
        text = f"'{key}' must be {what}".replace("{", "{{").replace("}", "}}")
        return Setting(accepts, "EV110", text + ", {found}{hint}; " + effect, suggest=choices, allow_none=allow_none,
                       metadata={"description": f"A provider setting: {what}.", "json": shape or {},
                                 "literal": literal})
    return make


def _choices(*choices: str, fold: bool = False) -> dict:
    """The JSON Schema of a string among ``choices`` (``fold``: in any case, with white space around)."""
    if fold:
        return {"type": "string", "pattern": folded(choices)}
    return {"const": choices[0]} if len(choices) == 1 else {"enum": list(choices)}


_STRING = {"type": "string"}
_NUMBER_TEXT = {"type": "string", "pattern": "^" + NUMBER_TEXT + "$"}
TEXT = reader(lambda value: isinstance(value, str), "a string", shape=_STRING)
ENV = reader(_env, "an environment reference such as '${{ NAME }}' (the runner reads it only from the environment)",
             shape={"type": "string", "pattern": r"^\s*(\$\{\{\s*[A-Za-z0-9_]+\s*\}\}\s*)?$"})
_ENV_SHAPE = {"type": "string", "pattern": r"^\s*\$\{\{\s*[A-Za-z0-9_]+\s*\}\}\s*$"}  # a whole reference
NUMBER = reader(_number, "a number", shape={"anyOf": [{"type": "number"}, _NUMBER_TEXT]})
TIMEOUT = reader(_positive, "a number > 0", shape={"anyOf": [{"type": "number", "exclusiveMinimum": 0}, _NUMBER_TEXT]})
FLAG = reader(_flag, "true or false", shape={"anyOf": [{"type": "boolean"}, _choices("true", "false", "1", "0",
                                                                                      fold=True)]})
STRINGS = reader(_strings, "a list of non-empty strings",
                 shape={"type": "array", "items": {"type": "string", "pattern": "\\S"}})
NUMBERS = reader(_numbers, "a list of numbers", shape={"type": "array", "items": {"type": "number"}})
_STREAM_LOGS = ("raw", "summary")  # besides false, or its text
STREAM_LOG = reader(lambda value: value is False or value in ("false", *_STREAM_LOGS), "false, " + any_of(_STREAM_LOGS),
                    shape={"enum": [False, "false", *_STREAM_LOGS]}, choices=lambda value: _STREAM_LOGS)


def choice(*options: str, fold: bool = False, filled: bool = False):
    """A setting that is one of ``options`` (``fold``: in any case, with white space around, its JSON Schema a pattern,
    which gives ``options`` as its examples, for an editor to offer; ``filled``: or a whole '${{ NAME }}', which the
    resolver fills from the environment first), a typo getting a "did you mean"."""
    accepts, shape = _one_of(*options, fold=fold), _choices(*options, fold=fold)
    if fold:
        shape = {**shape, "examples": list(options)}
    return reader(_filled(accepts) if filled else accepts, any_of(options),
                  shape={"anyOf": [shape, _ENV_SHAPE]} if filled else shape, choices=lambda value: options)


LOG_FORMAT = choice("summary", "json", fold=True)
ANY = reader(lambda value: True, "any value")
# what the resolver reads only when it has the right type, ignoring it otherwise
TEXT_OR_IGNORED = reader(lambda value: isinstance(value, str), "a string", CONFIG_IGNORES, shape=_STRING, literal=True)
NUMBER_OR_IGNORED = reader(is_finite_number, "a number", CONFIG_IGNORES, shape={"type": "number"})
# a cli target is checked as written, before any setting is read: null is no absent value there
CLI_TEXT = reader(lambda value: isinstance(value, str), "a string", allow_none=False, shape=_STRING)
CLI_LITERAL = reader(lambda value: isinstance(value, str), "a string", allow_none=False, shape=_STRING, literal=True)
CLI_POSITIVE = reader(lambda value: is_finite_number(value) and value > 0, "a number > 0", allow_none=False,
                      shape={"type": "number", "exclusiveMinimum": 0})
CLI_FLAG = reader(lambda value: isinstance(value, bool), "true or false", allow_none=False, shape={"type": "boolean"})
RAW = reader(lambda value: True, "any value")  # read by the rules (command, healthcheck)
# an agentv target's model: 'provider:model', the provider one its provider routes (agentv-provider.ts
# parseAgentvModel); the resolver takes any string, and making the target's provider fails on another
_AGENTV_ROUTES = ("openai", "anthropic", "azure", "google")
AGENTV_MODEL = reader(lambda value: isinstance(value, str) and value.partition(":")[0] in _AGENTV_ROUTES and ":" in value,
                      f"'provider:model' of a provider {any_of(_AGENTV_ROUTES)} (such as 'openai:gpt-5-mini'), read "
                      "as written",
                      "the runner cannot make the target's provider, so a run on it, and a grader it is the target of, "
                      "fails", shape={"type": "string", "pattern": "^(" + "|".join(_AGENTV_ROUTES) + "):"},
                      choices=lambda value: tuple(f"{route}:{value.partition(':')[2]}" for route in _AGENTV_ROUTES)
                      if isinstance(value, str) and ":" in value else (), literal=True)  # targets.ts reads it raw


def _settings(reads: Callable, *keys: str) -> dict:
    return {key: reads for key in keys}


RETRY = {**_settings(NUMBER, "max_retries", "retry_initial_delay_ms", "retry_max_delay_ms", "retry_backoff_factor"),
         "retry_status_codes": NUMBERS}
LLM = {**RETRY, **_settings(NUMBER, "temperature", "max_output_tokens"), "api_key": TEXT}
AGENT = {**_settings(TEXT, "model", "cwd", "log_dir", "log_directory", "executable", "command", "binary"),
         **_settings(STRINGS, "args", "arguments"), "timeout_seconds": TIMEOUT, "stream_log": STREAM_LOG,
         "system_prompt": TEXT_OR_IGNORED}
LOGS = _settings(LOG_FORMAT, "log_format", "log_output_format")
COPILOT = {**AGENT, **LOGS, **_settings(TEXT, "subprovider", "base_url", "api_key", "bearer_token", "api_version",
                                        "api_format")}
PI = {**AGENT, **LOGS, **_settings(TEXT, "subprovider", "pi_model", "api_key", "base_url", "endpoint", "tools",
                                   "pi_tools", "thinking", "pi_thinking")}
CLAUDE = {**{k: v for k, v in AGENT.items() if k not in ("args", "arguments")}, **LOGS,  # it reads no arguments
          **_settings(NUMBER_OR_IGNORED, "max_turns", "max_budget_usd"), "bypass_permissions": FLAG}
SETTINGS = {  # resolver -> setting -> how it reads it
    "openai": {**LLM, **_settings(TEXT, "endpoint", "base_url"), **_settings(ENV, "model", "deployment", "variant"),
               "api_format": choice("chat", "responses", filled=True)},
    "openrouter": {**LLM, **_settings(ENV, "model", "deployment", "variant")},
    "azure": {**LLM, **_settings(ENV, "endpoint", "resource", "deployment", "model"),
              **_settings(TEXT, "version", "api_version")},
    "anthropic": {**LLM, **_settings(ENV, "model", "deployment", "variant"), "thinking_budget": NUMBER},
    "gemini": {**LLM, **_settings(TEXT, "model", "deployment", "variant")},
    "codex": {**AGENT, "model_reasoning_effort": choice("minimal", "low", "medium", "high", "xhigh", fold=True,
                                                        filled=True)},
    "copilot-sdk": {**{k: v for k, v in COPILOT.items() if k not in ("executable", "command", "binary")},
                    **_settings(TEXT, "cli_url", "cli_path", "github_token")},
    "copilot-cli": COPILOT,
    "copilot-log": {**_settings(TEXT, "session_dir", "session_id", "session_state_dir", "cwd"),
                    "discover": choice("latest")},
    "pi-coding-agent": {k: v for k, v in PI.items() if k not in ("executable", "command", "binary", "args", "arguments")},
    "pi-cli": PI,
    "claude": CLAUDE,
    "cc-mirror": {**CLAUDE, "variant": TEXT},
    "mock": {"response": TEXT_OR_IGNORED, "trace": ANY},
    "vscode": {**_settings(TEXT, "executable", "subagent_root"), **_settings(FLAG, "wait", "dry_run"),
               "timeout_seconds": TIMEOUT},
    "agentv": {"model": AGENTV_MODEL, "temperature": NUMBER_OR_IGNORED},
    "cli": {**_settings(CLI_LITERAL, "files_format", "attachments_format"), "cwd": CLI_TEXT, "timeout_seconds": CLI_POSITIVE,
            **_settings(CLI_FLAG, "verbose", "cli_verbose", "keep_temp_files", "keep_output_files", "provider_batching"),
            **_settings(RAW, "command", "healthcheck")},
    "replay": _settings(TEXT, "fixtures", "execution_traces", "source_target", "suite", "eval_path", "variant"),
    targets4.DISCOVERED: {**_settings(TEXT, "command", "cwd"), "timeout_seconds": TIMEOUT},
}


class TargetSchema(LintSchema):
    """The keys every target may hold; a provider's schema adds its settings (``SETTINGS``)."""

    checks = (targets4.check_target,)
    name = Text("EV503", "target 'name' must be a non-empty string, {found}", non_empty=True, required=True,
                error_messages=missing("EV503", "target has no 'name'"),
                metadata={"description": "Unique name of the target."})
    provider = Text("EV505", "target 'provider' must be a non-empty string, {found}", non_empty=True,
                    metadata={"description": "The provider (openai, azure, anthropic, codex, claude, cli, ...) or an "
                              "alias; another name is a provider script in .agentv/providers/."})
    use_target = Text("EV511", "'use_target' must be the name of a target in this file, {found}",
                      metadata={"description": "Another target this one stands for (or '${{ VAR }}' naming one)."})
    grader_target = Text("EV511", "'grader_target' must be the name of a target in this file, {found}",
                         metadata={"description": "Another target in this file that grades this one's answers."})
    judge_target = Text("EV511", "'judge_target' must be the name of a target in this file, {found}",
                        metadata={"description": "The older name of 'grader_target', read when it is absent."})
    workers = Count("EV513", "'workers' must be a positive integer, {found}", minimum=1,
                    metadata={"description": "Parallel workers, a positive integer."})
    provider_batching = FLAG("provider_batching")  # true or false, or a string of one
    subagent_mode_allowed = Flag("EV110", "'subagent_mode_allowed' must be true or false, {found}; " + REJECTS,
                                 metadata={"description": "Whether subagent mode may run this target (default true)."})
    fallback_targets = Items(Text("EV110", "a fallback target must be a non-empty string, {found}", non_empty=True),
                             "EV110", "'fallback_targets' must be a list of target names, {found}; " + REJECTS,
                             metadata={"description": "Targets tried in turn when this one fails."})

    @cached_property  # the schemas are built once
    def settings_read(self) -> frozenset:
        """Every key some target is read by: the common ones and each provider's settings."""
        return frozenset(known_keys(self)) | frozenset(key for settings in SETTINGS.values() for key in settings)

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_provider(self, data, original, **kwargs):
        if "provider" not in original and not is_text(original.get("use_target")):
            raise problem_at("EV505", "target has no 'provider' nor 'use_target' (known providers: "
                             f"{one_of(targets4.PROVIDERS)})", target=FIRST_KEY)

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        common = known_keys(TARGET_SCHEMA)
        return Target(name=data["name"], provider=data.get("provider"), use_target=data.get("use_target"),
                      grader_target=data.get("grader_target", data.get("judge_target")), workers=data.get("workers"),
                      settings={k: v for k, v in original.items() if k not in common})


def _provider_schema(resolver: str) -> LintSchema:
    settings = {key: make(key) for key, make in SETTINGS[resolver].items()}
    return TargetSchema.from_dict(settings, name=f"{resolver.title().replace('-', '')}TargetSchema")()


TARGET_SCHEMA = TargetSchema()
PROVIDER_SCHEMAS = {resolver: _provider_schema(resolver) for resolver in SETTINGS}


def schema_of(target: dict) -> LintSchema:
    """The schema a target mapping is read by: its provider's, or the common one when it stands for another
    target or its provider is not known before the run (``${{ VAR }}``)."""
    resolver = targets4.resolver_of(target.get("provider"))
    if resolver is None or is_text(target.get("use_target")):
        return TARGET_SCHEMA
    return PROVIDER_SCHEMAS[resolver]


class TargetRecord(Record):
    """A target mapping, loaded by the schema its provider selects."""

    def _deserialize(self, value: Any, attr: Optional[str], data: Any, **kwargs: Any) -> Target:
        if not isinstance(value, dict):
            raise invalid(self.code, self.template, value)
        return load(schema_of(value), value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        if isinstance(value, dict):
            yield schema_of(value), value, at


class TargetsFileSchema(agentv2.TargetsFileSchema):
    """AgentV 2.2's targets file, each target read by its provider's schema."""

    checks = (targets4.check_targets_file,)
    targets = Items(TargetRecord(TargetSchema, "EV502", "a target must be a mapping with 'name' and 'provider', {found}"),
                    "EV501", "'targets' must be a list of targets, {found}", required=True,
                    error_messages=missing("EV501", "no 'targets' list; the runner finds no targets in this file"),
                    metadata={"description": "The targets an eval can run against."})




class SyncSchema(LintSchema):
    checks = (config_file.check_config4_section,)
    auto_push = config_flag("auto_push")
    require_push = config_flag("require_push")


def _home_or_absolute(value: Any) -> bool:
    return isinstance(value, str) and bool(re.match(r"(/|~([/\\]|\Z)|[A-Za-z]:[/\\])", value.strip()))


class ResultsSchema(LintSchema):
    checks = (config_file.check_config4_section, config_file.check_results)
    mode = Setting(lambda value: value == "github", "EV110",
                   f"results 'mode' must be 'github', {{found}}; {CONFIG_IGNORES} (and all of 'results')",
                   metadata={"description": "'github', the only mode."})
    repo_url = config_text("repo_url")
    repo = config_text("repo")
    repo_path = config_text("repo_path")
    branch = config_text("branch")
    remote = config_text("remote")
    branch_prefix = config_text("branch_prefix")
    path = Setting(_home_or_absolute, "EV110", "results 'path' must be an absolute or '~/' path (the folder of the "
                   f"results clone), {{found}}; {CONFIG_IGNORES} (and all of 'results')",
                   metadata={"description": "The folder of the results clone: absolute or '~/'."})
    auto_push = config_flag("auto_push")
    sync = Record(SyncSchema, "EV110", f"results 'sync' must be a mapping, {{found}}; {CONFIG_IGNORES}",
                  metadata={"description": "When results are pushed."})


class HooksSchema(LintSchema):
    checks = (config_file.check_config4_section,)
    before_session = config_text("before_session")


class ConfigSchema(LintSchema):
    checks = (config_file.check_config4,)
    interpolated = True
    required_version = Text("EV110", "'required_version' must be a string, {found}; the runner ignores the whole "
                            "config file", metadata={"description": "The AgentV versions this project needs."})
    eval_patterns = Items(Text("EV110", "an eval pattern must be a glob string, {found}; the runner ignores the whole "
                               "config file"),
                          "EV110", "'eval_patterns' must be a list of glob strings, {found}; the runner ignores the "
                          "whole config file", metadata={"description": "Globs of the eval files."})
    execution = Record(ConfigExecutionSchema, "EV110", f"'execution' must be a mapping, {{found}}; {CONFIG_IGNORES}",
                       metadata={"description": "Defaults of every run."})
    results = Record(ResultsSchema, "EV110", f"'results' must be a mapping, {{found}}; {CONFIG_IGNORES}",
                     allow_none=True, metadata={"description": "Where results are kept (a git repository)."})
    hooks = Record(HooksSchema, "EV110", f"'hooks' must be a mapping, {{found}}; {CONFIG_IGNORES}", allow_none=True,
                   metadata={"description": "Commands run when AgentV starts."})
    dashboard = fields.Raw(metadata={"unread": True, "description": "Read by the dashboard, not by evals."})
    studio = fields.Raw(metadata={"unread": True, "description": "Read by the studio, not by evals."})

    @builds
    def build(self, data, **kwargs):
        return ProjectConfig(path="", required_version=data.get("required_version"),
                             eval_patterns=tuple(data.get("eval_patterns", ())), execution=data.get("execution") or {},
                             results=data.get("results"), hooks=data.get("hooks") or {})


TARGETS_SCHEMA = TargetsFileSchema()
CONFIG_SCHEMA = ConfigSchema()
