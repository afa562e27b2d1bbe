"""Rules of AgentV 4.42.4's `.agentv/targets.yaml` that need more than one
field or target: the provider each target resolves to and the settings its
resolver reads, names across the file (grader_target, use_target), secrets,
camelCase keys the runner refuses, cli command templates and healthchecks.

The mistakes are AgentV 2.2's, so they keep the codes declared in
``rules/targets.py`` and ``rules/common.py``; this module declares no rule. The
type and form of each setting is declared on the schemas
(``format/agentv4/project.py``), whose ``checks`` these functions are."""
from __future__ import annotations

import re
from typing import Any, Iterator, NamedTuple, Optional

from evallint.diagnostics import FIRST_KEY, KEY
from evallint.load.environment import REFERENCE, RESOLVED_REFERENCE
from evallint.rules.common import Keys, Misplaced, check_unknown_keys, finding, is_text
from evallint.rules.target_chains import MAX_USE_TARGET_STEPS, NAME_ONLY, check_use_target, delegates, use_target_chains
from evallint.rules.targets import (check_file_and_names, check_placeholders, check_secret, check_target_reference,
                                    is_secret_key)
from evallint.suggest import did_you_mean, found, one_of, quote

# the providers the 4.42.4 validator knows, and the other names it accepts for them
PROVIDERS = ("openai", "openrouter", "azure", "anthropic", "gemini", "codex", "copilot-sdk", "copilot-cli", "copilot-log",
             "pi-coding-agent", "pi-cli", "claude", "claude-cli", "claude-sdk", "cli", "mock", "vscode",
             "vscode-insiders", "agentv", "transcript", "replay")
ALIASES = ("azure-openai", "google", "google-gemini", "codex-cli", "copilot", "copilot_sdk", "pi", "claude-code",
           "cc-mirror", "bedrock", "vertex")

# the resolver that reads a target's settings, by its provider lower-cased; any other provider (transcript,
# bedrock, vertex and unknown names among them) is a provider discovered in .agentv/providers/, run as a command
RESOLVERS = {
    "openai": "openai", "openrouter": "openrouter", "azure": "azure", "azure-openai": "azure",
    "anthropic": "anthropic", "gemini": "gemini", "google": "gemini", "google-gemini": "gemini",
    "codex": "codex", "codex-cli": "codex", "copilot-sdk": "copilot-sdk", "copilot_sdk": "copilot-sdk",
    "copilot": "copilot-cli", "copilot-cli": "copilot-cli", "copilot-log": "copilot-log",
    "pi": "pi-coding-agent", "pi-coding-agent": "pi-coding-agent", "pi-cli": "pi-cli", "cc-mirror": "cc-mirror",
    "claude": "claude", "claude-code": "claude", "claude-cli": "claude", "claude-sdk": "claude",
    "mock": "mock", "vscode": "vscode", "vscode-insiders": "vscode", "agentv": "agentv", "cli": "cli",
    "replay": "replay",
}
DISCOVERED = "discovered"


class Needed(NamedTuple):
    """A setting a resolver cannot do without: the names it takes it from (any one will do), what the runner does
    without it, and how a message names it where its names alone do not say it."""

    names: tuple
    without: str = "the runner rejects the target without it"
    said: str = ""


_MODEL_NAMES = ("model", "deployment", "variant")
# the settings each resolver cannot do without (EV110 without one; a cli target's command is EV508's, ``_check_cli``).
# A copilot-log target reads a finished session: the folder 'session_dir', else 'session_id' in the session state
# folder, else the latest session ('discover'; another value than 'latest' is refused). The resolver takes a target
# with none of them, and its provider fails each test it is asked to answer (copilot-log.ts)
REQUIRED = {
    "cli": (Needed(("command",)),),
    "openai": (Needed(("api_key",)), Needed(_MODEL_NAMES)),
    "openrouter": (Needed(("api_key",)), Needed(_MODEL_NAMES)),
    "azure": (Needed(("endpoint", "resource")), Needed(("api_key",)), Needed(("deployment", "model"))),
    "anthropic": (Needed(("api_key",)), Needed(_MODEL_NAMES)),
    "gemini": (Needed(("api_key",)),),
    "agentv": (Needed(("model",)),),
    "replay": (Needed(("source_target",)),),
    "copilot-log": (Needed(("session_dir", "session_id", "discover"), "without one the runner fails every test run on it",
                           "'session_dir', 'session_id' or 'discover: latest' (the session it reads)"),),
}

