"""The exported AgentV 4.42 targets schema gives each provider's target exactly the settings its resolver reads,
the ones it cannot do without required: it accepts a target where evallint's target rules find no setting the
runner refuses, misses or does not read, and rejects the others."""
from __future__ import annotations

import json

import jsonschema
import pytest
import yaml
from conftest import FIXTURES

from evallint import lint_paths
from evallint.config import Config
from evallint.format.agentv4 import project
from evallint.format.agentv4.jsonschema import targets_schema
from evallint.format.keys import known_keys
from evallint.rules import targets4

VALIDATOR = jsonschema.Draft7Validator(targets_schema())
# what makes a setting of a target wrong for the runner: refused, missing, misspelt or not read
SETTING_CODES = {"EV110", "EV115", "EV507", "EV508", "EV515"}

TARGETS = [
    ({"provider": "openai", "model": "${{ MODEL }}", "api_key": "${{ KEY }}"}, [], True),
    ({"provider": "openai", "model": "${{ MODEL }}"}, ["EV110"], False),  # no api_key
    ({"provider": "openai", "model": "gpt-4", "api_key": "${{ KEY }}"}, ["EV110"], False),  # model not from the env
    ({"provider": " OpenAI", "api_key": "${{ KEY }}", "deployment": "${{ D }}", "temprature": 1},
     ["EV115", "EV506"], False),  # a misspelt setting
    ({"provider": "azure", "resource": "${{ R }}", "api_key": "${{ KEY }}", "deployment": "${{ D }}"}, [], True),
    ({"provider": "azure-openai", "resource": "${{ R }}", "api_key": "${{ KEY }}"}, ["EV110"], False),
    ({"provider": "cli", "command": "run {PROMPT}"}, [], True),
    ({"provider": "cli", "cwd": "."}, ["EV508"], False),
    ({"provider": "codex", "model_reasoning_effort": "HIGH"}, [], True),
    ({"provider": "codex", "model_reasoning_effort": "huge"}, ["EV110"], False),
    ({"provider": "codex", "stream_log": "raw", "workspace": "."}, ["EV507"], False),
    ({"provider": "my-agent", "anything": 1}, ["EV506"], True),  # a provider script reads what it likes
    ({"use_target": "other"}, [], True),  # stands for 'other'
    ({"provider": "codex", "use_target": "other", "anything": 1}, ["EV507", "EV515"], False),  # ... nothing else
    ({"provider": "replay", "fixtures": "f.jsonl"}, ["EV110"], False),  # no source_target
    ({"provider": "copilot-log", "cwd": "."}, ["EV110"], False),  # no session
    ({"provider": "copilot-log", "discover": "latest"}, [], True),
]


@pytest.mark.parametrize("settings,codes,valid", TARGETS, ids=[json.dumps(t[0]) for t in TARGETS])
def test_the_schema_accepts_a_target_exactly_where_the_rules_find_its_settings_right(tmp_path, settings, codes, valid):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    data = {"targets": [{"name": "a", **settings}, {"name": "other", "provider": "mock"}]}
    (tmp_path / ".agentv" / "targets.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    found = sorted({d.code for d in lint_paths([tmp_path], config=Config(root=str(tmp_path), agentv_version="4.42"))})
    assert (found, VALIDATOR.is_valid(data)) == (codes, valid)
    assert bool(SETTING_CODES & set(found)) is not valid


def test_each_provider_lists_the_settings_its_resolver_reads_and_requires_what_it_needs():
    definitions = targets_schema()["definitions"]
    assert sorted(definitions) == sorted(f"Target_{r}" for r in project.PROVIDER_SCHEMAS if r != targets4.DISCOVERED)
    for resolver, declared in project.PROVIDER_SCHEMAS.items():
        if resolver == targets4.DISCOVERED:
            continue
        shape = definitions[f"Target_{resolver}"]
        assert list(shape["properties"]) == list(known_keys(declared)), resolver
        groups = [needed.names for needed in targets4.REQUIRED.get(resolver, ())]
        assert shape["required"] == ["name"] + [g[0] for g in groups if len(g) == 1], resolver
        assert shape.get("allOf", []) == [{"anyOf": [{"required": [k]} for k in g]} for g in groups if len(g) > 1]
    assert definitions["Target_azure"]["required"] == ["name", "api_key"]
    assert definitions["Target_cli"]["required"] == ["name", "command"]
    assert definitions["Target_copilot-log"]["allOf"] == [{"anyOf": [{"required": ["session_dir"]},
                                                                     {"required": ["session_id"]},
                                                                     {"required": ["discover"]}]}]


CORPUS_TARGETS = sorted((FIXTURES / "agentv-4.42.4-examples").rglob(".agentv/targets.yaml"))


@pytest.mark.parametrize("path", CORPUS_TARGETS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_agentvs_own_targets_files_are_valid_where_the_rules_find_no_setting_wrong(path):
    """AgentV 4.42.4's own targets files (one starts with '$schema', which the runner does not read)."""
    found = {d.code for d in lint_paths([path], config=Config(agentv_version="4.42", references=False))}
    assert VALIDATOR.is_valid(yaml.safe_load(path.read_text(encoding="utf-8"))) is not bool(SETTING_CODES & found)
