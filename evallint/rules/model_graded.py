"""Whether a 4.42 suite has a test that the run's grader target grades: a language-model grader that names no
target of its own ('llm-grader', 'rubrics', an llm-grader aggregator of a composite), or none at all, where the
runner grades the criteria with its default llm-grader (grader-parser.ts). Such a grader asks the target that the
run's target names in 'grader_target', else the run's target itself (orchestrator.ts ``resolveGraderProvider``)."""
from __future__ import annotations

from typing import Any

from evallint.rules.common import is_text
from evallint.rules.grader_lists import TEST_LISTS, defaults_of, first_list, members_of, normal_type, value_at
from evallint.rules.kept_tests import kept_by_loader

MODEL_GRADERS = ("llm-grader", "rubrics")


def graded_by_a_model(document: Any) -> bool:
    """Whether a test of the suite ``document`` that the loader keeps is graded by the run's grader target (see the
    module's docstring); a test of a conversation when a turn has no grader of its own, or one of those."""
    tests = document.get("tests") if isinstance(document, dict) else None
    return isinstance(tests, list) and any(_graded(test, document) for test in tests if kept_by_loader(test))


def _graded(test: dict, document: Any) -> bool:
    path = first_list(test, TEST_LISTS)
    own = value_at(test, path) if path else None
    graders = (own if isinstance(own, list) else []) + _listed(defaults_of(document, test))
    turns = test.get("turns") if test.get("mode") == "conversation" else None
    if isinstance(turns, list) and any(not isinstance(turn, dict) or not _listed(turn.get("assertions"))
                                       or any(_asks_a_model(g) for g in turn["assertions"]) for turn in turns):
        return True
    return not graders or isinstance(test.get("rubrics"), list) or any(_asks_a_model(g) for g in graders)


def _asks_a_model(grader: Any) -> bool:
    if not isinstance(grader, dict) or not isinstance(grader.get("type"), str):
        return False
    kind = normal_type(grader["type"])
    if kind in MODEL_GRADERS:
        return not is_text(grader.get("target"))
    if kind != "composite":
        return False
    aggregator = grader.get("aggregator")
    return isinstance(aggregator, dict) and isinstance(aggregator.get("type"), str) \
        and normal_type(aggregator["type"]) == "llm-grader" or any(_asks_a_model(m) for m in members_of(grader)[1])


def _listed(value: Any) -> list:
    return value if isinstance(value, list) else []
