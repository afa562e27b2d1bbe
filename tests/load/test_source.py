"""Reading files: ``opened`` and ``read_bytes`` for the files linted (each opened once by its lint),
``read_found`` for the files the EV4xx rules found by a stat (a prompt's variables, whether a script is
blank)."""
from __future__ import annotations

import json
import os
from collections import Counter

from clirun import run_concise

from evallint.diagnostics import Finding
from evallint.load.source import read_bytes, read_found


def test_read_found_reads_the_file_in_one_read_when_its_size_is_known(tmp_path, monkeypatch):
    path = tmp_path / "p.md"
    path.write_bytes(b"{{ candidate_answer }}\n")
    reads, stats = [], []
    real_read = os.read
    with monkeypatch.context() as patch:
        patch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
        for name in ("stat", "lstat", "fstat"):
            patch.setattr(os, name, lambda *a, name=name, **k: stats.append(name))
        data = read_found(str(path), 23, 1024)
    assert data == b"{{ candidate_answer }}\n"
    assert reads == [24] and stats == []  # one read asking one byte more than the size; no stat


def test_read_found_reads_on_when_the_file_changed_since_its_stat(tmp_path):
    path = tmp_path / "p.md"
    path.write_bytes(b"x" * 100)
    assert read_found(str(path), 10, 1024) == b"x" * 100  # grew: read to its end
    assert read_found(str(path), 500, 1024) == b"x" * 100  # shrank
    assert read_found(str(path), -1, 1024) == b"x" * 100  # size unknown


def test_read_found_gives_none_for_what_it_cannot_read_or_what_is_over_the_cap(tmp_path):
    path = tmp_path / "p.md"
    path.write_bytes(b"x" * 100)
    assert read_found(str(path), 100, 99) is None
    assert read_found(str(path), 100, 100) == b"x" * 100
    assert read_found(str(tmp_path / "missing.md"), 1, 100) is None
    assert read_found(str(tmp_path), 1, 100) is None  # a folder (swapped in after the stat)


def test_read_bytes_still_says_why_a_file_is_not_read(tmp_path):
    (tmp_path / "big.yaml").write_bytes(b"x" * 100)
    found = read_bytes(str(tmp_path / "big.yaml"), None, 99)
    assert isinstance(found, Finding) and found.code == "EV006" and "100 bytes" in found.message
    assert read_bytes(str(tmp_path / "big.yaml"), None, 100, head=True) == b"x" * 100
    assert read_bytes(str(tmp_path / "big.yaml"), None, 10, head=True) == b"x" * 10
    found = read_bytes(str(tmp_path), None, 100)
    assert isinstance(found, Finding) and found.code == "EV009" and "a directory" in found.message


def test_a_head_read_stops_at_the_end_of_the_first_line_with_content(tmp_path, monkeypatch):
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    rows = tmp_path / "rows.jsonl"
    rows.write_bytes(b'{"id": 1}\n' + b'{"eval_id": "x", "out": "' + b"y" * 200_000 + b'"}\n')
    assert read_bytes(str(rows), None, 65536, head=True) == rows.read_bytes()[:4096] and reads == [4096]
    reads.clear()
    long_first = tmp_path / "long.jsonl"
    long_first.write_bytes(b"\n \n" + b'{"a": "' + b"z" * 10_000 + b'"}\n{"b": 2}\n' + b"q" * 50_000)
    head = read_bytes(str(long_first), None, 65536, head=True)
    assert reads == [4096, 8192] and head == long_first.read_bytes()[:12288]  # blocks double until a line ends
    reads.clear()
    endless = tmp_path / "endless.jsonl"
    endless.write_bytes(b"x" * 100_000)
    assert read_bytes(str(endless), None, 65536, head=True) == b"x" * 65536  # the cap, never more
    assert reads == [4096, 8192, 16384, 32768, 4096]
    short = tmp_path / "short.jsonl"
    short.write_bytes(b'\xef\xbb\xbf{"id": 1}')
    assert read_bytes(str(short), None, 65536, head=True) == b'\xef\xbb\xbf{"id": 1}'  # no newline: all of it


def test_a_file_that_is_no_link_is_opened_without_an_lstat_first(tmp_path, tmp_path_factory, monkeypatch):
    import evallint.load.source as source

    plain = tmp_path / "a.yaml"
    plain.write_text("x: 1\n")
    link = tmp_path / "b.yaml"
    link.symlink_to(plain)
    looked = []
    real_lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda path, *a, **k: looked.append(os.path.basename(path)) or real_lstat(path))
    assert read_bytes(str(plain), str(tmp_path)) == b"x: 1\n" and looked == []
    assert read_bytes(str(link), str(tmp_path)) == b"x: 1\n" and looked[0] == "b.yaml"  # a link is looked at
    missing = read_bytes(str(tmp_path / "gone.yaml"), str(tmp_path))
    assert isinstance(missing, Finding) and missing.message == "cannot read file: No such file or directory"
    monkeypatch.setattr(source, "_NOFOLLOW", 0)  # a system without O_NOFOLLOW: every path is looked at
    looked.clear()
    assert read_bytes(str(plain), str(tmp_path)) == b"x: 1\n" and looked[0] == "a.yaml"
    outside = tmp_path / "out.yaml"
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "x.yaml"
    elsewhere.write_text("x: 1\n")
    outside.symlink_to(elsewhere)
    assert read_bytes(str(outside), str(tmp_path)).message == \
        "symbolic link leaves the repository root; it is not followed"


