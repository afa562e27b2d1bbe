"""Command line: ``evallint [PATHS]``, ``evallint rule CODE``, ``evallint rules``.

``main`` returns the exit code; nothing below it calls ``sys.exit``."""
from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Optional, Sequence

from evallint import __version__
from evallint.arguments import EXIT_ERROR, EXIT_FOUND, EXIT_OK, EXIT_PIPE_CLOSED, Parser, UsageError, build_config
from evallint.config import Config
from evallint.diagnostics import GENERATIONS

FORMATS = ("text", "concise", "json", "github", "sarif")
SUBCOMMANDS = ("rule", "rules", "schema", "normalize", "server", "upgrade")


def _codes(value: str) -> tuple:
    from evallint.rules.registry import RULES, is_selector
    from evallint.suggest import code_hint

    codes = tuple(c.strip().upper() for c in value.split(","))
    for code in codes:
        if not code:
            raise argparse.ArgumentTypeError("unknown rule selector '' (empty: name codes or prefixes, or ALL)")
        if not is_selector(code):
            raise argparse.ArgumentTypeError(f"unknown rule selector '{code}'{code_hint(code, RULES, prefixes=True)}")
    return codes


def _jobs_count(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs takes a whole number, not '{value}'") from None
    if number < 1:
        raise argparse.ArgumentTypeError("--jobs takes a number of processes >= 1")
    return number


def lint_parser() -> argparse.ArgumentParser:
    p = Parser(prog="evallint", description="Lint AgentV eval files (eval suites, datasets, targets, config).",
                epilog="Other commands: 'evallint rule CODE' explains a rule; 'evallint rules' lists them all; "
                       "'evallint schema [eval|targets|config]' prints a JSON Schema for editors; "
                       "'evallint normalize FILE' prints the suite as the runner sees it; "
                       "'evallint server' is a language server for editors.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files and folders to lint (default: .); - reads stdin")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="output format (default: text; github when GITHUB_ACTIONS=true)")
    p.add_argument("--config", metavar="FILE", help="a pyproject.toml or .evallint.toml (default: the nearest one)")
    p.add_argument("--stdin-filename", metavar="PATH", help="the file name to lint standard input as")
    p.add_argument("--staged", action="store_true", help="lint what is staged in the git index")
    p.add_argument("--statistics", action="store_true", help="count diagnostics per code instead of listing them")
    p.add_argument("--fix", action="store_true", help="apply safe fixes in place (atomically), then report what remains")
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that may change behaviour (EV322)")
    p.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    p.add_argument("--jobs", "-j", type=_jobs_count, default=0, metavar="N",
                   help="processes to lint with (default: all cores)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    p.add_argument("--cache-dir", metavar="DIR",
                   help="where the cache lives (default: the user cache folder, ~/.cache/evallint on Linux)")
    p.add_argument("--select", type=_codes, default=None, metavar="CODES",
                   help="only these codes or prefixes (comma-separated; EV3 means every EV3xx)")
    p.add_argument("--ignore", type=_codes, default=(), metavar="CODES", help="skip these codes or prefixes")
    p.add_argument("--extend-select", type=_codes, default=(), metavar="CODES",
                   help="add these codes or prefixes to the selection (e.g. style rules EV9)")
    p.add_argument("--strict", action="store_true", help="warnings also make the exit code 1")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when problems are found")
    p.add_argument("--no-references", action="store_true", help="do not check files that eval files point at")
    p.add_argument("--no-force-exclude", action="store_true",
                   help="lint the files named even when the configuration's exclude matches them")
    p.add_argument("--root", metavar="DIR",
                   help="repository root (default: nearest folder with .git, else the working folder holding the file, "
                   "unless a folder with .agentv holds it too or it is /, the home folder or above, else the nearest "
                   "with .agentv)")
    p.add_argument("--agentv-version", choices=GENERATIONS, default=None,
                   help="read every eval file as this AgentV version's format (default: each file's keys tell: "
                        "'tests' is 4.42, 'evalcases' 2.2)")
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


def entry() -> int:
    """The ``evallint`` command: ``main`` in a process of its own, whose garbage collector it may tune.
    What the imports made is never garbage (frozen: full collections skip it), and a collection waits
    for 20,000 new objects instead of 700: the parser's data are many small acyclic objects, which
    reference counting frees. (``main`` itself, called from a program, leaves that program's collector
    alone.)"""
    import gc

    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    return main()


