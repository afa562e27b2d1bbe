"""Settings of an AgentV 4.42 assertion that the runner reads only beside another, or reads otherwise than they
say: these functions are ``checks`` of the assertion schemas (``format/agentv4/assertions.py``)."""
from __future__ import annotations

from typing import Iterator

from evallint.diagnostics import KEY
from evallint.rules.common import finding, is_number, js_truthy, takes
from evallint.rules.grader_lists import in_turn, value_at


def check_required_score(ev: dict, place) -> Iterator:
    """EV109 for a number in (0, 1] as 'required': the earlier form of 'required: true' with a 'min_score', which the
    loader still reads so, and warns of; EV115 for a 'min_score' of a grader that is not required, which the run
    reads only to gate the test on a required grader (orchestrator.ts), but a member's (EV333). A turn's grader is
    passed on as written, and any 'required' that JavaScript takes for true makes it gate the turn."""
    required = ev.get("required")
    gates = required is True or is_number(required) and 0 < required <= 1
    if gates and required is not True:
        then = "" if "min_score" in ev else f" and 'min_score: {required}'"
        yield finding("EV109", f"'required: {required}' is deprecated (the runner warns); write 'required: true'{then}",
                      place.at + ("required",))
    turn = in_turn(place)
    if "min_score" in ev and not (gates or turn and js_truthy(required)) and not _is_member(place) \
            and takes(place.schema, "min_score", ev["min_score"]):
        yield finding("EV115", "'min_score' applies only to a required assertion: without 'required: true' the runner "
                      f"never gates the {'turn' if turn else 'test'} on this grader, so it ignores the score; add "
                      "'required: true'", place.at + ("min_score",), KEY)


def _is_member(place) -> bool:
    """Whether the assertion at ``place`` is a composite's member: an item of a list of a composite."""
    holder = value_at(place.document, place.at[:-2]) if len(place.at) > 2 else None
    return isinstance(holder, dict) and holder.get("type") == "composite"
