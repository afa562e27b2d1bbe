"""EV6xx rules of `.agentv/config.yaml` that the schema does not declare: the
schema id, unknown keys and an empty pattern list, all warnings, and a config file
the runner never reads. The type of 'guideline_patterns' and of its items is
declared on the schema (``format/agentv2/project.py``)."""
from __future__ import annotations

import os
from typing import Iterator

from evallint.diagnostics import E, FIRST_KEY, KEY, W, Rule
from evallint.load.files import CONFIG_NAMES
from evallint.rules.common import check_unknown_keys, finding
from evallint.rules.structure import check_schema_id
from evallint.rules.targets import with_schema_id
from evallint.suggest import quote

# the rules this module finds, explained in config_file.md beside it
EV601 = Rule("EV601", "invalid-guideline-patterns", E, "'guideline_patterns' is not a list of strings",
             generations=("2.2",))
EV602 = Rule("EV602", "empty-guideline-patterns", W, "'guideline_patterns' is an empty list", generations=("2.2",))
EV603 = Rule("EV603", "unknown-config-key", W, "a config.yaml key other than '$schema' and 'guideline_patterns'")
EV604 = Rule("EV604", "config-file-not-read", E, "'.agentv/config.yml', which the runner never reads: it reads "
             "'.agentv/config.yaml' alone")


def unread_config(path: str) -> Iterator:
    """EV604 for a config file the runner never reads: 'config.yml' (both AgentV versions read 'config.yaml' alone,
    config-loader.ts)."""
    name = os.path.basename(path)
    if name in CONFIG_NAMES[1:]:
        yield finding("EV604", f"the runner never reads '{name}': it reads the project's settings only from "
                      f"'.agentv/{CONFIG_NAMES[0]}', so every eval runs without these; rename it", (), FIRST_KEY)


def check_config(data: dict, place) -> Iterator:
    """EV012, EV603 for a key the schema does not declare, EV602 for an empty 'guideline_patterns'."""
    yield from check_schema_id(data)
    yield from check_unknown_keys(data, with_schema_id(place.keys), (), "config.yaml", code="EV603")
    patterns = data.get("guideline_patterns")
    if isinstance(patterns, list) and not patterns:
        yield finding("EV602", "'guideline_patterns' is an empty list; no file is treated as a guideline",
                      ("guideline_patterns",))


# AgentV 4.42.4's config.yaml (format/agentv4/project.py): the same mistakes, the same codes
NOTES4 = {  # what becomes of a key the runner does not read in a project's config.yaml
    "guideline_patterns": "; AgentV 4.42.4 no longer reads guideline patterns",
    "projects": "; 'projects' is read only from the home config ($AGENTV_HOME/config.yaml), not from a project's",
    "results_by_project": "; 'results_by_project' is no longer read: put each project's results under 'projects' in "
                          "the home config",
}


def check_config4(data: dict, place) -> Iterator:
    """EV012, EV603 (EV115 for a near miss of a key the runner reads) for a key it does not read, EV110 for a
    'required_version' that is no version range."""
    from evallint.load.environment import refers
    from evallint.rules.semver_range import is_range

    yield from check_schema_id(data)
    yield from check_unknown_keys(data, with_schema_id(place.keys), (), "config.yaml", code="EV603",
                                  notes=NOTES4)
    wanted = data.get("required_version")
    # '' is no requirement to the agentv command; a reference is the environment's to fill
    if isinstance(wanted, str) and wanted and not refers(wanted) and not is_range(wanted):
        yield finding("EV110", f"'required_version' {quote(wanted)} is no version range, such as '>=4.42.0', '^4' or "
                      "'4.x'; the agentv command stops before it runs an eval ('Invalid required_version')",
                      ("required_version",))


def check_config4_section(data: dict, place, eval_keys: tuple = ()) -> Iterator:
    """EV603 (EV115 for a near miss) for a key of a config.yaml section that the runner does not read; EV115 for a
    key of an eval file's section of that name (``eval_keys``), which the runner reads there only."""
    where = "'" + ".".join(map(str, place.at)) + "' of config.yaml"
    section = ".".join(map(str, place.at))
    for key in data:
        if key in eval_keys and key not in place.keys.known:
            yield finding("EV115", f"{quote(key)} is not read in {where}: it is a setting of an eval file's "
                          f"'{section}', where the runner reads it; move it there", place.at + (key,), KEY)
    yield from check_unknown_keys(data, place.keys, place.at, where, code="EV603", skip=eval_keys)


def check_results(data: dict, place) -> Iterator:
    """EV110: 'results' names its repository once, by URL ('repo_url' or 'repo') or by path ('repo_path')."""
    by_url = [key for key in ("repo_url", "repo") if isinstance(data.get(key), str) and data[key].strip()]
    by_path = isinstance(data.get("repo_path"), str) and data["repo_path"].strip()
    if not by_url and not by_path:
        yield finding("EV110", "'results' needs 'repo_url' (or 'repo') or 'repo_path'; the runner ignores 'results' "
                      "without one", place.at, FIRST_KEY)
    elif by_url and by_path:
        yield finding("EV110", f"'results' sets both '{by_url[0]}' and 'repo_path'; the runner ignores 'results' "
                      "unless only one is set", place.at + ("repo_path",), KEY)
