"""EV5xx rules of `.agentv/targets.yaml` that need more than one field or
target: names across the file, a judge_target naming another target, the
settings each provider reads, secrets, and the warnings. The type and range of
a target's own keys are declared on the schemas (``format/agentv2/project.py``),
whose ``checks`` these functions are."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Iterator

from evallint.diagnostics import E, FIRST_KEY, KEY, W, Rule
from evallint.load.environment import is_reference
from evallint.load.secrets import snake
from evallint.rules.common import Keys, check_unknown_keys, finding, is_finite_number, is_text
from evallint.rules.structure import check_schema_id
from evallint.suggest import did_you_mean, found, misspells, one_of, quote

# the rules this module finds, explained in targets.md beside it
EV501 = Rule("EV501", "missing-targets", E, "a targets file without a 'targets' list")
EV502 = Rule("EV502", "target-not-mapping", E, "a 'targets' item is not a mapping")
EV503 = Rule("EV503", "invalid-target-name", E, "a target 'name' is missing, empty or not a string")
EV504 = Rule("EV504", "duplicate-target-name", E, "two targets share a name")
EV505 = Rule("EV505", "missing-provider", E, "a target 'provider' is missing, empty or not a string")
EV506 = Rule("EV506", "unknown-provider", W, "a target 'provider' that is not a known provider or alias")
EV507 = Rule("EV507", "unknown-target-setting", W, "a setting that the target's provider does not read")
EV508 = Rule("EV508", "cli-missing-command", E, "a 'cli' target without a command template")
EV509 = Rule("EV509", "cli-unknown-placeholder", E, "an unknown {PLACEHOLDER} in a command template")
EV510 = Rule("EV510", "invalid-healthcheck", E, "a malformed 'healthcheck'")
EV511 = Rule("EV511", "unknown-judge-target", E, "a 'judge_target' naming no target in the file")
EV512 = Rule("EV512", "hardcoded-secret", E, "a secret-like setting holding a literal value", redacted=True)
EV513 = Rule("EV513", "invalid-workers", E, "'workers' is not a positive integer")
EV514 = Rule("EV514", "cli-unknown-setting", E, "a 'cli' target setting the runner does not know (it rejects the target)",
             generations=("2.2",))
EV515 = Rule("EV515", "alias-setting-ignored", E, "a setting beside 'use_target', which the runner does not read",
             generations=("4.42",))

PROVIDERS = ("azure", "anthropic", "gemini", "codex", "pi-coding-agent", "pi-agent-sdk", "claude-code", "cli", "mock",
             "vscode", "vscode-insiders")
ALIASES = {"azure-openai": "azure", "google": "gemini", "google-gemini": "gemini", "codex-cli": "codex",
           "pi": "pi-coding-agent", "openai": "openai", "bedrock": "bedrock", "vertex": "vertex"}
COMMON_SETTINGS = ("name", "provider", "judge_target", "workers", "$schema", "provider_batching")
RETRY = ("max_retries", "retry_initial_delay_ms", "retry_max_delay_ms", "retry_backoff_factor", "retry_status_codes")
SETTINGS = {
    "azure": RETRY + ("endpoint", "resource", "resource_name", "api_key", "deployment", "deployment_name", "model",
                      "version", "api_version", "temperature", "max_output_tokens", "max_tokens"),
    "anthropic": RETRY + ("api_key", "model", "deployment", "variant", "temperature", "max_output_tokens", "max_tokens",
                          "thinking_budget"),
    "gemini": RETRY + ("api_key", "model", "deployment", "variant", "temperature", "max_output_tokens", "max_tokens"),
    "codex": ("executable", "command", "binary", "args", "arguments", "cwd", "timeout_seconds", "log_dir",
              "log_directory", "log_format", "log_output_format"),
    "vscode": ("workspace_template", "vscode_cmd", "command", "wait", "dry_run", "subagent_root"),
    "vscode-insiders": ("workspace_template", "vscode_cmd", "command", "wait", "dry_run", "subagent_root"),
    "mock": ("response", "delay_ms", "delay_min_ms", "delay_max_ms", "trace"),
    "cli": ("command_template", "files_format", "attachments_format", "cwd", "timeout_seconds", "healthcheck",
            "verbose", "cli_verbose", "keep_temp_files", "keep_output_files"),
}
PLACEHOLDERS = ("PROMPT", "GUIDELINES", "EVAL_ID", "ATTEMPT", "FILES", "OUTPUT_FILE")
HEALTHCHECK_TYPES = ("http", "command")
HEALTHCHECK_KEYS = ("type", "url", "command_template", "timeout_seconds", "cwd")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def is_secret_key(key: str) -> bool:
    """The settings EV512 reports a literal in (the specification's list; the values under each are also
    starred out wherever they are shown: ``load.secrets.holds_secret``)."""
    name = snake(key).lower()
    return (name in ("api_key", "apikey") or name.endswith("_key") or ("token" in name and "tokens" not in name)
            or "secret" in name or "password" in name or "passwd" in name)


def is_strong_secret_key(key: str) -> bool:
    """Keys whose value is a secret even when it is written as a number."""
    name = snake(key).lower()
    return name in ("api_key", "apikey") or name.endswith("_key") or "secret" in name or "pass" in name


def is_literal_secret(key: str, value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip()) and not is_reference(value.strip())
    return isinstance(value, (int, float)) and not isinstance(value, bool) and is_strong_secret_key(key)


# a shell's reference to a variable, which the runner reads as the text it is
_SHELL_VARIABLE = re.compile(r"\s*\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))\s*\Z")


def check_secret(key: Any, value: Any, at: tuple) -> Iterator:
    """EV512: a secret-like setting holding a literal value (which is never shown); a shell's '$NAME' or '${NAME}'
    is said to be no reference the runner fills (its name is no secret)."""
    if not (isinstance(key, str) and is_secret_key(key) and is_literal_secret(key, value)):
        return
    shell = _SHELL_VARIABLE.match(value) if isinstance(value, str) else None
    if shell:
        name = shell.group(1) or shell.group(2)
        yield finding("EV512", f"'{key}' is a shell's reference to '{name}', which the runner does not fill (it fills "
                      f"only '${{{{ NAME }}}}'); write '${{{{ {name} }}}}'", at + (key,))
        return
    yield finding("EV512", f"'{key}' holds a literal value; a committed secret leaks to everyone who can read the "
                  "repository: use an environment reference such as '${{ API_KEY }}' instead (value not shown)",
                  at + (key,))


def canonical_provider(provider: str) -> str:
    return ALIASES.get(provider, provider)


def settings_of(target: dict) -> dict:
    """The provider settings of a target mapping: its keys but the ones every target may hold."""
    return {k: v for k, v in target.items() if isinstance(k, str) and snake(k) not in COMMON_SETTINGS}


def with_schema_id(keys: Keys) -> Keys:
    """A file's keys and '$schema', all read, with what the keys read below them (a key of config.yaml's 'execution'
    written at the top)."""
    known = ("$schema",) + keys.known
    return replace(keys, known=known, read=known)


def check_targets_file(data: dict, place) -> Iterator:
    """EV012, unknown keys, EV504 for a name used twice, EV511 for a judge_target naming no other target."""
    names: dict = {}
    yield from check_file_and_names(data, place, names)
    targets = data.get("targets")
    for i, target in enumerate(targets if isinstance(targets, list) else ()):
        if isinstance(target, dict):
            yield from check_target_reference(target, "judge_target", ("targets", i), names,
                                              "a target cannot judge its own answers")


def check_file_and_names(data: dict, place, names: dict) -> Iterator:
    """EV012, unknown keys, and EV504 for a target name used twice; fills ``names`` (each name -> the data path
    of its first definition)."""
    yield from check_schema_id(data)
    yield from check_unknown_keys(data, with_schema_id(place.keys), (), "targets file")
    targets = data.get("targets")
    for i, target in enumerate(targets if isinstance(targets, list) else ()):
        name = target.get("name") if isinstance(target, dict) else None
        if is_text(name):
            at = ("targets", i, "name")
            if name in names:
                yield finding("EV504", f"duplicate target name '{name}' (first defined on line {{ref_line}}); "
                              "the runner cannot tell them apart", at, ref=names[name])
            else:
                names[name] = at


def check_target_reference(target: dict, key: str, at: tuple, names: dict, itself: str = "") -> Iterator:
    """EV511: ``key`` of the target at ``at`` names another target of the file (``names``); ``itself`` says why
    naming the target itself is wrong (none: it is not). Its type is declared on the schema."""
    value = target.get(key)
    if not isinstance(value, str):
        return
    if value not in names:
        yield finding("EV511", f"{key} {quote(value)} names no target in this file{did_you_mean(value, names)}; "
               f"targets: {one_of(sorted(names))}", at + (key,))
    elif itself and value == target.get("name"):
        yield finding("EV511", f"{key} {quote(value)} names the target itself; {itself}", at + (key,))


def check_target(target: dict, place) -> Iterator:
    """EV506 for an unknown provider; what the provider reads: EV115 for a near miss of a setting it reads,
    EV507 (EV514 for a cli target, which the runner then rejects) for another setting it does not, EV508 to
    EV510 for a cli target; EV512 for a secret written into the file. The type of each common key is
    declared on the schema."""
    at = place.at
    provider = target.get("provider")
    if not is_text(provider):
        provider = None
    elif provider not in PROVIDERS and provider not in ALIASES:
        yield finding("EV506", f"unknown provider {quote(provider)}{did_you_mean(provider, PROVIDERS + tuple(ALIASES))}; "
               f"known: {one_of(PROVIDERS)} and aliases {one_of(ALIASES)}", at + ("provider",))
    kind = canonical_provider(provider) if provider is not None else None
    known = SETTINGS.get(kind)
    present = {snake(k) for k in target if isinstance(k, str)}
    for key, value in settings_of(target).items():
        if known is not None and snake(key) not in known:
            meant = [k for k in sorted(known) if k not in present and misspells(snake(key), k)]
            if meant:
                yield finding("EV115", f"unknown setting '{key}' for provider '{provider}' (did you mean "
                       f"{' or '.join(map(repr, meant))}?); the runner does not read it, so the target runs without "
                       "it", at + (key,), KEY)
            else:
                hint = did_you_mean(key, known) or f" (known for {kind}: {', '.join(sorted(known))})"
                if kind == "cli":
                    yield finding("EV514", f"unknown setting '{key}' for provider '{provider}'{hint}; the runner rejects a "
                           "cli target with a setting it does not know, so the target fails to load", at + (key,), KEY)
                else:
                    yield finding("EV507", f"unknown setting '{key}' for provider '{provider}'{hint}", at + (key,), KEY)
        yield from check_secret(key, value, at)
    if kind == "cli":
        yield from _check_cli(target, at)


def _setting(target: dict, name: str):
    for key in target:
        if isinstance(key, str) and snake(key) == name:
            return key, target[key]
    return None, None


def check_placeholders(value: str, at: tuple, known: tuple = PLACEHOLDERS, reads=lambda name: True) -> Iterator:
    """EV509 for each ``{NAME}`` in a command template that is not one of ``known`` and that the runner
    ``reads`` as a placeholder."""
    for match in _PLACEHOLDER.finditer(value):
        name = match.group(1)
        if name not in known and reads(name):
            yield finding("EV509", f"unknown placeholder '{{{name}}}' in command template{did_you_mean(name, known)}; "
                   f"known: {', '.join('{' + p + '}' for p in known)}", at, needle=match.group(0))


def _check_command(mapping: dict, at: tuple, code: str, missing: str, owner: str) -> Iterator:
    """A command template: present, a non-empty string, only known placeholders."""
    key, template = _setting(mapping, "command_template")
    if key is None:
        yield finding(code, missing, at, FIRST_KEY)
    elif not is_text(template):
        yield finding(code, f"{owner}'{key}' must be a non-empty string, {found(template)}", at + (key,))
    else:
        yield from check_placeholders(template, at + (key,))


def _check_cli(target: dict, at: tuple) -> Iterator:
    yield from _check_command(target, at, "EV508", "provider 'cli' needs a 'command_template' (the command that runs the agent)",
                   "")
    if "healthcheck" in target:
        yield from _check_healthcheck(target["healthcheck"], at + ("healthcheck",))


def _check_healthcheck(check: Any, at: tuple) -> Iterator:
    if not isinstance(check, dict):
        yield finding("EV510", f"'healthcheck' must be a mapping with 'type' ('http' or 'command'), {found(check)}",
                      at)
        return
    kind = check.get("type")
    if "type" not in check:
        yield finding("EV510", f"healthcheck has no 'type' (expected one of {one_of(HEALTHCHECK_TYPES)})", at, FIRST_KEY)
    elif kind not in HEALTHCHECK_TYPES:
        yield finding("EV510", f"invalid healthcheck type {quote(kind)}{did_you_mean(kind, HEALTHCHECK_TYPES)}; expected one of "
               f"{one_of(HEALTHCHECK_TYPES)}", at + ("type",))
    elif kind == "http" and "url" not in check:
        yield finding("EV510", "healthcheck of type 'http' needs a 'url'", at, FIRST_KEY)
    elif kind == "http" and not is_text(check["url"]):
        yield finding("EV510", f"healthcheck 'url' must be a non-empty string, {found(check['url'])}", at + ("url",))
    elif kind == "command":
        yield from _check_command(check, at, "EV510", "healthcheck of type 'command' needs a 'command_template'", "healthcheck ")
    key, timeout = _setting(check, "timeout_seconds")
    if key is not None and not (is_finite_number(timeout) and timeout > 0):
        yield finding("EV510", f"healthcheck '{key}' must be a finite number > 0, {found(timeout)}", at + (key,))
    if "cwd" in check and not isinstance(check["cwd"], str):
        yield finding("EV510", f"healthcheck 'cwd' must be a string, {found(check['cwd'])}", at + ("cwd",))