# the names a resolver reads one setting from, the first set (not null) winning (providers/targets.ts: 'a ?? b');
# every target's grader is 'grader_target ?? judge_target'
_AGENT_SPELLINGS = (("executable", "command", "binary"), ("args", "arguments"), ("log_dir", "log_directory"))
_PI_SPELLINGS = (("model", "pi_model"), ("tools", "pi_tools"), ("thinking", "pi_thinking"), ("log_dir", "log_directory"),
                 ("base_url", "endpoint"))
_MODEL = (_MODEL_NAMES,)
SPELLINGS = {
    "azure": (("endpoint", "resource"), ("deployment", "model"), ("version", "api_version")),
    "openai": (("endpoint", "base_url"),) + _MODEL, "openrouter": _MODEL, "anthropic": _MODEL, "gemini": _MODEL,
    "codex": _AGENT_SPELLINGS, "copilot-cli": _AGENT_SPELLINGS, "copilot-sdk": _AGENT_SPELLINGS[1:],
    "pi-coding-agent": _PI_SPELLINGS, "pi-cli": _PI_SPELLINGS + _AGENT_SPELLINGS[:2],
    "claude": (_AGENT_SPELLINGS[0], _AGENT_SPELLINGS[2], ("log_format", "log_output_format")),
    "cc-mirror": (_AGENT_SPELLINGS[0], _AGENT_SPELLINGS[2], ("log_format", "log_output_format")),
    "cli": (("verbose", "cli_verbose"), ("files_format", "attachments_format"), ("keep_temp_files", "keep_output_files")),
}

# settings a resolver refuses outright, with what to write instead
REMOVED = {
    "azure": {"api_format": "azure targets always use the Responses API; for a chat-completions-only deployment use "
                            "provider 'openai' with a deployment-scoped 'base_url'"},
    "codex": {"log_format": "use 'stream_log' ('raw' or 'summary')",
              "log_output_format": "use 'stream_log' ('raw' or 'summary')"},
}

# camelCase keys the runner refuses (it rejects the target), with the key it reads
CAMEL_CASE = {
    "providerBatching": "provider_batching", "subagentModeAllowed": "subagent_mode_allowed",
    "fallbackTargets": "fallback_targets", "resourceName": "endpoint", "baseUrl": "base_url", "apiKey": "api_key",
    "deploymentName": "model", "thinkingBudget": "thinking_budget", "maxTokens": "max_output_tokens",
    "apiFormat": "api_format", "timeoutSeconds": "timeout_seconds", "logDir": "log_dir",
    "logDirectory": "log_directory", "logFormat": "log_format", "logOutputFormat": "log_output_format",
    "systemPrompt": "system_prompt", "maxTurns": "max_turns", "maxBudgetUsd": "max_budget_usd", "dryRun": "dry_run",
    "subagentRoot": "subagent_root", "filesFormat": "files_format", "attachmentsFormat": "attachments_format",
    "cliUrl": "cli_url", "cliPath": "cli_path", "githubToken": "github_token", "sessionDir": "session_dir",
    "sessionId": "session_id", "sessionStateDir": "session_state_dir", "maxRetries": "max_retries",
    "retryInitialDelayMs": "retry_initial_delay_ms", "retryMaxDelayMs": "retry_max_delay_ms",
    "retryBackoffFactor": "retry_backoff_factor", "retryStatusCodes": "retry_status_codes",
    "modelReasoningEffort": "model_reasoning_effort",
}
HEALTHCHECK_CAMEL_CASE = {"timeoutSeconds": "timeout_seconds"}
HEALTHCHECK_KEYS = Keys(("url", "command", "cwd", "timeout_seconds"), read=("url", "command", "cwd", "timeout_seconds"))

