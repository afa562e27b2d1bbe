"""What the checks of a test's graders say, said of a conversation turn's graders as the runner runs them. The loader
passes a turn's graders on as written (yaml-parser.ts parseTurns): none of the loader's checks run on them, so a
grader the loader would drop, or a test it would skip, reaches the run as written, where the grader's registry
makes it (orchestrator.ts): it fails and scores 0, or scores the turn wrongly. Some mistakes change nothing there
(a weight of null or true weighs 1, a 'min_score' written as text is compared as a number, a composite's member
without a name runs unnamed, a grader named by a number keeps that label; a regex's 'flags' not written as text, and
a 'contains' or 'regex' value of a whole number, are what JavaScript makes text of them,
and turns.py says when RegExp refuses that flags' text), and are not reported in a turn."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Optional

from evallint.diagnostics import Finding
from evallint.rules.grader_lists import value_at

# the problem a message states, and what it says after the runner's consequence ('; expected one of ...'; a
# parenthesis in the consequence is part of it)
_CONSEQUENCE = re.compile(r"^(?P<problem>.*?)(?:;|:| and) the runner (?:[^;(]|\([^)]*\))*(?P<rest>;.*)?$", re.S)
AS_WRITTEN = "in a turn the runner takes the grader as written"
RUNS_SO = f"{AS_WRITTEN}, unchecked, and runs it so: it fails or scores the turn wrongly"
# what a message said of a turn's grader already says (turns.py, graders.py)
SAID_OF_A_TURN = re.compile(r"\bin a turn\b|\ba turn's\b|\bturn grader\b")
# code -> what becomes of such a grader in a turn
TURN_CONSEQUENCES = {
    "EV110": RUNS_SO,
    "EV301": f"{AS_WRITTEN}, so it fails ('Unknown grader type') and scores 0",
    "EV304": "in a turn the runner does not check a grader's weight: it weighs the turn's score with this one as "
             "written, which makes the score meaningless (0, NaN, or above 1)",
    "EV305": "in a turn the runner does not check a grader's weight: it subtracts this grader's score from the turn's, "
             "which can fall below 0 or rise above 1",
    "EV310": f"{AS_WRITTEN}, so it fails ('Unknown mode') and scores 0",
    "EV330": f"{AS_WRITTEN}, so the composite finds no members, fails and scores 0",
    "EV331": f"{AS_WRITTEN}, unchecked, so the composite fails or scores the turn wrongly",
    "EV350": RUNS_SO,
    "EV351": RUNS_SO,
    "EV352": RUNS_SO,
    "EV360": RUNS_SO,
    "EV361": RUNS_SO,
}
MEMBER_TYPE = f"{AS_WRITTEN}, so the whole composite fails ('Unsupported grader type in composite') and scores 0"
# what the loader makes of a grader's whole list, which a turn's graders never go through (each item's own finding
# says what the run does with it)
LOADER_ONLY = re.compile(r"^the loader drops every ")
UNKNOWN_AGGREGATOR = f"{AS_WRITTEN}, so the composite averages its members' scores instead"
REQUIRED = ("in a turn the runner takes any text but '' as true, so this grader is required (the turn scores 0 when "
            "it scores below its min_score); write true or false")


def in_a_turn(path: tuple) -> bool:
    """Whether ``path`` lies in a turn's graders: ..., 'turns', n, 'assertions', ..."""
    return any(path[n] == "turns" and isinstance(path[n + 1], int) and path[n + 2] == "assertions"
               for n in range(len(path) - 2))


def turn_findings(findings: list, data: Any) -> list:
    """``findings`` (of a 4.42 file holding ``data``) with those on a turn's graders said as the runner runs them."""
    out = []
    for f in findings:
        said = _in_turn(f, value_at(data, f.path)) if in_a_turn(f.path) else f
        if said is not None:
            out.append(said)
    return out


def _in_turn(f: Finding, value: Any) -> Optional[Finding]:
    """``f`` said of a turn's grader; None when the mistake changes nothing there."""
    key = f.path[-1] if f.path else None
    if key == "negate" or SAID_OF_A_TURN.search(f.message):  # read as in a test's own graders; said of a turn already
        return f
    if _changes_nothing(f.code, key, value) or LOADER_ONLY.match(f.message) or _as_its_text(f, key, value):
        return None
    if key == "required" and f.code in ("EV110", "EV120") and isinstance(value, str):
        return replace(f, code="EV110", message=f"assertion 'required' must be true or false, found '{value}'; "
                       f"{REQUIRED}", fix=None)
    return _reworded(f)


def _changes_nothing(code: str, key: Any, value: Any) -> bool:
    """Whether a finding ``code`` on ``key`` holding ``value`` is about what changes nothing in a turn."""
    return code == "EV302" or key in ("name", "flags") and code == "EV110" \
        or key == "weight" and (value is None or value is True) or key == "min_score" and code == "EV110" and _number_text(value)


def _as_its_text(f: Finding, key: Any, value: Any) -> bool:
    """Whether a 'contains' or 'regex' grader's value that is no string is the text it is written as: the grader
    passes it to includes() or RegExp, which make a whole number's digits of it (JavaScript's String()). A list of
    one text is made that text too, but the loaded grader differs from one of the text: still reported."""
    return key == "value" and f.code == "EV110" and f.message.startswith(("contains 'value'", "regex 'value'")) and \
        isinstance(value, int) and not isinstance(value, bool)


def _reworded(f: Finding) -> Finding:
    """``f`` with the runner's consequence of its mistake in a test's own grader replaced by what it is in a turn."""
    consequence = TURN_CONSEQUENCES.get(f.code)
    match = _CONSEQUENCE.match(f.message) if consequence else None
    if match is None:
        return f
    if f.code == "EV301" and _member(f.path) or f.code == "EV330" and _member(f.path) and isinstance(f.path[-1], int):
        consequence = MEMBER_TYPE
    elif f.code == "EV331" and f.message.startswith("unknown aggregator type"):
        consequence = UNKNOWN_AGGREGATOR
    return replace(f, message=f"{match['problem']}; {consequence}{match['rest'] or ''}")


def _member(path: tuple) -> bool:
    """Whether ``path`` lies in a member of a composite of a turn's graders: 'assertions' twice past 'turns'."""
    after = path[max(n for n, part in enumerate(path) if part == "turns"):]
    return after.count("assertions") > 1


def _number_text(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return isinstance(value, str)
