"""What a row of the result cache keeps, and for how long: the signatures taken before the lint reads a
file, eviction by age and by size, and a full database."""
from __future__ import annotations

import os

import pytest
from cachedb import rows, run

import evallint.run.cache as cache_module
import evallint.run.cachestore as store
from evallint import __version__
from evallint.config import Config
from evallint.load import deps

SUITE = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: hi\n"


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "s.yaml").write_text(SUITE)
    return tmp_path


def test_the_table_holds_one_row_per_file_with_what_it_looked_at(repo, monkeypatch):
    import json

    from evallint import __version__

    monkeypatch.setattr(store, "now", lambda: 1_700_000_000)
    (repo / "evals" / "judge.md").write_text("Grade {{ candidate_answer }}.\n")
    (repo / "evals" / "s.yaml").write_text(SUITE + "    evaluators:\n      - {name: j, type: llm_judge, prompt: judge.md}\n")
    run(repo)
    ((root, file, named, version, config, content, _, entry, used),) = rows()
    assert (root, file, named, version) == (bytes(repo), bytes(repo / "evals" / "s.yaml"), 0, __version__)
    assert config == cache_module.context(Config())[1] and used == 1_700_000_000
    entry = json.loads(entry)
    assert content == cache_module.content_key((repo / "evals" / "s.yaml").read_bytes())
    assert entry["kind"] == "eval" and entry["diagnostics"] == []
    looked_at = dict(entry["deps"])
    assert looked_at[str(repo / "evals" / "judge.md")] == deps.signature(str(repo / "evals" / "judge.md"))
    assert looked_at[str(repo / "evals" / "s.jsonl")] is None  # absent: a dataset appearing changes the result
    (repo / "evals" / "s.yaml").write_text(SUITE.replace("id: a", "id: 1"))
    run(repo)
    assert len(rows()) == 1  # the file's row is replaced


def test_a_file_that_changes_after_the_lint_read_it_leaves_no_lasting_row(repo, lint_calls, monkeypatch):
    """The targets file changes while the suite is linted, right after the lint read it: the row keeps
    the signature taken before the read, so the next run lints the suite against the file as it is."""
    import evallint.rules.targets_file as targets_file

    (repo / "evals" / "s.yaml").write_text("execution: {target: t}\n" + SUITE)
    (repo / ".agentv").mkdir()
    targets = repo / ".agentv" / "targets.yaml"
    targets.write_text("targets:\n  - name: t\n    provider: mock\n")
    real = targets_file.names_in

    def read_then_changed(*args):
        names = real(*args)
        if "other" not in targets.read_text():
            targets.write_text("targets:\n  - name: other\n    provider: mock\n")  # another size
        return names

    monkeypatch.setattr(targets_file, "names_in", read_then_changed)
    assert run(repo) == (0, "")  # linted against the file as it was read
    monkeypatch.setattr(targets_file, "names_in", real)
    expected = run(repo, "--no-cache")
    assert "EV409" in expected[1] and run(repo) == expected
    assert lint_calls.count("s.yaml") == 2  # linted again, not answered from the row (--no-cache counts not)


@pytest.fixture
def clock(monkeypatch) -> list:
    """The time rows are marked used with, set by the test."""
    now = [1_700_000_000]
    monkeypatch.setattr(store, "now", lambda: now[0])
    return now


def kept() -> list:
    """(file name, version, configuration digest) of every row."""
    return sorted((os.path.basename(os.fsdecode(row[1])), row[3], row[4]) for row in rows())


def test_rows_unused_for_the_age_bound_are_evicted(repo, clock, monkeypatch):
    """Rows of a deleted file, of another configuration and of another version are no longer used: the
    first run that writes a row once they are older than ``MAX_AGE`` deletes them."""
    (repo / "evals" / "t.yaml").write_text(SUITE)
    run(repo)
    run(repo, "--extend-select", "EV904")
    monkeypatch.setattr(cache_module, "__version__", "999.0")
    run(repo)
    monkeypatch.setattr(cache_module, "__version__", __version__)
    (repo / "evals" / "t.yaml").unlink()
    default = cache_module.context(Config())[1]
    assert len(kept()) == 6 and len({config for _, _, config in kept()}) == 2
    clock[0] += store.MAX_AGE - 10
    run(repo)  # s.yaml answered, and marked used: it was marked more than a day ago
    assert len(kept()) == 6
    clock[0] += 20
    (repo / "evals" / "s.yaml").write_text(SUITE.replace("id: a", "id: b"))
    run(repo)
    assert kept() == [("s.yaml", __version__, default)]


def test_only_the_most_recently_used_rows_are_kept(repo, clock, monkeypatch):
    monkeypatch.setattr(store, "MAX_ROWS", 2)
    run(repo)
    clock[0] += 1
    for name in ("a.yaml", "b.yaml"):
        (repo / "evals" / name).write_text(SUITE)
    run(repo)
    assert [name for name, _, _ in kept()] == ["a.yaml", "b.yaml"]


def test_a_full_database_is_halved_and_stays_whole(repo, lint_calls, monkeypatch):
    """Past ``MAX_FILE_BYTES`` a write fails and is rolled back: the run reports as without the cache,
    then deletes the older half of the rows, and the next runs fill the room it made."""
    monkeypatch.setattr(store, "MAX_FILE_BYTES", 12 * 4096)
    monkeypatch.setattr(store, "BATCH", 4)
    for n in range(60):
        (repo / "evals" / f"t{n:02}.yaml").write_text(SUITE.replace("id: a", "id: 1"))
    expected = run(repo, "--no-cache")
    assert run(repo) == expected
    first = len(rows())
    assert 0 < first < 61 and len(lint_calls) == 61
    for _ in range(3):
        assert run(repo) == expected
    assert 0 < len(rows()) < 61
    monkeypatch.setattr(store, "MAX_FILE_BYTES", 512 * 1024 * 1024)
    lint_calls.clear()
    assert run(repo) == run(repo) == expected and len(rows()) == 61 and len(lint_calls) < 61