# the placeholders a cli command template may hold; the runner reads only {NAME} in capitals and underscores
PLACEHOLDERS = ("PROMPT", "PROMPT_FILE", "EVAL_ID", "ATTEMPT", "FILES", "OUTPUT_FILE")
_RUNNER_PLACEHOLDER = re.compile(r"[A-Z_]+\Z")
NO_FILLING = "the runner fills no '${{ NAME }}' here"


# the resolvers of providers that are agents (providers/types.ts AGENT_PROVIDER_KINDS), which cannot be the run's
# grader themselves
AGENT_RESOLVERS = ("codex", "copilot-sdk", "copilot-cli", "pi-coding-agent", "pi-cli", "claude", "cc-mirror", "vscode")
# the resolvers of providers that are neither agents nor can answer a grader (providers/types.ts: not among
# LLM_GRADER_CAPABLE_KINDS): a command's output, a transcript replayed
UNGRADING_RESOLVERS = ("cli", "copilot-log", "replay")


def resolver_of(provider: Any) -> Optional[str]:
    """The resolver that reads a target with this provider (``DISCOVERED`` for a provider with none of its own),
    None when the provider is not a string or names an environment variable."""
    if not isinstance(provider, str) or RESOLVED_REFERENCE.match(provider.strip()):
        return None
    return RESOLVERS.get(provider.strip().lower(), DISCOVERED)


def check_targets_file(data: dict, place) -> Iterator:
    """EV012, unknown keys, EV504 for a name used twice, EV511 for a grader_target (or judge_target) or a
    use_target naming no target of the file."""
    names: dict = {}
    yield from check_file_and_names(data, place, names)
    targets = data.get("targets")
    for i, target in enumerate(targets if isinstance(targets, list) else ()):
        if not isinstance(target, dict):
            continue
        name = target.get("name")
        if is_text(name) and name != name.strip():
            yield finding("EV503", f"target name {quote(name)} has white space around it: the runner looks up the target "
                          f"of an eval (or of the command line) by its trimmed name, so no eval runs on this one; write "
                          f"{quote(name.strip())}", ("targets", i, "name"))
        grader = "grader_target" if "grader_target" in target else "judge_target"
        if isinstance(target.get(grader), str) and REFERENCE.search(target[grader]):
            yield finding("EV511", f"{grader} {quote(target[grader])} is read as written: {NO_FILLING}, so it names no "
                          "target of this file", ("targets", i, grader))
        elif resolver_of(target.get("provider")) in AGENT_RESOLVERS + UNGRADING_RESOLVERS:
            yield from check_target_reference(target, grader, ("targets", i), names,
                                              "its provider cannot grade, so the runner asks it to and its answer is "
                                              "no verdict: the llm-graders are left out of the score (a test graded "
                                              "by them alone scores 0); name an LLM target")
        else:  # naming itself is what the run does without one (a provider script may be a model)
            yield from check_target_reference(target, grader, ("targets", i), names)
        yield from check_use_target(target, ("targets", i), names)
        yield from _fallbacks(target.get("fallback_targets"), ("targets", i, "fallback_targets"), names)
    yield from use_target_chains(targets if isinstance(targets, list) else [])


def standing_for(name: str, definitions: dict) -> Optional[dict]:
    """The target the run uses for the target ``name`` of an eval: the one its use_target chain ends at, within
    the steps the runner follows; None when the chain leaves the file or needs more steps (EV511 says why)."""
    target = definitions.get(name)
    for _ in range(MAX_USE_TARGET_STEPS):
        if target is None or not delegates(target):
            break
        target = definitions.get(target["use_target"].strip())
    return None if target is None or delegates(target) else target


