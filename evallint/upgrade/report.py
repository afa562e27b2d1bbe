"""What an upgrade run does with the files it upgraded: write them (as ``--fix`` writes a file) or print their
diff, then report the notes, one line per place, and a summary; its exit code."""
from __future__ import annotations

import os
from typing import IO

OK, FOUND, FAILED = "ok", "found", "failed"  # how a run ends: nothing to report, something, a file not written


def finish(results: list, diff: bool, stdout: IO[str], stderr: IO[str]) -> str:
    """Report ``results`` (None for a file that is not upgraded) with the prompt templates they read."""
    results = [r for r in results if r is not None]
    return _report(results + _templates(results), diff, stdout, stderr)


def _templates(results: list) -> list:
    """The prompt templates the upgraded graders read whose variables get their 4.42.4 names, each once."""
    from evallint.upgrade.files import upgrade_template

    seen: dict = {}
    for result in results:
        for path in result.templates:
            seen.setdefault(os.path.realpath(path), path)
    return [t for t in (upgrade_template(path) for path in seen.values()) if t is not None]


def _report(results: list, diff: bool, stdout: IO[str], stderr: IO[str]) -> str:
    from evallint.run.autofix import encoded, unified_diff
    from evallint.run.fixing import write_file

    changed = errors = warnings = failed = 0
    swept: set = set()  # the folders whose stale temporary files are removed
    for result in sorted(results, key=lambda r: r.path):
        for line, column, level, message in result.notes:
            stdout.write(f"{result.path}:{line}:{column}: {level}: {message}\n")
            errors += level == "error"
            warnings += level == "warning"
        if not result.changed:
            continue
        if diff:
            stdout.write(unified_diff(result.path, result.before, result.after, result.bom))
        elif not write_file(result.path, result.raw, encoded(result.after, result.bom), stderr, "not upgraded", swept):
            failed += 1
            continue
        changed += 1
    done = "would be upgraded" if diff else "upgraded"
    left = f", {failed} not written" if failed else ""
    stderr.write(f"evallint: {changed} file{'s' * (changed != 1)} {done}{left}; {errors} error{'s' * (errors != 1)}, "
                 f"{warnings} warning{'s' * (warnings != 1)}\n")
    if failed:
        return FAILED
    return FOUND if errors or (diff and changed) else OK
