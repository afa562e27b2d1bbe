"""AgentV 4.42.4's own loader and runner as a test oracle: the scripts of ``tests/agentv/`` (``load.mjs``, ``run.mjs``,
...) run by node on the pinned ``@agentv/core`` that ``npm install --prefix tests/agentv --no-save`` installs."""
from __future__ import annotations

import atexit
import json
import os
import selectors
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

import pytest

HERE = Path(__file__).resolve().parent / "agentv"
INSTALL = "npm install --prefix tests/agentv --no-save --ignore-scripts"


def require_runner() -> str:
    """The node executable, or a skip that says what is missing."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"AgentV 4.42.4's loader needs node on PATH, then {INSTALL}")
    if not (HERE / "node_modules" / "@agentv" / "core" / "package.json").is_file():
        pytest.skip(f"AgentV 4.42.4's loader is not installed: {INSTALL}")
    return node


def load_tests(root: Path, files: list, *, suite: bool = False, env: Optional[dict] = None) -> dict:
    """What ``loadTests(file, root)`` makes of each file (relative to ``root``): {file: {tests, logs, error}};
    with ``suite``, also the settings the loader reads besides the tests (``suite``); ``env``: variables set
    besides this process's."""
    return _run(root, files, *(("--suite",) if suite else ()), env=None if env is None else {**os.environ, **env})


def read_targets(root: Path, files: list) -> dict:
    """What the runner makes of each targets file (relative to ``root``): {file: {validate, error, targets, logs}},
    each target {name, kind, grader} or {name, error} (``load.mjs --targets``)."""
    return _run(root, files, "--targets")


def read_configs(root: Path, files: list, home: Path, env: Optional[dict] = None) -> dict:
    """What ``loadConfig`` makes of each `.agentv/config.yaml` (relative to ``root``): {file: {config, logs}};
    ``home`` is the runner's home folder, where it looks for a config of last resort; ``env``: variables set
    besides this process's."""
    return _run(root, files, "--config", env={**os.environ, **(env or {}), "AGENTV_HOME": str(home)})


def run_suite(root: Path, file: str, home: Path, target: Optional[str] = None, answer: Optional[str] = None,
              grade: Optional[str] = None) -> dict:
    """What ``runEvaluation`` does with the eval file (relative to ``root``) on a recording target (``run.mjs``), of
    the kind of ``target`` of the root's targets file when given (a replay target is the runner's own): {error, sent:
    [{test, question, messages}], scores: {test: score}, verdicts: {test: {grader: verdict}}, failed: {test: its
    error}, logs, artifacts: the folders the results are written to}; ``home`` is the runner's home folder; ``answer``:
    what the target answers each test; ``grade``: what a grader answers (JSON text), else that every check passes."""
    node = require_runner()
    env = {**os.environ, "HOME": str(home), "AGENTV_HOME": str(home), **({"RECORDED_ANSWER": answer} if answer else {}),
           **({"RECORDED_GRADE": grade} if grade else {})}
    return json.loads(_RUNNER.ask(node, [str(root), file, *([target] if target else [])], root, env))


def read_ranges(texts: list) -> list:
    """Whether the agentv command takes each text as a project's 'required_version' (``ranges.mjs``)."""
    node = require_runner()
    done = subprocess.run([node, str(HERE / "ranges.mjs")], input=json.dumps(texts), capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, f"the semver package failed:\n{done.stderr}"
    return json.loads(done.stdout)


def read_globs(patterns: list, discover: Optional[Path] = None) -> list:
    """The files each absolute pattern matches, sorted, as the runner's case-file loader asks fast-glob for them
    (``globs.mjs``); with ``discover``, those each list of patterns matches from that folder, as the agentv command's
    discovery of eval files asks for them."""
    node = require_runner()
    done = subprocess.run([node, str(HERE / "globs.mjs"), *(("--discover", str(discover)) if discover else ())],
                          input=json.dumps(patterns), capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"fast-glob failed:\n{done.stderr}"
    return json.loads(done.stdout)


def _run(root: Path, files: list, *options: str, env: Optional[dict] = None) -> dict:
    node = require_runner()
    # the loader also looks for files from the working folder
    return json.loads(_LOADER.ask(node, [*options, str(root), *files], root, os.environ if env is None else env))


class _Served:
    """``SCRIPT --serve`` (``load.mjs``, ``run.mjs``): one node process answering each request of the test session
    in the working folder and environment it is given, since importing @agentv/core costs most of a second a
    process. A request that fails ends the process, with what it printed for that request in the test's failure; so
    does a request interrupted or timed out (its answer would be read as the next one's). The next request starts
    another."""

    TIMEOUT = 600  # seconds a request may take

    def __init__(self, script: str) -> None:
        self.script = script
        self.process: Optional[subprocess.Popen] = None
        self.errors = None  # the process's standard error, a file: a pipe nobody reads could fill and block it

    def ask(self, node: str, args: list, cwd: Path, env) -> str:
        if self.process is None or self.process.poll() is not None:
            self.errors = tempfile.TemporaryFile()
            self.process = subprocess.Popen([node, str(HERE / self.script), "--serve"], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=self.errors, cwd=HERE)
        request = json.dumps({"args": args, "cwd": str(cwd), "env": dict(env)}) + "\n"
        printed = self.errors.seek(0, os.SEEK_END)  # what the process printed before this request
        try:
            try:
                self.process.stdin.write(request.encode("utf-8"))
                self.process.stdin.flush()
            except BrokenPipeError:
                pass  # the process has ended: reading its answer says why
            return self._answer(printed).decode("utf-8")
        except BaseException:
            self.close(at_once=True)
            raise

    def _answer(self, printed: int) -> bytes:
        """The process's next line, or a failure with what it printed from ``printed`` on when it ends or takes too
        long."""
        out = [b""]
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while not out[-1].endswith(b"\n"):
                if not selector.select(self.TIMEOUT):
                    raise AssertionError(f"AgentV's {self.script} gave no answer in {self.TIMEOUT} s")
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                if not chunk:
                    self.process.wait()
                    self.errors.seek(printed)
                    raise AssertionError(f"AgentV's {self.script} failed:\n"
                                         + self.errors.read().decode("utf-8", "replace"))
                out.append(chunk)
        return b"".join(out)

    def close(self, at_once: bool = False) -> None:
        """End the process: ``at_once``, killed; else once it has read what it was sent."""
        if self.process is not None and self.process.poll() is None:
            if at_once:
                self.process.kill()
            else:
                self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


_LOADER = _Served("load.mjs")
_RUNNER = _Served("run.mjs")
atexit.register(_LOADER.close)
atexit.register(_RUNNER.close)
