"""What the command and its subcommands share: exit codes, an argument parser that reports a usage error
instead of exiting, and the configuration a command line reads."""
from __future__ import annotations

import argparse
import os
from typing import Optional

from evallint.config import Config

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2
# the code a shell gives a command whose reader closed the pipe early ('evallint . | head'), as for git or grep, which
# SIGPIPE ends: neither a verdict (the files after are not linted) nor a usage error
EXIT_PIPE_CLOSED = 128 + 13


class UsageError(Exception):
    """A bad command line or configuration: exit code 2 and one line saying why, after ``usage`` (the
    parser's usage line) when the arguments themselves were wrong."""

    def __init__(self, message: str, usage: str = ""):
        super().__init__(message)
        self.usage = usage


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print usage and exit; the command returns exit code 2 instead
        raise UsageError(message, usage=self.format_usage())


def _config_file(args) -> Optional[str]:
    """``--config``, else the configuration file nearest above the paths linted (for standard input, above
    --stdin-filename; for --staged, above the working folder). A run reads one: paths under different
    ones are a usage error."""
    from evallint.run.settings import configurations_of

    if args.config:
        if not os.path.isfile(args.config):
            raise UsageError(f"no such configuration file: '{args.config}'")
        return args.config
    if args.staged or (args.paths == ["-"] and not args.stdin_filename):
        named = [os.curdir]
    else:
        named = [args.stdin_filename] if args.paths == ["-"] else [p for p in args.paths or ["."] if os.path.lexists(p)]
    found = configurations_of(named)
    if len(found) > 1:
        which = " and ".join(f"'{path}' under " + (f"'{os.path.relpath(config)}'" if config else "none")
                             for config, path in list(found.items())[:2])
        raise UsageError(f"the paths given have different configurations ({which}); a run reads one: lint them "
                         "in separate runs, or name the configuration to use with --config FILE")
    return next(iter(found), None)


def build_config(args) -> Config:
    """The configuration file's settings under the command line's."""
    from evallint.run.settings import ConfigError, load_config_file

    path = _config_file(args)
    try:
        settings = load_config_file(path) if path else {}
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    config = Config(**settings)
    if args.select is not None:
        config.select = args.select
    config.ignore += args.ignore
    config.extend_select += args.extend_select
    config.strict = config.strict or args.strict
    if args.no_references:
        config.references = False
    if args.no_force_exclude:
        config.force_exclude = False
    if args.agentv_version:
        config.agentv_version = args.agentv_version
    if args.root:
        if not os.path.isdir(args.root):
            raise UsageError(f"--root: no such folder: '{args.root}'")
        config.root = os.path.abspath(args.root)
    return config
