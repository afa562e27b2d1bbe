"""``evallint upgrade [PATHS]``: rewrite AgentV 2.2 files (eval suites, JSONL datasets and their sidecars,
targets and config files, and the prompt templates their graders read) in AgentV 4.42.4's format, as edits
of their text; ``--diff`` prints the change and writes nothing."""
from __future__ import annotations

import os
from dataclasses import replace
from typing import IO

from evallint.arguments import EXIT_ERROR, EXIT_FOUND, EXIT_OK, Parser
from evallint.upgrade.files import Upgraded, upgrade_file


def parser() -> Parser:
    p = Parser(prog="evallint upgrade",
               description="Rewrite AgentV 2.2 eval files in AgentV 4.42.4's format, keeping what 2.2 ran.",
               epilog="Exit status: 0 when nothing is left to report (with --diff: nor to change), 1 when an error "
                      "is reported (or --diff shows a change), 2 for a usage error.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files and folders to upgrade (default: .)")
    p.add_argument("--diff", action="store_true", help="print the change as a unified diff; write nothing")
    p.add_argument("--config", metavar="FILE", help="a pyproject.toml or .evallint.toml (default: the nearest one)")
    p.add_argument("--root", metavar="DIR", help="the repository root that references resolve within")
    # the lint settings the configuration builder reads, which an upgrade does not take from the command line
    p.set_defaults(select=None, ignore=(), extend_select=(), strict=False, no_references=False,
                   no_force_exclude=False, agentv_version=None, staged=False, stdin_filename=None)
    return p


def run_upgrade(argv: list, stdout: IO[str], stderr: IO[str]) -> int:
    from evallint.cli import build_config
    from evallint.run.discovery import expand_paths

    args = parser().parse_args(argv)
    config = replace(build_config(args), agentv_version=None)  # each file's own keys tell its version
    paths = args.paths or ["."]
    for path in paths:
        if not os.path.lexists(path):
            stderr.write(f"evallint: {path}: no such file or folder\n")
            return EXIT_ERROR
    results = [upgrade_file(path, config) for path, _ in expand_paths(paths, config)]
    templates = _templates(results)
    return _report([r for r in results if r is not None] + templates, args.diff, stdout, stderr)


def _templates(results: list) -> list:
    """The prompt templates the upgraded graders read whose variables get their 4.42.4 names, each once."""
    from evallint.upgrade.files import upgrade_template

    seen: dict = {}
    for result in results:
        for path in result.templates if result is not None else ():
            seen.setdefault(os.path.realpath(path), path)
    return [t for t in (upgrade_template(path) for path in seen.values()) if t is not None]


def _report(results: list, diff: bool, stdout: IO[str], stderr: IO[str]) -> int:
    from evallint.run.autofix import unified_diff

    changed = errors = warnings = failed = 0
    for result in sorted(results, key=lambda r: r.path):
        for line, column, level, message in result.notes:
            stdout.write(f"{result.path}:{line}:{column}: {level}: {message}\n")
            errors += level == "error"
            warnings += level == "warning"
        if not result.changed:
            continue
        if diff:
            stdout.write(unified_diff(result.path, result.before, result.after, result.bom))
        elif not _written(result, stderr):
            failed += 1
            continue
        changed += 1
    done = "would be upgraded" if diff else "upgraded"
    left = f", {failed} not written" if failed else ""
    stderr.write(f"evallint: {changed} file{'s' * (changed != 1)} {done}{left}; {errors} error{'s' * (errors != 1)}, "
                 f"{warnings} warning{'s' * (warnings != 1)}\n")
    if failed:
        return EXIT_ERROR
    return EXIT_FOUND if errors or (diff and changed) else EXIT_OK


def _written(result: Upgraded, stderr: IO[str]) -> bool:
    from evallint.run.autofix import NotWritten, encoded, write_atomically

    try:
        write_atomically(result.path, result.raw, encoded(result.after, result.bom))
        return True
    except NotWritten as exc:
        stderr.write(f"evallint: {exc}; not upgraded\n")
    except OSError as exc:
        stderr.write(f"evallint: cannot write {result.path}: {exc.strerror or exc}\n")
    return False