def main(argv: Optional[Sequence[str]] = None, stdout: Optional[IO[str]] = None,
         stderr: Optional[IO[str]] = None, stdin=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        if argv and argv[0] in SUBCOMMANDS:
            from evallint.commands import run_subcommand

            return run_subcommand(argv, stdout, stderr)
        return run_lint(argv, stdout, stderr, stdin)
    except UsageError as exc:
        if exc.usage:
            stderr.write(exc.usage)
        for line in str(exc).split("\n"):  # each mistake of a configuration file on a line of its own
            stderr.write(f"evallint: error: {line}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        stderr.write("evallint: interrupted\n")
        return 130
    except BrokenPipeError:
        return EXIT_PIPE_CLOSED


def _jobs(args, config: Config, data: Optional[bytes], stderr: IO[str]):
    """What to lint, as FileResults in output order; ``data`` is standard input's bytes when the path is -."""
    if args.staged:
        return _staged(args, config, stderr)
    if data is not None:
        return _standard_input(args, config, data)
    if "-" in args.paths:
        raise UsageError("'-' (standard input) cannot be combined with other paths")
    if args.stdin_filename:
        raise UsageError("--stdin-filename goes with '-' (standard input)")
    return _on_disk(args, config, stderr)


def _staged(args, config: Config, stderr: IO[str]):
    from evallint.run.staged import GitError, StagedIndex

    if args.fix:
        raise UsageError("--fix cannot be combined with --staged: it would change the working tree, not the "
                         "index that was linted (use --diff to see the fixes)")
    if args.paths:
        raise UsageError("--staged lints the git index; do not name paths with it")
    try:
        index = StagedIndex(os.getcwd())
    except GitError as exc:
        raise UsageError(str(exc)) from None
    if args.verbose:
        from evallint.run.dependents import notes

        stderr.write(notes(index.dependents(config)))
    # --diff needs whole results (the text to fix): those of this process
    return index.lint(config, jobs=1 if args.diff else _job_count(args))


def _job_count(args) -> int:
    return args.jobs or os.cpu_count() or 1


def _standard_input(args, config: Config, data: bytes):
    from evallint.lint import lint_bytes

    if args.stdin_filename:
        from evallint.run.discovery import excluded

        if excluded(args.stdin_filename, config):
            return iter([])
    name = args.stdin_filename or "<stdin>"
    return iter([lint_bytes(data, name, config, references=args.stdin_filename is not None, model=False)])


def _on_disk(args, config: Config, stderr: IO[str]):
    from evallint.run.dependents import notes, on_disk
    from evallint.run.pool import lint_paths

    paths = args.paths or ["."]
    fixing = args.fix or args.diff
    jobs = 1 if fixing else _job_count(args)
    cache_dir = _cache_folder(args, paths, config, stderr)
    use_cache = cache_dir is not None
    users = on_disk(paths, config, cache_dir, use_cache)
    # a path that is gone is taken for a deleted file: the eval files that used it are linted
    used = {os.path.abspath(path) for hit in users.values() for path in hit}
    for path in paths:
        if not os.path.lexists(path) and os.path.abspath(path) not in used:
            raise UsageError(f"no such file or folder: '{path}'")
    if args.verbose:
        stderr.write(notes(users))
    present = [path for path in paths if os.path.lexists(path)]
    return lint_paths(present, config, jobs=jobs, cache_dir=cache_dir, use_cache=use_cache, also=tuple(users))


def _cache_folder(args, paths: list, config: Config, stderr: IO[str]) -> Optional[str]:
    """The result cache's folder for a run over ``paths``; None to run without it (and why, said once)."""
    if args.no_cache or args.fix or args.diff:
        return None
    from evallint.run.cache import folder_for

    folder, why = folder_for(args.cache_dir, paths, config)
    if why is not None:
        stderr.write(f"evallint: {why}\n")
    return folder


def _read_stdin(stream, limit: int) -> bytes:
    """At most ``limit`` bytes of standard input: what is past the size cap is not read. A buffered stream's
    ``read(n)`` (``sys.stdin.buffer``, a stream in memory) reads until it has ``n`` or the input ends."""
    data = stream.read(limit)
    return data if isinstance(data, bytes) else data.encode()


REPO_PATH_FORMATS = ("github", "sarif")  # the formats that name files from their repository's root


def _repo_path(path: str, config: Config) -> str:
    if path.startswith("<"):
        return path
    absolute = os.path.abspath(path)
    root = config.root_of(absolute)
    return os.path.relpath(absolute, root).replace(os.sep, "/")


def _reporter(args, fmt: str, stream: IO[str]):
    if args.statistics:
        from evallint.report.formats import statistics

        reporter_class = statistics.JsonStatisticsReporter if fmt == "json" else statistics.StatisticsReporter
    else:
        from evallint.report.formats import get_reporter

        reporter_class = get_reporter(fmt)
    return reporter_class(stream, color=use_color(stream, args.no_color) and fmt == "text", quiet=args.quiet)


def run_lint(argv: list, stdout: IO[str], stderr: IO[str], stdin=None) -> int:
    args = lint_parser().parse_args(argv)
    config = build_config(args)
    if args.statistics and args.format not in (None, "text", "json"):
        raise UsageError(f"--statistics prints text or JSON; it cannot be combined with --format {args.format}")
    data = rest = None
    if args.paths == ["-"] and not args.staged:
        rest = stdin if stdin is not None else sys.stdin.buffer
        data = _read_stdin(rest, config.max_bytes + 1)  # one byte more than the cap: over it, EV006
    fixing = None
    if args.fix or args.diff:
        from evallint.run.fixing import Fixing

        over_cap = data is not None and len(data) > config.max_bytes
        fixing = Fixing(args, stdout, stderr, data, rest if over_cap else None)
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    if args.statistics and fmt != "json":
        fmt = "text"  # the statistics table (also when GITHUB_ACTIONS chose github)
    # with --fix on standard input, stdout holds the fixed text and the report goes to stderr
    reporter = _reporter(args, fmt, stderr if fixing is not None and fixing.stdin is not None else stdout)
    run = _Run(args, config, fmt, reporter, stderr, fixing)
    for result in _jobs(args, config, data, stderr):
        run.take(result)
    return run.finish()


class _Run:
    """The report of a run. Results come in output order (files by path): each file's diagnostics are written
    as it comes and only the totals are kept, so memory does not grow with the run. With --fix or --diff the
    report comes after what was fixed, and waits for it."""

    def __init__(self, args, config: Config, fmt: str, reporter, stderr: IO[str], fixing):
        from evallint.report.formats.base import Totals

        self.args, self.config, self.reporter, self.stderr, self.fixing = args, config, reporter, stderr, fixing
        self.located = fmt in REPO_PATH_FORMATS
        self.machine_format = fmt in ("json", "sarif", "github")
        self.held: Optional[list] = [] if fixing is not None else None
        self.totals, self.broken = Totals(), False
        self.notices: set = set()  # each said once however many files it concerns

    def take(self, result) -> None:
        if result.notice is not None and result.notice not in self.notices:
            self.notices.add(result.notice)
            self.stderr.write(f"evallint: {result.notice}\n")
        if self.fixing is not None and result.linted:
            result = self.fixing.run(result, self.config)
        if not result.linted:
            if self.args.verbose:
                self.stderr.write(f"evallint: skipped {result.path} (not an AgentV file)\n")
            return
        self.totals.count(result.diagnostics)
        if result.traceback:
            self.broken = True
            if self.args.verbose:
                self.stderr.write(f"evallint: internal error on {result.path}:\n{result.traceback}")
        if result.diagnostics:
            self._file(result)

    def _file(self, result) -> None:
        from evallint.diagnostics import Diagnostic

        diagnostics = sorted(result.diagnostics, key=Diagnostic.sort_key)
        entry = (diagnostics, result.lines, _repo_path(result.path, self.config) if self.located else result.path)
        if self.held is None:
            self.reporter.file(*entry)
        else:
            self.held.append(entry)

    def finish(self) -> int:
        """Write what was held and the totals; the exit code."""
        if self.fixing is not None:
            diffed = self.fixing.finish(machine_format=self.machine_format)
            if diffed is not None:  # --diff: the diff is the output
                return EXIT_FOUND if diffed else EXIT_OK
            self.broken = self.broken or self.fixing.failed
        for entry in self.held or ():
            self.reporter.file(*entry)
        self.reporter.finish(self.totals)
        if self.broken:
            return EXIT_ERROR
        if self.args.exit_zero:
            return EXIT_OK
        if self.totals.errors or (self.config.strict and self.totals.warnings):
            return EXIT_FOUND
        return EXIT_OK
