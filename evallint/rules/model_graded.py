"""Whether a 4.42 suite has a test that the run's grader target grades: a language-model grader that names no
target of its own ('llm-grader', 'rubrics', a string item of a grader list, an llm-grader aggregator of a composite),
or none at all, where the runner grades the criteria with its default llm-grader (grader-parser.ts). Such a grader
asks the target that the run's target names in 'grader_target', else the run's target itself (orchestrator.ts
``resolveGraderProvider``)."""
from __future__ import annotations

from typing import Any

from evallint.rules.common import is_text
from evallint.rules.grader_lists import MODEL_GRADERS, listed, members_of, normal_type, test_graders
from evallint.rules.kept_tests import kept_by_loader


def graded_by_a_model(document: Any) -> bool:
    """Whether a test of the suite ``document`` that the loader keeps is graded by the run's grader target (see the
    module's docstring)."""
    tests = document.get("tests") if isinstance(document, dict) else None
    return isinstance(tests, list) and any(_graded(test, document) for test in tests if kept_by_loader(test, suite=document))


def _graded(test: dict, document: Any) -> bool:
    """Of a test, its graders (its own list, the suite's defaults it gets, its 'rubrics'; a string item is a rubric);
    with none, the default llm-grader grades it. A conversation's are those of its turns (a turn without graders
    but with an expected output gets the default llm-grader; one with neither is scored 1 ungraded) and its own,
    which grade the transcript: with none of its own, nothing does (orchestrator.ts runConversationMode)."""
    graders = test_graders(document, test)
    if isinstance(test.get("rubrics"), list) and test["rubrics"] or any(isinstance(g, str) for g in graders):
        return True
    if test.get("mode") != "conversation":
        return not graders or any(_asks_a_model(g) for g in graders)
    turns = [turn for turn in listed(test.get("turns")) if isinstance(turn, dict)]
    return any(_asks_a_model(g) for g in graders) or any(
        any(_asks_a_model(g) for g in turn["assertions"]) if listed(turn.get("assertions"))
        else turn.get("expected_output") is not None for turn in turns)


def _asks_a_model(grader: Any) -> bool:
    """A model grader without a target of its own, or a composite with one, or with an llm-grader aggregator."""
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
