"""The result cache: what invalidates it, and that it is never trusted blindly."""
from __future__ import annotations

import io
import os
import shutil

import pytest

import evallint.cache as cache_module
from conftest import FIXTURES
from evallint.cli import main
from evallint.config import Config
from evallint.lint import lint_file

CASE = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input:\n      - role: user\n"
        "        content: [{type: file, value: notes.md}]\n    evaluators:\n"
        "      - {name: j, type: llm_judge, prompt: judge.md}\n")


def run(repo, *argv):
    out = io.StringIO()
    code = main(["--format", "concise", "--quiet", "-j1", *argv, str(repo)], stdout=out, stderr=io.StringIO())
    return code, out.getvalue()


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "s.yaml").write_text(CASE)
    (tmp_path / "evals" / "notes.md").write_text("Some notes.\n")
    (tmp_path / "evals" / "judge.md").write_text("Grade {{ candidate_answer }}.\n")
    return tmp_path


@pytest.fixture
def lint_calls(monkeypatch):
    """How many files were really linted (not answered from the cache)."""
    import evallint.lint as lint

    calls = []
    real = lint.lint_bytes

    def counting(data, path, *args, **kwargs):
        calls.append(os.path.basename(path))
        return real(data, path, *args, **kwargs)

    monkeypatch.setattr(lint, "lint_bytes", counting)
    return calls


def test_unchanged_tree_is_answered_from_the_cache(repo, lint_calls):
    first = run(repo)
    assert lint_calls == ["s.yaml"]
    assert run(repo) == first and lint_calls == ["s.yaml"]
    assert (repo / ".evallint_cache" / ".gitignore").read_text().endswith("*\n")


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


def test_deleted_and_created_referenced_files_invalidate(repo, lint_calls):
    run(repo)
    (repo / "evals" / "notes.md").unlink()
    assert "EV401" in run(repo)[1]
    (repo / "notes.md").write_text("now found in an ancestor folder\n")
    assert run(repo) == (0, "") and len(lint_calls) == 3


def test_changed_configuration_invalidates(repo, lint_calls):
    run(repo)
    run(repo, "--extend-select", "EV904")
    assert len(lint_calls) == 2


def test_new_version_invalidates(repo, lint_calls, monkeypatch):
    run(repo)
    monkeypatch.setattr(cache_module, "__version__", "999.0")
    run(repo)
    assert len(lint_calls) == 2


def packs(repo):
    """The cache's files: one pack per folder (and configuration)."""
    return list((repo / ".evallint_cache").rglob("*.json"))


def entries(repo):
    """The packs that hold results (the others hold only folder listings)."""
    import json

    return [p for p in packs(repo) if json.loads(p.read_text())["files"]]


def entry_of(repo, name="s.yaml") -> dict:
    """The entry of one file, with its dependencies as a dict, read from the pack."""
    import json

    (pack,) = entries(repo)
    data = json.loads(pack.read_text())
    key, explicit, stat, kind, deps, diagnostics = data["files"][str(repo / "evals" / name)]
    return {"key": key, "explicit": explicit, "stat": stat, "kind": kind, "diagnostics": diagnostics,
            "deps": {data["deps"][i][0]: data["deps"][i][1] for i in deps}}


@pytest.mark.parametrize("content", ["", "{not json", '{"key": 5}', "[]", '{"key": null, "deps": 7}'])
def test_corrupt_entries_are_ignored(repo, lint_calls, content):
    expected = run(repo)
    for entry in entries(repo):
        entry.write_text(content)
    assert run(repo) == expected and len(lint_calls) == 2


def test_entry_written_by_another_process_for_other_content_is_not_trusted(repo, lint_calls):
    run(repo)
    (entry,) = entries(repo)
    stale = entry.read_text()
    (repo / "evals" / "s.yaml").write_text(CASE.replace("id: a", "id: 1"))
    run(repo)
    entry.write_text(stale)  # a concurrent writer left the older result behind
    assert "EV103" in run(repo)[1] and len(lint_calls) == 3


def test_unwritable_cache_is_not_fatal(repo, tmp_path_factory):
    blocker = tmp_path_factory.mktemp("c") / "file"
    blocker.write_text("not a folder")
    assert run(repo, "--cache-dir", str(blocker)) == (0, "")


def test_no_cache_writes_nothing(repo):
    run(repo, "--no-cache")
    assert not (repo / ".evallint_cache").exists()


