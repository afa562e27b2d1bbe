"""EV316: an AgentV 4.42 text grader's value that the runner matches as written where it looks like more than its
text (graders/assertions.ts). It runs as written, so it is a warning: a value ending in a line break, as a '|' or '>'
block scalar ends, which 'contains', its kinds and 'regex' look for too ('equals', 'starts-with' and 'ends-with'
trim the value); a regex written as a JavaScript literal with flags ('/refund/i'), whose slashes and flags the
grader matches as text; a regex holding what Python, PCRE or POSIX read as an anchor or a class ('\\Z', '\\p{Lu}',
'[[:digit:]]'), which JavaScript's RegExp without the 'u' or 'v' flag reads as the characters written."""
from __future__ import annotations

import re
from typing import Iterator

from evallint.rules.common import finding
from evallint.suggest import quote

# the kinds that look for the value as it is, line breaks and all
LOOKS_AS_WRITTEN = ("contains", "icontains", "contains-any", "contains-all", "icontains-any", "icontains-all", "regex")
# a literal's pattern holds no '/' but an escaped one ('/api/v1' is more likely a path); its flags, each once; its
# runs of plain characters are one repeat each, so a long value costs no memory per character
_JS_LITERAL = re.compile(r"/(?!/)([^/\\]*(?:\\.[^/\\]*)*)/([gimsuy]+)", re.DOTALL)


# what other engines read as more than JavaScript's RegExp does without the 'u' or 'v' flag: (how to write it there,
# what it is elsewhere, and where); an escape of a letter is that letter, '[:digit:]' in a class its characters
FOREIGN = {"\\A": ("'^'", "the start of the text", "PCRE and Python"),
           "\\Z": ("'$'", "the end of the text", "PCRE and Python"), "\\z": ("'$'", "the end of the text", "PCRE"),
           "\\p": ("'flags: u'", "a Unicode property", "PCRE"), "\\P": ("'flags: u'", "a Unicode property", "PCRE"),
           "[:": ("a class such as '[0-9]' or '\\d'", "a POSIX class", "POSIX and PCRE")}
_POSIX = re.compile(r"\[:(alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]")


def foreign_piece(pattern: str) -> str:
    """The first piece of ``pattern`` that ``FOREIGN`` names ('' when none): an escape outside a class (a '\\p' or
    '\\P' before '{'), or a POSIX class within one."""
    at, in_class = 0, False
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            piece = pattern[at:at + 2]
            if not in_class and piece in FOREIGN and (piece[1] not in "pP" or pattern[at + 2:at + 3] == "{"):
                return piece
            at += 2
            continue
        if in_class and _POSIX.match(pattern, at):
            return _POSIX.match(pattern, at).group(0)
        if char == "[" and not in_class:
            in_class, at = True, at + (2 if pattern[at + 1:at + 2] == "^" else 1)
            continue  # a ']' first closes the class at once ('[]' matches nothing)
        in_class = in_class and char != "]"
        at += 1
    return ""


def check_literal(grader: dict, place) -> Iterator:
    kind, value = place.schema.kind, grader.get("value")
    if kind == "regex" and isinstance(value, str):
        written_as_literal = list(_regex_literal(value, grader, place.at + ("value",)))
        yield from written_as_literal or _foreign_regex(value, grader, place.at + ("value",))
        if written_as_literal:
            return
    yield from _trailing_breaks(kind, value, place.at + ("value",))


def _regex_literal(value: str, grader: dict, at: tuple) -> Iterator:
    literal = _JS_LITERAL.fullmatch(value)
    if literal is not None and len(set(literal.group(2))) == len(literal.group(2)):
        pattern, flags = literal.groups()
        given = f"add {quote(flags)} to its 'flags'" if isinstance(grader.get("flags"), str) else f"'flags: {flags}'"
        yield finding("EV316", f"regex {quote(value)} is written as a JavaScript literal, but the runner takes 'value' as "
                      f"the pattern alone, so the grader looks for the slashes and {quote(flags)} as text; write 'value: "
                      f"{pattern}' and {given}", at)


def _foreign_regex(value: str, grader: dict, at: tuple) -> Iterator:
    flags = grader.get("flags")
    piece = "" if isinstance(flags, str) and ("u" in flags or "v" in flags) else foreign_piece(value)
    if piece:
        write, meaning, engines = FOREIGN[piece[:2]]
        yield finding("EV316", f"regex {quote(value)} holds {quote(piece)}, {meaning} in {engines}, which JavaScript's "
                      f"RegExp (the grader's) reads as the characters written, so the grader looks for them; write {write}",
                      at)


def _trailing_breaks(kind: str, value, at: tuple) -> Iterator:
    texts = [((), value)] if isinstance(value, str) else \
        list(enumerate(value)) if isinstance(value, list) and kind != "regex" else []  # a regex's list is EV110
    for i, text in texts if kind in LOOKS_AS_WRITTEN else ():
        if isinstance(text, str) and text.endswith("\n") and text.strip():
            what = "value" if i == () else "item"
            yield finding("EV316", f"{kind} {what} {quote(text)} ends with a line break (as a '|' or '>' block scalar "
                          "ends), which the grader looks for too, so it matches only where a line break follows the "
                          "text in the answer; leave it out ('|-' or '>-' in a block scalar)", at + (() if i == () else (i,)))
