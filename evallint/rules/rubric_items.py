"""What AgentV 4.42's grader makes of the items of a rubric list together: the ids the loader gives them, two of
which it cannot tell apart (EV362), the scores a checklist of them ignores (EV115), and the full marks that score
bands on some of them ask of the others (EV363); the rules are declared in ``evaluators.py`` and ``common.py``."""
from __future__ import annotations

from typing import Any, Iterator

from evallint.diagnostics import FIRST_KEY, KEY, VALUE
from evallint.rules.common import finding, is_number, repeats
from evallint.suggest import quote


def rubric_ids(items: Any, place, inline: bool = False, strings: bool = True) -> Iterator:
    """EV362 for two items of an AgentV 4.42 rubric list that the loader gives one id: an item's own 'id' when it is
    a string, else 'rubric-N' by its place (N counting every item; in a test's own list (``inline``), its strings and
    mappings alone: grader-parser.ts); a string is an item only of a list that takes them (``strings``). The grader
    reads its results by id and keeps the last item of each (llm-grader.ts rubricMap), so the earlier item's result is
    never reported."""
    kinds = (dict, str) if strings else (dict,)
    items = [(i, item) for i, item in enumerate(items if isinstance(items, list) else ()) if isinstance(item, kinds)]
    for at, rid, first in repeats(_ids(items, place.at, inline)):
        named = quote(rid) if at[-1] == "id" else f"{quote(rid)} (the id the runner gives it by its place)"
        yield finding("EV362", f"duplicate rubric id {named}, first given on line {{ref_line}}: the grader reads its "
                      "results by id and keeps the last item of each, so the earlier item's result is never reported; "
                      "give each item an id of its own", at, ref=first)


def _ids(items: list, at: tuple, inline: bool) -> Iterator[tuple]:
    """(the place of the id, the id) the loader gives each of ``items`` ((its index, the item)): its own 'id', at that
    key, else 'rubric-N' by its place, at the item."""
    for n, (i, item) in enumerate(items):
        own = item.get("id") if isinstance(item, dict) else None
        yield (at + (i, "id"), own) if isinstance(own, str) else (at + (i,), f"rubric-{(n if inline else i) + 1}")


def checklist_scores(items: Any, place) -> Iterator:
    """EV115 for a rubric item's 'min_score' in a list none of whose items has score bands ('score_ranges'): the
    grader then grades a checklist, reading each item's 'required' and 'weight' alone (llm-grader.ts
    calculateRubricScore), so the score is ignored."""
    if not isinstance(items, list) or any(_banded(item) for item in items):
        return
    for i, item in enumerate(items):
        if isinstance(item, dict) and item.get("min_score") is not None:
            yield finding("EV115", "'min_score' is read only in a list with score bands ('score_ranges'): in a "
                          "checklist the grader reads an item's 'required' and 'weight' alone, so it ignores the score",
                          place.at + (i, "min_score"), KEY)


def banded_scores(items: Any, place, inline: bool = False) -> Iterator:
    """EV363 for an item without score bands in a list where another has some: the grader then scores every item from
    0 to 10, and gates an item on its 'min_score' (0-1), else its 'required_min_score' (0-10), else, when it is
    required, on full marks (llm-grader.ts calculateScoreRangeResult); an item without bands is required unless it
    says otherwise (grader-parser.ts), so it fails the grader's verdict below 10/10. An item the loader drops, with no
    outcome (``inline``, of a test's own list: no 'outcome'; else no 'outcome' or 'criteria'), is EV361's."""
    banded = next((item for item in items if _banded(item)), None) if isinstance(items, list) else None
    if banded is None:
        return
    named = quote(banded["id"]) if isinstance(banded.get("id"), str) else "another item"
    for i, item in enumerate(items):
        if isinstance(item, str) and item or isinstance(item, dict) and not _banded(item) and outcome_of(item, inline) \
                and item.get("required") is not False and not any(is_number(item.get(key)) for key in SCORES):
            how = "" if isinstance(item, dict) and item.get("required") is True else " by default"
            yield finding("EV363", f"this rubric item has no 'score_ranges', but {named} gives the list score bands: the "
                          f"grader then scores every item from 0 to 10, and a required item (as this one is{how}) fails "
                          "the grader's verdict below 10/10; give it a 'min_score' (0 to 1), 'required: false' or score "
                          "bands of its own", place.at + (i,), FIRST_KEY if isinstance(item, dict) else VALUE)


SCORES = ("min_score", "required_min_score")


def outcome_of(item: dict, inline: bool = False) -> str:
    """The outcome the loader reads of a rubric item: its first string of 'outcome' and, but in a test's own list
    (``inline``), 'criteria' (grader-parser.ts 'asString(outcome) ?? asString(criteria)'); '' without one."""
    keys = ("outcome",) if inline else ("outcome", "criteria")
    return next((item[key] for key in keys if isinstance(item.get(key), str)), "")


def _banded(item: Any) -> bool:
    return isinstance(item, dict) and bool(item.get("score_ranges"))