def test_cache_dir_option(repo, tmp_path_factory):
    folder = tmp_path_factory.mktemp("cachedir")
    run(repo, "--cache-dir", str(folder))
    assert list(folder.rglob("*.json")) and not (repo / ".evallint_cache").exists()


def test_jobs_give_byte_identical_output(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "bad", tree / "bad")
    shutil.copytree(FIXTURES / "corpus", tree / "corpus")
    (tree / ".git").mkdir()
    outputs = []
    for jobs in ("1", "4"):
        for fmt in ("text", "json"):
            out = io.StringIO()
            main(["--no-cache", "--no-color", "--jobs", jobs, "--format", fmt, str(tree)], stdout=out,
                 stderr=io.StringIO())
            outputs.append(out.getvalue())
    assert outputs[0] == outputs[2] and outputs[1] == outputs[3]
    assert outputs[0].count("\n") > 500


def test_read_only_tree_runs_uncached(repo):
    os.chmod(repo, 0o555)
    try:
        assert run(repo) == (0, "")
        assert not (repo / ".evallint_cache").exists()
    finally:
        os.chmod(repo, 0o755)


def test_a_settled_unchanged_file_is_answered_without_reading_it(repo, lint_calls, monkeypatch):
    import evallint.source as source

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)  # every file counts as long untouched
    expected = run(repo)
    reads = []
    real = source.read_bytes
    monkeypatch.setattr(source, "read_bytes", lambda path, *a, **k: reads.append(os.path.basename(path)) or real(path, *a, **k))
    assert run(repo) == expected and lint_calls == ["s.yaml"]
    assert "s.yaml" not in reads


def test_a_settled_file_that_changes_is_linted_again(repo, lint_calls, monkeypatch):
    import time

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    run(repo)
    time.sleep(0.05)  # past the file system's timestamp tick
    (repo / "evals" / "s.yaml").write_text(CASE.replace("id: a", "id: 1"))  # same size
    assert "EV103" in run(repo)[1] and lint_calls == ["s.yaml", "s.yaml"]


def test_a_recently_written_file_is_always_read_and_hashed(repo):
    run(repo)
    assert entry_of(repo)["stat"] is None  # written within SETTLED_NS of the lint


def deps_of(repo) -> dict:
    return entry_of(repo)["deps"]


def test_missing_names_are_vouched_for_by_their_settled_folder(repo, lint_calls, monkeypatch):
    import time

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)  # every folder counts as long untouched
    (repo / "evals" / "notes.md").unlink()
    time.sleep(0.05)  # past the file system's timestamp tick
    assert "EV401" in run(repo)[1]
    deps = deps_of(repo)
    evals = str(repo / "evals")
    assert deps[evals] is not None and deps[str(repo / "evals" / "judge.md")] is not None
    assert not any(path.startswith(evals + os.sep) and sig is None for path, sig in deps.items())
    assert run(repo)[1] and lint_calls == ["s.yaml"]  # the folders vouch: answered from the cache
    time.sleep(0.05)
    (repo / "notes.md").write_text("found in an ancestor folder\n")
    assert run(repo) == (0, "") and lint_calls == ["s.yaml", "s.yaml"]


def test_a_file_in_a_new_folder_invalidates_what_missed_it(repo, lint_calls, monkeypatch):
    import time

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    (repo / "evals" / "s.yaml").write_text(CASE.replace("value: notes.md", "value: sub/notes.md"))
    time.sleep(0.05)
    assert "EV401" in run(repo)[1]
    assert str(repo / "evals" / "sub" / "notes.md") not in deps_of(repo)
    time.sleep(0.05)
    (repo / "evals" / "sub").mkdir()
    (repo / "evals" / "sub" / "notes.md").write_text("now here\n")
    assert run(repo) == (0, "") and lint_calls == ["s.yaml", "s.yaml"]


def test_a_recently_changed_folder_does_not_vouch(repo):
    (repo / "evals" / "notes.md").unlink()
    run(repo)
    deps = deps_of(repo)
    assert str(repo / "evals") not in deps and deps[str(repo / "evals" / "notes.md")] is None


