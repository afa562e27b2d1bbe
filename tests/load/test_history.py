"""What the last commit holds, read through one ``git cat-file --batch`` process."""
from __future__ import annotations

from clirun import git

from evallint.load import history


def test_a_path_with_a_space_that_the_commit_lacks_is_no_answer_and_git_keeps_answering(tmp_path):
    """git echoes the name asked for in its 'missing' line, so a path with one space makes three words of it."""
    git(tmp_path, "init", "-q")
    (tmp_path / "s.yaml").write_text("a: 1\n")
    root = str(tmp_path)
    with history.watching() as notices:
        assert history.has_head(root) is False  # no commit yet
        git(tmp_path, "add", "s.yaml")
        git(tmp_path, "commit", "-q", "-m", "first")
        assert history.head_bytes(str(tmp_path / "a b.yaml"), root, 100) is None
        assert history.head_bytes(str(tmp_path / "s.yaml"), root, 100) == b"a: 1\n"
        assert history.has_head(root) is True
    assert notices == []
