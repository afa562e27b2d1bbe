"""Settings of an AgentV 4.42 assertion that the runner reads only beside another, reads otherwise than they say,
or never gives the grader, and a type it reads otherwise than written: these functions are ``checks`` of the
assertion schemas (``format/agentv4/assertions.py``)."""
from __future__ import annotations

from typing import Iterator

from evallint.diagnostics import KEY, VALUE
from evallint.load.environment import refers
from evallint.rules.common import finding, is_number, js_truthy, takes
from evallint.rules.grader_lists import in_turn, value_at
from evallint.suggest import all_of, quote

# names people give a text grader's setting to ignore case (true), and to mind it (false)
IGNORE_CASE = ("ignore_case", "ignorecase", "case_insensitive", "caseinsensitive", "nocase", "no_case")
MIND_CASE = ("case_sensitive", "casesensitive", "match_case")


def misread_settings(ev: dict, schema, at: tuple) -> Iterator:
    """(key, finding) for each key the runner does not read that asks for what the grader does not do (EV115): a
    case setting of a text grader that compares case the other way; 'values' beside 'value' with what 'value'
    leaves out (the runner checks 'value' alone)."""
    if schema.minds_case is not None:
        yield from _case_settings(ev, schema, at)
        yield from _values_beside_value(ev, schema, at)


def _minds_case(ev: dict, schema) -> bool:
    """Whether the grader minds case: a regex does unless its flags hold 'i'."""
    flags = ev.get("flags") if schema.kind == "regex" else None
    return schema.minds_case and not (isinstance(flags, str) and "i" in flags)


def _case_settings(ev: dict, schema, at: tuple) -> Iterator:
    minds = _minds_case(ev, schema)
    for key, value in ev.items():
        name = key.lower().replace("-", "_") if isinstance(key, str) else ""
        ignores = value if name in IGNORE_CASE else not value if name in MIND_CASE else None
        if isinstance(value, bool) and ignores is not None and ignores == minds:
            yield key, finding("EV115", f"{quote(key)} is not read: {schema.kind} has no case setting and "
                               f"{'minds' if minds else 'ignores'} case whatever it says; {_case_instead(schema, minds)}",
                               at + (key,), KEY)


def _case_instead(schema, minds: bool) -> str:
    kind, kinds = schema.kind, schema.kinds
    if kind == "regex":
        return "add 'i' to its 'flags' to ignore it" if minds else "take 'i' out of its 'flags' to mind it"
    if not minds:
        return f"use type '{kind[1:]}' to mind case"
    return f"use type 'i{kind}' to ignore it" if "i" + kind in kinds else "write a 'regex' with 'flags: i' to ignore it"


def _compared(item, fold: bool):
    """``item`` as the grader compares it (``fold``: in any case)."""
    return item.lower() if fold and isinstance(item, str) else item


def _values_beside_value(ev: dict, schema, at: tuple) -> Iterator:
    values, value = ev.get("values"), ev.get("value")
    if "value" not in ev or values is None:
        return
    fold = not _minds_case(ev, schema)
    written = {_compared(item, fold) for item in (value if isinstance(value, list) else [value]) if isinstance(item, str)}
    left_out = [item for item in (values if isinstance(values, list) else [values])
                if item != "" and _compared(item, fold) not in written]
    if left_out:
        one = len(left_out) == 1
        put = "join the patterns with '|' in 'value'" if schema.kind == "regex" else \
            f"put {'it' if one else 'them'} in 'value'" if isinstance(value, list) else \
            "list every text in the 'value' of a contains-all or contains-any grader"
        yield "values", finding("EV115", f"'values' is not read beside 'value': the runner checks 'value' alone, so "
                                f"{all_of(left_out, quote)} {'is' if one else 'are'} never looked for; {put}",
                                at + ("values",), KEY)


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


def custom_settings(ev: dict, keys, at: tuple, skip: tuple) -> Iterator:
    """EV317 for each setting of a custom type's assertion: the loader stores it as the grader's configuration, but
    the grader the runner makes of a file of '.agentv/assertions/' (registry discoverAssertions) takes none, and its
    script is sent a null 'config'. A near miss of a key the runner reads is EV115's. A type the run gives (an
    environment reference) may be a built-in kind's, whose grader reads them."""
    if refers(ev.get("type")):
        return
    for key in ev:
        if isinstance(key, str) and key not in keys.known and key not in skip and not keys.meant(key, ev):
            yield finding("EV317", f"'{key}' never reaches the grader of custom type {quote(ev.get('type'))}: the runner "
                          "runs its script with no configuration ('config' is null), so the setting has no effect",
                          at + (key,), KEY)


def check_inline_assert(ev: dict, place) -> Iterator:
    """EV301 for 'type: inline-assert' in a YAML or JSONL file: the type of a TypeScript eval's assertion function,
    which the loader stores as an llm-grader with nothing but the default prompt (grader-parser.ts); in a turn, whose
    graders the runner takes as written, the grader registry finds no function and the grader fails."""
    then = ("in a turn the runner takes it as written, and the grader fails ('No inline assert function found')"
            if in_turn(place) else "in this file the loader makes it an llm-grader with the default prompt, which "
            "grades the answer against the test's criteria and runs no check of yours")
    yield finding("EV301", f"type 'inline-assert' is a TypeScript eval's assertion function: {then}; write a built-in "
                  "type, or a custom type in .agentv/assertions/", place.at + ("type",), VALUE)


def check_prompt_config(ev: dict, place) -> Iterator:
    """EV108 for an llm-grader's 'config', and each key it carries into its configuration, beside a prompt script's
    own 'config' (a mapping): the loader gives the script that one alone (grader-parser.ts: the prompt's config, else
    the grader's merged over its other keys), so theirs are dropped. A near miss of a key it reads is EV115's."""
    prompt = ev.get("prompt")
    if not (isinstance(prompt, dict) and isinstance(prompt.get("config"), dict)):
        return
    for key in ev:
        dropped = isinstance(ev[key], dict) if key == "config" else \
            isinstance(key, str) and key not in place.keys.known and not place.keys.meant(key, ev)
        if dropped:
            yield finding("EV108", f"'{key}' is ignored because the prompt's 'config' is set: the runner gives a prompt "
                          "script that configuration alone, and drops the grader's 'config' and other keys; move it "
                          "into the prompt's 'config'", place.at + (key,), KEY)
