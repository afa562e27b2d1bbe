"""How fast `evallint server` answers an edit, and whether its memory stays flat as edits go on.

    python benchmarks/server.py [--lines 1000] [--edits 1000] [--python PATH]

Starts `evallint server` as a process (PATH's, default this interpreter's) and drives it over standard
input and output with pygls' own client, as an editor does: opens a generated eval file of about --lines
lines (cases with execution and evaluators, a target the targets file defines, so every check runs), then
sends --edits changes one at a time, each changing one case's expected outcome (every third adds a
misspelt key, so diagnostics come and go), and waits for the diagnostics of that version. For each edit
the time from sending the change to receiving its diagnostics, less the server's debounce (``DEBOUNCE``), is the
time the diagnostics take once the pause in typing is over. The server's resident memory (VmRSS, Linux)
is read after the first 10 edits and then every tenth of the run. Timings are of one process on a shared
machine: they drift with its load, so the median is what is reported."""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

from lsprotocol import types
from pygls.lsp.client import BaseLanguageClient

DEBOUNCE = 0.15  # evallint/server/app.py
CASE = """\
  - id: case-{i}
    expected_outcome: The agent answers question {i}{tail}.
    input: Question {i}?
    execution:
      target: default
      evaluators:
        - name: judge
          type: llm_judge
          prompt: Check the answer.
"""


def suite(lines: int, edit: int = 0) -> str:
    cases = max(1, -(-(lines - 2) // CASE.count("\n")))  # rounded up: at least ``lines`` lines
    out = ["$schema: agentv-eval-v2\n", "evalcases:\n"]
    for i in range(cases):
        out.append(CASE.format(i=i, tail=f" (edit {edit})" if i == edit % cases else ""))
        if edit % 3 == 1 and i == edit % cases:
            out.append("    descripton: a misspelt key\n")
    return "".join(out)


def rss_kib(pid: int) -> Optional[int]:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def child_pids() -> list:
    """This process's children (Linux): the server is the only one."""
    found = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as fh:
                found += [int(p) for p in fh.read().split()]
        except OSError:
            continue
    return found


async def run(python: str, lines: int, edits: int) -> None:
    client = BaseLanguageClient("evallint-benchmark", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        published.put_nowait((time.perf_counter(), params))

    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder)
        (repo / ".git").mkdir()
        (repo / ".agentv").mkdir()
        (repo / ".agentv" / "targets.yaml").write_text("targets:\n  - name: default\n    provider: mock\n")
        (repo / "evals").mkdir()
        path = repo / "evals" / "big.yaml"
        text = suite(lines)
        path.write_text(text)
        uri = path.as_uri()
        await client.start_io(python, "-m", "evallint", "server")
        [pid] = child_pids() or [None]
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=repo.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=repo.as_uri(), name="bench")]))
        client.initialized(types.InitializedParams())
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="yaml", version=1, text=text)))
        await published.get()
        print(f"{text.count(chr(10))} lines, {len(text)} characters; {edits} edits, one at a time")
        latencies, memory = [], []
        marks = {10} | {max(1, edits * k // 10) for k in range(1, 11)}
        for edit in range(1, edits + 1):
            version = edit + 1
            changed = suite(lines, edit)
            sent = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=changed)]))
            while True:
                arrived, params = await published.get()
                if params.version == version:
                    break
            latencies.append(arrived - sent - DEBOUNCE)
            if edit in marks and pid is not None:
                memory.append((edit, rss_kib(pid)))
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    ms = sorted(x * 1000 for x in latencies)
    print(f"diagnostics after the debounce: median {statistics.median(ms):.1f} ms, "
          f"10th percentile {ms[len(ms) // 10]:.1f} ms, 90th percentile {ms[len(ms) * 9 // 10]:.1f} ms")
    for edit, kib in memory:
        print(f"server RSS after {edit:>5} edits: {kib / 1024:.1f} MiB" if kib else f"after {edit} edits: unknown")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose evallint server runs")
    args = parser.parse_args()
    asyncio.run(run(args.python, args.lines, args.edits))


if __name__ == "__main__":
    main()
