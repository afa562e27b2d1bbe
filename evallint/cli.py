"""Command line: ``evallint [PATHS]``, ``evallint rule CODE``, ``evallint rules``.

``main`` returns the exit code; nothing below it calls ``sys.exit``."""
from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Optional, Sequence

from . import __version__
from .config import Config

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2
FORMATS = ("text", "concise", "json")
SUBCOMMANDS = ("rule", "rules")


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would exit; we return exit code 2 instead
        raise UsageError(message)


def _codes(value: str) -> tuple:
    from .rules.registry import RULES

    codes = tuple(c.strip().upper() for c in value.split(",") if c.strip())
    for code in codes:
        if code != "ALL" and not any(r.startswith(code) for r in RULES):
            raise argparse.ArgumentTypeError(f"unknown rule code or prefix '{code}'")
    return codes


def lint_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="evallint", description="Lint AgentV eval files (eval suites, datasets, targets, config).",
                epilog="Other commands: 'evallint rule CODE' explains a rule; 'evallint rules' lists them all.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files and folders to lint (default: .)")
    p.add_argument("--format", choices=FORMATS, default=None, help="output format (default: text)")
    p.add_argument("--select", type=_codes, default=None, metavar="CODES",
                   help="only these codes or prefixes (comma-separated; EV3 means every EV3xx)")
    p.add_argument("--ignore", type=_codes, default=(), metavar="CODES", help="skip these codes or prefixes")
    p.add_argument("--extend-select", type=_codes, default=(), metavar="CODES",
                   help="add these codes or prefixes to the selection (e.g. style rules EV9)")
    p.add_argument("--strict", action="store_true", help="warnings also make the exit code 1")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when problems are found")
    p.add_argument("--no-references", action="store_true", help="do not check files that eval files point at")
    p.add_argument("--root", metavar="DIR", help="repository root (default: nearest folder with .git or .agentv)")
    p.add_argument("--quiet", "-q", action="store_true", help="print diagnostics only")
    p.add_argument("--verbose", "-v", action="store_true", help="list skipped files and internal tracebacks")
    p.add_argument("--no-color", action="store_true", help="never colour the output")
    p.add_argument("--version", action="version", version=f"evallint {__version__}")
    return p


def use_color(stream: IO[str], disabled: bool) -> bool:
    if disabled or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def main(argv: Optional[Sequence[str]] = None, stdout: Optional[IO[str]] = None,
         stderr: Optional[IO[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        if argv and argv[0] in SUBCOMMANDS:
            from .commands import run_subcommand

            return run_subcommand(argv, stdout, stderr)
        return run_lint(argv, stdout, stderr)
    except UsageError as exc:
        stderr.write(f"evallint: error: {exc}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        stderr.write("evallint: interrupted\n")
        return 130
    except BrokenPipeError:
        return EXIT_ERROR


def run_lint(argv: list, stdout: IO[str], stderr: IO[str]) -> int:
    args = lint_parser().parse_args(argv)
    paths = args.paths or ["."]
    for path in paths:
        if not os.path.lexists(path):
            raise UsageError(f"no such file or folder: '{path}'")
    config = Config(select=args.select, ignore=args.ignore, extend_select=args.extend_select, strict=args.strict,
                    references=not args.no_references, root=os.path.abspath(args.root) if args.root else None)
    from .api import expand_paths
    from .lint import lint_file
    from .reporters import RunSummary, get_reporter

    diagnostics, sources, checked, broken = [], {}, 0, False
    for path, explicit in expand_paths(paths, config):
        result = lint_file(path, config, explicit=explicit)
        if not result.linted:
            if args.verbose:
                stderr.write(f"evallint: skipped {path} (not an AgentV file)\n")
            continue
        checked += 1
        if result.traceback:
            broken = True
            if args.verbose:
                stderr.write(f"evallint: internal error on {path}:\n{result.traceback}")
        if result.diagnostics:
            diagnostics += result.diagnostics
            sources[path] = result.text
    diagnostics.sort(key=lambda d: d.sort_key())
    run = RunSummary(diagnostics, checked, sources)
    fmt = args.format or "text"
    reporter = get_reporter(fmt)(stdout, color=use_color(stdout, args.no_color) and fmt == "text", quiet=args.quiet)
    reporter.report(run)
    if broken:
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_OK
    if run.errors or (config.strict and run.warnings):
        return EXIT_FOUND
    return EXIT_OK
