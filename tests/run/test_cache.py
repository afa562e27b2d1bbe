"""The result cache: what invalidates a row, how a row answers, and the pool around it."""
from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import stat

import pytest
from cachedb import CASE, database, folder, rows, run
from conftest import FIXTURES

import evallint.run.cache as cache_module
import evallint.run.cachestore as store
import evallint.run.pool as runner
from evallint.cli import main
from evallint.config import Config
from evallint.load.files import FILE_KINDS


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "s.yaml").write_text(CASE)
    (tmp_path / "evals" / "notes.md").write_text("Some notes.\n")
    (tmp_path / "evals" / "judge.md").write_text("Grade {{ candidate_answer }}.\n")
    return tmp_path


def test_unchanged_tree_is_answered_from_the_cache_kept_outside_it(repo, lint_calls):
    before = sorted(repo.rglob("*"))
    first = run(repo)
    assert lint_calls == ["s.yaml"]
    assert run(repo) == first and lint_calls == ["s.yaml"]
    assert sorted(repo.rglob("*")) == before  # nothing written in the repository
    assert sorted(p.name for p in folder().iterdir()) == [store.DATABASE]
    assert stat.S_IMODE(folder().stat().st_mode) == 0o700


def test_every_kind_of_file_is_answered_from_the_cache(repo, lint_calls):
    """A kind the cache does not know would be linted again on every run."""
    (repo / "evals" / "data.jsonl").write_text('{"id": "a", "expected_outcome": "g", "input": "hi"}\n')
    (repo / "evals" / "data.yaml").write_text("description: the dataset's defaults\n")
    shutil.copytree(FIXTURES / "skills" / "good" / "pdf", repo / "pdf")
    (repo / ".agentv").mkdir()
    (repo / ".agentv" / "targets.yaml").write_text("targets:\n  - {name: default, provider: mock}\n")
    (repo / ".agentv" / "config.yaml").write_text("eval_patterns: ['**/*.yaml']\n")
    (repo / ".agentv" / "templates").mkdir()
    (repo / ".agentv" / "templates" / "polite.yaml").write_text("assertions:\n  - Thanks the user.\n")
    first = run(repo)
    linted = sorted(lint_calls)
    assert sorted(json.loads(row[7])["kind"] for row in rows()) == sorted(FILE_KINDS)
    assert run(repo) == first and sorted(lint_calls) == linted


def test_changed_file_invalidates(repo, lint_calls):
    run(repo)
    (repo / "evals" / "s.yaml").write_text(CASE.replace("id: a", "id: 1"))
    code, out = run(repo)
    assert lint_calls == ["s.yaml", "s.yaml"] and "EV103" in out


def test_changed_referenced_file_invalidates(repo, lint_calls):
    assert run(repo) == (0, "")
    (repo / "evals" / "judge.md").write_text("Grade it.\n")
    code, out = run(repo)
    assert len(lint_calls) == 2 and "EV405" in out


def test_a_changed_template_invalidates_the_suite_that_includes_it(repo, lint_calls):
    """The suite's findings depend on what its template holds (EV410), though only the template changed."""
    (repo / ".agentv" / "templates").mkdir(parents=True)
    template = repo / ".agentv" / "templates" / "polite.yaml"
    template.write_text("assertions:\n  - Thanks the user.\n")
    (repo / "evals" / "s.yaml").write_text("tests:\n  - {id: a, input: hi, assertions: [include: polite]}\n")
    assert run(repo) == (0, "")
    template.write_text("- Thanks the user.\n")
    code, out = run(repo)
    assert sorted(lint_calls) == ["polite.yaml", "polite.yaml", "s.yaml", "s.yaml"] and "EV410" in out


def test_deleted_and_created_referenced_files_invalidate(repo, lint_calls):
    run(repo)
    (repo / "evals" / "notes.md").unlink()
    assert "EV401" in run(repo)[1]
    (repo / "notes.md").write_text("now found in an ancestor folder\n")
    assert run(repo) == (0, "") and len(lint_calls) == 3


