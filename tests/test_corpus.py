"""The real AgentV examples: evallint's model matches what AgentV's own loader
made of each file, and the files (valid but for three known target mistakes)
give no errors."""
from __future__ import annotations

import json

import pytest

from conftest import FIXTURES
from evallint import Severity, lint_paths, load_eval_file
from evallint.config import Config

CORPUS = FIXTURES / "corpus" / "agentv-examples"
EXPECTED = json.loads((CORPUS / "runner-normalized.json").read_text(encoding="utf-8"))
YAML_FILES = sorted(name for name in EXPECTED if name.endswith((".yaml", ".yml")))


def _input(message):
    out = {"role": message.role}
    if message.content is not None:
        out["content"] = message.content
    return out


def _expected(message):
    out = {"role": message.role}
    if isinstance(message.content, (str, dict)):
        out["content"] = message.content
    if message.tool_calls:
        out["tools"] = [call.tool for call in message.tool_calls]
    return out


def normalized(suite):
    return [
        {
            "id": case.id,
            "expected_outcome": case.expected_outcome,
            "input_messages": [_input(m) for m in case.input_messages],
            "expected_messages": [_expected(m) for m in case.expected_messages],
            "evaluators": [e.name for e in case.evaluators],
        }
        for case in suite.cases
    ]


@pytest.mark.parametrize("name", YAML_FILES)
def test_model_matches_the_runner(name):
    suite = load_eval_file(CORPUS / name)
    assert normalized(suite) == EXPECTED[name]


def test_parity_covers_every_runner_file():
    assert len(YAML_FILES) >= 20


def test_corpus_has_no_errors_without_references():
    diagnostics = lint_paths([CORPUS], config=Config(references=False))
    errors = [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}" for d in diagnostics if d.severity is Severity.ERROR]
    assert errors == []
