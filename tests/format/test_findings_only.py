"""A lint for findings only (the command's, the editor's) builds no model, and finds what a lint that builds it
finds: every check reads the data as written, never the model."""
from __future__ import annotations

import os

import pytest

from conftest import FIXTURES
from evallint.config import Config
from evallint.format.agentv2.suite import SUITE_SCHEMA
from evallint.format.base import building, models_built
from evallint.format.walk import load_checked
from evallint.lint import lint_file

SUITE = {"evalcases": [{"id": "a", "expected_outcome": "g", "input": "q", "rubrics": ["r"],
                        "evaluators": [{"name": "j", "type": "code_judge", "script": ["python", "check.py"]}]}]}


def test_a_load_for_findings_only_gives_no_model_and_the_same_findings():
    built, found = load_checked(SUITE_SCHEMA, SUITE)
    with models_built(False):
        assert not building()
        unbuilt, found_only = load_checked(SUITE_SCHEMA, SUITE)
        with models_built(True):
            assert building()
    assert building()
    assert type(built).__name__ == "EvalSuite" and [e.type for e in built.cases[0].evaluators] == ["rubric", "code_judge"]
    assert unbuilt is None and found_only == found and [s.value for s in found.sites] == [["python", "check.py"]]


def test_a_lint_without_the_model_carries_none_and_one_with_it_builds_it_whatever_the_caller_does():
    suite = str(FIXTURES / "corpus" / "agentv-examples" / "examples" / "features" / "rubric" / "evals" / "dataset.yaml")
    assert len(lint_file(suite, Config()).model.cases) == 4
    assert lint_file(suite, Config(), model=False).model is None
    with models_built(False):
        assert len(lint_file(suite, Config()).model.cases) == 4


def _files(top: str) -> list:
    out = []
    for folder, dirs, names in os.walk(FIXTURES / top):
        dirs.sort()
        out += [os.path.join(folder, name) for name in sorted(names) if name.endswith((".yaml", ".yml", ".jsonl", ".json"))]
    return out


@pytest.mark.parametrize("top", ["good", "bad", "corpus", "agentv-4.42.4-examples", "skills", "hostile"])
def test_every_fixture_has_the_same_findings_with_and_without_the_model(top):
    files = _files(top)
    assert len(files) > 3
    differ = [path for path in files
              if lint_file(path, Config()).diagnostics != lint_file(path, Config(), model=False).diagnostics]
    assert differ == []
