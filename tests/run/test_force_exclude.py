"""``exclude`` holds for the files named on the command line and for --staged, as for the files a walk
finds, unless --no-force-exclude."""
from __future__ import annotations

import pytest
from clirun import git, run_concise

BAD = "evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n"
EV103 = "2:9: EV103 [error] case 'id' must be a string: the runner reads 1 as the number 1 and skips the case; " \
        "the fix writes \"1\"\n"
FOUND = f"evals/extra/x.yaml:{EV103}"
KEPT = f"evals/kept.yaml:{EV103}"


@pytest.fixture
def repo(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "evals" / "extra").mkdir(parents=True)
    (tmp_path / "evals" / "extra" / "x.yaml").write_text(BAD)
    (tmp_path / "evals" / "kept.yaml").write_text(BAD)
    (tmp_path / ".evallint.toml").write_text('exclude = ["evals/extra/**"]\n')
    return tmp_path


def test_a_walk_skips_the_excluded_files(repo):
    assert run_concise(repo, "evals") == (1, KEPT, "")


def test_a_named_file_that_exclude_matches_is_skipped(repo):
    assert run_concise(repo, "evals/extra/x.yaml", "evals/kept.yaml") == (1, KEPT, "")
    assert run_concise(repo, "evals/extra/x.yaml") == (0, "", "")


def test_a_named_folder_that_exclude_matches_is_skipped(repo):
    assert run_concise(repo, "evals/extra") == (0, "", "")


def test_a_folder_glob_excludes_the_files_below_it(repo):
    (repo / ".evallint.toml").write_text('exclude = ["evals/extra/"]\n')
    assert run_concise(repo, "evals/extra/x.yaml") == (0, "", "")
    assert run_concise(repo / "evals", "extra/x.yaml") == (0, "", "")


def test_no_force_exclude_lints_the_named_files(repo):
    assert run_concise(repo, "--no-force-exclude", "evals/extra/x.yaml") == (1, FOUND, "")
    assert run_concise(repo, "--no-force-exclude", "evals") == (1, KEPT, "")


def test_staged_files_that_exclude_matches_are_skipped(repo):
    git(repo, "add", "evals")
    assert run_concise(repo, "--staged") == (1, KEPT, "")
    assert run_concise(repo, "--staged", "--no-force-exclude") == (1, FOUND + KEPT, "")


def test_standard_input_named_as_an_excluded_file_is_skipped(repo):
    import io
    import os

    from evallint.cli import main

    old = os.getcwd()
    os.chdir(repo)
    try:
        out, err = io.StringIO(), io.StringIO()
        code = main(["--format", "concise", "--stdin-filename", "evals/extra/y.yaml", "-"], stdout=out, stderr=err,
                    stdin=io.BytesIO(BAD.encode()))
        assert (code, out.getvalue(), err.getvalue()) == (0, "No problems found (0 files checked).\n", "")
        out, err = io.StringIO(), io.StringIO()
        code = main(["--fix", "--format", "concise", "--stdin-filename", "evals/extra/y.yaml", "-"], stdout=out,
                    stderr=err, stdin=io.BytesIO(BAD.encode()))
        assert (code, out.getvalue()) == (0, BAD)
    finally:
        os.chdir(old)
