"""Running the command line in-process, and git in a test repository, for tests."""
from __future__ import annotations

import io
import os
import subprocess

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


def run(*argv) -> tuple:
    """(exit code, stdout, stderr) of ``evallint ARGV`` run in the current folder."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def git(repo, *args) -> None:
    """``git ARGS`` in ``repo``, as a user with a name and an address."""
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=repo, check=True,
                   capture_output=True)
