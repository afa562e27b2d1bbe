"""Pool workers end when the process that started them is killed outright (it never shuts the pool down)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

# A run whose workers block in their chunk (as a worker waiting for work does): its main process prints each
# worker's pid as the worker starts the chunk, and waits for results that never come.
PROGRAM = textwrap.dedent("""
    import os, sys, time
    from evallint.config import Config
    from evallint.run.pool import Chunks, lint_ordered

    def here(todo, config, keys):
        raise AssertionError("the chunks go to the pool")

    def there(todo, config, keys):
        os.write(1, f"{os.getpid()}\\n".encode())  # one write a line: the two workers share the pipe
        time.sleep(3600)

    if __name__ == "__main__":
        items = [(f"f{i}.yaml", False) for i in range(64)]
        list(lint_ordered(items, Config(), 2, Chunks(here, there)))
""")


def state(pid: int) -> str:
    """The process's state letter ('Z' for a zombie), or '' when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return ""


def test_workers_end_when_the_main_process_is_killed(tmp_path):
    if not os.path.isdir("/proc/self"):
        pytest.skip("reads process states from /proc, which this system does not have")
    script = tmp_path / "run.py"
    script.write_text(PROGRAM)
    main = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers = []
    try:
        workers = [int(main.stdout.readline()) for _ in range(2)]
        main.send_signal(signal.SIGKILL)
        main.wait(timeout=30)
        deadline = time.monotonic() + 30  # a bound on waiting for the event, not a measurement
        while any(state(pid) not in ("", "Z") for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = [pid for pid in workers if state(pid) not in ("", "Z")]
        assert alive == [], f"workers still running after their parent was killed: {alive}"
    finally:
        for pid in workers:
            if state(pid) not in ("", "Z"):
                os.kill(pid, signal.SIGKILL)
        if main.poll() is None:
            main.kill()
        main.stdout.close()
        main.stderr.close()
