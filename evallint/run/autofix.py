"""``--fix`` and ``--diff``: apply fixes, re-lint, repeat; write atomically."""
from __future__ import annotations

import difflib
import os
import stat
import tempfile
from dataclasses import dataclass
from typing import Optional

from evallint.config import Config
from evallint.lint import FileResult, lint_source
from evallint.load.source import Source
from evallint.report.fixes import apply_edits, choose, lines_of

MAX_PASSES = 5


@dataclass
class Fixed:
    result: FileResult  # the lint of the fixed text: what remains
    text: str  # the fixed text
    count: int  # fixes applied
    changed: bool


def fix_file(result: FileResult, config: Config, *, unsafe: bool = False) -> Fixed:
    """Apply fixes until none is left (at most MAX_PASSES passes)."""
    source: Optional[Source] = result.source
    if source is None:
        return Fixed(result, "", 0, False)
    text, count = source.text, 0
    for _ in range(MAX_PASSES):
        fixes = [d.fix for d in result.diagnostics if d.fix is not None and (d.fix.safe or unsafe)]
        chosen = choose(fixes)
        if not chosen:
            break
        new = apply_edits(text, chosen)
        if new == text:
            break
        text, count = new, count + len(chosen)
        result = lint_source(Source(text, source.bom), result.path, result.kind, config, root=result.root)
    return Fixed(result, text, count, text != source.text)


def encoded(text: str, bom: bool) -> bytes:
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")


class ChangedOnDisk(Exception):
    pass


def write_atomically(path: str, original: bytes, data: bytes) -> None:
    """Replace ``path`` by ``data`` unless it changed since ``original`` was read:
    a temp file in the same folder, the same permissions, then a rename."""
    folder = os.path.dirname(os.path.abspath(path))
    target = os.path.realpath(path)
    with open(target, "rb") as fh:
        if fh.read() != original:
            raise ChangedOnDisk(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, tmp = tempfile.mkstemp(prefix=".evallint-", suffix=".tmp", dir=os.path.dirname(target) or folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        with open(target, "rb") as fh:  # a last look: never clobber a concurrent edit
            if fh.read() != original:
                raise ChangedOnDisk(path)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def unified_diff(path: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(lines_of(before), lines_of(after),
                                 fromfile=f"a/{path}", tofile=f"b/{path}")
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
