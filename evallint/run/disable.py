"""The edit that disables a rule on one line with a suppression comment (docs/format.md#suppression-comments),
as an editor's "disable EVxxx for this line" makes it. Each way of writing it is tried in turn and kept only
when linting the result shows that it does exactly that: the same data, the same findings but the ones of
that code on that line. A comment cannot always be written (inside a multi-line string, say): then there is
no edit."""
from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Optional

from evallint.diagnostics import Diagnostic, Edit
from evallint.load.yaml12 import parse_yaml
from evallint.report.fixes import line_ending, lines_of

# a line directive's codes, at the end of a line: more codes go after them
_CODES_AT_END = re.compile(r"#[ \t]*evallint[ \t]*:[ \t]*disable[ \t]*=[ \t]*[A-Za-z0-9, \t]*?(?=[ \t]*\r?\n?\Z)")


def _candidates(text: str, line: int, code: str) -> list:
    """Edits that may disable ``code`` on the 0-based ``line``, most local first: more codes in the line's
    own directive, a comment at its end, more codes in a directive alone on the line above, a directive
    alone on a new line above."""
    lines = lines_of(text)
    if not 0 <= line < len(lines):
        return []
    start = sum(len(one) for one in lines[:line])
    current = lines[line]
    body = current.rstrip("\r\n")
    out = []
    found = _CODES_AT_END.search(current)
    if found:
        out.append(Edit(start + found.end(), start + found.end(), f",{code}"))
    else:
        out.append(Edit(start + len(body), start + len(body), f"  # evallint: disable={code}"))
    if line > 0:
        above = lines[line - 1]
        found = _CODES_AT_END.search(above)
        if found and not above[:found.start()].strip():
            at = start - len(above) + found.end()
            out.append(Edit(at, at, f",{code}"))
    indent = body[:len(body) - len(body.lstrip(" \t"))]
    eol = line_ending(text)
    out.append(Edit(start, start, f"{indent}# evallint: disable={code}{eol}"))
    return out


def _same_data(before: str, after: str) -> bool:
    a, b = parse_yaml(before), parse_yaml(after)
    return a.ok == b.ok and (not a.ok or a.data == b.data)


def disable_edit(text: str, diagnostic: Diagnostic, lint: Callable[[str], list]) -> Optional[Edit]:
    """The edit of ``text`` (the text ``diagnostic`` was found in) that disables its code on its line, or
    None; ``lint(text)`` gives the diagnostics of a text as the file's."""
    code, line = diagnostic.code, diagnostic.line - 1
    before = lint(text)
    on_line = sum(1 for d in before if d.code == code and d.line - 1 == line)
    if not on_line:
        return None
    expected = Counter(d.code for d in before)
    expected[code] -= on_line
    for edit in _candidates(text, line, code):
        after = text[:edit.start] + edit.replacement + text[edit.end:]
        if _same_data(text, after) and Counter(d.code for d in lint(after)) == +expected:
            return edit
    return None
