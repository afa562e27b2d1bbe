"""The ids AgentV 4.42's loader gives the items of a rubric list, two of which the grader cannot tell apart (EV362,
declared with the other evaluator rules in ``evaluators.py``)."""
from __future__ import annotations

from typing import Any, Iterator

from evallint.rules.common import finding
from evallint.suggest import quote


def rubric_ids(items: Any, place, inline: bool = False, strings: bool = True) -> Iterator:
    """EV362 for two items of an AgentV 4.42 rubric list that the loader gives one id: an item's own 'id' when it is
    a string, else 'rubric-N' by its place (N counting every item; in a test's own list (``inline``), its strings and
    mappings alone: grader-parser.ts); a string is an item only of a list that takes them (``strings``). The grader
    reads its results by id and keeps the last item of each (llm-grader.ts rubricMap), so the earlier item's result is
    never reported."""
    ids: dict = {}
    kinds = (dict, str) if strings else (dict,)
    items = [(i, item) for i, item in enumerate(items if isinstance(items, list) else ()) if isinstance(item, kinds)]
    for n, (i, item) in enumerate(items):
        own = item.get("id") if isinstance(item, dict) else None
        rid = own if isinstance(own, str) else f"rubric-{(n if inline else i) + 1}"
        at = place.at + ((i, "id") if isinstance(own, str) else (i,))
        if rid in ids:
            named = quote(rid) if isinstance(own, str) else f"{quote(rid)} (the id the runner gives it by its place)"
            yield finding("EV362", f"duplicate rubric id {named}, first given on line {{ref_line}}: the grader reads "
                          "its results by id and keeps the last item of each, so the earlier item's result is never "
                          "reported; give each item an id of its own", at, ref=ids[rid])
        else:
            ids[rid] = at