def test_a_partly_cached_tree_gives_the_same_output_with_a_pool(tmp_path, monkeypatch):
    """Cached files are answered by the main process and the others linted by the pool, in chunks
    that interleave with them: the output is the same as one process gives."""
    import evallint.runner as runner

    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "bad", tree / "bad")
    (tree / ".git").mkdir()
    monkeypatch.setattr(runner, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(runner, "CHUNK", 3)
    monkeypatch.setattr(runner, "AHEAD", 1)  # the walk waits for the pool after two chunks in flight
    monkeypatch.setattr(runner, "HELD", 3)  # and when more than three results wait for an earlier one
    in_flight = []
    real_send = runner._Scheduler._send
    monkeypatch.setattr(runner._Scheduler, "_send", lambda self, spread=False: real_send(self, spread) or in_flight.append(len(self.futures)))

    def lint(jobs):
        out = io.StringIO()
        main(["--no-color", "--jobs", jobs, "--format", "json", str(tree)], stdout=out, stderr=io.StringIO())
        return out.getvalue()

    expected = lint("1")
    shutil.rmtree(tree / ".evallint_cache")
    paths = sorted(p for p in (tree / "bad").rglob("*.yaml"))
    for path in paths[::2]:  # half the files cached, half not
        main(["--quiet", "-j1", str(path)], stdout=io.StringIO(), stderr=io.StringIO())
    started = []
    real_pool = runner._pool
    monkeypatch.setattr(runner, "_pool", lambda *a: started.append(1) or real_pool(*a))
    items = [(str(p), False) for p in paths]
    results = list(runner.lint_many(iter(items), Config(), jobs=2, cache_dir=None, use_cache=True))
    assert [r.path for r in results] == [path for path, _ in items] and started == [1]  # in input order
    # memory stays flat: the walk waits for the pool once more than two chunks are in flight (the last
    # files, fewer than a chunk, go out in one chunk per worker: two more at most)
    assert len(in_flight) > 3 and max(in_flight) <= 4
    shutil.rmtree(tree / ".evallint_cache")
    for path in paths[::2]:
        main(["--quiet", "-j1", str(path)], stdout=io.StringIO(), stderr=io.StringIO())
    assert lint("2") == expected and started == [1, 1]
    assert lint("2") == expected and started == [1, 1]  # all cached now: no pool


def test_the_pool_gets_one_chunk_per_worker_first_and_last(repo, monkeypatch):
    """The first batch (which starts the pool) and the files left when the walk ends go out in one
    chunk per worker, so that both workers start at once and finish together; the rest in chunks of
    ``CHUNK`` neighbouring files."""
    from concurrent.futures import Future

    import evallint.runner as runner

    for n in range(16):
        (repo / "evals" / f"s{n:02}.yaml").write_text(CASE)
    sizes = []

    class InProcess:
        def submit(self, work, chunk, listings):
            sizes.append(len(chunk))
            future = Future()
            future.set_result([(lint_file(path, Config(), explicit=explicit).slim(), None) for path, explicit in chunk])
            return future

        def shutdown(self, **kwargs):
            pass

    monkeypatch.setattr(runner, "_pool", lambda *args: InProcess())
    monkeypatch.setattr(runner, "POOL_THRESHOLD", 4)
    monkeypatch.setattr(runner, "CHUNK", 5)
    items = [(str(p), False) for p in sorted((repo / "evals").glob("*.yaml"))]
    results = list(runner.lint_many(iter(items), Config(), jobs=2, cache_dir=None, use_cache=False))
    assert [r.path for r in results] == [path for path, _ in items] and len(items) == 17
    assert sizes == [2, 2, 5, 5, 2, 1]  # 4 to start, two chunks of 5, the last 3 spread


def test_a_cached_run_does_not_start_a_pool(repo, monkeypatch):
    import evallint.runner as runner

    for n in range(40):
        (repo / "evals" / f"s{n}.yaml").write_text(CASE)
    first = run(repo)
    monkeypatch.setattr(runner, "_pool", lambda *a: pytest.fail("a pool was started"))
    out = io.StringIO()
    main(["--format", "concise", "--quiet", "-j2", str(repo)], stdout=out, stderr=io.StringIO())
    assert (0, out.getvalue()) == first


def test_a_file_answered_by_its_hash_gets_its_stat_once_settled(repo, lint_calls, monkeypatch):
    """A fresh checkout is read and hashed once, not on every run: the first run that answers a
    file by its hash, once the file has settled, records its stat, and the next one does not read it."""
    import evallint.source as source

    run(repo)  # within SETTLED_NS of the write: no stat recorded
    assert entry_of(repo)["stat"] is None
    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)  # now it has settled
    reads = []
    real = source.read_bytes
    monkeypatch.setattr(source, "read_bytes", lambda path, *a, **k: reads.append(os.path.basename(path)) or real(path, *a, **k))
    assert run(repo) == (0, "") and reads == ["s.yaml"] and lint_calls == ["s.yaml"]
    assert entry_of(repo)["stat"] is not None
    assert run(repo) == (0, "") and reads == ["s.yaml"] and lint_calls == ["s.yaml"]


