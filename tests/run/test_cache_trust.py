"""The result cache trusts only rows this user's evallint wrote, and opens its files as evallint opens
any file: a forged, copied, hand-edited or damaged cache is a miss, and the run still lints and reports."""
from __future__ import annotations

import io
import json
import os
import sqlite3
import stat

import pytest
from cachedb import database, rows

from evallint.cli import main
from evallint.diagnostics import Diagnostic, Severity
from evallint.report.result import FileResult
from evallint.run import cache as cache_module
from evallint.run import cachefiles
from evallint.run.cachekey import KEY_BYTES, is_sealed, seal

GOOD = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: hi\n"
BROKEN = "evalcases:\n  - id: a\n    input: hi\n"  # no expected_outcome: EV106
BROKEN_OUT = "evals/s.yaml:2:5: EV106"


def run(repo, *argv) -> tuple:
    out = io.StringIO()
    code = main(["--format", "concise", "--quiet", "-j1", *argv, str(repo)], stdout=out, stderr=io.StringIO())
    return code, [line.split(" [")[0].replace(str(repo) + os.sep, "") for line in out.getvalue().splitlines()]


def run_process(bounded, repo) -> tuple:
    """``run`` in a process of its own under a memory limit, with a hang guard."""
    proc = bounded.run("--format", "concise", "--quiet", "-j1", ".", cwd=repo)
    return proc.returncode, [line.split(" [")[0] for line in proc.stdout.splitlines()], proc.stderr


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "evals").mkdir()
    (repo / "evals" / "s.yaml").write_text(BROKEN)
    return repo


def key_of(user_cache_home) -> bytes:
    return (user_cache_home / "evallint" / "key").read_bytes()


def rewrite(repo, key: bytes, entry: str = None, content: str = None, stat: str = None) -> None:
    """Change every row's entry, content or stat (else none) and seal it with ``key``, as a forger holding
    it would."""
    with sqlite3.connect(database(repo)) as connection:
        for file, old_content, _, old_entry, _ in rows(repo):
            row = (file, content or old_content, stat, entry or old_entry)
            connection.execute("UPDATE results SET content = ?, stat = ?, entry = ?, mac = ? WHERE file = ?",
                               (row[1], row[2], row[3], seal(key, row), file))


def forge_clean_result(repo, key: bytes) -> None:
    """A row, sealed with ``key``, that says the broken file has no problems: made from a run over a
    clean file whose row is then pointed at the broken file's bytes."""
    (repo / "evals" / "s.yaml").write_text(GOOD)
    assert run(repo) == (0, [])
    rewrite(repo, key, content=cache_module.content_key(BROKEN.encode()))
    (repo / "evals" / "s.yaml").write_text(BROKEN)


def test_the_key_is_made_once_outside_the_repository_private_to_the_user(repo, user_cache_home):
    run(repo)
    path = user_cache_home / "evallint" / "key"
    key = path.read_bytes()
    assert len(key) == KEY_BYTES and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert os.listdir(path.parent) == ["key"]  # the temporary file it was written under is gone
    (_, _, _, _, mac), = rows(repo)
    assert len(mac) == 64
    run(repo)
    assert path.read_bytes() == key


def test_a_relative_xdg_cache_home_is_ignored(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    run(repo)
    assert len((tmp_path / "home" / ".cache" / "evallint" / "key").read_bytes()) == KEY_BYTES


def test_a_row_sealed_with_this_users_key_is_trusted(repo, user_cache_home):
    """The forgery the next tests use works against the user whose key made it."""
    run(repo)
    forge_clean_result(repo, key_of(user_cache_home))
    assert run(repo) == (0, [])


def test_a_cache_made_with_another_key_is_a_miss(repo, user_cache_home, tmp_path, monkeypatch):
    """A cache committed to the repository (made on the forger's machine) hides nothing on a fresh clone."""
    run(repo)
    forge_clean_result(repo, key_of(user_cache_home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "ci-user-cache"))
    assert run(repo) == (1, [BROKEN_OUT])
    assert run(repo) == (1, [BROKEN_OUT])  # the forged row was replaced by this user's own
    (file, content, _, entry, mac), = rows(repo)
    assert mac == seal(key_of(tmp_path / "ci-user-cache"), (file, content, rows(repo)[0][2], entry))


def test_a_row_edited_by_hand_is_a_miss(repo):
    assert run(repo) == (1, [BROKEN_OUT])
    with sqlite3.connect(database(repo)) as connection:
        connection.execute("UPDATE results SET entry = ?", ('{"kind":"eval","diagnostics":[],"lines":[],"deps":[]}',))
    assert run(repo) == (1, [BROKEN_OUT])


def test_a_sealed_row_holding_a_nul_is_a_miss(repo, user_cache_home):
    """Fields are sealed joined by NUL: a row with one in a field could stand for another row."""
    run(repo)
    forge_clean_result(repo, key_of(user_cache_home))
    rewrite(repo, key_of(user_cache_home), stat="[0,0,0,0,0]\0")
    assert run(repo) == (1, [BROKEN_OUT])


@pytest.mark.parametrize("mac", ["", "0" * 64, "é" * 64, "0" * 65])
def test_a_row_with_a_wrong_seal_is_a_miss(repo, user_cache_home, mac):
    run(repo)
    forge_clean_result(repo, key_of(user_cache_home))
    with sqlite3.connect(database(repo)) as connection:
        connection.execute("UPDATE results SET mac = ?", (mac,))
    assert run(repo) == (1, [BROKEN_OUT])


@pytest.mark.parametrize("damage", ["link", "wrong size", "readable by others", "folder"])
def test_a_key_file_that_cannot_be_trusted_is_replaced(repo, user_cache_home, tmp_path, damage):
    run(repo)
    forge_clean_result(repo, key_of(user_cache_home))
    path = user_cache_home / "evallint" / "key"
    old = path.read_bytes()
    if damage == "link":  # to a key the forger knows
        (tmp_path / "known").write_bytes(old)
        os.chmod(tmp_path / "known", 0o600)
        path.unlink()
        path.symlink_to(tmp_path / "known")
    elif damage == "wrong size":
        path.write_bytes(old + b"x")
    elif damage == "readable by others":
        os.chmod(path, 0o644)
    else:
        path.unlink()
        path.mkdir()
    if damage == "folder":  # cannot be replaced: the run is uncached
        assert run(repo) == (1, [BROKEN_OUT]) and path.is_dir()
        return
    assert run(repo) == (1, [BROKEN_OUT])
    assert not path.is_symlink() and len(path.read_bytes()) == KEY_BYTES and path.read_bytes() != old
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_no_user_cache_folder_runs_uncached(repo, tmp_path, monkeypatch):
    (tmp_path / "a file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a file"))
    assert run(repo) == (1, [BROKEN_OUT])
    assert not (repo / ".evallint_cache").exists()