def added_targets(execution: dict) -> tuple:
    """The target names a suite's 'execution.targets' adds to its targets file: with two targets or more, the name
    of each item that stands for another target ('use_target'), which the command line adds (apps/cli
    eval/targets.ts selectMultipleTargets); a grader may name them too."""
    items = execution.get("targets") if isinstance(execution, dict) else None
    refs = [item for item in (items if isinstance(items, list) else ())
            if is_text(item) or isinstance(item, dict) and is_text(item.get("name"))]
    return tuple(item["name"].strip() for item in refs if isinstance(item, dict) and is_text(item.get("use_target"))) \
        if len(refs) > 1 else ()


def _fallbacks(fallbacks: Any, at: tuple, names: dict) -> Iterator:
    """EV511 for a fallback target naming no target of the file: the runner passes over it when the target fails."""
    for j, name in enumerate(fallbacks if isinstance(fallbacks, list) else ()):
        if is_text(name) and REFERENCE.search(name):
            yield finding("EV511", f"fallback target {quote(name)} is read as written: {NO_FILLING}, so it names no "
                          "target and the runner passes over it when the target fails", at + (j,))
        elif is_text(name) and name not in names:
            yield finding("EV511", f"fallback target {quote(name)} names no target in this file{did_you_mean(name, names)}"
                          f"; the runner passes over it when the target fails; targets: "
                          f"{one_of(sorted(names))}", at + (j,))


def check_target(target: dict, place) -> Iterator:
    """EV506 for a provider the runner does not know; EV115 for a camelCase key it refuses and for a near miss
    of a setting the resolver reads; EV507 for another setting it does not read; EV110 for a setting the
    resolver refuses and for one it needs that is absent; EV512 for a secret written into the file; EV508 to
    EV510 for a cli target."""
    at = place.at
    provider = target.get("provider")
    resolver = resolver_of(provider)
    if resolver is not None and provider.strip() and provider not in PROVIDERS + ALIASES:
        if resolver == DISCOVERED:
            runs = f"the runner runs it as a provider script '.agentv/providers/{provider.strip().lower()}.ts'"
            runs = f"it is read as written: {NAME_ONLY}; {runs}" if "${{" in provider else runs
        else:
            runs = f"the runner reads it as {quote(provider.strip().lower())}, but its validator warns about it"
        yield finding("EV506", f"unknown provider {quote(provider)}{did_you_mean(provider, PROVIDERS + ALIASES)}; "
               f"{runs}; known: {one_of(PROVIDERS)} and aliases {one_of(ALIASES)}", at + ("provider",))
    for key in target:
        if key in CAMEL_CASE:
            yield _camel_case(key, CAMEL_CASE[key], at)
    for key, value in target.items():
        yield from check_secret(key, value, at)
    if delegates(target):
        yield from _beside_use_target(target, place)
    elif resolver is not None:
        yield from _settings(target, place, resolver, provider)


# what an eval file's 'execution.targets' item reads and the targets file's resolver does not (orchestrator.ts)
EVAL_ONLY = {"hooks": Misplaced("in an item of an eval file's 'execution.targets'", dict, code="EV115")}


