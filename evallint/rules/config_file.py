"""EV6xx rules of `.agentv/config.yaml` that the schema does not declare: the
schema id, unknown keys and an empty pattern list, all warnings. The type of
'guideline_patterns' and of its items is declared on the schema
(``format/project.py``)."""
from __future__ import annotations

from evallint.diagnostics import E, W, Rule
from evallint.rules.collect import report
from evallint.rules.common import Keys, check_unknown_keys
from evallint.rules.structure import check_schema_id

# the rules this module finds, explained in config_file.md beside it
EV601 = Rule("EV601", "invalid-guideline-patterns", E, "'guideline_patterns' is not a list of strings")
EV602 = Rule("EV602", "empty-guideline-patterns", W, "'guideline_patterns' is an empty list")
EV603 = Rule("EV603", "unknown-config-key", W, "a config.yaml key other than '$schema' and 'guideline_patterns'")


def check_config(data: dict, known: tuple) -> None:
    """EV012, EV603 for a key not in ``known``, EV602 for an empty 'guideline_patterns'."""
    check_schema_id(data)
    check_unknown_keys(data, Keys(tuple(known), tuple(known)), (), "config.yaml", code="EV603")
    patterns = data.get("guideline_patterns")
    if isinstance(patterns, list) and not patterns:
        report("EV602", "'guideline_patterns' is an empty list; no file is treated as a guideline",
               ("guideline_patterns",))
