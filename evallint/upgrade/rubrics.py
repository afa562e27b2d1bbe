"""A case's own ``rubrics:`` list. AgentV 2.2 made it a grader named 'rubric', first among the case's graders;
4.42.4 makes a test's ``rubrics:`` a grader named 'rubrics'. To keep the name, the list becomes the criteria
of a ``rubrics`` grader named 'rubric', written first: as the test's ``assertions`` when the case has no
evaluators of its own, else as the first item of its evaluators. The items' text moves as it is written
(comments, quoting, block scalars), indented to its new place."""
from __future__ import annotations

from typing import Optional

from evallint.diagnostics import Edit, Fix
from evallint.load.positions import SeqLoc
from evallint.report.fixes import line_ending
from evallint.upgrade.edits import Document, content_end, deleted, line_start, lines_through, rename
from evallint.upgrade.plan import ERROR, Plan
from evallint.upgrade.spellings import CASE_RUBRIC, RUBRIC_ITEM_KEYS

_BY_HAND = "the upgrade cannot move this list as it is written (flow style, a comment on its key's line or an " \
           "uneven indentation): write it by hand"


def _item_lines(doc: Document, path: tuple) -> Optional[tuple]:
    """(start, end) offsets of the whole lines that hold the block sequence at ``path``, from its first item's
    line to its last character; None for a flow sequence or one that starts on its key's line."""
    loc = doc.loc(path)
    if not isinstance(loc, SeqLoc) or not loc.items:
        return None
    start = loc.span().start
    if doc.text[start] != "-" or doc.text[line_start(doc.text, start):start].strip():
        return None
    return line_start(doc.text, start), lines_through(doc.text, start, content_end(loc, doc.text))


def _renamed_items(doc: Document, path: tuple, start: int, end: int) -> Optional[tuple]:
    """(the text from ``start`` to ``end`` with the rubric items' 2.2 keys renamed, the items renamed likewise
    as data); None when a key is not written as its plain name."""
    items = doc.value(path)
    edits, renamed = [], []
    for j, item in enumerate(items):
        if isinstance(item, dict):
            names = {k: RUBRIC_ITEM_KEYS.get(k, k) for k in item}
            if len(set(names.values())) < len(names):
                return None  # a key and its 2.2 spelling both written: left to the user
            for key in (k for k in item if k in RUBRIC_ITEM_KEYS):
                fix = rename(doc, path + (j, key), RUBRIC_ITEM_KEYS[key])
                if fix is None:
                    return None
                edits.extend(fix.edits)
            item = {names[k]: v for k, v in item.items()}
        renamed.append(item)
    text = doc.text[start:end]
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[:edit.start - start] + edit.replacement + text[edit.end - start:]
    return text, renamed


def _indented(text: str, shift: int) -> Optional[str]:
    """``text`` (whole lines) moved right by ``shift`` columns (left when negative); None when a line that
    holds more than white space has fewer spaces to give."""
    out = []
    for line in text.splitlines(keepends=True):
        if not line.strip():
            out.append(line)
        elif shift >= 0:
            out.append(" " * shift + line)
        elif line[:-shift].strip(" "):
            return None
        else:
            out.append(line[-shift:])
    return "".join(out)


def _header(indent: int, nl: str) -> str:
    pad = " " * indent
    return f"{pad}- name: {CASE_RUBRIC['name']}{nl}{pad}  type: {CASE_RUBRIC['type']}{nl}{pad}  criteria:{nl}"


def plan_case_rubrics(plan: Plan, at: tuple, own: Optional[tuple]) -> None:
    """Plan the move of the case's ``rubrics`` at ``at`` (its own evaluators at ``own``, if any)."""
    doc, path = plan.doc, at + ("rubrics",)
    if doc.jsonl or doc.text[doc.value_span(path).start] == "[":
        fix = _flow(doc, path, own)
    else:
        fix = _as_assertions(doc, path) if own is None else _into(doc, path, own)
    if fix is None:
        plan.note(path, ERROR, "AgentV 2.2 graded this case with these rubrics as a grader named 'rubric'; 4.42.4 "
                               f"names a test's 'rubrics' grader 'rubrics'. {_BY_HAND[0].upper()}{_BY_HAND[1:]}, "
                               "as the first of the test's assertions: "
                               f"{{name: rubric, type: rubrics, criteria: [...]}}")
    else:
        plan.fixes.append(fix)


def _grader(items: list) -> dict:
    return {**CASE_RUBRIC, "criteria": items}


def _key_line_is_bare(doc: Document, path: tuple) -> bool:
    """The key's line holds the key and its colon only (no comment, no value)."""
    key = doc.key_span(path)
    line_end = doc.text.find("\n", key.end)
    rest = doc.text[key.end:len(doc.text) if line_end < 0 else line_end]
    return rest.strip() == ":"


