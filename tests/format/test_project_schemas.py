"""The targets, config and sidecar schemas: what they build, and where what
they reject is found."""
from __future__ import annotations

from evallint.format.agentv2.project import CONFIG_SCHEMA, TARGETS_SCHEMA, Count
from evallint.format.agentv2.sidecar import SIDECAR_SCHEMA
from evallint.format.walk import load_checked


def _found(collected) -> list:
    return sorted((f.code, f.path, f.target) for f in collected.findings)


def test_a_valid_targets_file_builds_its_targets_with_their_settings():
    data = {"$schema": "agentv-targets-v2.2", "targets": [
        {"name": "main", "provider": "google", "workers": 2.0, "judge_target": "judge", "apiKey": "${{ KEY }}"},
        {"name": "judge", "provider": "mock", "response": "ok", "provider_batching": True},
    ]}
    model, collected = load_checked(TARGETS_SCHEMA, data)
    assert collected.findings == []
    main, judge = model.targets
    assert (main.name, main.provider, main.judge_target, main.workers) == ("main", "google", "judge", 2)
    assert type(main.workers) is int and main.settings == {"apiKey": "${{ KEY }}"}
    assert judge.settings == {"response": "ok"} and judge.workers is None


def test_a_rejected_target_value_fails_the_load_and_is_found_at_its_path():
    data = {"targets": [{"name": "a", "provider": "mock"}, "loose", {"provider": "mock", "workers": 0}]}
    model, collected = load_checked(TARGETS_SCHEMA, data)
    assert model is None
    assert _found(collected) == [("EV502", ("targets", 1), "value"), ("EV503", ("targets", 2), "first_key"),
                                 ("EV513", ("targets", 2, "workers"), "value")]


def test_warnings_alone_keep_the_model():
    model, collected = load_checked(TARGETS_SCHEMA, {"targets": [{"name": "a", "provider": "ollama", "x": 1}]})
    assert model.targets[0].provider == "ollama" and [f.code for f in collected.findings] == ["EV506"]
    model, collected = load_checked(CONFIG_SCHEMA, {"guideline_patterns": [], "extra": 1})
    assert model.guideline_patterns == () and sorted(f.code for f in collected.findings) == ["EV602", "EV603"]


def test_count_takes_whole_numbers_from_its_minimum():
    field = Count("EV513", "'workers' must be a positive integer, {found}", minimum=1)
    assert field.deserialize(3) == 3 and field.deserialize(3.0) == 3
    for value in (0, -1, 2.5, True, "4", float("inf"), float("nan")):
        try:
            field.deserialize(value)
        except Exception as exc:
            assert exc.messages[0].code == "EV513", value
        else:
            raise AssertionError(value)


def test_a_sidecar_keeps_its_settings_and_finds_wrong_types_at_their_keys():
    model, collected = load_checked(SIDECAR_SCHEMA, {"description": "d", "execution": {"target": "t"}})
    assert model == {"description": "d", "execution": {"target": "t"}} and collected.findings == []
    model, collected = load_checked(SIDECAR_SCHEMA, {"dataset": 3, "execution": [], "evaluator": "nope"})
    assert model is None
    assert _found(collected) == [("EV114", ("evaluator",), "value"), ("EV703", ("dataset",), "value"),
                                 ("EV703", ("execution",), "value")]
