"""A JSONL dataset whose first line is broken is still linted where datasets are: beside eval suites in an
`evals/` folder, beside its sidecar, or when it was a dataset in the last commit; in a folder walk, with
the paths named and with --staged alike."""
from __future__ import annotations

import pytest
from clirun import git, run_concise

BROKEN = '{"id": "c1", "input": "What is 2+2?", "expected_outcome": "Says 4",}\n' \
         '{"id": "c2", "input": "q", "expected_outcome": "g"}\n'
CASE = '{"id": "c1", "input": "What is 2+2?", "expected_outcome": "Says 4"}\n'
EV701 = "EV701 [error] Line 1: invalid JSON: Expecting property name enclosed in double quotes at column 68\n"
SUITE = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"


@pytest.fixture
def repo(tmp_path):
    git(tmp_path, "init", "-q")
    return tmp_path


def _reported(repo, relative: str) -> None:
    """The broken first line of ``relative`` is reported by a walk (with and without the cache), by the
    file's folder named, and by --staged."""
    expected = (1, f"{relative}:1:68: {EV701}", "")
    folder = relative.rpartition("/")[0]
    for argv in (["."], ["."], ["--no-cache", "."], [folder]):
        assert run_concise(repo, *argv) == expected, argv
    git(repo, "add", "-A")
    assert run_concise(repo, "--staged") == expected


def test_a_broken_first_line_beside_eval_suites_in_evals(repo):
    (repo / "evals").mkdir()
    (repo / "evals" / "suite.yaml").write_text(SUITE)
    (repo / "evals" / "data.jsonl").write_text(BROKEN)
    _reported(repo, "evals/data.jsonl")


def test_a_broken_first_line_beside_its_sidecar(repo):
    (repo / "data").mkdir()
    (repo / "data" / "math.jsonl").write_text(BROKEN)
    (repo / "data" / "math.yaml").write_text("description: arithmetic\n")
    _reported(repo, "data/math.jsonl")


@pytest.mark.parametrize("first, reported", [
    ('{"input": "What is 2+2?", "criteria": "Says 4"}', "data/math.jsonl:1:2: EV103 [error] test has no 'id'; the "
                                                        "runner skips it\n"),
    ('{"id": "c1", "question": "What is 2+2?", "criteria": "Says 4"}',
     "data/math.jsonl:1:2: EV105 [error] test has no 'input'; the runner skips it (the suite's input does not count)\n"),
    ('[{"id": "c1", "input": "What is 2+2?", "criteria": "Says 4"}]',
     "data/math.jsonl:1:1: EV702 [error] Line 1: each line must be a JSON object (an eval case), found a list\n"),
])
def test_a_first_line_the_runner_skips_or_throws_on_beside_its_sidecar(repo, first, reported):
    """The runner reads the file as a dataset whatever its first line holds: a test without 'id', or with another
    key for 'input', is skipped; a list makes the loader throw. Its sidecar is linted with it."""
    (repo / "data").mkdir()
    (repo / "data" / "math.jsonl").write_text(first + '\n{"id": "c2", "input": "q", "criteria": "g"}\n')
    (repo / "data" / "math.yaml").write_text("name: arithmetic\nexecution: {targt: default}\n")
    code, out, err = run_concise(repo, "--no-cache", ".")
    assert (code, out.splitlines(keepends=True)[0], err) == (1, reported, "")
    assert out.splitlines()[-1] == ("data/math.yaml:2:13: EV703 [error] unknown key 'targt' in sidecar execution (known "
                                    "keys: assert, assertions, evaluators)")


def test_a_dataset_in_the_last_commit_is_one_however_its_first_line_is_broken(repo):
    (repo / "data").mkdir()
    (repo / "data" / "math.jsonl").write_text(CASE)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "dataset")
    (repo / "data" / "math.jsonl").write_text(BROKEN)
    _reported(repo, "data/math.jsonl")
    git(repo, "commit", "-q", "-m", "broken")  # HEAD holds no dataset there any more: the file is skipped
    assert run_concise(repo, ".") == (0, "", "")


def test_a_dataset_in_the_last_commit_whose_first_line_is_no_case_now(repo):
    (repo / "data").mkdir()
    (repo / "data" / "math.jsonl").write_text(CASE)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "dataset")
    (repo / "data" / "math.jsonl").write_text('{"id": "c1"}\n')
    assert run_concise(repo, ".") == (1, "data/math.jsonl:1:2: EV105 [error] eval case has no 'input_messages' (or "
                                         "'input'); there is nothing to send\ndata/math.jsonl:1:2: EV106 [error] eval "
                                         "case has no 'expected_outcome' (or 'outcome'); the runner skips such a "
                                         "case\n", "")


def test_broken_jsonl_elsewhere_and_results_files_in_evals_are_still_skipped(repo):
    (repo / "evals").mkdir()
    (repo / "evals" / "suite.yaml").write_text(SUITE)
    (repo / "evals" / "run.jsonl").write_text('{"eval_id": "a", "score": 1}\n{"eval_id": "b"\n')
    (repo / "logs").mkdir()
    (repo / "logs" / "app.jsonl").write_text("{truncated\n")
    for argv in (["."], ["--no-cache", "."]):
        assert run_concise(repo, *argv) == (0, "", ""), argv
    git(repo, "add", "-A")
    assert run_concise(repo, "--staged") == (0, "", "")
    git(repo, "commit", "-q", "-m", "files")
    assert run_concise(repo, "--no-cache", ".") == (0, "", "")


def test_a_dataset_that_is_not_utf8_past_its_first_case_is_reported_with_and_without_the_cache(repo):
    """Its first line makes it a dataset whether the file is read from disk, from the cache's read or from
    the git index: its bytes are told apart the same way, before they are decoded."""
    (repo / "evals").mkdir()
    (repo / "evals" / "suite.yaml").write_text(SUITE)
    (repo / "evals" / "data.jsonl").write_bytes(CASE.encode() + b'{"id": "c2", "input": "\xff"}\n')
    expected = (1, "evals/data.jsonl:2:24: EV002 [error] invalid UTF-8 byte 0xff at byte offset 91; eval files "
                   "must be UTF-8\n", "")
    for argv in (["."], ["."], ["--no-cache", "."]):
        assert run_concise(repo, *argv) == expected, argv
    git(repo, "add", "-A")
    assert run_concise(repo, "--staged") == expected
