"""Run records (``evallint/snapshot.py``): an unchanged tree's re-lint is given from one record, any
change goes back to the packs, and a damaged record is never trusted."""
from __future__ import annotations

import io
import os
import re
import shutil
import time

import pytest

import evallint.cache as cache_module
import evallint.snapshot as snapshot
from conftest import FIXTURES
from test_cache import CASE  # an eval file whose prompt and notes resolve: no findings
from evallint.cli import main

BROKEN = "evalcases:\n  - id: b\n    expected_outcome: g\n    input: hi\n    evaluators: [{type: rubric, weight: -1}]\n"


def run(repo, *argv, fmt="concise"):
    out = io.StringIO()
    code = main(["--format", fmt, *argv, str(repo)], stdout=out, stderr=io.StringIO())
    return code, out.getvalue()


@pytest.fixture
def repo(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "s.yaml").write_text(CASE)
    (tmp_path / "evals" / "t.yaml").write_text(BROKEN)
    (tmp_path / "evals" / "notes.md").write_text("Some notes.\n")
    (tmp_path / "evals" / "judge.md").write_text("Grade {{ candidate_answer }}.\n")
    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)  # everything counts as long untouched
    return tmp_path


@pytest.fixture
def work(monkeypatch):
    """What a run did besides reading its record: files linted, packs read, folders listed."""
    import evallint.lint as lint

    done = {"linted": [], "packs": 0, "scans": 0}
    real_lint, real_read, real_scan = lint.lint_bytes, cache_module.Pack.read, os.scandir

    def linting(data, path, *args, **kwargs):
        done["linted"].append(os.path.basename(path))
        return real_lint(data, path, *args, **kwargs)

    def reading(path):
        done["packs"] += 1
        return real_read(path)

    def scanning(path="."):
        done["scans"] += 1
        return real_scan(path)

    monkeypatch.setattr(lint, "lint_bytes", linting)
    monkeypatch.setattr(cache_module.Pack, "read", staticmethod(reading))
    monkeypatch.setattr(os, "scandir", scanning)

    def clear():
        done.update(linted=[], packs=0, scans=0)

    done["clear"] = clear
    return done


def records(repo):
    return sorted((repo / ".evallint_cache" / snapshot.FOLDER).glob("*.run"))


def headers(data: bytes) -> list:
    """[(offset, end, kind, count, size)] of each chunk's header line in a record."""
    at = data.index(b"\0", data.index(b"\0", data.index(b"\0") + 1) + 1) + 1  # past MAGIC, FORMAT and key
    out = []
    while at < len(data):
        end = data.index(b"\n", at)
        kind, count, size = data[at:end].split(b" ")
        out.append((at, end, kind, int(count), int(size)))
        at = end + 1 + int(size)
    return out


def rechunked(data: bytes, kind: bytes, change) -> bytes:
    """The record with the header of its first ``kind`` chunk changed: ``change(kind, count, size)``."""
    at, end, found, count, size = next(h for h in headers(data) if h[2] == kind)
    header = b" ".join(str(x).encode() if isinstance(x, int) else x for x in change(found, count, size))
    return data[:at] + header + data[end:]


def changed(data: bytes, old: bytes, new: bytes) -> bytes:
    assert old in data
    return data.replace(old, new, 1)


def later():
    time.sleep(0.05)  # past the file system's timestamp tick


def test_an_unchanged_tree_is_given_from_its_record(repo, work):
    first = run(repo)
    assert first[0] == 1 and f"{repo / 'evals' / 't.yaml'}:5:" in first[1]
    assert len(records(repo)) == 1 and sorted(work["linted"]) == ["s.yaml", "t.yaml"]
    work["clear"]()
    assert run(repo) == first
    assert work == {**work, "linted": [], "packs": 0, "scans": 0}  # no lint, no pack, no walk


@pytest.mark.parametrize("chunk", [1, 2, 3])
def test_a_record_in_many_chunks_is_read_whole(repo, work, monkeypatch, chunk):
    """Entries go to the record in chunks of at most CHUNK of a kind; the results come back in order
    across chunks, and a change to a signature in any chunk is seen."""
    monkeypatch.setattr(snapshot, "CHUNK", chunk)
    for n in range(5):
        (repo / "evals" / f"c{n}.yaml").write_text(CASE if n % 2 else BROKEN)
    first = run(repo)
    (record,) = records(repo)
    kinds = [h[2] for h in headers(record.read_bytes())]
    assert kinds.count(b"r") == -(-7 // chunk) and kinds[-1] == b"e"  # 7 results
    work["clear"]()
    assert run(repo) == first and work["linted"] == [] and work["packs"] == 0
    later()
    (repo / "evals" / "notes.md").write_text("Other notes.\n")
    assert run(repo) == first and work["packs"] > 0


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif", "concise"])
def test_a_replayed_run_prints_what_the_run_printed(fmt, tmp_path, monkeypatch):
    """Every output format, snippets and secret masking included, on the fixture tree (every kind of
    file, findings of every family)."""
    monkeypatch.setattr(cache_module, "SETTLED_NS", 0)
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES, tree)
    (tree / ".git").mkdir()
    uncached = run(tree, "--no-cache", "-j1", fmt=fmt)
    assert run(tree, "-j1", fmt=fmt) == uncached  # writes the record
    assert records(tree)
    assert run(tree, "-j1", fmt=fmt) == uncached  # given from it


