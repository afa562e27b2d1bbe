"""@frozen classes behave like @dataclass(frozen=True) ones: repr, equality, hash, immutability."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from evallint.frozen import frozen
from evallint.model import CompositeEvaluator, EvalCase, Message, RubricEvaluator, RubricItem, ToolCall


@frozen
class Point:
    x: int
    y: int = 0
    tags: tuple = ()
    hidden: str = field(default="", repr=False, compare=False)


@dataclass(frozen=True)
class Twin:
    x: int
    y: int = 0
    tags: tuple = ()
    hidden: str = field(default="", repr=False, compare=False)


def test_repr_equality_and_hash_match_a_generated_dataclass():
    ours, theirs = Point(1, 2, ("a",), "h"), Twin(1, 2, ("a",), "h")
    assert repr(ours) == repr(theirs).replace("Twin", "Point") == "Point(x=1, y=2, tags=('a',))"
    assert ours == Point(1, 2, ("a",), "other") and hash(ours) == hash(Point(1, 2, ("a",)))
    assert hash(ours) == hash(theirs)
    assert ours != Point(1, 3, ("a",)) and ours != theirs and (ours == (1, 2, ("a",))) is False


def test_frozen_classes_stay_dataclasses():
    point = Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 2
    assert dataclasses.is_dataclass(point) and dataclasses.replace(point, y=5) == Point(1, 5)
    assert dataclasses.asdict(point) == {"x": 1, "y": 0, "tags": (), "hidden": ""}


def test_model_objects_compare_by_value_and_nest():
    case = EvalCase(id="a", expected_outcome="o", input_messages=(Message("user", "hi", (ToolCall("t", {"k": 1}),)),))
    same = EvalCase(id="a", expected_outcome="o", input_messages=(Message("user", "hi", (ToolCall("t", {"k": 1}),)),))
    assert case == same and case != dataclasses.replace(same, id="b")
    assert repr(Message("user", "hi")) == "Message(role='user', content='hi', tool_calls=())"
    rubric = RubricEvaluator(type="rubric", name="r", rubrics=(RubricItem("1", "d"),))
    assert hash(rubric) == hash(RubricEvaluator(type="rubric", name="r", rubrics=(RubricItem("1", "d"),)))
    assert CompositeEvaluator(type="composite", name="c") != RubricEvaluator(type="composite", name="c")
