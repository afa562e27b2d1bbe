"""EV316: an AgentV 4.42 text grader's value that the runner matches as written where it looks like more than its
text (graders/assertions.ts). It runs as written, so it is a warning: a value ending in a line break, as a '|' or '>'
block scalar ends, which 'contains', its kinds and 'regex' look for too ('equals', 'starts-with' and 'ends-with'
trim the value); a regex written as a JavaScript literal with flags ('/refund/i'), whose slashes and flags the
grader matches as text."""
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


def check_literal(grader: dict, place) -> Iterator:
    kind, value = place.schema.kind, grader.get("value")
    literal = _JS_LITERAL.fullmatch(value) if kind == "regex" and isinstance(value, str) else None
    if literal is not None and len(set(literal.group(2))) == len(literal.group(2)):
        pattern, flags = literal.groups()
        given = f"add {quote(flags)} to its 'flags'" if isinstance(grader.get("flags"), str) else f"'flags: {flags}'"
        yield finding("EV316", f"regex {quote(value)} is written as a JavaScript literal, but the runner takes 'value' as "
                      f"the pattern alone, so the grader looks for the slashes and {quote(flags)} as text; write 'value: "
                      f"{pattern}' and {given}", place.at + ("value",))
        return
    texts = [((), value)] if isinstance(value, str) else \
        list(enumerate(value)) if isinstance(value, list) and kind != "regex" else []  # a regex's list is EV110
    for at, text in texts if kind in LOOKS_AS_WRITTEN else ():
        if isinstance(text, str) and text.endswith("\n") and text.strip():
            what = "value" if at == () else "item"
            yield finding("EV316", f"{kind} {what} {quote(text)} ends with a line break (as a '|' or '>' block scalar "
                          "ends), which the grader looks for too, so it matches only where a line break follows the "
                          "text in the answer; leave it out ('|-' or '>-' in a block scalar)", place.at + ("value",) + (
                              () if at == () else (at,)))
