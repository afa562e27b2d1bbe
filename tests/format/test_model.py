"""The model's frozen dataclasses compare by value, nest, hash and print as dataclasses do."""
from __future__ import annotations

import dataclasses

import pytest

from evallint.format.model import CompositeEvaluator, EvalCase, Message, RubricEvaluator, RubricItem, ToolCall


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
