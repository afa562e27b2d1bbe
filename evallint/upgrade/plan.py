"""A ``Plan``: the fixes that upgrade one document and the notes on what they cannot do, and how the fixes
are checked and applied."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from evallint.diagnostics import KEY, Fix
from evallint.load.environment import REFERENCE
from evallint.report.fixes import apply_edits, choose
from evallint.suggest import quote
from evallint.upgrade.edits import Document, drop, put_before, rename, set_text

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Note:
    """What the upgrade leaves as it is, at ``path`` of its file: an ``error`` when the file then runs
    otherwise under AgentV 4.42.4 than it ran under 2.2, a ``warning`` when it runs as it ran (a mistake 2.2
    absorbed, which 4.42.4 absorbs too)."""

    path: tuple
    level: str
    message: str
    target: str = KEY


@dataclass
class Plan:
    """What the upgrade of one file does: its fixes, and notes on what it changes or leaves."""

    doc: Document
    fixes: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    told: dict = field(default_factory=dict)  # id of a fix -> the note that tells what it does (not if refused)
    unread: set = field(default_factory=set)  # the paths of what AgentV 4.42.4 does not read, left as written

    def note(self, path: tuple, level: str, message: str, target: str = KEY) -> None:
        self.notes.append(Note(path, level, message, target))

    def not_read(self, path: tuple, level: str, message: str) -> None:
        """Note what AgentV 4.42.4 does not read at ``path``, which is left as it is."""
        self.note(path, level, message)
        self.unread.add(path)

    def _add(self, fix: Optional[Fix], path: tuple, what: str) -> None:
        if fix is not None:
            self.fixes.append(fix)
        else:
            self.note(path, ERROR, f"{what} is written in a way the upgrade does not edit (a tagged, escaped or "
                                   "block value); make that change by hand")

    def rename(self, path: tuple, new: str) -> None:
        """Rename the key at ``path``, unless its mapping already has ``new``."""
        parent = self.value(path[:-1])
        if new in parent:
            self.note(path, ERROR, f"{quote(path[-1])} is AgentV 2.2's spelling of {quote(new)}, which is written "
                                   f"too; AgentV 4.42.4 reads {quote(new)} and 2.2 read {quote(path[-1])}: keep one")
            return
        self._add(rename(self.doc, path, new), path, f"{quote(path[-1])} (AgentV 4.42.4: {quote(new)})")

    def set(self, path: tuple, value: str) -> None:
        self._add(set_text(self.doc, path, value), path, f"{quote(self.value(path))} (AgentV 4.42.4: {quote(value)})")

    def put_before(self, path: tuple, before: str, key: str, value) -> None:
        fix = put_before(self.doc, path, before, key, value)
        if fix is None:
            self.note(path + (before,), ERROR, f"AgentV 4.42.4 needs '{key}' here to run as 2.2 ran, and the upgrade "
                                               "cannot place it in this mapping: write it by hand")
        else:
            self.fixes.append(fix)

    def drop(self, path: tuple, why: str) -> None:
        """Take out what 2.2 did not run and 4.42.4 would (commented out in block style), with a warning."""
        fix = drop(self.doc, path)
        if isinstance(path[-1], int) and len(self.value(path[:-1])) == 1:
            self.note(path, ERROR, f"{why}: it is its list's only item, so write the list empty ([]) by hand")
        elif fix is None:
            self.note(path, ERROR, f"{why}: take it out by hand to keep what 2.2 ran")
        else:
            self.fixes.append(fix)
            shown = "commented out" if "comment" in fix.description else "deleted"
            self.note(path, WARNING, f"{why}; {shown}, so that it does not")
            self.told[id(fix)] = self.notes[-1]

    def value(self, path: tuple):
        return self.doc.value(path)


def _order(fix: Fix) -> tuple:
    """Deeper changes first (a renamed key's path goes out of the data once renamed); of a list's items taken
    out, the later first (taking one out moves those after it)."""
    kind, path, arg = fix.change
    if kind == "all":
        return -max(len(part[1]) for part in arg), 0
    return -len(path), -path[-1] if kind == "delete" and isinstance(path[-1], int) else 0


def _merged(fixes: list) -> tuple:
    """(the fixes, those with the same edits made one: an anchored value's change is its aliases' too; (fix,
    why) of those whose edits overlap another's)."""
    by_edits: dict = {}
    for fix in fixes:
        by_edits.setdefault(fix.edits, []).append(fix)
    merged = [same[0] if len(same) == 1 else
              Fix(same[0].edits, same[0].description, change=("all", (), tuple(f.change for f in same)))
              for same in by_edits.values()]
    kept = choose(merged)
    return kept, [(fix, "it overlaps another change of the upgrade") for fix in merged if fix not in kept]


def apply(plan: Plan, verify) -> tuple:
    """(the upgraded text, the fixes applied, (fix, why) of the ones left out). ``verify(text, fixes)`` says
    why the text is not the document with exactly the fixes' changes made, or None: all the fixes are tried
    together, and when that fails each alone, so one edit the check refuses keeps none of the others back."""
    fixes, refused = _merged(plan.fixes)
    fixes.sort(key=_order)
    text = plan.doc.text
    if not fixes:
        return text, [], refused
    together = apply_edits(text, fixes)
    if verify(together, fixes) is None:
        return together, fixes, refused
    kept = []
    for fix in fixes:
        why = verify(apply_edits(text, kept + [fix]), kept + [fix])
        if why is None:
            kept.append(fix)
        else:
            refused.append((fix, why))
    return apply_edits(text, kept), kept, refused


def note_references(plan: Plan) -> None:
    """An error at each string holding an environment reference that AgentV 4.42.4 reads: it replaces it in an eval
    file (in a dataset's lines, a sidecar and the config file too) before it reads the file, where 2.2 read it as
    written."""
    _note_references(plan, (), plan.doc.data)


def _note_references(plan: Plan, at: tuple, value: Any) -> None:
    if at in plan.unread:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _note_references(plan, at + (key,), item)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _note_references(plan, at + (i,), item)
    elif isinstance(value, str) and "${{" in value:
        found = REFERENCE.search(value)
        if found:
            plan.note(at, ERROR, f"AgentV 4.42.4 puts the environment variable's value (empty when it is unset) in place "
                                 f"of {quote(found.group(0))} before it reads the file, where AgentV 2.2 read it as "
                                 "written; reword it if it is meant as text", target="value")