def _settings(target: dict, place, resolver: str, provider: str) -> Iterator:
    """What the ``resolver`` of a target's ``provider`` makes of its settings."""
    at = place.at
    removed = REMOVED.get(resolver, {})
    for key in target:
        if key in removed:
            yield finding("EV110", f"'{key}' is not accepted on a target of provider {quote(provider)}: {removed[key]}; "
                   "the runner rejects the target", at + (key,), KEY)
    if resolver != DISCOVERED:  # a discovered provider's script may read anything
        yield from check_unknown_keys(target, place.keys, at, f"target of provider {quote(provider)}", code="EV507",
                                      skip=tuple(CAMEL_CASE) + tuple(removed), misplaced=EVAL_ONLY,
                                      notes={"workspace_template": "; it is no longer a target setting: use the eval's "
                                             "'workspace.template'"})
    for needed in REQUIRED.get(resolver, ()) if resolver != "cli" else ():
        if not any(_given(target.get(key)) for key in needed.names):
            said = needed.said or " or ".join(map(repr, needed.names))
            yield finding("EV110", f"a target of provider {quote(provider)} needs {said}; {needed.without}", at, FIRST_KEY)
    for group in SPELLINGS.get(resolver, ()) + (("grader_target", "judge_target"),):
        yield from _shadowed(target, group, at)
    yield from _literal(target, place)
    if resolver == "replay":
        yield from _check_replay(target, at)
    elif resolver == "cli":
        yield from _check_cli(target, at)
    elif resolver == DISCOVERED and is_text(target.get("command")):  # run as a cli command, its placeholders unchecked
        yield from check_command_placeholders(target["command"], at + ("command",))


def _literal(target: dict, place) -> Iterator:
    """EV110 for a '${{ NAME }}' in a setting the resolver reads as written (declared ``literal``), and for one within
    other text of a setting it takes as text: it fills in only a whole reference (resolveOptionalString)."""
    for key, value in target.items():
        field = place.schema.load_fields.get(key) if isinstance(key, str) and place.schema is not None else None
        if field is None or not isinstance(value, str) or not REFERENCE.search(value) or \
                not getattr(field, "accepts", lambda _: True)(value):  # a value it refuses is the field's own finding
            continue
        if field.metadata.get("literal"):
            yield finding("EV110", f"'{key}' is read as written: {NO_FILLING}, so {quote(value)} is the text it uses; "
                          "write the value itself", place.at + (key,))
        elif not RESOLVED_REFERENCE.match(value.strip()) and not is_secret_key(key):  # a secret is never shown
            then = ("the shell that runs it cannot expand '${{ NAME }}'; write '$NAME' for the shell to fill it in"
                    if key == "command" else "put the whole value in the environment variable")
            yield finding("EV110", f"'{key}' holds a '${{{{ NAME }}}}' within other text: the runner fills in only a value "
                          f"that is one whole reference, so {quote(value)} is the text it uses; {then}", place.at + (key,))


# what the runner reads of a target that stands for another: it runs the target named as that target is written
ALIAS_KEYS = ("name", "use_target")


def _beside_use_target(target: dict, place) -> Iterator:
    """EV515 for each setting some target reads written on a target that stands for another; EV507 for a key no
    target reads (a camelCase key is EV115 already)."""
    read = getattr(place.schema, "settings_read", frozenset())
    named = target["use_target"].strip()
    named = "the environment names" if RESOLVED_REFERENCE.match(named) else quote(named)
    for key in target:
        if key in read and key not in ALIAS_KEYS:
            yield finding("EV515", f"'{key}' beside 'use_target' is not read: the runner runs the target {named} with "
                          "that target's own settings; set it there, or drop 'use_target'", place.at + (key,), KEY)
    yield from check_unknown_keys(target, place.keys, place.at, "target that stands for another", code="EV507",
                                  skip=tuple(read) + tuple(CAMEL_CASE))


def _shadowed(target: dict, group: tuple, at: tuple) -> Iterator:
    """EV108 for each name of ``group`` set beside an earlier one, which the resolver reads instead."""
    present = [key for key in group if target.get(key) is not None]
    for key in present[1:]:
        yield finding("EV108", f"'{key}' is ignored because '{present[0]}' is also set: the runner reads the first of "
                      f"{', '.join(map(repr, group))} that is set; remove one of them", at + (key,), KEY)


def _given(value: Any) -> bool:
    """The resolver takes null and a blank string for an absent setting."""
    return value is not None and not (isinstance(value, str) and not value.strip())


def _camel_case(key: str, snake: str, at: tuple):
    return finding("EV115", f"camelCase key '{key}' (did you mean '{snake}'?); the runner no longer reads camelCase "
                   "keys in a targets file and rejects the target", at + (key,), KEY)