def _moved(doc: Document, path: tuple, column: int) -> Optional[tuple]:
    """(start, end, text, items): the lines of the block list at ``path``, its items' 2.2 keys renamed and its
    dashes moved to ``column``, and the items as data; None when they cannot move as written."""
    lines = _item_lines(doc, path)
    if lines is None or not _key_line_is_bare(doc, path):
        return None
    start, end = lines
    moved = _renamed_items(doc, path, start, end)
    if moved is None:
        return None
    text, items = moved
    shifted = _indented(text, column - (doc.value_span(path).start - start))
    return None if shifted is None else (start, end, shifted, items)


def _as_assertions(doc: Document, path: tuple) -> Optional[Fix]:
    """``rubrics:`` becomes ``assertions:`` holding one grader whose criteria are the items."""
    key = doc.key_span(path)
    moved = _moved(doc, path, key.column + 6)
    if moved is None:
        return None
    start, end, text, items = moved
    edits = (Edit(key.start, key.end, "assertions"),
             Edit(start, end, _header(key.column + 2, line_ending(doc.text)) + text))
    return Fix(edits, "write the case's rubrics as its first assertion, named 'rubric'",
               change=("replace", path, ("assertions", [_grader(items)])))


def _into(doc: Document, path: tuple, own: tuple) -> Optional[Fix]:
    """The items move into a grader put first in the case's own evaluators; the ``rubrics:`` lines go."""
    target = _item_lines(doc, own)
    if target is None or not _key_line_is_bare(doc, own):
        return None
    column = doc.value_span(own).start - target[0]  # the column of the evaluators' dashes
    moved = _moved(doc, path, column + 4)
    if moved is None:
        return None
    start, end, text, items = moved
    key_line = line_start(doc.text, doc.key_span(path).start)
    first = doc.text.index("\n", doc.key_span(own).end) + 1  # the grader goes first, above the items' comments
    edits = (Edit(key_line, end, ""), Edit(first, first, _header(column, line_ending(doc.text)) + text))
    return Fix(edits, "move the case's rubrics into its first evaluator, named 'rubric'",
               change=("move_first", path, (own, _grader(items))))


def _flow(doc: Document, path: tuple, own: Optional[tuple]) -> Optional[Fix]:
    """The same for a list written in flow style (a JSON line's too): the grader is written in flow style,
    the items in it as they are written."""
    start, end = doc.value_span(path).start, doc.loc(path).end.index
    moved = _renamed_items(doc, path, start, end)
    if moved is None:
        return None
    text, items = moved
    if doc.jsonl:
        grader = "{" + ", ".join(f'"{k}": "{v}"' for k, v in CASE_RUBRIC.items()) + f', "criteria": {text}}}'
    else:
        grader = "{" + ", ".join(f"{k}: {v}" for k, v in CASE_RUBRIC.items()) + f", criteria: {text}}}"
    if own is None:
        renamed = rename(doc, path, "assertions")
        if renamed is None:
            return None
        return Fix(renamed.edits + (Edit(start, end, f"[{grader}]"),),
                   "write the case's rubrics as its first assertion, named 'rubric'",
                   change=("replace", path, ("assertions", [_grader(items)])))
    gone = _removed(doc, path, start, end)
    into = _first_item(doc, own, grader)
    if gone is None or into is None:
        return None
    return Fix((gone, into), "move the case's rubrics into its first evaluator, named 'rubric'",
               change=("move_first", path, (own, _grader(items))))


def _removed(doc: Document, path: tuple, start: int, end: int) -> Optional[Edit]:
    """The edit that takes the entry at ``path`` (its value from ``start`` to ``end``) out: its comma with it in
    a flow mapping or a JSON line, its whole line in a block mapping."""
    key = doc.key_span(path).start
    if doc.jsonl or doc.text[doc.value_span(path[:-1]).start] == "{":
        fix = deleted(doc, path, key, end)
        return fix.edits[0] if fix is not None else None
    first = line_start(doc.text, key)
    stop = doc.text.find("\n", end)
    rest = doc.text[end:len(doc.text) if stop < 0 else stop]
    if doc.text[first:key].strip() or (rest.strip() and not rest.strip().startswith("#")):
        return None
    return Edit(first, len(doc.text) if stop < 0 else stop + 1, "")


def _first_item(doc: Document, own: tuple, grader: str) -> Optional[Edit]:
    """The edit that writes ``grader`` (flow style) first in the list at ``own``."""
    span = doc.value_span(own)
    if doc.text[span.start] == "[":
        comma = ", " if doc.value(own) else ""
        return Edit(span.start + 1, span.start + 1, grader + comma)
    lines = _item_lines(doc, own)
    if lines is None or not _key_line_is_bare(doc, own):
        return None
    first = doc.text.index("\n", doc.key_span(own).end) + 1
    column = doc.value_span(own).start - lines[0]
    return Edit(first, first, f"{' ' * column}- {grader}{line_ending(doc.text)}")