def test_one_pack_per_folder_is_written_only_when_something_changed(repo):
    (repo / "evals" / "t.yaml").write_text(CASE)
    run(repo)
    (pack,) = entries(repo)
    assert entry_of(repo, "s.yaml")["kind"] == entry_of(repo, "t.yaml")["kind"] == "eval"
    before = pack.stat()
    run(repo)
    after = pack.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_packs_written_meanwhile_are_merged_not_overwritten(repo, lint_calls):
    """Two runs over different files of one repository, the second started before the first wrote its
    pack: both results are kept (under the pack's lock, the later writer merges what is on disk)."""
    from evallint import deps
    from evallint.cache import Cache
    from evallint.runner import lint_cached

    (repo / "evals" / "t.yaml").write_text(CASE)
    cache = Cache(Config())
    with deps.run_scope():
        lint_cached(str(repo / "evals" / "t.yaml"), True, Config(), cache)
    main(["--quiet", "-j1", str(repo / "evals" / "s.yaml")], stdout=io.StringIO(), stderr=io.StringIO())
    cache.close()  # written after the other run's pack
    assert entry_of(repo, "s.yaml")["explicit"] and entry_of(repo, "t.yaml")["explicit"]
    lint_calls.clear()
    for name in ("s.yaml", "t.yaml"):
        main(["--quiet", "-j1", str(repo / "evals" / name)], stdout=io.StringIO(), stderr=io.StringIO())
    assert lint_calls == []  # both answered from the merged pack


def test_entries_of_deleted_files_leave_the_pack_when_it_is_written(repo):
    (repo / "evals" / "t.yaml").write_text(CASE)
    run(repo)
    (repo / "evals" / "t.yaml").unlink()
    (repo / "evals" / "u.yaml").write_text(CASE)
    run(repo)
    import json

    (pack,) = entries(repo)
    assert sorted(os.path.basename(p) for p in json.loads(pack.read_text())["files"]) == ["s.yaml", "u.yaml"]


def test_packs_beyond_the_open_limit_are_written_as_they_leave(repo, lint_calls, monkeypatch):
    """Memory stays flat: a run holds at most OPEN_PACKS packs, writing the oldest when it opens another,
    and a folder met again (its files around a subfolder's) is read again, not lost."""
    monkeypatch.setattr(cache_module, "OPEN_PACKS", 1)
    monkeypatch.setattr(cache_module, "PACK_DEPTH", 9)  # a pack for each folder
    for folder in ("a", "a/m", "b"):
        (repo / "evals" / folder).mkdir()
    for name in ("a/k.yaml", "a/m/x.yaml", "a/z.yaml", "b/y.yaml"):  # a's files come around a/m's
        (repo / "evals" / name).write_text(CASE.replace("notes.md", "../notes.md").replace("judge.md", "../judge.md"))
    first = run(repo)
    assert len(entries(repo)) == 4 and len(lint_calls) == 5  # evals/, a/, a/m/, b/
    assert run(repo) == first and len(lint_calls) == 5


def test_folders_deep_below_the_root_share_their_ancestors_pack(repo, lint_calls):
    for folder in ("a", "a/m", "a/m/n", "b"):
        (repo / "evals" / folder).mkdir()
    for name in ("a/k.yaml", "a/m/x.yaml", "a/m/n/y.yaml", "b/y.yaml"):
        (repo / "evals" / name).write_text(CASE)
    first = run(repo)
    assert len(entries(repo)) == 3 and len(lint_calls) == 5  # evals/, evals/a/ (and below), evals/b/
    assert run(repo) == first and len(lint_calls) == 5


def listings(repo) -> dict:
    """Folder -> listing, from every pack."""
    import json

    out = {}
    for pack in packs(repo):
        out.update(json.loads(pack.read_text()).get("dirs", {}))
    return out


