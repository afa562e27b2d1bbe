"""EV6xx rules of `.agentv/config.yaml` that the schema does not declare: the
schema id, unknown keys and an empty pattern list, all warnings. The type of
'guideline_patterns' and of its items is declared on the schema
(``format/agentv2/project.py``)."""
from __future__ import annotations

from typing import Iterator

from evallint.diagnostics import E, W, Rule
from evallint.rules.common import check_unknown_keys, finding
from evallint.rules.structure import check_schema_id
from evallint.rules.targets import with_schema_id

# the rules this module finds, explained in config_file.md beside it
EV601 = Rule("EV601", "invalid-guideline-patterns", E, "'guideline_patterns' is not a list of strings")
EV602 = Rule("EV602", "empty-guideline-patterns", W, "'guideline_patterns' is an empty list")
EV603 = Rule("EV603", "unknown-config-key", W, "a config.yaml key other than '$schema' and 'guideline_patterns'")


def check_config(data: dict, place) -> Iterator:
    """EV012, EV603 for a key the schema does not declare, EV602 for an empty 'guideline_patterns'."""
    yield from check_schema_id(data)
    yield from check_unknown_keys(data, with_schema_id(place.keys), (), "config.yaml", code="EV603")
    patterns = data.get("guideline_patterns")
    if isinstance(patterns, list) and not patterns:
        yield finding("EV602", "'guideline_patterns' is an empty list; no file is treated as a guideline",
                      ("guideline_patterns",))