def replay_sources(target: dict) -> list:
    """The settings of a replay target that name its recording and that the runner reads: it needs exactly one."""
    return [key for key in ("fixtures", "execution_traces") if is_text(target.get(key))]


def _check_replay(target: dict, at: tuple) -> Iterator:
    sources = replay_sources(target)
    if len(sources) != 1:
        written = "both" if sources else "neither"
        yield finding("EV110", f"a replay target needs exactly one of 'fixtures' and 'execution_traces', found "
                      f"{written}; the runner rejects the target", at, FIRST_KEY)


def _check_cli(target: dict, at: tuple) -> Iterator:
    """EV508 for a cli target without a command (EV115 when it holds 2.2's 'command_template' instead), EV509 for
    a placeholder the runner refuses or leaves as text, EV510 for a malformed healthcheck."""
    command = target.get("command")
    if "command" not in target:
        if "command_template" not in target:  # else EV115 says to rename it
            yield finding("EV508", "provider 'cli' needs a 'command' (the command that runs the agent); the runner "
                          "rejects the target without it", at, FIRST_KEY)
    elif not is_text(command):
        yield finding("EV508", f"'command' must be a non-empty string, {found(command)}", at + ("command",))
    else:
        yield from check_command_placeholders(command, at + ("command",))
    if "healthcheck" in target:
        yield from _check_healthcheck(target["healthcheck"], at + ("healthcheck",))


def check_command_placeholders(command: str, at: tuple) -> Iterator:
    """EV509: the runner refuses a ``{NAME}`` in capitals that is no placeholder, and passes a placeholder written
    in other letters (``{prompt}``) to the command as text; other braces are the command's own."""
    yield from check_placeholders(command, at, PLACEHOLDERS,
                                  lambda name: bool(_RUNNER_PLACEHOLDER.match(name)) or name.upper() in PLACEHOLDERS)


def _check_healthcheck(check: Any, at: tuple) -> Iterator:
    if not isinstance(check, dict):
        yield finding("EV510", f"'healthcheck' must be a mapping with a 'url' or a 'command', {found(check)}", at)
        return
    for key in check:
        if key in HEALTHCHECK_CAMEL_CASE:
            yield _camel_case(key, HEALTHCHECK_CAMEL_CASE[key], at)
    # the resolver passes other keys through unread
    yield from check_unknown_keys(check, HEALTHCHECK_KEYS, at, "a healthcheck", skip=HEALTHCHECK_CAMEL_CASE, code="EV507")
    url, command = check.get("url"), check.get("command")
    if is_text(url):
        yield from _check_healthcheck_url(url, at + ("url",))
    elif is_text(command):
        yield from check_command_placeholders(command, at + ("command",))
    else:
        old = " ('command_template' is AgentV 2.2's name for 'command')" if "command_template" in check else ""
        yield finding("EV510", f"healthcheck needs a non-empty 'url' (HTTP) or 'command'{old}; the runner rejects "
                      "the target without one", at, FIRST_KEY)
    timeout = check.get("timeout_seconds")
    if "timeout_seconds" in check and not (isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
                                           and timeout > 0):
        yield finding("EV510", f"healthcheck 'timeout_seconds' must be a number > 0, {found(timeout)}",
                      at + ("timeout_seconds",))
    if "cwd" in check and not is_text(url) and not isinstance(check["cwd"], str):  # an HTTP check has no folder
        yield finding("EV510", f"healthcheck 'cwd' must be a string, {found(check['cwd'])}; the runner rejects the "
                      "target", at + ("cwd",))


def _check_healthcheck_url(url: str, at: tuple) -> Iterator:
    """The runner reads a healthcheck url only from the environment."""
    if not RESOLVED_REFERENCE.match(url.strip()):
        yield finding("EV510", f"healthcheck 'url' {quote(url)} must be an environment reference such as "
                      "'${{ HEALTHCHECK_URL }}'; the runner rejects a literal url", at)
