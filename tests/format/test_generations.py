"""Which AgentV version a file is read as when the configuration names none: what the file holds tells."""
from __future__ import annotations

import pytest

from evallint.format.generations import version_of
from evallint.load.files import CONFIG, DATASET, EVAL, SIDECAR, TARGETS


@pytest.mark.parametrize("kind, data, version", [
    (EVAL, {"tests": []}, "4.42"),
    (EVAL, {"evalcases": [], "tests": []}, "4.42"),  # AgentV 4.42.4 reads 'tests' and drops 'evalcases'
    (EVAL, {"evalcase": [], "tests": []}, "4.42"),
    (EVAL, [{"id": "a", "criteria": "c", "input": "hi"}], "4.42"),  # a file of tests
    (EVAL, [{"id": "a", "expected_outcome": "c"}], "2.2"),
    (DATASET, [{"id": "a", "criteria": "c"}], "4.42"),
    (DATASET, [{"id": "a", "expected_outcome": "c"}], "2.2"),
    # a grader of a kind only AgentV 4.42.4 has, in a list both read ('_' is read as '-')
    (DATASET, [{"id": "a", "expected_output": "c", "evaluators": [{"name": "g", "type": "code-grader"}]}], "4.42"),
    (DATASET, [{"id": "a", "expected_output": "c", "execution": {"evaluators": [{"type": "llm_grader"}]}}], "4.42"),
    (DATASET, [{"id": "a", "expected_output": "c", "evaluators": [{"name": "g", "type": "code_judge"}]}], "2.2"),
    (DATASET, [{"id": "a", "expected_output": "c", "evaluators": [{"name": "g", "type": "tool-trajectory"}]}], "2.2"),
    (TARGETS, {"targets": [{"name": "a", "provider": "openrouter"}]}, "4.42"),
    (TARGETS, {"targets": [{"name": "a", "provider": "mock", "grader_target": "b"}]}, "4.42"),
    (TARGETS, {"targets": [{"name": "a", "provider": "cli", "command": "run {PROMPT}"}]}, "4.42"),
    (TARGETS, {"targets": [{"name": "a", "provider": "cli", "command": "x"},
                           {"name": "b", "provider": "cli", "command_template": "y"}]}, "2.2"),  # a misspelling
    (TARGETS, {"targets": [{"name": "a", "provider": ["openrouter"]}]}, "2.2"),
    (TARGETS, {"$schema": "agentv-targets-v2.2", "targets": [{"name": "a", "provider": "azure"}]}, "2.2"),
    (CONFIG, {"$schema": "agentv-config-v2", "execution": {"workers": 2}}, "4.42"),
    (CONFIG, {"guideline_patterns": ["*.md"]}, "2.2"),
    (SIDECAR, {"name": "x"}, "4.42"),
    (SIDECAR, {"dataset": "x"}, "2.2"),
])
def test_a_files_keys_tell_its_version(kind, data, version):
    assert version_of(kind, data, None) == version
    assert version_of(kind, data, "2.2") == "2.2" and version_of(kind, data, "4.42") == "4.42"  # unless configured
