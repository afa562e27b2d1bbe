"""Fixes on many layouts of fixable files (issue 24): every result parses, and means what the original
meant with only the fixed keys and values changed; a fix is refused, with a note, exactly when an alias
shares the node it edits. The variants come from tests/fixvariants.py with fixed seeds, so a failure
names the seed that reproduces it; tests/fuzz/fuzz_fix.py runs the same check for longer."""
from __future__ import annotations

import random
import re

import pytest
from clirun import run
from fixvariants import meaning, variant

from evallint import lint_paths
from evallint.config import Config

SEEDS = range(300)
FIXABLE = ("EV103", "EV205", "EV322", "EV901", "EV902", "EV904")
NOTE = re.compile(r"evallint: .*:\d+:\d+: (EV\d+) not fixed: the fixed file would also change '[^']+'\Z")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("variants") / "evals"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_fixed_variant_means_the_same_with_only_the_fixes_made(folder, seed):
    made = variant(random.Random(seed))
    folder.mkdir(exist_ok=True)
    path = folder / f"suite{seed}.yaml"
    path.write_bytes(made.text.encode())
    _, _, err = run("--fix", "--unsafe-fixes", "--extend-select", "EV9,EV322", "--no-references", "--format",
                    "concise", "--quiet", str(path))
    after = path.read_bytes().decode()
    assert meaning(after) == meaning(made.text)
    notes = [NOTE.match(line) for line in err.splitlines()]
    assert all(notes) and bool(notes) == bool(made.shared), err
    remaining = lint_paths([path], config=Config(select=FIXABLE, references=False))
    assert {d.code for d in remaining if d.fix is not None} <= {note.group(1) for note in notes}
