"""@record classes behave like the dataclasses they replace: fields, defaults, repr, equality, frozen."""
import dataclasses

import pytest

from evallint.record import FrozenError, factory, fields_of, record


@record
class Mutable:
    a: int
    b: str = "x"
    items: list = factory(list)


@record(frozen=True)
class Point:
    x: int
    y: int = 0


@dataclasses.dataclass
class MutableDataclass:
    a: int
    b: str = "x"
    items: list = dataclasses.field(default_factory=list)


def test_init_defaults_and_a_fresh_factory_default_for_each_instance():
    one, two = Mutable(1), Mutable(2, "y", [3])
    assert (one.a, one.b, one.items, two.a, two.b, two.items) == (1, "x", [], 2, "y", [3])
    one.items.append(9)
    assert Mutable(1).items == [] and "items" not in Mutable.__dict__
    assert Mutable(a=5, items=[1]).items == [1]
    with pytest.raises(TypeError):
        Mutable()


def test_repr_and_equality_match_a_dataclass():
    assert repr(Mutable(1, "y", [2])) == repr(MutableDataclass(1, "y", [2])).replace("MutableDataclass", "Mutable")
    assert Mutable(1) == Mutable(1) and Mutable(1) != Mutable(2) and Mutable(1) != MutableDataclass(1)
    assert Mutable.__hash__ is None  # mutable with equality: unhashable, as a dataclass
    assert fields_of(Mutable) == ("a", "b", "items")


def test_frozen_records_refuse_assignment_and_hash_by_their_fields():
    point = Point(1)
    with pytest.raises(FrozenError):
        point.x = 2
    with pytest.raises(AttributeError):
        del point.y
    assert hash(point) == hash(Point(1, 0)) and {point, Point(1, 0)} == {point}
    assert repr(point) == "Point(x=1, y=0)" and point != Point(1, 1)
