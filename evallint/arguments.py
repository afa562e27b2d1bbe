"""What the command and its subcommands share: exit codes and an argument parser that reports
a usage error instead of exiting."""
from __future__ import annotations

import argparse

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would exit; the command returns exit code 2 instead
        raise UsageError(message)
