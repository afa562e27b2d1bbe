"""EV6xx: `.agentv/config.yaml`."""
from __future__ import annotations

from ..schemas.context import report
from ..suggest import found
from .common import check_unknown_keys
from .structure import check_schema_id

CONFIG_KEYS = ("$schema", "guideline_patterns")


def check_config(data: dict) -> dict:
    clean: dict = {}
    check_schema_id(data)
    check_unknown_keys(data, CONFIG_KEYS, (), "config.yaml", code="EV603")
    if "guideline_patterns" in data:
        patterns = data["guideline_patterns"]
        if not isinstance(patterns, list):
            report("EV601", f"'guideline_patterns' must be a list of glob strings, {found(patterns)}",
                   ("guideline_patterns",))
        elif not patterns:
            report("EV602", "'guideline_patterns' is an empty list; no file is treated as a guideline",
                   ("guideline_patterns",))
        else:
            good = True
            for i, pattern in enumerate(patterns):
                if not isinstance(pattern, str):
                    report("EV601", f"a guideline pattern must be a glob string, {found(pattern)}",
                           ("guideline_patterns", i))
                    good = False
            if good:
                clean["guideline_patterns"] = patterns
    return clean
