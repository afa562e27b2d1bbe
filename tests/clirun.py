"""Running the command line in-process from a given folder, for tests."""
from __future__ import annotations

import io
import os

from evallint.cli import main


def run_concise(cwd, *argv) -> tuple:
    """(exit code, stdout, stderr) of ``evallint --format concise --quiet ARGV`` run in ``cwd``."""
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        code = main(["--format", "concise", "--quiet", *argv], stdout=out, stderr=err)
    finally:
        os.chdir(old)
    return code, out.getvalue(), err.getvalue()
