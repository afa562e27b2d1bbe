"""The '<<' merges AgentV 4.42.4's YAML parser refuses, and a byte order mark it refuses.

AgentV 4.42.4 reads YAML with the ``yaml`` npm package 2.9.1 and merge keys on (``parse(text, {merge: true})``).
A '<<' value must be a mapping, or a list whose items are mappings (an alias of either counts as what it
names); any other value (a scalar, null, a list holding a scalar or a list) makes the parser throw "Merge
sources must be maps or map aliases", and the runner rejects the whole file. AgentV 2.2 parses with merge keys
off, keeping '<<' as a plain key (EV010, EV013), so this concerns AgentV 4.42.4's files only.

The runner reads a file as UTF-8 text keeping its byte order mark, which the parser skips but before a list item
on the first line: there it reads the mark as the start of a scalar and throws "Unexpected scalar at node end"
(a file of tests is such a list)."""
from __future__ import annotations

import re
from typing import Any, Optional

from evallint.diagnostics import Finding, Span
from evallint.load.yaml12 import Parsed, merge_keys
from evallint.load.yaml_aliases import alias_limit, may_pass_limit, tree_of
from evallint.suggest import quote, shown

THROWN = "Merge sources must be maps or map aliases"
_FIRST_ITEM = re.compile(r" *-[ \t]+\S")  # a list item holding a value on the first line


def read_as_agentv4(parsed: Parsed, text: str, merge: bool = True, bom: bool = False) -> list:
    """What AgentV 4.42.4's YAML parser does that AgentV 2.2's does not: it merges '<<' keys (``parsed`` gets
    them, unless ``merge`` is off), rejects some merges, counts aliases, and rejects a byte order mark (``bom``: the
    text had one) before a first list item; the findings of the files it rejects."""
    counted = parsed.aliased and may_pass_limit(parsed)  # before the merges are used up
    findings = _marked_item(text) if bom else []
    if merge:
        findings += refused_merges(parsed, text)
        merge_keys(parsed)
    if counted:
        findings += alias_limit(tree_of(text))
    return findings


def refused_by_agentv4(parsed: Parsed, text: str, bom: bool = False) -> list:
    """The findings for which AgentV 4.42.4's YAML parser throws on the text that ``parsed`` holds, well formed: a
    duplicate key (EV003), and what ``read_as_agentv4`` finds (which merges ``parsed``'s '<<' keys). A tag it does
    not know only warns, and a '%YAML 1.1' directive changes what plain values are (EV004, EV014): it reads both."""
    return [f for f in parsed.findings if f.code == "EV003"] + read_as_agentv4(parsed, text, bom=bom)


def _marked_item(text: str) -> list:
    """EV001 at the list item on the first line of a text that had a byte order mark before it."""
    item = _FIRST_ITEM.match(text)
    if item is None:
        return []
    dash = text.index("-")
    return [Finding("EV001", "the file starts with a byte order mark right before a list item: AgentV 4.42.4's YAML "
                    "parser reads the mark as text and rejects the whole file (\"Unexpected scalar at node end\"); "
                    "remove the byte order mark, or start the file with a comment line",
                    span=Span(0, dash, 0, dash + 1, dash, dash + 1))]


def refused_merges(parsed: Parsed, text: str) -> list:
    """EV001 at the value of each '<<' of ``parsed`` that AgentV 4.42.4's parser refuses (read before
    ``merge_keys`` uses the merges up)."""
    found = []
    for _, _, merged, _, written in parsed.merges:
        held = _held(merged, " ".join(text[written.start:written.end].split()))
        if held is not None:
            found.append(Finding("EV001", f"merge key '<<' holds {held}, not a mapping: AgentV 4.42.4's YAML parser "
                                 "merges only a mapping or a list of mappings (or an alias of one) and rejects the "
                                 f"whole file (\"{THROWN}\")", span=written))
    return found


def _held(merged: Any, written: str) -> Optional[str]:
    """What a refused merge holds, its text quoted; None when the parser merges it."""
    alias = f"alias {quote(written)}, " if written.startswith("*") else ""
    if isinstance(merged, dict):
        return None
    if not isinstance(merged, list):
        return f"{alias}{'which is ' if alias else ''}{shown(merged)}"
    bad = next(((i, item) for i, item in enumerate(merged) if not isinstance(item, dict)), None)
    if bad is None:
        return None
    index, item = bad
    what = f"{alias}a list" if alias else quote(written)
    return f"{what} whose item {index + 1} is {shown(item)}"

