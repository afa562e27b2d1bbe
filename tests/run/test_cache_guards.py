"""Where the result cache may live, and the guards on opening it: a cache folder inside a repository being
linted is refused, and a folder or database that is not this user's own, plain and whole is not opened.
Either way the run lints and reports as without the cache, and says why once."""
from __future__ import annotations

import io
import os
import sqlite3

import pytest
from cachedb import database, folder, rows

from evallint.cli import main
from evallint.run import cache as cache_module
from evallint.run import cachestore

GOOD = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: hi\n"
BROKEN = "evalcases:\n  - id: a\n    input: hi\n"  # no expected_outcome: EV106
BROKEN_OUT = "evals/s.yaml:2:5: EV106"


def run(repo, *argv) -> tuple:
    """(exit code, the findings without their messages, what was said on standard error)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(["--format", "concise", "--quiet", "-j1", *argv, str(repo)], stdout=out, stderr=err)
    return (code, [line.split(" [")[0].replace(str(repo) + os.sep, "") for line in out.getvalue().splitlines()],
            err.getvalue())


def run_process(bounded, repo, file_size: int = 0) -> tuple:
    """``run`` in a process of its own under a memory limit (``bounded``) and a hang guard; with ``file_size``,
    writes past that many bytes fail as on a full disk."""
    proc = bounded.run("--format", "concise", "--quiet", "-j1", ".", cwd=repo, file_size=file_size)
    return proc.returncode, [line.split(" [")[0] for line in proc.stdout.splitlines()], proc.stderr


def refused(why: str) -> str:
    return f"evallint: not using the cache: {why}\n"


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "evals").mkdir()
    (repo / "evals" / "s.yaml").write_text(BROKEN)
    return repo


def forge_clean_row(repo, cache_dir) -> None:
    """A database in ``cache_dir`` whose row says the broken file has no problems: made by a run over a
    clean file, its row then pointed at the broken file's bytes."""
    import shutil

    made = repo.parent / "forger"
    (repo / "evals" / "s.yaml").write_text(GOOD)
    assert run(repo, "--cache-dir", str(made)) == (0, [], "")
    with sqlite3.connect(made / cachestore.DATABASE) as connection:
        connection.execute("UPDATE results SET content = ?, stat = NULL", (cache_module.content_key(BROKEN.encode()),))
    (repo / "evals" / "s.yaml").write_text(BROKEN)
    if cache_dir != made:
        shutil.copytree(made, cache_dir)


def test_a_forged_row_in_the_users_own_cache_would_be_believed(repo, tmp_path):
    """What the next tests refuse works when the database is outside the repository."""
    forge_clean_row(repo, tmp_path / "forger")
    assert run(repo, "--cache-dir", str(tmp_path / "forger")) == (0, [], "")


@pytest.mark.parametrize("how", ["XDG_CACHE_HOME", "--cache-dir", "a link"])
def test_a_cache_folder_inside_the_repository_being_linted_is_refused(repo, tmp_path, monkeypatch, how):
    """A database committed to the repository, where XDG_CACHE_HOME or --cache-dir point (or a link
    that leads there), is never read: the run reports the broken file and says so once, whatever the
    number of files."""
    forge_clean_row(repo, repo / ".cache" / "evallint")
    for n in range(3):
        (repo / "evals" / f"t{n}.yaml").write_text(BROKEN)
    argv: tuple = ()
    shown = repo / ".cache" / "evallint"
    if how == "XDG_CACHE_HOME":
        monkeypatch.setenv("XDG_CACHE_HOME", str(repo / ".cache"))
    elif how == "--cache-dir":
        argv = ("--cache-dir", str(shown))
    else:
        (tmp_path / "link").symlink_to(repo / ".cache")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "link"))
        shown = tmp_path / "link" / "evallint"
    before = sorted(repo.rglob("*"))
    code, found, said = run(repo, *argv)
    assert (code, found[0], len(found)) == (1, BROKEN_OUT, 4)
    assert said == refused(f"its folder {shown} is inside {repo}, which is being linted")
    assert sorted(repo.rglob("*")) == before  # nothing written there either


