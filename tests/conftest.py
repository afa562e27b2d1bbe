from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
import pytest_lsp
from lsp import SERVER, start
from pytest_lsp import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

ADDRESS_SPACE = 1 << 30  # bytes: room for a real run on any CI machine, far below a blow-up
HANG_GUARD = 60  # seconds: a hang fails the test instead of stopping the suite; not a speed test
# ``python -c BOUNDED LIMIT FILE_SIZE ARGS...``: evallint's command line under an address-space limit of LIMIT
# bytes and, unless FILE_SIZE is 0, a file-size limit of FILE_SIZE bytes (writes past it fail as on a full disk)
BOUNDED = """\
import resource, signal, sys
limit, file_size = int(sys.argv.pop(1)), int(sys.argv.pop(1))
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
if file_size:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
from evallint.cli import main
sys.exit(main(sys.argv[1:]))
"""
# ``python -c MEASURED PEAK_FILE COMMAND...``: runs COMMAND as its child (its output passed through), writes that
# child's peak resident memory (KiB; bytes on macOS) to PEAK_FILE and exits with its status. A process counts the
# resident memory of the one it is forked from into its peak, so COMMAND is started from this small process rather
# than from the test process, whose memory grows as the suite runs.
MEASURED = """\
import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


# End-to-end modules (a language server or an editor started per module, hostile files of many megabytes,
# fuzzing rounds, both runners' single-mistake variants, git repositories with hooks): marked 'e2e', which .ci/run runs
# on the default python3 only, so that the suites of the other Pythons fit the machine's two cores.
E2E_MODULES = frozenset({"test_server", "test_server_actions", "test_server_answers", "test_server_faults",
                         "test_server_navigation", "test_server_parts", "test_server_reads", "test_server_skills", "test_neovim",
                         "test_hostile", "test_fuzz_cli", "test_runner_mutants", "test_agentv4_mutants",
                         "test_untrusted_git"})


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if item.module.__name__ in E2E_MODULES:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


class Bounded:
    """``evallint`` in a process of its own under an address-space limit (``RLIMIT_AS``): a blow-up ends
    that process with an error instead of taking the machine's memory."""

    def command(self, *argv: str, address_space: int = ADDRESS_SPACE, file_size: int = 0) -> list:
        return [sys.executable, "-c", BOUNDED, str(address_space), str(file_size), *argv]

    def run(self, *argv: str, cwd, address_space: int = ADDRESS_SPACE, file_size: int = 0) -> subprocess.CompletedProcess:
        """The finished process (output as text); a run longer than ``HANG_GUARD`` fails the test."""
        return _guarded(self.command(*argv, address_space=address_space, file_size=file_size), argv, cwd)

    def measured(self, *argv: str, cwd, peak_file) -> tuple:
        """(the finished process, as ``run`` gives it; its peak resident memory in MiB), ``peak_file`` holding
        the figure in between."""
        done = _guarded([sys.executable, "-c", MEASURED, str(peak_file), *self.command(*argv)], argv, cwd)
        peak = int(Path(peak_file).read_text()) / (1024 * 1024 if sys.platform == "darwin" else 1024)
        return done, peak


def _guarded(command: list, argv: tuple, cwd) -> subprocess.CompletedProcess:
    """``command`` run to its end in a session of its own (output as text); one longer than ``HANG_GUARD`` fails the
    test, and it and every process it started are killed, so that no hung evallint goes on using the machine."""
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding="utf-8",
                          start_new_session=True) as proc:
        try:
            out, err = proc.communicate(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise AssertionError(f"evallint {' '.join(map(str, argv))} hung") from None
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


@pytest.fixture
def bounded() -> Bounded:
    return Bounded()


@pytest.fixture(autouse=True)
def user_cache_home(tmp_path_factory) -> Iterator[Path]:
    """The user cache folder, where the result cache's key lives: a temporary one for every test, never
    the real home's. Processes the test starts inherit it with the environment. It is set with a
    monkeypatch of its own, which a test's ``monkeypatch.undo()`` leaves in place."""
    folder = tmp_path_factory.mktemp("user-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield folder


@pytest.fixture
def lint_calls(monkeypatch):
    """The files really linted (not answered from the cache), by name."""
    import evallint.lint as lint

    calls = []
    real = lint.lint_bytes

    def counting(data, path, *args, **kwargs):
        calls.append(os.path.basename(path))
        return real(data, path, *args, **kwargs)

    monkeypatch.setattr(lint, "lint_bytes", counting)
    return calls


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, repo):
    """``evallint server`` started over stdio for the test module's ``repo`` fixture (the server tests)."""
    await start(lsp_client, repo)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory, worker_id):
    """A committed copy of this repository, for the pre-commit tests: pre-commit installs a hook repository from a
    commit. There is one for the whole run, which the test processes share (the first to ask makes it, the others
    wait on a lock), so that pre-commit, whose home is beside it, installs its environment once."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":  # each xdist worker's temporary folder is in the run's
        shared = shared.parent
    with open(shared / "hookrepo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        copy = shared / "hookrepo" / "evallint"
        if not (shared / "hookrepo" / "made").exists():
            _commit_copy(copy)
            (shared / "hookrepo" / "made").touch()
    return copy


def _commit_copy(copy: Path) -> None:
    """This repository's working tree cloned to ``copy`` and committed there."""
    subprocess.run(["rm", "-rf", str(copy.parent)], check=True)  # what a process that failed half-way left
    copy.parent.mkdir()
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(copy)], check=True)
    # the working tree may hold uncommitted changes: make the tested hook exactly this tree
    for name in ("pyproject.toml", ".pre-commit-hooks.yaml", "README.md"):
        (copy / name).write_bytes((ROOT / name).read_bytes())
    subprocess.run(["rm", "-rf", str(copy / "evallint")], check=True)
    subprocess.run(["cp", "-r", str(ROOT / "evallint"), str(copy / "evallint")], check=True)
    for args in (["add", "-A"], ["commit", "-q", "--allow-empty", "-m", "test snapshot"]):
        subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=copy, check=True,
                       capture_output=True)