def test_a_file_in_a_new_folder_invalidates_what_missed_it(repo, lint_calls):
    (repo / "evals" / "s.yaml").write_text(CASE.replace("value: notes.md", "value: sub/notes.md"))
    assert "EV401" in run(repo)[1]
    (repo / "evals" / "sub").mkdir()
    (repo / "evals" / "sub" / "notes.md").write_text("now here\n")
    assert run(repo) == (0, "") and lint_calls == ["s.yaml", "s.yaml"]


def test_a_new_targets_file_invalidates(repo, lint_calls):
    (repo / "evals" / "s.yaml").write_text(CASE + "    execution: {target: t}\n")
    assert "EV409" not in run(repo)[1]  # no targets file: nothing to check against
    (repo / ".agentv").mkdir()
    (repo / ".agentv" / "targets.yaml").write_text("targets:\n  - name: u\n    provider: mock\n")
    assert "EV409" in run(repo)[1] and lint_calls.count("s.yaml") == 2


def test_a_suite_of_agentv_4_42_invalidates_the_targets_file_it_is_served_by(repo, lint_calls):
    """A targets file whose keys show no version is read as the suites it serves are (a literal 'model' is EV110 in
    AgentV 4.42.4's): a suite changed to the later format, or a new one, makes it be read again."""
    (repo / ".agentv").mkdir()
    (repo / ".agentv" / "targets.yaml").write_text(
        "targets:\n  - {name: default, provider: openai, model: gpt-4o, api_key: '${{ KEY }}'}\n")
    later = "tests:\n  - {id: a, criteria: Says hi., input: hi}\n"
    assert run(repo) == (0, "")
    (repo / "evals" / "s.yaml").write_text(later)
    assert "targets.yaml:2:46: EV110 [error] 'model' must be an environment reference" in run(repo)[1]
    (repo / "evals" / "s.yaml").write_text(CASE)
    assert run(repo) == (0, "")
    (repo / "evals" / "deep").mkdir()
    (repo / "evals" / "deep" / "t.yaml").write_text(later)
    assert "targets.yaml:2:46: EV110" in run(repo)[1] and lint_calls.count("targets.yaml") == 4