def test_a_record_is_written_by_an_all_cores_run_too(repo, work):
    """Results linted by the pool's workers carry their cache entries back: the record vouches for them."""
    from evallint.runner import POOL_THRESHOLD

    for n in range(POOL_THRESHOLD + 8):
        (repo / "evals" / f"c{n:02}.yaml").write_text(CASE if n % 2 else BROKEN)
    first = run(repo, "-j2")
    assert records(repo)
    work["clear"]()
    assert run(repo, "-j1") == first and work["linted"] == [] and work["scans"] == 0


def test_no_record_while_files_are_recent(repo, monkeypatch):
    monkeypatch.setattr(cache_module, "SETTLED_NS", 10 * 10**9)  # everything was just written
    run(repo)
    run(repo)
    assert records(repo) == []
    assert not any(p.name.startswith(".tmp-") for p in (repo / ".evallint_cache" / snapshot.FOLDER).iterdir())


def test_a_file_that_was_not_cached_drops_the_record(repo, monkeypatch):
    """An unreadable file's result is never cached, so no record can vouch for the run."""
    (repo / "evals" / "u.yaml").symlink_to(repo / "evals" / "gone.yaml")
    code, out = run(repo)
    assert "EV009" in out and records(repo) == []


def change_content(repo):
    (repo / "evals" / "s.yaml").write_text(CASE.replace("id: a", "id: A"))  # same size


def delete_prompt(repo):
    (repo / "evals" / "judge.md").unlink()


def add_file(repo):
    (repo / "evals" / "u.yaml").write_text("evalcases: 3\n")


def add_folder(repo):
    (repo / "evals" / "sub").mkdir()
    (repo / "evals" / "sub" / "u.yaml").write_text("evalcases: 3\n")


def edit_gitignore(repo):
    (repo / ".gitignore").write_text("t.yaml\n")


def touch_root(repo):
    (repo / "README.md").write_text("a file beside .git: the folder the repository root search stops at\n")


@pytest.mark.parametrize("change", [change_content, delete_prompt, add_file, add_folder, touch_root])
def test_any_change_goes_back_to_the_packs(repo, work, change):
    run(repo)
    later()
    change(repo)
    expected = run(repo, "--no-cache")
    work["clear"]()
    assert run(repo) == expected and work["packs"] > 0


def test_a_gitignore_edited_in_place_is_seen(repo, work):
    """Editing a .gitignore leaves its folder's stat alone: the record holds the file's own."""
    (repo / ".gitignore").write_text("# nothing\n")
    run(repo)
    later()
    edit_gitignore(repo)
    work["clear"]()
    code, out = run(repo)
    assert "t.yaml" not in out and work["packs"] > 0


def test_other_options_paths_or_versions_use_other_records(repo, work, monkeypatch):
    run(repo)
    work["clear"]()
    assert run(repo, "--ignore", "EV3")[0] == 0 and work["packs"] > 0  # another configuration
    work["clear"]()
    run(repo / "evals")  # other paths
    assert work["packs"] > 0 and len(records(repo)) == 3
    monkeypatch.setattr(cache_module, "__version__", "0.0.0-other")
    work["clear"]()
    run(repo)
    assert work["packs"] > 0 and len(records(repo)) == 4


def test_at_most_keep_records_and_no_stale_temp_files(repo, monkeypatch):
    monkeypatch.setattr(snapshot, "KEEP", 2)
    folder = repo / ".evallint_cache" / snapshot.FOLDER
    folder.mkdir(parents=True)
    stale = folder / ".tmp-killed.tmp"
    stale.write_bytes(b"evallint-run\0")
    os.utime(stale, ns=(0, 0))
    fresh = folder / ".tmp-running.tmp"
    fresh.write_bytes(b"evallint-run\0")  # another process is writing it
    for select in ("EV1", "EV2", "EV3"):
        run(repo, "--select", select)
        later()
    assert len(records(repo)) == 2 and not stale.exists() and fresh.exists()


