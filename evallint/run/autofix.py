"""``--fix`` and ``--diff``: apply fixes, check what they mean, re-lint, repeat; write atomically."""
from __future__ import annotations

import difflib
import errno
import os
import stat
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Optional

from evallint.config import Config
from evallint.lint import FileResult, lint_source
from evallint.load.source import Source
from evallint.load.yaml12 import parse_yaml
from evallint.report.fixcheck import check
from evallint.report.fixes import apply_edits, choose, lines_of

MAX_PASSES = 5


@dataclass
class Fixed:
    """A file after ``--fix``: its fixed text, the lint of that text and the fixes not applied."""

    result: FileResult  # the lint of the fixed text: what remains
    text: str  # the fixed text
    count: int  # fixes applied
    changed: bool
    refused: list = field(default_factory=list)  # (remaining Diagnostic, why) of the fixes not applied


def _key(diagnostic) -> tuple:
    """A finding's identity across passes: lines move when a fix above adds one, paths and messages do not."""
    return diagnostic.code, diagnostic.yaml_path, diagnostic.message


def _checked(text: str, fixes: list) -> tuple:
    """The fixes whose edits change the data exactly as they declare, and (fix, why) for the others."""
    before = parse_yaml(text)
    if check(before, apply_edits(text, fixes), fixes) is None:
        return fixes, []
    kept, refused = [], []
    for fix in fixes:
        why = check(before, apply_edits(text, [fix]), [fix])
        if why is None:
            kept.append(fix)
        else:
            refused.append((fix, why))
    if len(kept) > 1 and check(before, apply_edits(text, kept), kept) is not None:
        kept = kept[:1]  # right one by one but not together: one in this pass, the next pass lints the rest again
    return kept, refused


def _new_finding(before: FileResult, after: FileResult):
    """The first finding of ``after`` of a code that ``after`` has more of than ``before``, or None."""
    more = Counter(d.code for d in after.diagnostics) - Counter(d.code for d in before.diagnostics)
    if not more:
        return None
    known = {_key(d) for d in before.diagnostics}
    of_code = [d for d in after.diagnostics if d.code in more]
    return next((d for d in of_code if _key(d) not in known), of_code[0])


def _checking(config: Config) -> Config:
    """The settings a fix's result is checked with: the run's, with the default rules on too, so that a fix
    made for one rule (``--select EV103``) cannot make what another reports (EV104, a duplicate id)."""
    if config.select is None:
        return config
    return replace(config, select=None, extend_select=config.extend_select + tuple(config.select))


def _lint(text: str, like: FileResult, config: Config, bom: bool) -> FileResult:
    """The lint of ``text`` as the file of ``like``."""
    return lint_source(Source(text, bom), like.path, like.kind, config, root=like.root)


def _without_new_findings(text: str, fixes: list, result: FileResult, config: Config, bom: bool) -> tuple:
    """(the fixes kept, (fix, why) of the ones withheld, the lint of the text with the kept ones applied),
    ``result`` being the lint of ``text`` with ``config``. A fix that is right for its own finding can still
    make another (quoting ``017`` gives the string ``"017"``, which another case may already use as its id):
    a fix whose result has a finding the text did not have is withheld."""
    def linted(chosen: list) -> FileResult:
        return _lint(apply_edits(text, chosen), result, config, bom)

    together = linted(fixes)
    if _new_finding(result, together) is None:
        return fixes, [], together
    # one at a time, in the file's order: each fix is kept if it makes nothing new with the ones kept before
    # it (of two ids quoted to the same string, the second is withheld)
    kept, withheld, after = [], [], result
    for fix in fixes:
        trial = linted(kept + [fix]) if len(fixes) > 1 else together
        new = _new_finding(result, trial)
        if new is None:
            kept, after = kept + [fix], trial
        else:
            withheld.append((fix, f"the fixed file would get {new.code} at {new.line}:{new.column}: {new.message}"))
    return kept, withheld, after


def _offered(result: FileResult, unsafe: bool, refused: dict) -> dict:
    """The findings whose fix is tried, by the fix's id: a safe fix (or any with ``unsafe``) of a finding
    whose fix is not refused."""
    return {id(d.fix): d for d in result.diagnostics
            if d.fix is not None and (d.fix.safe or unsafe) and _key(d) not in refused}


def _screened(text: str, offered: dict, chosen: list, result: FileResult, config: Config, checking: Config,
              bom: bool, refused: dict) -> tuple:
    """(the fixes of ``chosen`` to apply, the lint of ``text`` with them applied, or None when none is).
    A fix whose edits do not change the data as it declares, or whose result has a finding the text did not
    have, is left out; its finding goes into ``refused`` with why."""
    kept, failed = _checked(text, chosen)
    withheld, fixed = [], None
    if kept:
        baseline = result if checking is config else _lint(text, result, checking, bom)
        kept, withheld, fixed = _without_new_findings(text, kept, baseline, checking, bom)
    for fix, why in failed + withheld:
        refused[_key(offered[id(fix)])] = why
    return kept, fixed


def _without_refused_fixes(result: FileResult, refused: dict) -> list:
    """Take the fix off each remaining finding whose fix is refused; (finding, why) of each of them."""
    notes, remaining = [], []
    for d in result.diagnostics:
        why = refused.get(_key(d)) if d.fix is not None else None
        if why is not None:
            d = replace(d, fix=None)
            notes.append((d, why))
        remaining.append(d)
    result.diagnostics = remaining
    return notes


