"""``evallint server`` driven with raw bytes: a process whose standard input gets messages framed by hand (a
body need not be valid JSON, nor UTF-8), and whose answers are read with a time limit, so a request left
unanswered fails the test with a message instead of hanging it."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading

PATIENCE = 120  # seconds: a server that never answers fails the test instead of hanging it


class RawServer:
    """``evallint server`` started in ``cwd``; what it writes to standard error goes to ``log`` (a file)."""

    def __init__(self, cwd, log):
        self.process = subprocess.Popen([sys.executable, "-m", "evallint", "server"], cwd=cwd,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
        self.received: queue.Queue = queue.Queue()
        self.notifications: list = []  # what came before the answers asked for, in order
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.process.stdout
        while True:
            length = None
            line = out.readline()
            while line not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
                line = out.readline()
            if not line or length is None:
                self.received.put(None)  # the server ended (or wrote no message)
                return
            self.received.put(json.loads(out.read(length)))

    def send_body(self, body: bytes) -> None:
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_body(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8"))

    def answer(self, msg_id) -> dict:
        """The answer to request ``msg_id``; the notifications before it go to ``notifications``."""
        while True:
            try:
                message = self.received.get(timeout=PATIENCE)
            except queue.Empty:
                raise AssertionError(f"request {msg_id!r} got no answer") from None
            if message is None:
                raise AssertionError(f"the server ended without answering request {msg_id!r}")
            if "method" not in message and message.get("id") == msg_id:
                return message
            self.notifications.append(message)

    def start(self, folder) -> None:
        self.send({"id": "init", "method": "initialize", "params": {"capabilities": {}, "rootUri": folder.as_uri()}})
        assert "result" in self.answer("init")
        self.send({"method": "initialized", "params": {}})

    def stop(self) -> int:
        """Shut the server down; its exit code."""
        try:
            self.send({"id": "shutdown", "method": "shutdown"})
            self.answer("shutdown")
            self.send({"method": "exit"})
            self.process.stdin.close()
            return self.process.wait(PATIENCE)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
