"""A family of kinds (``base.KindSchema``): each kind registers when it is defined, and ``schemas`` gives one
schema per kind, the same for every caller."""
from __future__ import annotations

from evallint.format.agentv4 import graders
from evallint.format.agentv4.assertions import AssertionSchema
from evallint.format.base import KindSchema


def test_a_family_makes_one_schema_per_kind_for_every_caller():
    class Family(KindSchema):
        kinds: dict = {}

    class First(Family):
        kind = "first"

    made = Family.schemas()
    assert list(made) == ["first"] and type(made["first"]) is First
    assert First.schemas() is made  # asked of a kind, the answer is its family's

    class Second(Family):
        kind = "second"

    again = Family.schemas()
    assert again is made and list(again) == ["first", "second"] and type(again["second"]) is Second
    assert again["first"] is made["first"]  # made once


def test_a_kind_defined_again_is_made_again():
    class Family(KindSchema):
        kinds: dict = {}

    class Old(Family):
        kind = "k"

    Family.schemas()

    class New(Family):
        kind = "k"

    assert type(Family.schemas()["k"]) is New


def test_the_assertion_registry_is_the_familys():
    assert graders.SCHEMAS is AssertionSchema.schemas()
    assert list(graders.SCHEMAS) == list(AssertionSchema.kinds)
    assert all(type(schema) is AssertionSchema.kinds[kind] for kind, schema in graders.SCHEMAS.items())
