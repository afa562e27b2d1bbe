"""Fixes on many layouts of fixable files: every result parses, and means what the original
meant with only the fixed keys and values changed; a fix is refused, with a note, exactly when an alias
shares the node it edits, or when its result would have a finding the file did not have (quoting an id
that another case's id is quoted to: a duplicate id). The variants come from tests/fixvariants.py with fixed seeds, so a failure
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
DUPLICATE = re.compile(r"evallint: .*:\d+:\d+: (EV103) not fixed: the fixed file would get EV104 at \d+:\d+: "
                       r"duplicate case id '([^']*)' \(first used on line \d+\); results of the two cases overwrite "
                       r"each other\Z")


def case_ids(tree) -> list:
    """The ids of the cases of a ``meaning`` tree: each as the text it is quoted to."""
    top = dict((key[1], value) for key, value in tree[1])
    cases = top["evalcases"][1] if top.get("evalcases", ("", None))[0] == "seq" else []
    return [dict((key[1], value) for key, value in case[1]).get("id", (None, None))[1] for case in cases
            if case[0] == "map"]


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
    lines = err.splitlines()
    notes = [NOTE.match(line) for line in lines if not DUPLICATE.match(line)]
    assert all(notes) and bool(notes) == bool(made.shared), err
    duplicates = [DUPLICATE.match(line) for line in lines if DUPLICATE.match(line)]
    assert all(case_ids(meaning(made.text)).count(note.group(2)) > 1 for note in duplicates), err
    notes += duplicates
    remaining = lint_paths([path], config=Config(select=FIXABLE, references=False))
    assert {d.code for d in remaining if d.fix is not None} <= {note.group(1) for note in notes}
