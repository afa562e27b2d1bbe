"""The checks of an Agent Skills evals file (``format/agentv4/skills.py``) that need more than one value, with
the codes of the same mistakes in a suite: unknown and misspelt keys (EV109, EV115), an eval the loader skips
for want of a prompt (EV105), an id that is missing or no number or string (EV103), two evals whose ids the
runner reads as the same text (EV104), an eval graded by nothing it says (EV106) or by a blank assertion (EV306),
and the files an eval names (EV401 without them)."""
from __future__ import annotations

from typing import Any, Iterator

from evallint.diagnostics import FIRST_KEY
from evallint.load.numbers import js_trim
from evallint.rules.common import Site, check_unknown_keys, finding, is_number
from evallint.rules.structure import check_duplicate_ids
from evallint.suggest import found

FILE = {"what": "file", "then": "the runner gives the agent a path to nothing and fails the test when it copies the "
                                "file into a workspace"}
_ABSENT = object()


def has_prompt(case: dict) -> bool:
    """Whether the loader keeps the eval: its 'prompt' is a string with more than white space."""
    prompt = case.get("prompt")
    return isinstance(prompt, str) and js_trim(prompt) != ""


def runner_id(case: Any) -> str:
    """The id the runner gives the eval's test: its 'id' made text as JavaScript's ``String`` makes it."""
    return _js_text(case.get("id", _ABSENT) if isinstance(case, dict) else _ABSENT)


def _js_text(value: Any) -> str:
    if value is _ABSENT:
        return "undefined"
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    if isinstance(value, list):  # an array's items joined by commas, null ones empty
        return ",".join("" if item is None else _js_text(item) for item in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def _grading(case: dict, at: tuple) -> Iterator:
    """EV106 for a kept eval with no 'expected_output' (or a blank one) and no 'assertions': the loader makes its
    criteria '' and gives it no grader, so the run grades it with its default llm-grader against nothing; EV306 for
    a blank assertion, which the loader makes an llm-grader with a blank prompt (agent-skills-parser.ts)."""
    expected, assertions = case.get("expected_output"), case.get("assertions")
    if assertions in (None, []) and (expected is None or isinstance(expected, str) and not js_trim(expected)):
        unread = " ('should_trigger' is not read)" if "should_trigger" in case else ""
        yield finding("EV106", "eval has no 'expected_output' or 'assertions': the runner keeps it, but grades it with "
                      f"its default llm-grader against empty criteria, so its score means nothing{unread}; add either",
                      at, FIRST_KEY)
    for i, text in enumerate(assertions if isinstance(assertions, list) else ()):
        if isinstance(text, str) and not js_trim(text):
            yield finding("EV306", "an assertion is blank: the runner grades the answer with an llm-grader whose "
                          "prompt is blank, so its score means nothing; write what the answer must do, or remove it",
                          at + ("assertions", i))


def check_file(data: dict, place) -> Iterator:
    """Unknown keys at the top; two evals the runner gives the same id (EV104)."""
    yield from check_unknown_keys(data, place.keys, (), "Agent Skills evals file")
    evals = data.get("evals")
    if isinstance(evals, list):
        kept = [{"id": runner_id(case)} if isinstance(case, dict) and has_prompt(case) else None for case in evals]
        yield from check_duplicate_ids(kept, "evals")


def check_eval(case: dict, place) -> Iterator:
    """Unknown keys; no prompt (EV105: the runner skips the eval); an id the runner makes 'undefined' or
    another text nobody wrote (EV103); the files it names."""
    at = place.at
    yield from check_unknown_keys(case, place.keys, at, "eval")
    if "prompt" not in case:
        yield finding("EV105", "eval has no 'prompt'; the runner skips it", at, FIRST_KEY)
        return
    if not has_prompt(case):
        what = "is an empty string" if isinstance(case["prompt"], str) else f"must be a string, {found(case['prompt'])}"
        yield finding("EV105", f"'prompt' {what}; the runner skips the eval", at + ("prompt",))
        return
    if "id" not in case:
        yield finding("EV103", "eval has no 'id'; the runner names its test 'undefined'", at, FIRST_KEY)
    elif not (isinstance(case["id"], str) or is_number(case["id"])):
        yield finding("EV103", f"eval 'id' must be a number or a string, {found(case['id'])}; the runner names its "
                      f"test '{runner_id(case)}'", at + ("id",))
    elif case["id"] == "":
        yield finding("EV103", "eval 'id' is an empty string; the runner names its test ''", at + ("id",))
    yield from _grading(case, at)
    files = case.get("files")
    for i, path in enumerate(files if isinstance(files, list) else ()):
        if isinstance(path, str) and path:
            yield Site("local_file", path, at + ("files", i), FILE)
