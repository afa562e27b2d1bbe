"""Planning the upgrade of `.agentv/targets.yaml` and `.agentv/config.yaml`: each target's 2.2 settings
written as AgentV 4.42.4 reads them (``spellings.py``), and a note for each setting 4.42.4 has no place for."""
from __future__ import annotations

from evallint.diagnostics import Fix
from evallint.suggest import quote
from evallint.upgrade.edits import rename, set_text
from evallint.upgrade.plan import ERROR, Plan
from evallint.upgrade.spellings import (
    CONFIG_GONE, HEALTHCHECK_KEYS, LOG_FORMAT, LOG_FORMAT_KEY, LOG_FORMAT_PROVIDERS, PROVIDERS, PROVIDERS_GONE, TARGET_GONE,
    TARGET_KEYS,
)


def plan_targets(plan: Plan, where) -> None:
    targets = plan.doc.data.get("targets") if isinstance(plan.doc.data, dict) else None
    for i, target in enumerate(targets if isinstance(targets, list) else ()):
        if isinstance(target, dict):
            _target(plan, ("targets", i), target)


def _target(plan: Plan, at: tuple, target: dict) -> None:
    provider = target.get("provider")
    provider = provider.lower() if isinstance(provider, str) else None
    if provider in PROVIDERS_GONE:
        plan.note(at + ("provider",), ERROR, f"AgentV 4.42.4 has no provider {quote(provider)}: "
                                             f"{PROVIDERS_GONE[provider]}", target="value")
    for old, (new, providers) in TARGET_KEYS.items():
        if old in target and (providers is None or provider in providers):
            plan.rename(at + (old,), new)
    if provider in PROVIDERS and target["provider"] == provider:  # a provider written in capitals is left
        plan.set(at + ("provider",), PROVIDERS[provider])
    for key, why in TARGET_GONE.items():
        if key in target:
            plan.not_read(at + (key,), ERROR, f"AgentV 4.42.4 does not read a target's {quote(key)}: {why}")
    healthcheck = target.get("healthcheck")
    if isinstance(healthcheck, dict):
        for old, new in HEALTHCHECK_KEYS.items():
            if old in healthcheck:
                plan.rename(at + ("healthcheck", old), new)
    if LOG_FORMAT_KEY in target and provider in LOG_FORMAT_PROVIDERS:
        _log_format(plan, at + (LOG_FORMAT_KEY,), target[LOG_FORMAT_KEY])


def _log_format(plan: Plan, at: tuple, value) -> None:
    """2.2's 'log_format' (json: every event, summary: one log) is 4.42.4's 'stream_log' (raw, summary)."""
    new_key, values = LOG_FORMAT
    if new_key in plan.value(at[:-1]):
        plan.note(at, ERROR, f"AgentV 4.42.4 reads '{new_key}', which is written too, instead of 'log_format': keep one")
        return
    if not isinstance(value, str) or value not in values:
        plan.note(at, ERROR, f"AgentV 4.42.4 reads 'stream_log' ({' or '.join(map(quote, values.values()))}) "
                             f"instead of 'log_format'; {quote(value)} is none of AgentV 2.2's values "
                             f"({' and '.join(map(quote, values))}): write it by hand")
        return
    renamed, written = rename(plan.doc, at, new_key), set_text(plan.doc, at, values[value])
    if renamed is None or written is None:
        plan.note(at, ERROR, f"AgentV 4.42.4 reads 'stream_log: {values[value]}' instead; the upgrade does not edit "
                             "this key as it is written: write it by hand")
        return
    plan.fixes.append(Fix(renamed.edits + written.edits, f"write 'stream_log: {values[value]}'",
                          change=("replace", at, (new_key, values[value]))))


def plan_config(plan: Plan, where) -> None:
    data = plan.doc.data
    for key, why in CONFIG_GONE.items():
        if isinstance(data, dict) and key in data:
            plan.not_read((key,), ERROR, f"AgentV 4.42.4 does not read {quote(key)}: {why}")
