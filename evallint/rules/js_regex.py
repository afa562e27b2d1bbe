"""What JavaScript's RegExp refuses of a regex grader's flags and pattern, which the grader meets when it builds its
expression as it grades (graders/assertions.ts: new RegExp(pattern, flags)), and then fails and scores 0. The
pattern is read by ``js_regex_parser`` (and ``js_regex_sets`` with the 'v' flag).

Only what every engine the runner runs on refuses is reported: modifiers such as '(?i:...)' (read by later
engines), a group name written twice and a property escape's name (but for a property of strings) are taken as
they are written."""
from __future__ import annotations

from typing import Iterator, Optional

from evallint.rules.common import finding
from evallint.rules.js_regex_parser import Parser, Refused
from evallint.rules.js_regex_sets import SetsParser
from evallint.suggest import all_of, quote

REGEX_FLAGS = "dgimsuvy"  # the flags of a JavaScript regular expression, each written once, not both 'u' and 'v'


def check_regex(grader: dict, place) -> Iterator:
    """EV110 for a regex grader's 'flags' that RegExp refuses, else for its pattern ('value') that RegExp refuses
    with those flags (flags that are no text are ignored)."""
    flags = grader.get("flags")
    refused = list(refused_flags(flags, f"regex 'flags' {quote(flags)}", grader, place.at + ("flags",))) \
        if isinstance(flags, str) else []
    yield from refused
    pattern = grader.get("value")
    why = regex_error(pattern, flags if isinstance(flags, str) else "") if isinstance(pattern, str) and not refused \
        else None
    if why is not None:
        yield finding("EV110", f"regex {quote(pattern)} is no JavaScript regular expression: {why}; the grader fails "
                      f"when it grades ('Invalid regular expression') and scores {_score(grader)}", place.at + ("value",))


def refused_flags(flags: str, said: str, grader: dict, at: tuple) -> Iterator:
    """EV110 at ``at`` when RegExp refuses ``flags`` (the text ``said`` of ``grader``'s 'flags')."""
    unknown = sorted({flag for flag in flags if flag not in REGEX_FLAGS})
    twice = sorted({flag for flag in flags if flags.count(flag) > 1})
    why = (f"{all_of(unknown)} {'is' if len(unknown) == 1 else 'are'} no flag of a JavaScript regular expression"
           if unknown else f"{all_of(twice)} written twice" if twice else "'u' and 'v' do not go together"
           if "u" in flags and "v" in flags else None)
    if why is not None:
        yield finding("EV110", f"{said}: {why}; the grader fails when it grades ('Invalid flags supplied to RegExp "
                      f"constructor') and scores {_score(grader)}; flags: {', '.join(REGEX_FLAGS)}, each once", at)


def _score(grader: dict) -> str:
    return "1 (negated)" if grader.get("negate") is True else "0"


def regex_error(pattern: str, flags: str = "") -> Optional[str]:
    """Why RegExp refuses ``pattern`` with ``flags`` (valid flags), as a short phrase; None when it takes it."""
    unicode = "u" in flags or "v" in flags
    text = pattern if unicode else _code_units(pattern)  # without 'u' the pattern is read by UTF-16 code units
    try:
        (SetsParser(text) if "v" in flags else Parser(text, unicode)).parse()
    except Refused as refused:
        return str(refused)
    except RecursionError:  # nested deeper than this reader follows: taken as valid, as JavaScript may take it
        return None
    return None


def _code_units(text: str) -> str:
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(int.from_bytes(data[i:i + 2], "little")) for i in range(0, len(data), 2))