def test_a_link_is_followed_whatever_error_the_system_gives_for_it_under_o_nofollow(tmp_path, monkeypatch):
    """Linux says ELOOP when O_NOFOLLOW meets a link, FreeBSD EMLINK, NetBSD EFTYPE: any failure of
    the first open goes through the checks that look at the path, as before."""
    import errno

    import evallint.load.source as source

    target = tmp_path / "a.yaml"
    target.write_text("x: 1\n")
    link = tmp_path / "b.yaml"
    link.symlink_to(target)
    real_open = os.open

    def bsd_open(path, flags, *args):
        if flags & source._NOFOLLOW and os.path.islink(path):
            raise OSError(errno.EMLINK, "Too many links")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", bsd_open)
    assert read_bytes(str(link), str(tmp_path)) == b"x: 1\n"
    unreadable = tmp_path / "gone.yaml"
    assert read_bytes(str(unreadable), str(tmp_path)).message == "cannot read file: No such file or directory"


def test_each_file_is_opened_once_by_its_lint(tmp_path, monkeypatch):
    """Telling a file's kind and linting it share one open file, read as far as needed: a dataset and a
    results file told apart by their first lines, a YAML file that fails to parse, files over the size
    cap known by their first bytes, other YAML. The YAML files beside a ``.jsonl`` file that is read, and those of the
    other subfolders of the folder above it, are opened once more, in all, by the lints of the ``.jsonl`` files:
    whether a suite names one from its 'tests' (the root is the working folder, which holds both folders); and
    a ``.jsonl`` file beside a YAML file of its name once more, by that file's lint: whether it is a dataset, whose
    sidecar the YAML file is."""
    import evallint.load.source as source

    row = json.dumps({"id": "a", "input": "q", "expected_outcome": "g"})
    suite = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
    (tmp_path / ".evallint.toml").write_text("max-file-size = 300\n")
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "suite.yaml").write_text(suite)
    (tmp_path / "evals" / "data.jsonl").write_text(row + "\n")
    (tmp_path / "evals" / "results.jsonl").write_text(json.dumps({"eval_id": "a", "score": 1}) + "\n")
    (tmp_path / "evals" / "broken.yaml").write_text("evalcases: [\n")
    (tmp_path / "suites").mkdir()
    (tmp_path / "suites" / "big.yaml").write_text(suite + "#" * 400 + "\n")
    (tmp_path / "suites" / "big.jsonl").write_text((row + "\n") * 10)
    (tmp_path / "suites" / "notes.yaml").write_text("title: notes\n")
    opens, real = Counter(), source.open_regular
    monkeypatch.setattr(source, "open_regular", lambda path, root: opens.update([os.path.relpath(path, tmp_path)])
                        or real(path, root))
    code, out, _ = run_concise(tmp_path, "--no-cache", ".")
    assert (code, [line.split(" [")[0] for line in out.splitlines()]) == (1, [
        "evals/broken.yaml:2:1: EV001", "suites/big.jsonl:1:1: EV006", "suites/big.yaml:1:1: EV006"])
    assert opens == {**{name: 1 for name in (".evallint.toml", "evals/data.jsonl", "evals/results.jsonl")},
                     "evals/suite.yaml": 2, "evals/broken.yaml": 2, "suites/big.jsonl": 2, "suites/big.yaml": 2,
                     "suites/notes.yaml": 2}


def test_an_eval_file_that_uses_a_named_file_is_opened_once_by_each_of_its_lints(tmp_path, monkeypatch):
    """Named a targets file, a run without the cache lints the eval files it serves twice: once to learn
    which use it (from the bytes read to see whether they can), once to report them; and the targets file's own lint
    reads them to learn which release's suites it serves (it holds no key only one release reads)."""
    import evallint.load.source as source

    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - name: default\n    provider: mock\n")
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "suite.yaml").write_text("execution:\n  target: nope\nevalcases:\n  - id: a\n"
                                                   "    expected_outcome: g\n    input: q\n")
    opens, real = Counter(), source.open_regular
    monkeypatch.setattr(source, "open_regular", lambda path, root: opens.update([os.path.relpath(path, tmp_path)])
                        or real(path, root))
    code, out, _ = run_concise(tmp_path, "--no-cache", ".agentv/targets.yaml")
    assert (code, [line.split(" [")[0] for line in out.splitlines()]) == (1, ["evals/suite.yaml:2:11: EV409"])
    assert opens["evals/suite.yaml"] == 3