def test_a_file_named_inside_the_repository_of_the_cache_is_refused_too(repo, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(repo / ".cache"))
    out, err = io.StringIO(), io.StringIO()
    assert main(["-q", str(repo / "evals" / "s.yaml")], stdout=out, stderr=err) == 1
    assert err.getvalue() == refused(f"its folder {repo / '.cache' / 'evallint'} is inside {repo}, which is being linted")


def test_a_cache_folder_beside_the_repository_is_used(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "repo-cache"))  # a name that starts like the root's
    assert run(repo) == run(repo) == (1, [BROKEN_OUT], "")
    assert len(rows()) == 1


def test_a_relative_xdg_cache_home_is_ignored_as_platformdirs_does(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert run(repo) == (1, [BROKEN_OUT], "")
    assert (tmp_path / "home" / ".cache" / "evallint" / cachestore.DATABASE).is_file()


def test_the_folder_is_made_private(repo):
    run(repo)
    assert oct(folder().stat().st_mode & 0o777) == "0o700"


@pytest.mark.parametrize("mode", [0o777, 0o702])
def test_a_cache_folder_others_can_write_is_not_used(repo, mode):
    folder().mkdir(parents=True)
    os.chmod(folder(), mode)
    assert run(repo) == (1, [BROKEN_OUT], refused(f"{folder()} can be written by other users"))
    assert os.listdir(folder()) == []


def test_a_database_others_can_write_is_not_used(repo):
    run(repo)
    os.chmod(database(), 0o666)
    assert run(repo) == (1, [BROKEN_OUT], refused(f"{database()} can be written by other users"))


def test_a_cache_folder_that_is_a_file_is_not_used(repo, tmp_path):
    (tmp_path / "a file").write_text("not a folder")
    assert run(repo, "--cache-dir", str(tmp_path / "a file")) == (
        1, [BROKEN_OUT], refused(f"cannot make the folder {tmp_path / 'a file'}: File exists"))


@pytest.mark.parametrize("content", [b"not a database at all" * 10, b"SQLite format 3\x00" + b"\xff" * 200])
def test_a_damaged_database_is_not_used(repo, content):
    run(repo)
    database().write_bytes(content)
    code, found, said = run(repo)
    assert (code, found) == (1, [BROKEN_OUT])
    assert said.startswith(refused(f"cannot use {database()}: ")[:-1]) and said.count("\n") == 1


def test_an_empty_database_file_is_given_the_table(repo):
    run(repo)
    database().write_bytes(b"")
    assert run(repo) == run(repo) == (1, [BROKEN_OUT], "") and len(rows()) == 1


def test_a_database_whose_table_of_that_name_is_another_is_not_used(repo):
    run(repo)
    with sqlite3.connect(database()) as connection:
        connection.execute("DROP TABLE results")
        connection.execute("CREATE TABLE results (x INTEGER)")
    assert run(repo) == (1, [BROKEN_OUT], refused(f"cannot use {database()}: it does not hold evallint's results table alone"))


def test_a_database_with_a_planted_trigger_is_not_used(repo):
    run(repo)
    with sqlite3.connect(database()) as connection:
        connection.execute("CREATE TABLE seen (file TEXT)")
        connection.execute("CREATE TRIGGER spy AFTER INSERT ON results BEGIN INSERT INTO seen VALUES (new.file); END")
        connection.execute("DELETE FROM results")
    assert run(repo) == (1, [BROKEN_OUT], refused(f"cannot use {database()}: it does not hold evallint's results table alone"))
    with sqlite3.connect(database()) as connection:
        assert connection.execute("SELECT count(*) FROM seen").fetchone() == (0,)


@pytest.mark.parametrize("companion", ["", "-wal", "-shm"])
@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "link to a database", "over the size cap"])
def test_a_cache_file_that_is_no_plain_file_is_not_opened(bounded, repo, tmp_path, companion, kind):
    """The database or a file SQLite keeps beside it: a FIFO would hang the run, a link to /dev/zero
    grow it without end. Each run is in a process of its own, under a memory limit and a timeout."""
    assert run_process(bounded, repo) == (1, [BROKEN_OUT], "")
    path = str(database()) + companion
    if companion == "":
        os.unlink(path)
    target = tmp_path / "elsewhere.sqlite3"
    if kind == "fifo":
        os.mkfifo(path, 0o600)
        why = f"{path} is not a regular file"
    elif kind == "link to /dev/zero":
        os.symlink("/dev/zero", path)
        why = f"{path} is a symbolic link"
    elif kind == "link to a database":
        sqlite3.connect(target).close()
        os.symlink(target, path)
        why = f"{path} is a symbolic link"
    else:
        with open(path, "wb") as fh:
            fh.truncate(cachestore.MAX_FILE_BYTES + 1)  # sparse: no disk space taken
        why = f"{path} is larger than 512 MB"
    assert run_process(bounded, repo) == (1, [BROKEN_OUT], refused(why))
    assert os.path.lexists(path)
    if kind == "link to a database":
        assert target.stat().st_size == 0  # nothing was written through the link


