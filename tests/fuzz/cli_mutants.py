"""Structure-aware fuzzing of the command line: real eval, targets and dataset files with random edits (a
line cut, doubled, moved or re-indented, a value swapped for a YAML surprise, a control character, a cut
at a random byte), linted in every format and fixed, in one repository per round.

    python tests/fuzz/cli_mutants.py --seconds 600 [--seed N] [--agentv-version 4.42]

What must hold, whatever the input: every run exits 0 or 1 (2 only for a refused fix), prints no
traceback, JSON and SARIF output parse, no output line holds a raw control character, and --fix leaves
each file that parsed still parsing. tests/test_fuzz_cli.py runs a few rounds of
the same in CI; this script runs as many as the time allows and prints what it ran."""
from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "fixtures" / "corpus" / "agentv-examples"
# AgentV version -> the real files a round copies and edits
CORPORA = {"2.2": CORPUS, "4.42": ROOT / "fixtures" / "agentv-4.42.4-examples"}
SURPRISES = ["yes", "no", "~", "null", "0x1F", "1_000", "017", "2026-01-01", "''", "[]", "{}", "&a x", "*a",
             "<<: {id: x}", "!!int 5", "!custom x", "- item", "'unterminated", '"\\e[31m"', "\t", "\x1b[2J", "\x00",
             "\u2028", "x" * 5000, "é日本", "${{ KEY }}", "sk-" + "a" * 30, ": :", "? complex", "|", ">-"]
# what AgentV 4.42.4's files hold besides: patterns, references, graders and their settings
SURPRISES_4 = ["file://", "file://**/*.yaml", "file://{a,b}/[a-", "./", "../../..", "{type: regex, value: '[(', flags: v}",
               "{include: missing}", "[{type: composite, assertions: [{type: contains}]}]", "{command: [sh, -c, 'x && y']}",
               "[a, a]", "{{ input }}", "{mode: conversation}", "{template: ./ws, hooks: {enabled: yes}}", "-1e999",
               "9007199254740993", "{" * 64, "(" * 200, "[" * 500, "*.jsonl", "llm_grader", "code-grader"]
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def sources(corpus: Path = CORPUS) -> list:
    """The files a round picks from: eval, targets, config and dataset files, and of AgentV 4.42.4's corpus every
    JSON lines file and prompt besides (what the suites point at)."""
    files = sorted(corpus.rglob("*.yaml")) + sorted(corpus.rglob("dataset.jsonl"))
    if corpus != CORPUS:
        files += sorted(p for p in corpus.rglob("*.jsonl") if p.name != "dataset.jsonl") + sorted(
            p for p in corpus.rglob("*.md") if p.name != "README.md")
    return [p for p in files if "results" not in p.name and ".baseline." not in p.name]


def mutate(rng: random.Random, data: bytes, surprises: list = SURPRISES) -> bytes:
    lines = data.decode("utf-8", "replace").split("\n")
    for _ in range(rng.randint(1, 3)):
        n = rng.randrange(len(lines))
        choice = rng.randrange(8)
        if choice == 0:
            del lines[n]
        elif choice == 1:
            lines.insert(n, lines[n])
        elif choice == 2:
            lines.insert(rng.randrange(len(lines)), lines.pop(n))
        elif choice == 3:
            lines[n] = " " * rng.choice((0, 1, 2, 3, 4, 8)) + lines[n].lstrip(" ")
        elif choice == 4 and ":" in lines[n]:
            key = lines[n].split(":", 1)[0]
            lines[n] = f"{key}: {rng.choice(surprises)}"
        elif choice == 5:
            lines.insert(n, " " * rng.choice((0, 2, 4)) + rng.choice(surprises))
        elif choice == 6 and lines[n]:
            at = rng.randrange(len(lines[n]))
            lines[n] = lines[n][:at] + rng.choice(surprises) + lines[n][at:]
        if not lines:
            lines = [""]
    out = "\n".join(lines).encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        out = out[:rng.randrange(len(out) + 1)]
    if rng.random() < 0.05:
        out = b"\xef\xbb\xbf" + out
    return out


