"""What --fix and --diff do to the files themselves (issue 24): a diff of a file with a BOM applies with
``patch -p1`` and ``git apply``."""
from __future__ import annotations

import subprocess
import sys

import pytest

BOM = b"\xef\xbb\xbf"
SUITE = b"evalcases:\n  - id: 6\n    outcome: Goal\n    input: q\n"
FIXED = b'evalcases:\n  - id: "6"\n    expected_outcome: Goal\n    input: q\n'
ARGS = ("--extend-select", "EV901,EV902", "--no-references")


def _diff_of(repo, data: bytes) -> bytes:
    """``evallint --diff`` of evals/s.yaml holding ``data``, as the command writes it to its stdout."""
    (repo / "evals").mkdir(parents=True)
    (repo / "evals" / "s.yaml").write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "evallint", "--diff", *ARGS, "evals/s.yaml"], cwd=repo,
                          capture_output=True, check=False)
    assert done.returncode == 1, done.stderr
    return done.stdout


@pytest.mark.parametrize("tool", [["patch", "-p1", "--fuzz=0", "-i"], ["git", "apply"]], ids=["patch", "git-apply"])
@pytest.mark.parametrize("before, after", [
    (BOM + SUITE, BOM + FIXED),
    (BOM + SUITE.replace(b"\n", b"\r\n"), BOM + FIXED.replace(b"\n", b"\r\n")),
    (BOM + SUITE.rstrip(b"\n"), BOM + FIXED.rstrip(b"\n")),
    (BOM + b"evalcases:\n  - {id: 6, outcome: Goal, input: q}\n",
     BOM + b'evalcases:\n  - {id: "6", expected_outcome: Goal, input: q}\n'),
    (BOM + b"target: default\nevalcases: []\n", BOM + b"execution:\n  target: default\nevalcases: []\n"),
], ids=["bom", "bom-crlf", "bom-no-final-newline", "bom-first-line-unchanged", "bom-first-line-changed"])
def test_a_diff_of_a_file_with_a_bom_applies(tmp_path, tool, before, after):
    patch = tmp_path / "fix.patch"
    patch.write_bytes(_diff_of(tmp_path / "linted", before))
    target = tmp_path / "target"
    (target / "evals").mkdir(parents=True)
    (target / "evals" / "s.yaml").write_bytes(before)
    done = subprocess.run([*tool, str(patch)], cwd=target, capture_output=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / "evals" / "s.yaml").read_bytes() == after


def test_a_diff_of_a_file_with_a_bom_shows_the_bom_on_the_first_line(tmp_path):
    diff = _diff_of(tmp_path, BOM + SUITE).decode("utf-8")
    assert diff.startswith("--- a/evals/s.yaml\n+++ b/evals/s.yaml\n@@ -1,4 +1,4 @@\n \ufeffevalcases:\n-  - id: 6\n")
