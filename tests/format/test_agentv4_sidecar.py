"""The sidecar of an AgentV 4.42.4 JSONL dataset: the settings its loader reads ('name', 'description',
'execution', 'evaluator'), each of the wrong type EV703, any other key EV703 too."""
from __future__ import annotations

from evallint.format.agentv4.sidecar import SIDECAR_SCHEMA
from evallint.format.walk import load_checked


def _found(data: dict) -> list:
    model, found = load_checked(SIDECAR_SCHEMA, data)
    return [(f.code, f.path, f.message) for f in found.findings]


def test_the_settings_its_loader_reads_are_accepted():
    assert _found({"name": "smoke", "description": "d", "execution": {"target": "default"}}) == []


def test_a_setting_of_the_wrong_type_or_a_key_it_does_not_read_is_reported():
    assert _found({"name": 3, "dataset": "x", "execution": []}) == [
        ("EV703", ("name",), "sidecar 'name' must be a string, found 3 (a number); the runner names the suite after "
                             "the file"),
        ("EV703", ("execution",), "sidecar 'execution' must be a mapping, found a list; the runner uses the defaults"),
        ("EV703", ("dataset",), "unknown key 'dataset' in dataset sidecar (known keys: $schema, description, evaluator, "
                                "execution, name)"),
    ]