def one_round(rng: random.Random, picked: list, folder: Path, corpus: Path = CORPUS) -> list:
    """Lint and fix ``picked`` (files of ``corpus``) mutated in a repository under ``folder``; the problems found."""
    from evallint.cli import main

    repo = folder / "repo"
    shutil.copytree(corpus, repo)
    (repo / ".git").mkdir()
    written = {}
    surprises = SURPRISES if corpus == CORPUS else SURPRISES + SURPRISES_4
    for source in picked:
        rel = source.relative_to(corpus)
        data = mutate(rng, source.read_bytes(), surprises)
        (repo / rel).write_bytes(data)
        written[str(rel)] = data
    names = sorted(written)
    problems = []
    old = os.getcwd()
    os.chdir(repo)
    try:
        for fmt in ("text", "concise", "json", "github", "sarif"):
            out, err = io.StringIO(), io.StringIO()
            code = main(["--no-cache", "-j1", "--format", fmt, "--no-color", "--select", "ALL", *names],
                        stdout=out, stderr=err)
            problems += _check(fmt, code, out.getvalue(), err.getvalue())
        out, err = io.StringIO(), io.StringIO()
        code = main(["--no-cache", "-j1", "--fix", "--unsafe-fixes", "--select", "ALL", "--format", "concise",
                     *names], stdout=out, stderr=err)
        problems += _check("fix", code, out.getvalue(), err.getvalue(), allowed=(0, 1, 2))
        problems += _fixed_files_parse(repo, written)
    finally:
        os.chdir(old)
    return [f"{p} (files: {', '.join(names)})" for p in problems]


def _check(what: str, code: int, out: str, err: str, allowed=(0, 1)) -> list:
    problems = []
    if code not in allowed:
        problems.append(f"{what}: exit {code}: {err[-500:]}")
    if "Traceback" in out + err or "EV000" in out:
        problems.append(f"{what}: internal error: {(err or out)[-800:]}")
    if _CONTROL.search(out):
        problems.append(f"{what}: raw control character in output")
    if what in ("json", "sarif"):
        try:
            json.loads(out)
        except ValueError as exc:
            problems.append(f"{what}: output is not JSON: {exc}")
    return problems


def _parses(data: bytes) -> bool:
    import yaml

    try:
        list(yaml.compose_all(data.decode("utf-8-sig"), Loader=yaml.SafeLoader))
    except (yaml.YAMLError, UnicodeDecodeError):
        return False
    return True


def _fixed_files_parse(repo: Path, written: dict) -> list:
    """A file that parsed before --fix changed it parses after."""
    problems = []
    for rel, before in written.items():
        after = (repo / rel).read_bytes()
        if after != before and not rel.endswith(".jsonl") and _parses(before) and not _parses(after):
            problems.append(f"fix: {rel} parsed before the fix and does not after")
    return problems


def run(seconds: float, seed: int, rounds: int = 0, corpus: Path = CORPUS) -> tuple:
    """(rounds run, files linted, problems) within ``seconds`` or ``rounds`` rounds, on files of ``corpus``."""
    rng = random.Random(seed)
    files = sources(corpus)
    done, linted, problems = 0, 0, []
    start = time.monotonic()
    while (rounds and done < rounds) or (not rounds and time.monotonic() - start < seconds):
        picked = rng.sample(files, rng.randint(1, 4))
        with tempfile.TemporaryDirectory() as folder:
            problems += one_round(rng, picked, Path(folder), corpus)
        done += 1
        linted += len(picked)
    return done, linted, problems


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agentv-version", choices=sorted(CORPORA), default="2.2", help="whose real files are edited")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    done, linted, problems = run(args.seconds, args.seed, corpus=CORPORA[args.agentv_version])
    print(f"{done} rounds, {linted} mutated files, each linted in 5 formats and fixed: {len(problems)} problems")
    for problem in problems[:50]:
        print(problem)
    sys.exit(1 if problems else 0)