def test_deeply_nested_json_in_a_sealed_row_is_a_miss(repo, user_cache_home):
    run(repo)
    rewrite(repo, key_of(user_cache_home), entry="[" * 100_000 + "]" * 100_000)
    assert run(repo) == (1, [BROKEN_OUT])
    assert json.loads(rows(repo)[0][3])["kind"] == "eval"  # replaced


@pytest.mark.parametrize("dumped", [
    ["EV106", "error", "m", "2", 5, 2, 7, "", None, None],  # a line that is no number
    ["EV106", "error", "m", 2, 5, 2, 7, "", None, [[[0, 1]], "d", True]],  # an edit without its text
    ["EV106", "fatal", "m", 2, 5, 2, 7, "", None, None],
])
def test_a_sealed_row_of_values_this_cache_never_writes_is_a_miss(repo, user_cache_home, dumped):
    run(repo)
    rewrite(repo, key_of(user_cache_home), entry=json.dumps({"kind": "eval", "diagnostics": [dumped], "lines": [],
                                                                  "deps": []}))
    assert run(repo) == (1, [BROKEN_OUT])


def test_a_result_too_large_to_keep_makes_no_row():
    big = Diagnostic("EV106", Severity.ERROR, "x" * cache_module.MAX_ENTRY, "s.yaml", 1, 1, 1, 2)
    assert cache_module.make_row("k", "c", None, FileResult("s.yaml", "eval", [big]), set()) is None
    small = Diagnostic("EV106", Severity.ERROR, "x", "s.yaml", 1, 1, 1, 2)
    assert cache_module.make_row("k", "c", None, FileResult("s.yaml", "eval", [small]), set())[0] == "k"


@pytest.mark.parametrize("companion", ["", "-wal", "-shm"])
@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "link to a database", "over the size cap"])
def test_a_cache_file_that_is_no_plain_file_is_a_miss(bounded, repo, tmp_path, companion, kind):
    """The database or a file SQLite keeps beside it: a FIFO would hang the run, a link to /dev/zero
    grow it without end. Each run is in a process of its own, under a memory limit and a timeout."""
    assert run_process(bounded, repo) == (1, [BROKEN_OUT], "")
    path = str(database(repo)) + companion
    if companion == "":
        os.unlink(path)
    target = tmp_path / "elsewhere.sqlite3"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to /dev/zero":
        os.symlink("/dev/zero", path)
    elif kind == "link to a database":
        sqlite3.connect(target).close()
        os.symlink(target, path)
    else:
        with open(path, "wb") as fh:
            fh.truncate(cachefiles.MAX_FILE_BYTES + 1)  # sparse: no disk space taken
    assert run_process(bounded, repo) == (1, [BROKEN_OUT], "")
    assert os.path.lexists(path)
    if kind == "link to a database":
        assert target.stat().st_size == 0  # nothing was written through the link


def test_a_default_cache_folder_that_is_a_link_is_not_used(repo, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / ".evallint_cache").symlink_to(elsewhere)
    assert run(repo) == (1, [BROKEN_OUT])
    assert os.listdir(elsewhere) == []


def test_a_cache_dir_named_on_the_command_line_may_be_a_link(repo, tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert run(repo, "--cache-dir", str(tmp_path / "link")) == (1, [BROKEN_OUT])
    assert (tmp_path / "real" / cache_module.DATABASE).exists()


def test_a_database_with_a_planted_trigger_is_not_used(repo):
    run(repo)
    with sqlite3.connect(database(repo)) as connection:
        connection.execute("CREATE TABLE seen (file TEXT)")
        connection.execute("CREATE TRIGGER spy AFTER INSERT ON results BEGIN INSERT INTO seen VALUES (new.file); END")
        connection.execute("DELETE FROM results")
    assert run(repo) == (1, [BROKEN_OUT])
    with sqlite3.connect(database(repo)) as connection:
        assert connection.execute("SELECT count(*) FROM seen").fetchone() == (0,)


def test_a_seal_tells_a_missing_stat_from_an_empty_one():
    key = b"k" * KEY_BYTES
    row = ("a" * 32, "b" * 32, None, "{}")
    assert is_sealed(key, row, seal(key, row))
    assert not is_sealed(key, (row[0], row[1], "", row[3]), seal(key, row))
