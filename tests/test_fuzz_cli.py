"""A short run of tests/fuzz/cli_mutants.py: real files with random edits, linted in every format and
fixed, never crash, never print a traceback or a raw control character, and keep a parsing file parsing.
Longer runs: ``python tests/fuzz/cli_mutants.py --seconds 600 [--agentv-version 4.42]``."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz"))

from cli_mutants import CORPORA, run  # noqa: E402


def test_twenty_rounds_of_mutated_files_through_the_command_line():
    done, linted, problems = run(0, seed=7, rounds=20)
    assert (done, problems) == (20, [])
    assert linted >= 20


def test_six_rounds_of_mutated_agentv_4_files_through_the_command_line():
    """AgentV 4.42.4's files, prompts and JSON lines files besides, with its patterns, graders and references among
    the edits."""
    done, linted, problems = run(0, seed=7, rounds=6, corpus=CORPORA["4.42"])
    assert (done, problems) == (6, [])
    assert linted >= 6