@pytest.mark.parametrize("damage", [
    lambda data: data[:len(data) // 2],  # truncated
    lambda data: data[:-3],  # no end
    lambda data: b"",
    lambda data: b"\xff\xfe garbage",
    lambda data: data.replace(b"evallint-run", b"evallint-xyz", 1),
    lambda data: rechunked(data, b"r", lambda kind, count, size: (b"q", count, size)),  # unknown chunk
    lambda data: rechunked(data, b"r", lambda kind, count, size: (kind, count + 1, size)),  # fields missing
    lambda data: rechunked(data, b"s", lambda kind, count, size: (kind, count, size - 1)),  # one byte short
    lambda data: rechunked(data, b"f", lambda kind, count, size: (kind, count, b"%d " % size)),  # a bad header
    lambda data: changed(data, b"\x0000\x00eval", b"\x0002\x00eval"),  # a flag neither 0 nor 1
    lambda data: changed(data, b"[[", b"[{"),  # diagnostics that do not load
    lambda data: changed(data, b"\0eval\0", b"\0evil\0"),  # unknown kind
    lambda data: rechunked(data, b"e", lambda kind, count, size: (kind, count + 1, size)),  # wrong count
    lambda data: data + b"s 1 3\n/\0-",  # chunks after the end
])
def test_a_damaged_record_is_not_trusted(repo, work, damage):
    first = run(repo)
    (record,) = records(repo)
    record.write_bytes(damage(record.read_bytes()))
    work["clear"]()
    assert run(repo) == first and work["packs"] > 0


def test_a_record_for_another_key_is_not_used(repo, work):
    first = run(repo)
    other = run(repo, "--ignore", "EV3")
    assert other != first
    a, b = records(repo)
    a.write_bytes(b.read_bytes())  # now both records hold the same key: one of them is in the wrong place
    work["clear"]()
    assert run(repo) == first and run(repo, "--ignore", "EV3") == other


def test_a_file_gone_after_the_check_is_linted_again(repo):
    """The signatures are checked before the first result is given; a file with findings that vanishes
    between the check and the reading of its snippets is linted as in any run."""
    from evallint.config import Config

    run(repo)
    old = os.getcwd()
    os.chdir(repo)
    try:
        place, key = snapshot.location(["evals"], Config(), None)
        run("evals")  # relative: the record of this working folder and these paths
        results = snapshot.replay(place, key, Config(), None)
        assert results is not None
        (repo / "evals" / "t.yaml").unlink()
        found = {r.path: [d.code for d in r.diagnostics] for r in results}
    finally:
        os.chdir(old)
    assert found == {os.path.join("evals", "s.yaml"): [], os.path.join("evals", "t.yaml"): ["EV009"]}


def test_the_folders_above_the_paths_are_in_the_record(repo, work):
    """Up to the folder holding .git, where the search for the repository root stops: a .git or an
    .agentv folder appearing there changes what the run would find."""
    first = run(repo / "evals")
    later()
    (repo / ".agentv").mkdir()
    work["clear"]()
    assert run(repo / "evals") == first and work["packs"] > 0


def test_nothing_above_a_repository_root_is_in_the_record(repo, monkeypatch):
    """Linting the folder that holds .git: a change in the folders above it (a home folder, /tmp) does
    not matter, and must not keep the record from being written or used."""
    seen = []
    real = snapshot.Recorder.folder

    def noting(self, path, sig):
        seen.append(path)
        return real(self, path, sig)

    monkeypatch.setattr(snapshot.Recorder, "folder", noting)
    run(repo)
    assert str(repo.parent) not in seen and str(repo) in seen
    seen.clear()
    run(repo / "evals")
    assert seen[0] == str(repo) and str(repo.parent) not in seen


def test_a_record_s_fields_are_the_cache_s_signatures(tmp_path):
    """The record check formats a path's stat itself: the same numbers as ``deps.signature`` and
    ``cache.file_stat``, for a file, a folder, a link and a missing path."""
    (tmp_path / "f.yaml").write_text("a: 1\n")
    (tmp_path / "d").mkdir()
    (tmp_path / "l.yaml").symlink_to(tmp_path / "f.yaml")
    for name in ("f.yaml", "d", "l.yaml", "missing"):
        path = str(tmp_path / name)
        assert snapshot.stat_field(path) == snapshot._field(cache_module.signature(path)), name
        assert snapshot.file_field(path) == snapshot._field(cache_module.file_stat(path)), name
    assert snapshot.file_field(str(tmp_path / "d")) == snapshot.file_field(str(tmp_path / "l.yaml")) == b"-"


def test_a_damaged_result_in_a_record_is_refused_before_anything_is_given():
    with pytest.raises(ValueError):
        snapshot._checked_results([b"a.yaml", b"2", b"eval", b""], 1)
    with pytest.raises(ValueError):
        snapshot._checked_results([b"a.yaml", b"1", b"evaluation", b""], 1)
    with pytest.raises(ValueError):
        snapshot._checked_results([b"a.yaml", b"0", b"eval", b"[{not json"], 1)
    with pytest.raises(ValueError):
        snapshot._checked_results([b"a.yaml", b"b.yaml", b"01", b"eval", b"eval", b""], 2)  # a field short
    # a file of no kind, named nowhere: fine
    assert snapshot._checked_results([b"a.yaml", b"b.yaml", b"01", b"", b"eval", b"", b""], 2) == [None, None]
