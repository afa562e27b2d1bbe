"""The model's frozen dataclasses compare by value, nest, hash and print as dataclasses do."""
from __future__ import annotations

import dataclasses

import pytest

from evallint.format.agentv2.model import CompositeEvaluator, EvalCase, Message, RubricEvaluator, RubricItem, ToolCall


def test_model_objects_compare_by_value_and_nest():
    case = EvalCase(id="a", expected_outcome="o", input_messages=(Message("user", "hi", (ToolCall("t", {"k": 1}),)),))
    same = EvalCase(id="a", expected_outcome="o", input_messages=(Message("user", "hi", (ToolCall("t", {"k": 1}),)),))
    assert case == same and case != dataclasses.replace(same, id="b")
    assert repr(Message("user", "hi")) == "Message(role='user', content='hi', tool_calls=())"
    rubric = RubricEvaluator(type="rubric", name="r", rubrics=(RubricItem("1", "d"),))
    assert hash(rubric) == hash(RubricEvaluator(type="rubric", name="r", rubrics=(RubricItem("1", "d"),)))
    assert CompositeEvaluator(type="composite", name="c") != RubricEvaluator(type="composite", name="c")


def test_model_objects_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Message("user", "hi").role = "assistant"


def test_each_evaluator_kind_is_declared_once_by_its_schema():
    """The kinds, their model classes and the summaries come from the schema classes, in definition order."""
    import inspect

    from evallint.format.agentv2 import evaluators, model

    assert getattr(model, evaluators.SCHEMAS["tool_trajectory"].model_class) is model.ToolTrajectoryEvaluator
    assert evaluators.EVALUATOR_KINDS == tuple(evaluators.SCHEMAS)
    lines = [inspect.getsourcelines(type(schema))[1] for schema in evaluators.SCHEMAS.values()]
    assert lines == sorted(lines) and len(lines) >= 9
    for kind, schema in evaluators.SCHEMAS.items():
        assert schema.kind == kind and issubclass(getattr(model, schema.model_class), model.EvaluatorConfig), kind
        assert schema.model_class != "EvaluatorConfig" and schema.summary.endswith("."), kind
    assert [kind for kind, schema in evaluators.SCHEMAS.items() if schema.open_keys] == ["code_judge"]


def test_the_keys_that_make_a_file_a_suite_are_the_suite_schemas():
    """Telling a file's kind happens below the schemas (load/files.py), so its list of suite keys is checked
    against the suite schema's declared keys here."""
    from evallint.format.agentv2.sidecar import SIDECAR_KEYS
    from evallint.format.agentv2.suite import SUITE_SCHEMA
    from evallint.format.keys import known_keys
    from evallint.load import files

    assert set(files.SUITE_KEYS) | {"evalcases"} == set(known_keys(SUITE_SCHEMA))
    assert set(SIDECAR_KEYS) < set(files.SUITE_KEYS)


def test_a_dataset_line_with_an_execution_of_its_own_does_not_get_the_sidecars_evaluators():
    """AgentV 2.2's JSONL loader passes a line's 'execution' (when it is a mapping) in place of the sidecar's as
    the source of the default evaluators, so such a line without evaluators of its own gets none."""
    from conftest import FIXTURES

    from evallint.config import Config
    from evallint.lint import lint_file

    folder = FIXTURES / "bad" / "EV113_sidecar_evaluators_replaced_dataset"
    model = lint_file(str(folder / "dataset.jsonl"), Config(root=str(folder))).model
    assert [(case.id, [e.name for e in case.evaluators]) for case in model.cases] == [
        ("replaced", []), ("own-evaluators", ["judge"]), ("inherits", ["says-hello"])]
