"""A file over ``max-file-size`` is reported (EV006, with its size and the cap) whenever it would be
linted: named, matched by ``include``, or recognisable from its first bytes; it is never read whole."""
from __future__ import annotations

import io
import json

import pytest
from clirun import git, run_concise

from evallint.cli import main
from evallint.config import Config
from evallint.lint import HEAD_PEEK, JSONL_PEEK, lint_file
from evallint.load import history

SUITE = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
CAP = 100


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".evallint.toml").write_text(f"max-file-size = {CAP}\n")
    (tmp_path / "suites").mkdir()  # outside the default include globs: only the content says what a file is
    return tmp_path


def padded(text: str, size: int) -> str:
    return text + "#" * (size - len(text) - 1) + "\n"


def ev006(path: str, size: int) -> str:
    return f"{path}:1:1: EV006 [error] file is {size} bytes, over the size cap of {CAP} bytes; it is not read\n"


def test_an_eval_suite_recognised_by_its_evalcases_key_is_reported(project):
    (project / "suites" / "s.yaml").write_text(padded(SUITE, 300))
    assert run_concise(project, "--no-cache", ".") == (1, ev006("suites/s.yaml", 300), "")


def test_a_near_miss_of_evalcases_or_an_agentv_schema_is_recognised_too(project):
    (project / "suites" / "a.yaml").write_text(padded(SUITE.replace("evalcases", "eval_cases"), 300))
    (project / "suites" / "b.yaml").write_text(padded("$schema: agentv-eval-v2\n", 301))
    assert run_concise(project, "--no-cache", ".") == (1, ev006("suites/a.yaml", 300) + ev006("suites/b.yaml", 301), "")


def test_a_dataset_recognised_by_its_first_line_is_reported(project):
    row = json.dumps({"id": "a", "input": "q", "expected_outcome": "g"})
    (project / "suites" / "d.jsonl").write_text(row + "\n" + row.replace('"a"', '"b"') * 5 + "\n")
    size = (project / "suites" / "d.jsonl").stat().st_size
    assert run_concise(project, "--no-cache", ".") == (1, ev006("suites/d.jsonl", size), "")


def test_other_large_files_are_still_skipped(project):
    (project / "suites" / "results.jsonl").write_text(json.dumps({"eval_id": "a", "score": 1}) + "\n" * 300)
    (project / "suites" / "compose.yaml").write_text(padded("services:\n  web: {image: x}\n", 300))
    assert run_concise(project, "--no-cache", ".") == (0, "", "")


def test_only_the_head_decides(project):
    """'evalcases' past the first HEAD_PEEK bytes is not looked for: the file is not read that far."""
    (project / "suites" / "late.yaml").write_text("# " + "x" * HEAD_PEEK + "\n" + SUITE)
    assert run_concise(project, "--no-cache", ".") == (0, "", "")


def test_a_dataset_whose_first_line_is_longer_than_the_peek(project):
    long_case = json.dumps({"id": "a", "input": "q" * JSONL_PEEK, "expected_outcome": "g"}) + "\n"
    long_result = json.dumps({"eval_id": "a", "id": "r", "input": "q" * JSONL_PEEK}) + "\n"
    (project / "suites" / "d.jsonl").write_text(long_case)
    (project / "suites" / "results.jsonl").write_text(long_result)
    assert run_concise(project, "--no-cache", ".") == (1, ev006("suites/d.jsonl", len(long_case)), "")


def test_named_and_included_files_are_reported_whatever_they_hold(project):
    (project / "suites" / "notes.yaml").write_text(padded("title: notes\n", 200))
    (project / "evals").mkdir()
    (project / "evals" / "x.yaml").write_text(padded("title: x\n", 201))
    assert run_concise(project, "--no-cache", ".") == (1, ev006("evals/x.yaml", 201), "")
    assert run_concise(project, "--no-cache", "suites/notes.yaml") == (1, ev006("suites/notes.yaml", 200), "")


def test_a_file_that_was_an_eval_suite_in_the_last_commit(project):
    git(project, "init", "-q")
    (project / "suites" / "s.yaml").write_text(SUITE)
    git(project, "add", "suites/s.yaml")
    git(project, "commit", "-q", "-m", "first")
    (project / "suites" / "s.yaml").write_text(padded("title: replaced\n", 300))
    assert run_concise(project, "--no-cache", ".") == (1, ev006("suites/s.yaml", 300), "")


def test_a_named_jsonl_file_over_the_cap_is_a_dataset(project):
    (project / "suites" / "d.jsonl").write_text("x" * 300)
    result = lint_file(str(project / "suites" / "d.jsonl"), Config(max_bytes=CAP))
    assert (result.kind, [d.code for d in result.diagnostics]) == ("dataset", ["EV006"])


def test_a_cached_run_reports_it_too(project):
    (project / "suites" / "s.yaml").write_text(padded(SUITE, 300))
    assert run_concise(project, ".") == (1, ev006("suites/s.yaml", 300), "")
    assert run_concise(project, ".") == (1, ev006("suites/s.yaml", 300), "")


class Counted(io.RawIOBase):
    """Standard input of ``size`` bytes, counting the bytes read from it."""

    def __init__(self, line: bytes, size: int):
        self.line, self.left, self.given = line, size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.left)
        buffer[:n] = (self.line * (n // len(self.line) + 1))[:n]
        self.left -= n
        self.given += n
        return n


def test_standard_input_is_read_up_to_one_byte_past_the_cap(project, monkeypatch):
    monkeypatch.chdir(project)
    stdin = Counted(SUITE.encode(), 1000 * CAP)
    out, err = io.StringIO(), io.StringIO()
    code = main(["--format", "concise", "--stdin-filename", "suites/s.yaml", "-"], stdout=out, stderr=err, stdin=stdin)
    assert (code, out.getvalue()) == (1, f"suites/s.yaml:1:1: EV006 [error] file is over the size cap of {CAP} bytes; "
                                         "it is not read\nFound 1 error in 1 file (1 file checked).\n")
    assert stdin.given == CAP + 1


def test_fix_on_standard_input_over_the_cap_gives_it_back_whole(project, monkeypatch):
    monkeypatch.chdir(project)
    text = padded(SUITE + "# é\n", 5000)
    out, err = io.StringIO(), io.StringIO()
    code = main(["--fix", "--format", "concise", "--stdin-filename", "suites/s.yaml", "-"], stdout=out, stderr=err,
                stdin=io.BytesIO(text.encode()))
    assert (code, out.getvalue()) == (1, text)
    assert err.getvalue().startswith("Fixed 0 problems in 0 files.\nsuites/s.yaml:1:1: EV006 [error]")


def test_a_file_over_the_cap_in_the_last_commit_is_not_held(project):
    git(project, "init", "-q")
    (project / "suites" / "s.yaml").write_text(padded(SUITE, 300))
    git(project, "add", "suites/s.yaml")
    git(project, "commit", "-q", "-m", "first")
    path, root = str(project / "suites" / "s.yaml"), str(project)
    assert history.head_bytes(path, root, 299) is None
    assert history.head_bytes(path, root, 300) == padded(SUITE, 300).encode()