@pytest.mark.parametrize("limit", [5000, 34000])  # before the table is made; after, before the rows
def test_a_full_disk_leaves_a_database_the_next_run_uses(bounded, repo, limit):
    """Writes past a file size limit fail as on a full disk (before the table is made, or after): the
    run reports as without the cache, and what it leaves behind is whole, used and filled by the next
    run."""
    for n in range(40):
        (repo / "evals" / f"t{n:02}.yaml").write_text(BROKEN)
    expected = sorted([f"evals/t{n:02}.yaml:2:5: EV106" for n in range(40)] + [BROKEN_OUT])
    code, found, said = run_process(bounded, repo, file_size=limit)
    assert (code, found) == (1, expected)
    assert said in ("", refused(f"cannot use {database()}: disk I/O error"))
    assert run_process(bounded, repo) == run_process(bounded, repo) == (1, expected, "")
    assert len(rows()) == 41


def test_deeply_nested_json_in_a_row_is_a_miss(repo):
    run(repo)
    with sqlite3.connect(database()) as connection:
        connection.execute("UPDATE results SET entry = ?", ("[" * 100_000 + "]" * 100_000,))
    assert run(repo) == (1, [BROKEN_OUT], "")
    assert rows()[0][7].startswith('{"kind":"eval"')  # replaced


@pytest.mark.parametrize("dumped", [
    ["EV106", "error", "m", "2", 5, 2, 7, "", None, None],  # a line that is no number
    ["EV106", "error", "m", 2, 5, 2, 7, "", None, [[[0, 1]], "d", True]],  # an edit without its text
    ["EV106", "fatal", "m", 2, 5, 2, 7, "", None, None],
])
def test_a_row_of_values_this_cache_never_writes_is_a_miss(repo, dumped):
    import json

    run(repo)
    with sqlite3.connect(database()) as connection:
        connection.execute("UPDATE results SET entry = ?", (json.dumps({"kind": "eval", "diagnostics": [dumped],
                                                                        "lines": [], "deps": []}),))
    assert run(repo) == (1, [BROKEN_OUT], "")


def test_a_row_whose_mark_of_use_is_no_number_is_a_miss(repo):
    run(repo)
    with sqlite3.connect(database()) as connection:
        connection.execute("UPDATE results SET used = 'soon'")
    assert run(repo) == (1, [BROKEN_OUT], "")
    assert type(rows()[0][8]) is int  # replaced


def test_a_result_too_large_to_keep_makes_no_row():
    from evallint.diagnostics import Diagnostic, Severity
    from evallint.report.result import FileResult

    key = cache_module.file_key(("0.1.0", "c"), "/r/s.yaml", "/r", False)
    big = Diagnostic("EV106", Severity.ERROR, "x" * cache_module.MAX_ENTRY, "s.yaml", 1, 1, 1, 2)
    assert cache_module.make_row(key, "c", None, FileResult("s.yaml", "eval", [big]), {}) is None
    small = Diagnostic("EV106", Severity.ERROR, "x", "s.yaml", 1, 1, 1, 2)
    assert cache_module.make_row(key, "c", None, FileResult("s.yaml", "eval", [small]), {})[:2] == (b"/r", b"/r/s.yaml")


def test_a_file_whose_name_is_not_utf8_is_cached(repo, tmp_path):
    name = os.fsdecode(b"evals/\xff.yaml")
    with open(os.path.join(os.fsencode(repo), os.fsencode(name)), "w") as fh:
        fh.write(BROKEN)
    first = run(repo)
    assert first[0] == 1 and len(first[1]) == 2 and first[2] == ""
    assert run(repo) == first and os.fsencode(name) in {os.path.relpath(row[1], bytes(repo)) for row in rows()}
