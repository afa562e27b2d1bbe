"""What the command and its subcommands share: exit codes and an argument parser that reports
a usage error instead of exiting."""
from __future__ import annotations

import argparse

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    """A bad command line or configuration: exit code 2 and one line saying why, after ``usage`` (the
    parser's usage line) when the arguments themselves were wrong."""

    def __init__(self, message: str, usage: str = ""):
        super().__init__(message)
        self.usage = usage


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print usage and exit; the command returns exit code 2 instead
        raise UsageError(message, usage=self.format_usage())
