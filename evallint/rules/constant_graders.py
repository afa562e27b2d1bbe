"""EV309: an AgentV 4.42 grader whose settings decide its score whatever the answer. The runner runs it as written
(graders/assertions.ts, graders/latency.ts, graders/cost.ts), so it is a warning: a 'starts-with' or 'ends-with'
value of white space alone, which the grader trims to nothing that every answer starts and ends with; an empty item
of a 'contains-any' or 'icontains-any' list, which every answer contains; a latency threshold or a cost budget of
.nan, which no run is within, or of .inf, which every run is. 'negate: true' turns passing into failing."""
from __future__ import annotations

import math
from typing import Iterator, Optional

from evallint.rules.common import finding, is_number
from evallint.rules.grader_lists import in_turn
from evallint.suggest import quote

LIMITS = {"latency": ("threshold", "duration"), "cost": ("budget", "cost")}  # kind -> its limit, what it limits


def check_constant(grader: dict, place) -> Iterator:
    found = _decided(place.schema.kind, grader) if not in_turn(place) or place.schema.kind not in LIMITS else None
    if found is not None:
        at, why, passes = found
        negated = grader.get("negate") is True
        yield finding("EV309", f"{why}, so the grader {'passes' if passes != negated else 'fails'} whatever the answer"
                      f"{' (negated)' if negated else ''}", place.at + at)


def _decided(kind: str, grader: dict) -> Optional[tuple]:
    """Where a grader of ``kind`` says what decides its score, why, and whether it passes (before negation); None
    when nothing does. A turn's latency or cost grader always fails (EV307), so its limit is not asked about."""
    value = grader.get("value")
    if kind in ("starts-with", "ends-with") and isinstance(value, str) and value and not value.strip():
        return (("value",), f"{kind} 'value' {quote(value)} is white space alone, which the grader trims (as it trims "
                f"the answer) to nothing, and every answer {kind.split('-')[0]} with nothing", True)
    if kind in ("contains-any", "icontains-any") and isinstance(value, list) and "" in value:
        return ("value", value.index("")), f"{kind} 'value' holds an empty item, which every answer contains", True
    key, what = LIMITS.get(kind, (None, None))
    limit = grader.get(key) if key else None
    if is_number(limit) and (math.isnan(limit) or limit == math.inf):  # a negative one is dropped (EV350, EV351)
        within = limit == math.inf
        return ((key,), f"{kind} '{key}' {'.inf' if within else '.nan'} is no limit: every run's {what} is "
                f"{'within' if within else 'beyond'} it", within)
    return None