def test_a_suite_that_names_a_jsonl_file_created_changed_or_deleted_invalidates(tmp_path, lint_calls):
    """The .jsonl file is a dataset, then a file of tests while a suite (new in a folder its lint listed) names it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cases.jsonl").write_text('{"id": "a", "input": "q", "assertions": [{"type": "contains", '
                                                   '"value": "q"}]}\n')  # runs only as a test of a suite
    as_dataset = (1, f"{tmp_path}/data/cases.jsonl:1:27: EV106 [error] a dataset line's 'assertions' do not count: "
                     "in a JSONL line the runner needs 'criteria', 'expected_output' or an 'assert' key, and skips "
                     "this line as incomplete; write 'assert' instead of 'assertions'\n")
    suite = tmp_path / "evals" / "suite.yaml"
    suite.parent.mkdir()
    assert run(tmp_path) == as_dataset
    for text, expected in (("tests: ../data/cases.jsonl\n", (0, "")), ("tests: [{id: b, input: q, criteria: g}]\n",
                           as_dataset), ("tests: [file://../data/cases.jsonl]\n", (0, ""))):
        suite.write_text(text)
        assert run(tmp_path) == expected
    suite.unlink()
    assert run(tmp_path) == as_dataset and lint_calls.count("cases.jsonl") == 5


def test_changed_configuration_invalidates(repo, lint_calls):
    run(repo)
    run(repo, "--extend-select", "EV904")
    assert len(lint_calls) == 2
    run(repo)
    run(repo, "--extend-select", "EV904")
    assert len(lint_calls) == 2  # each configuration has its own row


def test_new_version_invalidates(repo, lint_calls, monkeypatch):
    run(repo)
    monkeypatch.setattr(cache_module, "__version__", "999.0")
    run(repo)
    assert len(lint_calls) == 2


def test_a_file_named_explicitly_has_a_row_of_its_own(repo, lint_calls):
    run(repo)
    main(["--quiet", "-j1", str(repo / "evals" / "s.yaml")], stdout=io.StringIO(), stderr=io.StringIO())
    assert lint_calls == ["s.yaml", "s.yaml"] and len(rows()) == 2


@pytest.mark.parametrize("entry", [
    "", "{not json", '{"kind": "eval"}', "[]", '{"kind": 5, "diagnostics": [], "lines": [], "deps": []}',
    '{"kind": "eval", "diagnostics": [[1]], "lines": [], "deps": []}',
    '{"kind": "eval", "diagnostics": [], "lines": [], "deps": 7}',
    '{"kind": "eval", "diagnostics": [], "deps": []}',  # no snippet lines
    '{"kind": "eval", "diagnostics": [], "lines": [["1", "x"]], "deps": []}',
    '{"kind": "eval", "diagnostics": [], "lines": [[1, 2]], "deps": []}',
    '{"kind": "eval", "diagnostics": [], "lines": [[1]], "deps": []}',
])
def test_damaged_rows_are_ignored_and_replaced(repo, lint_calls, entry):
    expected = run(repo)
    with sqlite3.connect(database()) as connection:
        connection.execute("UPDATE results SET entry = ?", (entry,))
    assert run(repo) == expected and len(lint_calls) == 2
    assert run(repo) == expected and len(lint_calls) == 2  # the row was written again


def test_a_row_for_other_content_is_not_trusted(repo, lint_calls):
    """A row another run wrote for the file as it was then (a concurrent run linting an older version)."""
    run(repo)
    (stale,) = rows()
    (repo / "evals" / "s.yaml").write_text(CASE.replace("id: a", "id: 1"))
    run(repo)
    with sqlite3.connect(database()) as connection:
        connection.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", stale)
    assert "EV103" in run(repo)[1] and len(lint_calls) == 3


def test_a_database_locked_by_another_writer_is_read_and_not_waited_for(repo, lint_calls, monkeypatch):
    monkeypatch.setattr(store, "TIMEOUT", 0.05)
    expected = run(repo)
    (repo / "evals" / "t.yaml").write_text(CASE)
    other = sqlite3.connect(database(), isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process is writing
        other.execute("DELETE FROM results")
        code, out = run(repo)
        assert code == 0 and out == expected[1] and lint_calls == ["s.yaml", "t.yaml"]  # s.yaml read from the cache
    finally:
        other.execute("ROLLBACK")
        other.close()
    run(repo)
    assert lint_calls == ["s.yaml", "t.yaml", "t.yaml"]  # t.yaml's row could not be written then


def test_rows_are_written_in_batches(repo, monkeypatch):
    monkeypatch.setattr(store, "BATCH", 2)
    for n in range(5):
        (repo / "evals" / f"t{n}.yaml").write_text(CASE)
    transactions = []
    real = store.Database.flush

    def counting(self):
        if self.pending:
            transactions.append(len(self.pending))
        real(self)

    monkeypatch.setattr(store.Database, "flush", counting)
    run(repo)
    assert transactions == [2, 2, 2] and len(rows()) == 6


def test_an_unusable_cache_is_not_fatal_and_no_cache_writes_nothing(repo, tmp_path_factory):
    blocker = tmp_path_factory.mktemp("c") / "file"
    blocker.write_text("not a folder")
    assert run(repo, "--cache-dir", str(blocker)) == run(repo, "--no-cache") == (0, "")
    assert not folder().exists()


def test_cache_dir_option(repo, tmp_path_factory, lint_calls):
    named = tmp_path_factory.mktemp("cachedir")
    run(repo, "--cache-dir", str(named))
    run(repo, "--cache-dir", str(named))
    assert (named / store.DATABASE).exists() and not folder().exists()
    assert lint_calls == ["s.yaml"]


def test_a_read_only_tree_is_cached(repo, lint_calls):
    os.chmod(repo / "evals", 0o555)
    os.chmod(repo, 0o555)
    try:
        assert run(repo) == run(repo) == (0, "") and lint_calls == ["s.yaml"]
    finally:
        os.chmod(repo, 0o755)
        os.chmod(repo / "evals", 0o755)


def reads(monkeypatch) -> list:
    """The files read (by name) from now on."""
    import evallint.load.source as source

    seen = []
    real = source.read_bytes
    monkeypatch.setattr(source, "read_bytes", lambda path, *a, **k: seen.append(os.path.basename(path)) or real(path, *a, **k))
    return seen


def test_a_settled_unchanged_file_is_answered_without_reading_it(repo, lint_calls, monkeypatch):
    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)  # every file counts as long untouched
    expected = run(repo)
    assert rows()[0][6] is not None
    seen = reads(monkeypatch)
    assert run(repo) == expected and lint_calls == ["s.yaml"] and "s.yaml" not in seen


def test_a_settled_file_that_changes_is_linted_again(repo, lint_calls, monkeypatch):
    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    run(repo)
    path = repo / "evals" / "s.yaml"
    before = os.stat(path)
    path.write_text(CASE.replace("id: a", "id: 1"))  # the same size
    # a write within one tick of a coarse file system clock keeps the timestamps: give it a later one
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    assert "EV103" in run(repo)[1] and lint_calls == ["s.yaml", "s.yaml"]


def test_a_file_answered_by_its_hash_gets_its_stat_once_settled(repo, lint_calls, monkeypatch):
    """A fresh checkout is read and hashed once more, not on every run: the first run that answers a
    file by its hash, once the file has settled, records its stat, and the next one does not read it."""
    run(repo)  # within SETTLED_NS of the write: no stat recorded
    assert rows()[0][6] is None
    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)  # now it has settled
    seen = reads(monkeypatch)
    assert run(repo) == (0, "") and seen == ["s.yaml"] and lint_calls == ["s.yaml"]
    assert rows()[0][6] is not None
    assert run(repo) == (0, "") and seen == ["s.yaml"] and lint_calls == ["s.yaml"]


def test_a_file_with_findings_is_answered_with_its_snippets_without_reading_it(repo, lint_calls, monkeypatch):
    import evallint.load.source as source

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    (repo / "evals" / "s.yaml").write_text(CASE.replace("id: a", "id: 1"))
    expected = lint_tree(repo)
    reads, real = [], source.read_bytes

    def reading(path, *args, **kwargs):
        reads.append(os.path.basename(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(source, "read_bytes", reading)
    assert "EV103" in expected and "  - id: 1" in expected
    assert lint_tree(repo) == expected and lint_calls == ["s.yaml"] and reads == []


@pytest.fixture
def tree(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "bad", tree / "bad")
    shutil.copytree(FIXTURES / "corpus", tree / "corpus")
    (tree / ".git").mkdir()
    return tree


def lint_tree(tree, *argv, fmt="text"):
    out = io.StringIO()
    main(["--no-color", "--format", fmt, *argv, str(tree)], stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_jobs_and_the_cache_give_byte_identical_output(tree):
    for fmt in ("text", "json"):
        expected = lint_tree(tree, "--no-cache", "--jobs", "1", fmt=fmt)
        assert expected.count("\n") > 500 or fmt == "json"
        assert lint_tree(tree, "--no-cache", "--jobs", "4", fmt=fmt) == expected
        shutil.rmtree(folder(), ignore_errors=True)
        assert lint_tree(tree, "--jobs", "4", fmt=fmt) == expected  # an empty cache, filled by the pool
        assert lint_tree(tree, "--jobs", "1", fmt=fmt) == expected  # answered from the cache
        assert lint_tree(tree, "--jobs", "4", fmt=fmt) == expected


def test_a_partly_cached_tree_gives_the_same_output_with_a_pool(tree, monkeypatch):
    """Cached files are answered by the main process and the others linted by the pool, in chunks that
    interleave with them: the output is the same as one process gives."""
    monkeypatch.setattr(runner, "CHUNK", 3)
    expected = lint_tree(tree, "--no-cache", "-j1", fmt="json")
    paths = sorted((tree / "bad").rglob("*.yaml"))
    for path in paths[::2]:  # half the files cached, half not
        main(["--quiet", "-j1", str(path)], stdout=io.StringIO(), stderr=io.StringIO())
    items = [(str(p), True) for p in paths]
    results = list(runner.lint_many(iter(items), Config(), jobs=2, cache_dir=None, use_cache=True))
    assert [r.path for r in results] == [path for path, _ in items]  # in input order
    assert lint_tree(tree, "-j2", fmt="json") == expected


class InProcessPool:
    """A pool whose ``map`` runs each task when it is sent (as ``Executor.map`` sends them all at once) and
    counts the chunks sent whose results are not yet drawn."""

    def __init__(self):
        self.sizes: list = []
        self.in_flight = 0
        self.most_in_flight = 0

    def map(self, work, chunks, *rest):
        answers = [work(chunk, *more) for chunk, *more in zip(chunks, *rest)]
        self.sizes += [len(chunk) for chunk in chunks]
        self.in_flight += len(answers)
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        return self.drawn(answers)

    def drawn(self, answers: list):
        for answer in answers:
            self.in_flight -= 1
            yield answer

    def shutdown(self, **kwargs):
        pass


def test_chunks_in_flight_are_bounded_and_given_back_in_order(repo, monkeypatch):
    """The pool holds at most two windows of ``WINDOW`` chunks per worker, and the walk is at most a window
    ahead of them: memory stays flat however many files there are."""
    for n in range(40):
        (repo / "evals" / f"s{n:02}.yaml").write_text(CASE)
    pool = InProcessPool()
    monkeypatch.setattr(runner, "_start_pool", lambda jobs, *prepare: pool)
    monkeypatch.setattr(runner, "CHUNK", 4)
    monkeypatch.setattr(runner, "WINDOW", 1)
    paths = [str(p) for p in sorted((repo / "evals").glob("*.yaml"))]
    walked = []

    def walk():
        for path in paths:
            walked.append(path)
            yield path, False

    ahead = []
    for given, result in enumerate(runner.lint_many(walk(), Config(), jobs=2, cache_dir=None, use_cache=False)):
        assert result.path == paths[given]  # in input order
        ahead.append(len(walked) - given)
    assert len(paths) == 41 and len(ahead) == 41
    assert pool.sizes == [4] * 10 + [1]
    assert pool.most_in_flight == 4  # two windows of WINDOW chunks per worker
    assert max(ahead) == 24  # the window given back, the window in the pool and the next one walked


def test_a_run_of_one_chunk_and_a_cached_run_start_no_pool(repo, monkeypatch):
    monkeypatch.setattr(runner, "_start_pool", lambda jobs, *prepare: pytest.fail("a pool was started"))
    first = run(repo, "-j2")
    for n in range(40):
        (repo / "evals" / f"s{n}.yaml").write_text(CASE)
    monkeypatch.undo()
    monkeypatch.setattr(runner, "CHUNK", 8)
    second = run(repo, "-j2")
    monkeypatch.setattr(runner, "_start_pool", lambda jobs, *prepare: pytest.fail("a pool was started"))
    assert run(repo, "-j2") == second and first == (0, "")


def test_answers_from_the_cache_print_what_the_run_printed(tmp_path):
    """Snippets and secret masking included, on the fixture tree (files that are not UTF-8 text show no
    snippet, as when they were linted)."""
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES, tree)
    (tree / ".git").mkdir()
    out = [io.StringIO() for _ in range(3)]
    for argv, stdout in zip((["--no-cache"], [], []), out):
        main(["-j1", *argv, str(tree)], stdout=stdout, stderr=io.StringIO())
    assert out[0].getvalue() == out[1].getvalue() == out[2].getvalue()
