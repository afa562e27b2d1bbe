"""What --fix keeps of a file besides its text: extended attributes and ACLs (or it refuses the fix), and
no temporary file of a killed run left beside it."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import time

import pytest
from clirun import run_concise

SUITE = b"evalcases:\n  - id: 6\n    expected_outcome: Goal\n    input: q\n"
FIXED = b'evalcases:\n  - id: "6"\n    expected_outcome: Goal\n    input: q\n'
ARGS = ("--no-references",)


def _suite(tmp_path, mode=0o644):
    path = tmp_path / "evals" / "s.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(SUITE)
    os.chmod(path, mode)
    return path


def _xattrs(path) -> dict:
    return {name: os.getxattr(path, name) for name in sorted(os.listxattr(path))}


def _needs_user_xattrs(tmp_path) -> None:
    if not hasattr(os, "setxattr"):
        pytest.skip("this system has no extended attributes")
    probe = tmp_path / "probe"
    probe.write_bytes(b"")
    try:
        os.setxattr(probe, "user.evallint-probe", b"1")
    except OSError as exc:
        pytest.skip(f"the temporary folder's file system takes no user extended attributes: {exc.strerror}")
    finally:
        probe.unlink()


def test_extended_attributes_are_kept(tmp_path):
    _needs_user_xattrs(tmp_path)
    path = _suite(tmp_path)
    os.setxattr(path, "user.origin", b"hand-written")
    os.setxattr(path, "user.empty", b"")
    assert run_concise(tmp_path, "--fix", *ARGS, "evals/s.yaml")[:2] == (0, "Fixed 1 problem in 1 file.\n")
    assert path.read_bytes() == FIXED
    assert _xattrs(path) == {"user.empty": b"", "user.origin": b"hand-written"}


def _getfacl(path) -> str:
    return subprocess.run(["getfacl", "--omit-header", "--numeric", str(path)], capture_output=True, text=True,
                          check=True).stdout


def test_an_acl_and_the_group_bits_are_kept(tmp_path):
    if shutil.which("setfacl") is None or shutil.which("getfacl") is None:
        pytest.skip("setfacl and getfacl are needed (Debian: apt-get install acl)")
    path = _suite(tmp_path, mode=0o640)
    done = subprocess.run(["setfacl", "-m", "u:65534:rw,g::r,m::rw", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"the temporary folder's file system takes no ACL: {done.stderr.strip()}")
    acl, mode = _getfacl(path), stat.S_IMODE(os.stat(path).st_mode)
    assert "user:65534:rw-" in acl and mode == 0o660  # the group bits show the ACL's mask
    assert run_concise(tmp_path, "--fix", *ARGS, "evals/s.yaml")[:2] == (0, "Fixed 1 problem in 1 file.\n")
    assert (path.read_bytes(), _getfacl(path), stat.S_IMODE(os.stat(path).st_mode)) == (FIXED, acl, mode)


def test_a_default_acl_of_the_folder_is_not_given_to_the_fixed_file(tmp_path):
    if shutil.which("setfacl") is None or shutil.which("getfacl") is None:
        pytest.skip("setfacl and getfacl are needed (Debian: apt-get install acl)")
    path = _suite(tmp_path)
    before = _getfacl(path)
    done = subprocess.run(["setfacl", "-d", "-m", "u:65534:rwx", str(path.parent)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"the temporary folder's file system takes no ACL: {done.stderr.strip()}")
    assert run_concise(tmp_path, "--fix", *ARGS, "evals/s.yaml")[:2] == (0, "Fixed 1 problem in 1 file.\n")
    assert (path.read_bytes(), _getfacl(path), stat.S_IMODE(os.stat(path).st_mode)) == (FIXED, before, 0o644)


def test_a_file_whose_attributes_cannot_be_kept_is_not_fixed(tmp_path):
    """Root sets a security attribute; evallint runs as root without CAP_SYS_ADMIN, which may not set one."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("sets a security extended attribute, then drops CAP_SYS_ADMIN with setpriv: needs root and "
                    "setpriv (util-linux)")
    _needs_user_xattrs(tmp_path)
    path = _suite(tmp_path)
    try:
        os.setxattr(path, "security.evallint-test", b"kept")
    except OSError as exc:
        pytest.skip(f"the file system takes no security attribute from root: {exc.strerror}")
    done = subprocess.run(["setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin", sys.executable, "-m",
                           "evallint", "--fix", "--format", "concise", "--quiet", *ARGS, "evals/s.yaml"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("evallint: evals/s.yaml has extended attributes or an ACL that the new file cannot keep "
                           "('security.evallint-test': Operation not permitted); not fixed\n")
    assert (path.read_bytes(), sorted(os.listdir(path.parent))) == (SUITE, ["s.yaml"])
    assert _xattrs(path) == {"security.evallint-test": b"kept"}


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temporary_files_of_killed_runs_are_removed(tmp_path):
    path = _suite(tmp_path)
    folder = path.parent
    dead, alive = _dead_pid(), os.getppid()
    names = {
        "gone": f".evallint-{dead}-k2j9x_1q.tmp",  # its run is gone
        "old": f".evallint-{alive}-abcd1234.tmp",  # its process lives (or its pid came back) but it is stale
        "recent": f".evallint-{alive}-efgh5678.tmp",  # another run's, under way
        "other": ".evallint-notes.tmp",  # not a name evallint gives
    }
    for name in names.values():
        (folder / name).write_bytes(b"partial")
    hours_ago = time.time() - 2 * 3600
    os.utime(folder / names["old"], (hours_ago, hours_ago))
    assert run_concise(tmp_path, "--fix", *ARGS, "evals/s.yaml")[:2] == (0, "Fixed 1 problem in 1 file.\n")
    assert sorted(os.listdir(folder)) == sorted([names["recent"], names["other"], "s.yaml"])
