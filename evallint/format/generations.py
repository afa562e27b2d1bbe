"""The schemas each AgentV version's files are loaded with, by kind of file: the one table the linter
reads. AgentV 4.42.4's JSONL datasets and their sidecars are not declared apart: they are read as AgentV
2.2 reads them."""
from __future__ import annotations

from evallint.format.agentv2 import project as project2
from evallint.format.agentv2.sidecar import SIDECAR_SCHEMA
from evallint.format.agentv2.suite import SUITE_SCHEMA
from evallint.format.agentv4 import project as project4
from evallint.format.agentv4.suite import AGENTV4_SUITE_SCHEMA
from evallint.load.files import CONFIG, EVAL, SIDECAR, TARGETS

# version -> kind of file -> (its schema, what the file must be when it is no mapping)
SCHEMAS = {
    "2.2": {
        EVAL: (SUITE_SCHEMA, "an eval file must be a mapping with 'evalcases'"),
        TARGETS: (project2.TARGETS_SCHEMA, "a targets file must be a mapping with 'targets'"),
        CONFIG: (project2.CONFIG_SCHEMA, "a config file must be a mapping"),
        SIDECAR: (SIDECAR_SCHEMA, "a dataset sidecar must be a mapping of suite settings"),
    },
    "4.42": {
        EVAL: (AGENTV4_SUITE_SCHEMA, "an eval file must be a mapping with 'tests'"),
        TARGETS: (project4.TARGETS_SCHEMA, "a targets file must be a mapping with 'targets'"),
        CONFIG: (project4.CONFIG_SCHEMA, "a config file must be a mapping"),
        SIDECAR: (SIDECAR_SCHEMA, "a dataset sidecar must be a mapping of suite settings"),
    },
}
