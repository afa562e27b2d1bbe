"""Planning the upgrade of `.agentv/targets.yaml` and `.agentv/config.yaml`."""
from __future__ import annotations

from evallint.upgrade.plan import Plan


def plan_targets(plan: Plan, where) -> None:
    return None


def plan_config(plan: Plan, where) -> None:
    return None
