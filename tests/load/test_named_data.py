"""Which suites are read to tell whether a file is data they name, and what its result then depends on."""
from __future__ import annotations

import os

from evallint.load import deps
from evallint.load.named_data import MANY_FOLDERS, named_as_data


def _projects(root, count: int) -> str:
    """A repository of ``count`` project folders besides a suite in 'evals/smoke/' that sends '../../data/x.yaml';
    the path of that file."""
    (root / ".git").mkdir()
    for n in range(count):
        (root / f"p{n:03}" / "src").mkdir(parents=True)
    (root / "evals" / "smoke").mkdir(parents=True)
    (root / "evals" / "smoke" / "s.eval.yaml").write_text(
        "tests: [{id: t, input: hi, criteria: c, input_files: [../../data/x.yaml]}]\n")
    (root / "data").mkdir()
    (root / "data" / "x.yaml").write_text("port: 8080\n")
    return str(root / "data" / "x.yaml")


def named_with_dependencies(root, path: str) -> tuple:
    """Whether the file at ``path`` is named as data, and the paths (relative to ``root``) that answer depends on."""
    with deps.run_scope(), deps.recording() as seen:
        named = named_as_data(path, str(root), 1 << 20)
    return named, sorted(os.path.relpath(noted, root) for noted in seen)


def test_a_suite_two_folders_below_a_folder_above_names_the_file_and_each_listing_looked_at_is_a_dependency(tmp_path):
    assert named_with_dependencies(tmp_path, _projects(tmp_path, 1)) == (True, [
        ".", "data", "data/x.yaml", "evals", "evals/smoke", "evals/smoke/s.eval.yaml", "p000", "p000/src"])


def test_no_folder_below_a_folder_above_with_too_many_folders_is_looked_in(tmp_path):
    """A tree of many projects: each file's result would depend on the listing of every one of them, so a cache row
    of each would grow with the tree."""
    assert named_with_dependencies(tmp_path, _projects(tmp_path, MANY_FOLDERS - 1)) == (False, [".", "data"])
