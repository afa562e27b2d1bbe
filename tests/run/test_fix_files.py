"""What --fix and --diff do to the files themselves: a diff of a file with a BOM applies with
``patch -p1`` and ``git apply``; --fix refuses read-only and hard-linked files and keeps the owner."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from clirun import run_concise

import evallint

BOM = b"\xef\xbb\xbf"
SUITE = b"evalcases:\n  - id: 6\n    outcome: Goal\n    input: q\n"
FIXED = b'evalcases:\n  - id: "6"\n    expected_outcome: Goal\n    input: q\n'
ARGS = ("--extend-select", "EV901,EV902", "--no-references")


def _diff_of(repo, data: bytes) -> bytes:
    """``evallint --diff`` of evals/s.yaml holding ``data``, as the command writes it to its stdout."""
    (repo / "evals").mkdir(parents=True)
    (repo / "evals" / "s.yaml").write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "evallint", "--diff", *ARGS, "evals/s.yaml"], cwd=repo,
                          capture_output=True, check=False)
    assert done.returncode == 1, done.stderr
    return done.stdout


@pytest.mark.parametrize("tool", [["patch", "-p1", "--fuzz=0", "-i"], ["git", "apply"]], ids=["patch", "git-apply"])
@pytest.mark.parametrize("before, after", [
    (BOM + SUITE, BOM + FIXED),
    (BOM + SUITE.replace(b"\n", b"\r\n"), BOM + FIXED.replace(b"\n", b"\r\n")),
    (BOM + SUITE.rstrip(b"\n"), BOM + FIXED.rstrip(b"\n")),
    (BOM + b"evalcases:\n  - {id: 6, outcome: Goal, input: q}\n",
     BOM + b'evalcases:\n  - {id: "6", expected_outcome: Goal, input: q}\n'),
    (BOM + b"target: default\nevalcases: []\n", BOM + b"execution:\n  target: default\nevalcases: []\n"),
], ids=["bom", "bom-crlf", "bom-no-final-newline", "bom-first-line-unchanged", "bom-first-line-changed"])
def test_a_diff_of_a_file_with_a_bom_applies(tmp_path, tool, before, after):
    patch = tmp_path / "fix.patch"
    patch.write_bytes(_diff_of(tmp_path / "linted", before))
    target = tmp_path / "target"
    (target / "evals").mkdir(parents=True)
    (target / "evals" / "s.yaml").write_bytes(before)
    done = subprocess.run([*tool, str(patch)], cwd=target, capture_output=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / "evals" / "s.yaml").read_bytes() == after


def test_a_diff_of_a_file_with_a_bom_shows_the_bom_on_the_first_line(tmp_path):
    diff = _diff_of(tmp_path, BOM + SUITE).decode("utf-8")
    assert diff.startswith("--- a/evals/s.yaml\n+++ b/evals/s.yaml\n@@ -1,4 +1,4 @@\n \ufeffevalcases:\n-  - id: 6\n")


def _suite(folder, name: str = "s.yaml", mode: int = 0o644):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(SUITE)
    os.chmod(path, mode)
    return path


def test_a_read_only_file_is_refused_and_named(tmp_path):
    locked = _suite(tmp_path / "evals", "locked.yaml", 0o444)
    other = _suite(tmp_path / "evals", "other.yaml")
    code, out, err = run_concise(tmp_path, "--fix", *ARGS, "evals")
    assert code == 2 and err == "evallint: evals/locked.yaml is read-only; not fixed\n"
    assert locked.read_bytes() == SUITE and stat.S_IMODE(os.stat(locked).st_mode) == 0o444
    assert other.read_bytes() == FIXED
    assert out.splitlines() == [
        "Fixed 2 problems in 1 file.",
        "evals/locked.yaml:2:9: EV103 [error] case 'id' must be a string: the runner reads 6 as the number 6 "
        "and skips the case; the fix writes \"6\"",
        "evals/locked.yaml:3:5: EV901 [warning] 'outcome' is an alias; prefer the canonical 'expected_outcome'",
    ]


def test_a_hard_linked_file_is_refused_and_its_links_kept(tmp_path):
    path = _suite(tmp_path / "evals")
    link = tmp_path / "elsewhere.yaml"
    os.link(path, link)
    code, _, err = run_concise(tmp_path, "--fix", *ARGS, "evals/s.yaml")
    assert code == 2
    assert err == "evallint: evals/s.yaml has 2 hard links, which writing the new file would split; not fixed\n"
    assert path.read_bytes() == link.read_bytes() == SUITE and os.path.samefile(path, link)


def test_a_symlinked_file_is_fixed_through_the_link(tmp_path):
    real = _suite(tmp_path / "evals", "real.yaml")
    os.symlink("real.yaml", tmp_path / "evals" / "link.yaml")
    code, _, err = run_concise(tmp_path, "--fix", *ARGS, "evals/link.yaml")
    assert (code, err) == (0, "") and real.read_bytes() == FIXED and os.path.islink(tmp_path / "evals" / "link.yaml")


needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="changes owners: needs root")


@needs_root
def test_the_fixed_file_keeps_its_owner_and_group(tmp_path):
    path = _suite(tmp_path / "evals", mode=0o664)
    os.chown(path, 4242, 4343)
    assert run_concise(tmp_path, "--fix", *ARGS, "evals/s.yaml")[:2] == (0, "Fixed 2 problems in 1 file.\n")
    info = os.stat(path)
    assert (path.read_bytes(), info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (FIXED, 4242, 4343, 0o664)


@needs_root
def test_a_file_whose_owner_cannot_be_kept_is_refused():
    """Run as 'nobody' on root's file that 'nobody' may write: a new file would be nobody's."""
    package = Path(evallint.__file__).parent
    unreadable = _as_nobody(_first_unreadable, str(package))
    if unreadable:
        pytest.skip(f"'nobody' cannot read {unreadable}, which the linting child imports (the checkout is in "
                    "a folder only its owner may enter)")
    folder = tempfile.mkdtemp(prefix="evallint-owner-")
    try:
        os.chmod(folder, 0o777)
        path = _suite(Path(folder) / "evals", mode=0o666)
        os.chmod(path.parent, 0o777)
        result = _as_nobody(run_concise, folder, "--fix", *ARGS, "evals/s.yaml")
        assert result[0] == 2 and result[1].startswith("Fixed 0 problems in 0 files.\nevals/s.yaml:2:9: EV103")
        assert result[2] == ("evallint: evals/s.yaml belongs to another user or group, which writing the new file "
                             "would change; not fixed\n")
        info = os.stat(path)
        assert (path.read_bytes(), info.st_uid, sorted(os.listdir(path.parent))) == (SUITE, 0, ["s.yaml"])
    finally:
        shutil.rmtree(folder)


def _first_unreadable(folder: str) -> str:
    """The first file or folder under ``folder`` that cannot be read, or ''."""
    failed = []
    for parent, _, names in os.walk(folder, onerror=lambda error: failed.append(error.filename)):
        for name in names:
            try:
                with open(os.path.join(parent, name), "rb"):
                    pass
            except OSError as error:
                failed.append(error.filename)
    return failed[0] if failed else ""


def _as_nobody(work, *args):
    """What ``work(*args)`` returns (as JSON) in a child process that has become 'nobody'. A failure in the
    child fails the test with the child's traceback."""
    import pwd
    import traceback

    nobody = pwd.getpwnam("nobody")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root, work, report through the pipe, never return into pytest
        try:
            os.close(read)
            with os.fdopen(write, "w") as fh:
                try:
                    os.setgroups([])
                    os.setgid(nobody.pw_gid)
                    os.setuid(nobody.pw_uid)
                    reply = {"result": work(*args)}
                except BaseException:  # noqa: B036 - everything the child meets goes to the test's report
                    reply = {"traceback": traceback.format_exc()}
                json.dump(reply, fh)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as fh:
        reported = fh.read()
    _, status = os.waitpid(pid, 0)
    assert reported, f"the child running as 'nobody' reported nothing (wait status {status})"
    reply = json.loads(reported)
    assert "traceback" not in reply, "the child running as 'nobody' failed:\n" + reply.get("traceback", "")
    return reply["result"]


def test_diff_never_writes_so_a_read_only_file_gets_its_diff(tmp_path):
    _suite(tmp_path / "evals", mode=0o444)
    code, out, err = run_concise(tmp_path, "--diff", *ARGS, "evals/s.yaml")
    assert (code, err) == (1, "Would fix 2 problems in 1 file.\n") and out.startswith("--- a/evals/s.yaml\n")