@pytest.fixture
def scans(monkeypatch):
    """The folders the walk listed (os.scandir), by name relative to nothing: absolute paths."""
    listed = []
    real = os.scandir

    def counting(path="."):
        listed.append(os.path.abspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", counting)
    return listed


@pytest.fixture
def packs_only(monkeypatch):
    """No run record is replayed (``snapshot``): a whole unchanged run would be answered from it, and
    these tests are about what the packs do."""
    import evallint.snapshot as snapshot

    monkeypatch.setattr(snapshot, "replay", lambda *args: None)


def test_a_settled_unchanged_folder_is_not_listed_again(repo, scans, monkeypatch, packs_only):
    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)  # every folder counts as long untouched
    first = run(repo)
    assert sorted(scans) == [str(repo), str(repo / "evals")]
    known = listings(repo)
    assert known[str(repo / "evals")][1:] == [[False, False, False], [["s.yaml", False]]]
    assert known[str(repo)][1:] == [[False, True, False], [["evals", True]]]
    scans.clear()
    assert run(repo) == first and scans == []


def test_a_recently_changed_folder_is_listed_on_every_run(repo, scans):
    run(repo)
    scans.clear()
    run(repo)
    assert sorted(scans) == [str(repo), str(repo / "evals")] and listings(repo) == {}


def test_a_file_added_to_a_listed_folder_is_linted(repo, monkeypatch):
    import time

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    assert run(repo) == (0, "")
    time.sleep(0.05)  # past the file system's timestamp tick
    (repo / "evals" / "t.yaml").write_text("evalcases: 3\n")
    code, out = run(repo)
    assert code == 1 and out.startswith(f"{repo / 'evals' / 't.yaml'}:1:")
    assert listings(repo)[str(repo / "evals")][2] == [["s.yaml", False], ["t.yaml", False]]


def test_a_new_subfolder_of_a_listed_folder_is_walked(repo, monkeypatch):
    import time

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    run(repo)
    time.sleep(0.05)
    (repo / "evals" / "sub").mkdir()
    (repo / "evals" / "sub" / "t.yaml").write_text("evalcases: 3\n")
    assert f"{repo / 'evals' / 'sub' / 't.yaml'}:1:" in run(repo)[1]


def test_gitignore_edits_apply_to_a_remembered_listing(repo, monkeypatch):
    """The listing is remembered, not what .gitignore made of it: editing a .gitignore (which leaves its
    folder's stat alone) takes effect at once."""
    import time

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    (repo / "evals" / "t.yaml").write_text("evalcases: 3\n")
    (repo / ".gitignore").write_text("t.yaml\n")
    time.sleep(0.05)
    assert run(repo) == (0, "")
    assert run(repo) == (0, "")  # the listing is now remembered
    (repo / ".gitignore").write_text("# nothing ignored\n")
    assert f"{repo / 'evals' / 't.yaml'}:1:" in run(repo)[1]


@pytest.mark.parametrize("listing", [
    [["..", True]], [["../../etc", True]], [["", False]], [["a/b.yaml", False]], [[3, False]], [["x.yaml", 1]],
    [["x.yaml"]], "entries", None,
])
def test_a_damaged_listing_is_not_trusted(repo, scans, monkeypatch, listing, packs_only):
    import json

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    first = run(repo)
    evals = str(repo / "evals")
    for pack in packs(repo):
        data = json.loads(pack.read_text())
        if evals in data.get("dirs", {}):
            data["dirs"][evals][2] = listing  # its stat still matches: only its shape tells
            pack.write_text(json.dumps(data))
    scans.clear()
    assert run(repo) == first and scans == [evals]


def test_listings_of_deleted_folders_leave_the_pack_when_it_is_written(repo, monkeypatch):
    import time

    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    (repo / "other").mkdir()
    (repo / "other" / "t.eval.yaml").write_text(CASE)
    time.sleep(0.05)
    run(repo)
    assert str(repo / "other") in listings(repo)
    shutil.rmtree(repo / "other")
    time.sleep(0.05)
    run(repo)  # the root changed: its listing is written again, and other's is dropped
    assert sorted(listings(repo)) == [str(repo), str(repo / "evals")]


def test_answers_from_the_packs_print_what_the_run_printed(tmp_path, monkeypatch, packs_only):
    """Snippets and secret masking included, on the fixture tree (files that are not UTF-8 text show no
    snippet, as when they were linted)."""
    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES, tree)
    (tree / ".git").mkdir()
    out = [io.StringIO() for _ in range(3)]
    for argv, stdout in zip((["--no-cache"], [], []), out):
        main(["-j1", *argv, str(tree)], stdout=stdout, stderr=io.StringIO())
    assert out[0].getvalue() == out[1].getvalue() == out[2].getvalue()