def fix_file(result: FileResult, config: Config, *, unsafe: bool = False) -> Fixed:
    """Apply fixes until none is left (at most MAX_PASSES passes). A fix whose result would not parse to
    the data it declares, or would have a finding the text did not have, is not applied; its finding
    remains, without a fix, and ``refused`` says why."""
    source: Optional[Source] = result.source
    if source is None:
        return Fixed(result, "", 0, False)
    text, count, refused = source.text, 0, {}
    checking = _checking(config)
    for _ in range(MAX_PASSES):
        offered = _offered(result, unsafe, refused)
        chosen = choose([d.fix for d in offered.values()])
        if not chosen:
            break
        kept, fixed = _screened(text, offered, chosen, result, config, checking, source.bom, refused)
        if not kept:
            continue  # the fixes that overlapped the refused ones get their turn
        new = apply_edits(text, kept)
        if new == text:
            break
        text, count = new, count + len(kept)
        result = fixed if checking is config else _lint(text, result, config, source.bom)
    notes = _without_refused_fixes(result, refused) if refused else []
    return Fixed(result, text, count, text != source.text, notes)


def encoded(text: str, bom: bool) -> bytes:
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")


class NotWritten(Exception):
    """The file is left as it is; the message names it and says why (the caller says what was not done)."""


class ChangedOnDisk(NotWritten):
    def __init__(self, path: str):
        super().__init__(f"{path} changed while it was being linted")


def _writable_as_it_is(path: str, target: str, info: os.stat_result) -> None:
    """Refuse what a rename would not keep or should not do: a read-only file (which root could replace
    anyway), a file with other hard links (they would keep the old text), an owner we cannot give back."""
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
        raise NotWritten(f"{path} is read-only")
    if info.st_nlink > 1:
        raise NotWritten(f"{path} has {info.st_nlink} hard links, which writing the new file would split")


def _keep_extended_attributes(path: str, target: str, fd: int) -> None:
    """Give the file open as ``fd`` exactly the extended attributes of ``target``: its ACLs (stored as
    ``system.posix_acl_*`` attributes, which also hold the group class bits) and any other, copied as opaque
    bytes. An attribute the new file has already (a security label) is left; one that cannot be set or
    taken away refuses the fix."""
    if not hasattr(os, "listxattr"):  # no extended attributes on this system
        return
    try:
        wanted = {name: os.getxattr(target, name) for name in os.listxattr(target)}
        present = set(os.listxattr(fd))
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):  # the file system has none
            return
        raise
    name = ""
    try:
        for name in sorted(present - set(wanted)):  # inherited from the folder's default ACL
            os.removexattr(fd, name)
        for name, value in wanted.items():
            if name not in present or os.getxattr(fd, name) != value:
                os.setxattr(fd, name, value)
    except OSError as exc:
        raise NotWritten(f"{path} has extended attributes or an ACL that the new file cannot keep "
                         f"('{name}': {exc.strerror or exc})") from None


TEMPORARY_PREFIX = ".evallint-"  # a fixed file's temporary file: .evallint-PID-RANDOM.tmp beside it
STALE_AFTER = 3600  # seconds after which a temporary file is stale whatever its process


def remove_stale_temporaries(folder: str) -> None:
    """Remove the temporary files that a run killed while writing a fix left in ``folder``: those named as
    ``write_atomically`` names them whose process is gone, or that are older than ``STALE_AFTER``."""
    import re
    import time

    pattern = re.compile(re.escape(TEMPORARY_PREFIX) + r"(\d+)-[a-z0-9_]+\.tmp\Z")
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = pattern.match(entry.name)
        try:
            if match is None or not entry.is_file(follow_symlinks=False):
                continue
            if _process_is_gone(int(match.group(1))) or time.time() - entry.stat().st_mtime > STALE_AFTER:
                os.unlink(entry.path)
        except OSError:
            continue  # gone meanwhile, or not ours to remove


def _process_is_gone(pid: int) -> bool:
    if os.name != "posix" or pid == os.getpid():  # elsewhere signal 0 is no probe; age alone decides there
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: alive
        return False
    return False


def write_atomically(path: str, original: bytes, data: bytes) -> None:
    """Replace ``path`` by ``data`` unless it changed since ``original`` was read: a temp file in the same
    folder with the same permissions and owner, then a rename."""
    folder = os.path.dirname(os.path.abspath(path))
    target = os.path.realpath(path)
    with open(target, "rb") as fh:
        if fh.read() != original:
            raise ChangedOnDisk(path)
    info = os.stat(target)
    _writable_as_it_is(path, target, info)
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMPORARY_PREFIX}{os.getpid()}-", suffix=".tmp",
                               dir=os.path.dirname(target) or folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            mine = os.fstat(fh.fileno())
            if (mine.st_uid, mine.st_gid) != (info.st_uid, info.st_gid):
                try:
                    os.fchown(fh.fileno(), info.st_uid, info.st_gid)
                except PermissionError:
                    raise NotWritten(f"{path} belongs to another user or group, which writing the new file "
                                     "would change") from None
            os.fchmod(fh.fileno(), stat.S_IMODE(info.st_mode))  # after fchown, which clears set-id bits
            _keep_extended_attributes(path, target, fh.fileno())  # after fchmod: an ACL sets the group bits
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        with open(target, "rb") as fh:  # a last look: never clobber a concurrent edit
            if fh.read() != original:
                raise ChangedOnDisk(path)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def unified_diff(path: str, before: str, after: str, bom: bool = False) -> str:
    """A diff that ``patch -p1`` and ``git apply`` take: of the file's text as stored, a BOM included in
    its first line; but each secret value is starred (``report.starring``), so a diff whose lines hold one does
    not apply."""
    from evallint.report.starring import starred_text

    mark = "\ufeff" if bom else ""
    before, after = starred_text(before, path), starred_text(after, path)
    lines = difflib.unified_diff(lines_of(mark + before), lines_of(mark + after),
                                 fromfile=f"a/{path}", tofile=f"b/{path}")
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
