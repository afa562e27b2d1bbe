"""Whether a path lies inside a folder, asked the same way by every layer: the top of the file system holds every
path, and a sibling whose name starts with the folder's is not inside it."""
from __future__ import annotations

import os

from evallint import api
from evallint.config import Config
from evallint.lint import lint_file
from evallint.load.paths import inside


def test_a_path_is_inside_its_folder_and_the_folders_above_it():
    assert [inside(path, "/a/b") for path in ("/a/b", "/a/b/c", "/a/bc", "/a", "/")] == [True, True, False, False, False]
    assert inside("/a/b/c", "/a/b/") and inside("/a/b", "/a/b/")
    assert inside("/a/b", "/") and inside("/", "/")


def test_the_nearest_targets_file_is_found_when_the_root_is_the_top_of_the_file_system(tmp_path):
    """The lookup climbs to the root, '/' too (a checkout at the top of a container's file system)."""
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - {name: default, provider: mock}\n")
    (tmp_path / "evals").mkdir()
    suite = tmp_path / "evals" / "a.eval.yaml"
    suite.write_text("execution: {target: nope}\ntests:\n  - {id: a, criteria: c, input: hi}\n")
    shown = os.path.relpath(tmp_path / ".agentv" / "targets.yaml", os.sep).replace(os.sep, "/")
    assert [(d.code, d.message) for d in lint_file(str(suite), Config(root=os.sep)).diagnostics] == [
        ("EV409", f"target 'nope' is not defined in {shown}; its targets: 'default'")]


def test_a_root_given_with_a_trailing_separator_is_the_same_root(tmp_path):
    """The targets file above the root is not looked at, however the root is written: not by the lint, nor by the
    editor's question of which targets a name must be one of."""
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - {name: default, provider: mock}\n")
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "evals").mkdir()
    suite = repo / "evals" / "a.eval.yaml"
    suite.write_text("execution: {target: nope}\ntests:\n  - {id: a, criteria: c, input: hi}\n")
    found = [[(d.code, d.message) for d in lint_file(str(suite), Config(root=root)).diagnostics]
             for root in (str(repo), str(repo) + os.sep)]
    assert found[0] == found[1] and not any("targets.yaml" in message for _, message in found[1])
    assert [api.target_names(suite.read_text(), str(suite), Config(root=root))
            for root in (str(repo), str(repo) + os.sep)] == [None, None]
