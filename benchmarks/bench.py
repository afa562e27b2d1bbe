"""Whole-process timings of evallint against the PyYAML parse floor.

    python benchmarks/bench.py [--sizes 1,1000,10000] [--runs 7] [--out DIR] [--python PATH]
                               [--instructions SIZES]

Corpora are copies of the real AgentV example tree in fixtures/ (eval files
with their prompts, scripts and targets, so references resolve), grown to
the requested number of eval files. Every command runs in a fresh process;
each round runs every command once, in an order rotated from round to round,
each right after a run of the PyYAML compose floor and with every file of the
corpus and of the installation read just before that pair (a warm page cache
for both); rounds repeat, and the table shows median times, the ratio to the
floor (the median over the rounds of each run's time over the floor's run just
before it, and their range), and peak memory.
With --instructions, each one-process command also runs once under
valgrind's callgrind, which counts the instructions it executes: a measure
that does not drift with the machine's load."""
from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus" / "agentv-examples"
# AgentV version -> (the example tree a corpus is grown from, the key an eval file of it holds)
SOURCES = {"2.2": (CORPUS, "evalcases"), "4.42": (ROOT / "fixtures" / "agentv-4.42.4-examples", "tests:")}
# AgentV version -> the small eval file of its examples the cold start lints (the same example in both)
COLD_START_FILES = {"2.2": CORPUS / "examples" / "features" / "rubric" / "evals" / "dataset.yaml",
                    "4.42": SOURCES["4.42"][0] / "examples" / "features" / "rubric" / "evals" / "dataset.eval.yaml"}

FLOOR = """
import sys, yaml
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
for path in open(sys.argv[1], encoding="utf-8").read().split("\\n"):
    if path:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if sys.argv[2] == "compose":
            loader = Loader(text)
            try:
                loader.get_single_node()
            finally:
                loader.dispose()
        else:
            yaml.load(text, Loader=Loader)
"""


def eval_files(tree: Path, key: str) -> list:
    out = []
    for path in sorted(tree.rglob("*.yaml")):
        if ".agentv" in path.parts or path.with_suffix(".jsonl").exists():
            continue
        if key in path.read_text(encoding="utf-8"):
            out.append(path)
    return out


def yaml_files(tree: Path) -> list:
    """Every YAML file evallint parses in the tree (eval files, sidecars, targets, config): the floor parses
    exactly these, so it does the same parsing work."""
    return sorted(p for p in tree.rglob("*.y*ml") if ".git" not in p.parts and ".evallint_cache" not in p.parts)


def make_corpus(base: Path, size: int, source: tuple) -> Path:
    """A git repository with ``size`` eval files, built from copies of the real corpus ``source`` (its tree,
    the key of its eval files), its files committed as a user's checkout is: evallint asks the last commit what a
    file held when what it holds now does not tell its kind, and keeps no cached result made without that answer."""
    tree, key = source
    target = base / f"corpus-{size}"
    if (target / ".done").exists() and (target / ".git" / "HEAD").exists():
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    per_copy = len(eval_files(tree, key))
    copies = max(1, -(-size // per_copy))
    for i in range(copies):
        shutil.copytree(tree, target / f"copy{i:05d}")
    extra = eval_files(target, key)[size:]
    for path in extra:  # trim to the exact size
        path.unlink()
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the corpus"]):
        subprocess.run([*git, *args], cwd=target, check=True, stdout=subprocess.DEVNULL)
    (target / ".done").write_text(str(size))
    return target


def run(cmd: list, cwd: Path) -> tuple:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(map(str, cmd))} failed with {proc.returncode}")
    return elapsed, usage.ru_maxrss / 1024  # MiB (Linux reports KiB)


def commands(corpus: Path, list_file: Path, evallint: list) -> dict:
    py = evallint[0]  # the floor runs on the same interpreter and PyYAML
    cmds = {
        "pyyaml compose (floor)": [py, "-c", FLOOR, str(list_file), "compose"],
        "pyyaml load": [py, "-c", FLOOR, str(list_file), "load"],
        "evallint -j1 --no-references": [*evallint, "-q", "--no-cache", "-j1", "--no-references", "."],
        "evallint -j1": [*evallint, "-q", "--no-cache", "-j1", "."],
        "evallint all cores": [*evallint, "-q", "--no-cache", "."],
        "evallint cached": [*evallint, "-q", "."],
        # a first run: the same cache, emptied before each run
        "evallint empty cache": ["sh", "-c", 'rm -rf "$0" && exec "$@"', str(corpus.parent / f"empty-cache-{corpus.name}"),
                                 *evallint, "-q", "--cache-dir", str(corpus.parent / f"empty-cache-{corpus.name}"), "."],
    }
    if shutil.which("yamllint"):
        cmds["yamllint"] = ["yamllint", "-d", "relaxed", "."]
    if shutil.which("check-jsonschema"):
        schema = corpus / "empty-schema.json"
        schema.write_text("{}")
        files = list_file.read_text().split()
        cmds["check-jsonschema (empty schema)"] = ["check-jsonschema", "--schemafile", str(schema), *files]
    return cmds


def prepared(size: int, base: Path, source: tuple) -> tuple:
    """(corpus, its YAML files, the file listing them for the floor)."""
    corpus = make_corpus(base, size, source)
    files = yaml_files(corpus)
    list_file = corpus.parent / f"files-{size}.txt"
    list_file.write_text("\n".join(str(f) for f in files) + "\n")
    return corpus, files, list_file


FLOOR_NAME = "pyyaml compose (floor)"


def bench(size: int, runs: int, base: Path, evallint: list, source: tuple) -> tuple:
    """Each round runs every command once, in an order rotated from round to round (no command always
    runs first, on a machine that has just idled, or last), each right after a run of the floor and
    with the files read just before that pair: a command's ratio in a round is its time over the
    floor's run of a moment before, so the machine's drift in speed over a round (large here: a
    third within minutes) does not enter it."""
    corpus, files, list_file = prepared(size, base, source)
    cmds = commands(corpus, list_file, evallint)
    warm(corpus, evallint)
    others = [name for name in cmds if name != FLOOR_NAME]
    times: dict = {name: [] for name in cmds}
    ratios: dict = {name: [] for name in others}
    memory: dict = {name: 0.0 for name in cmds}
    installed = Path(subprocess.run([evallint[0], "-c", "import sys; print(sys.prefix)"], capture_output=True,
                                    text=True, check=True).stdout.strip())
    for round_number in range(runs):
        turn = round_number % len(others)
        for name in others[turn:] + others[:turn]:
            read_all(corpus, installed)
            floor, floor_peak = run(cmds[FLOOR_NAME], corpus)
            elapsed, peak = run(cmds[name], corpus)
            times[FLOOR_NAME].append(floor)
            times[name].append(elapsed)
            ratios[name].append(elapsed / floor)
            memory[FLOOR_NAME] = max(memory[FLOOR_NAME], floor_peak)
            memory[name] = max(memory[name], peak)
    mb = sum(f.stat().st_size for f in files) / 1e6
    rows = [(size, mb, FLOOR_NAME, statistics.median(times[FLOOR_NAME]), 1.0, 1.0, 1.0, memory[FLOOR_NAME])]
    for name in others:
        rows.append((size, mb, name, statistics.median(times[name]), statistics.median(ratios[name]),
                     min(ratios[name]), max(ratios[name]), memory[name]))
    return rows, ratios


# (cached run, uncached run it is compared with)
CACHE_PAIRS = (("evallint cached", "evallint all cores"), ("evallint cached", "evallint -j1"),
               ("evallint empty cache", "evallint all cores"))


def cached_ratios(ratios: dict) -> list:
    """Each cached run against an uncached one: the median over the rounds of the ratio of their ratios to
    the floor (each measured against a floor run of its own moment)."""
    return [(cached, name, statistics.median(c / u for c, u in zip(ratios[cached], ratios[name], strict=True)))
            for cached, name in CACHE_PAIRS]


def round_ratios(times: list, floors: list) -> list:
    """Each run's time divided by that of the base run paired with it (run just before it). The speed of
    the machine drifts by a third within minutes, and a pair runs within seconds, so each ratio is
    measured at one speed; the median of these is the ratio shown (the ratio of the medians would mix
    runs made at different speeds)."""
    return [t / f for t, f in zip(times, floors, strict=True)]


def read_all(*folders: Path) -> None:
    """Read every file below ``folders`` (the corpus, the installation), so the floor run and the command
    run of a pair both start with them in the page cache. Every command reads the YAML files, but only
    evallint reads the prompts, scripts and datasets they point at; this machine drops pages left
    unread for about a minute, and a round at 10,000 files lasts longer than that, so without this a
    command would be timed reading the disk or not depending on how long ago they were last read."""
    stack = [str(folder) for folder in folders]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            elif entry.is_file(follow_symlinks=False):
                try:
                    with open(entry.path, "rb") as fh:
                        while fh.read(1 << 20):
                            pass
                except OSError:
                    pass


def warm(corpus: Path, evallint: list) -> None:
    """Fill the cache for "cached" as a user's runs would: the first run hashes the files written in the
    two seconds before it (a fresh corpus), the next, once they have settled, records their stat."""
    subprocess.run([*evallint, "-q", "."], cwd=corpus, stdout=subprocess.DEVNULL)
    time.sleep(2.1)
    subprocess.run([*evallint, "-q", "."], cwd=corpus, stdout=subprocess.DEVNULL)


def cold_start_commands(evallint: list, one: Path) -> dict:
    """The import floor first, then evallint on one small file, ``one``."""
    return {"python -c 'import yaml, marshmallow, colorama'": [evallint[0], "-c", "import yaml, marshmallow, colorama"],
            "evallint one file": [*evallint, "-q", "--no-cache", str(one)]}


def cold_start(runs: int, evallint: list, cwd: Path, one: Path) -> list:
    cmds = cold_start_commands(evallint, one)
    times: dict = {name: [] for name in cmds}
    for _ in range(runs * 3):
        for name, cmd in cmds.items():
            times[name].append(run(cmd, cwd)[0])  # not ROOT: "-m evallint" there would import the source tree
    base = times[next(iter(cmds))]
    return [(name, statistics.median(t), statistics.median(round_ratios(t, base))) for name, t in times.items()]


def instructions(cmd: list, cwd: Path) -> Optional[int]:
    """Instructions the command's process executes in user space, counted by valgrind's callgrind:
    exact and repeatable, where times on a shared machine drift by a third within minutes. (Time
    spent in the kernel, and how fast each instruction runs, are not in it.)"""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", *cmd], cwd=cwd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else None


def count_instructions(sizes: list, base: Path, evallint: list, source: tuple, one: Path) -> list:
    """(files, command, instructions, × floor) of every one-process command, once each (all cores is
    left out: its processes run side by side, so their sum says nothing of the time taken)."""
    rows = []
    for size in sizes:
        corpus, _, list_file = prepared(size, base, source)
        cmds = {name: cmd for name, cmd in commands(corpus, list_file, evallint).items()
                if name.startswith(("pyyaml", "evallint -j1", "evallint cached"))}
        warm(corpus, evallint)
        rows += _counted(size, cmds, corpus)
    return rows + _counted(1, cold_start_commands(evallint, one), base)


def _counted(size: int, cmds: dict, cwd: Path) -> list:
    """Rows of ``count_instructions`` for ``cmds``, whose first command is the floor."""
    counts = {name: instructions(cmd, cwd) for name, cmd in cmds.items()}
    floor = counts[next(iter(cmds))]
    return [(size, name, n, n / floor if n and floor else None) for name, n in counts.items()]


def installed_python(base: Path) -> str:
    """The interpreter of a virtual environment holding evallint as a user installs it (``pip install .``,
    bytecode compiled), refreshed from this tree. Not an editable install: that adds an import hook to
    the start of every process, which is not what users run."""
    venv = base / "venv"
    python = venv / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")
    quiet = {"stdout": subprocess.DEVNULL}
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, **quiet)
        subprocess.run([str(python), "-m", "pip", "install", "-q", str(ROOT)], check=True, **quiet)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(ROOT)],
                   check=True, **quiet)
    return str(python)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,1000,10000")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--out", help="where corpora are built (default: benchmarks/corpora, "
                        "benchmarks/corpora-4.42 for AgentV 4.42.4's)")
    parser.add_argument("--agentv-version", choices=sorted(SOURCES), default="2.2",
                        help="grow the corpus from this AgentV version's examples (default: %(default)s)")
    parser.add_argument("--instructions", metavar="SIZES",
                        help="also count the instructions of each one-process command once, with valgrind, on "
                        "these sizes (about a minute per thousand files and command)")
    parser.add_argument("--python", help="time this interpreter's evallint and PyYAML instead of a fresh "
                        "`pip install .` of this tree in OUT/venv")
    args = parser.parse_args()
    source = SOURCES[args.agentv_version]
    base = Path(args.out or ROOT / "benchmarks" / ("corpora" if args.agentv_version == "2.2" else "corpora-4.42"))
    base.mkdir(parents=True, exist_ok=True)
    python = args.python or installed_python(base)
    if args.python:  # maybe an editable install: bytecode as an install has it (PYTHONDONTWRITEBYTECODE
        # would otherwise make every timed process compile the changed modules again)
        subprocess.run([python, "-m", "compileall", "-q", str(ROOT / "evallint")], check=True,
                       stdout=subprocess.DEVNULL)
    evallint = [python, "-m", "evallint"]
    print(f"# evallint benchmark, {date.today()}, {platform.platform()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, {args.runs} runs (median)\n")
    print("| files | MB | command | median s | × floor | rounds | peak MiB |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    cache_rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        rows, ratios = bench(size, args.runs, base, evallint, source)
        for files, mb, name, median, ratio, low, high, peak in rows:
            spread = "" if name == FLOOR_NAME else f"{low:.2f}-{high:.2f}"
            print(f"| {files} | {mb:.1f} | {name} | {median:.3f} | {ratio:.2f} | {spread} | {peak:.0f} |",
                  flush=True)
        cache_rows += [(size, *row) for row in cached_ratios(ratios)]
    print("\n| files | run | against | × |")
    print("|---:|---|---|---:|")
    for size, cached, name, ratio in cache_rows:
        print(f"| {size} | {cached} | {name} | {ratio:.2f} |")
    print("\n| cold start | median s | × import floor |")
    print("|---|---:|---:|")
    for name, median, ratio in cold_start(args.runs, evallint, base, COLD_START_FILES[args.agentv_version]):
        print(f"| {name} | {median:.3f} | {ratio:.2f} |")
    if args.instructions:
        if not shutil.which("valgrind"):
            print("\n--instructions needs valgrind", file=sys.stderr)
            return 1
        print("\n| files | command | million instructions | × floor |")
        print("|---:|---|---:|---:|")
        sizes = [int(s) for s in args.instructions.split(",")]
        for files, name, count, ratio in count_instructions(sizes, base, evallint, source,
                                                           COLD_START_FILES[args.agentv_version]):
            shown = f"{count / 1e6:.0f}" if count else "?"
            print(f"| {files} | {name} | {shown} | {f'{ratio:.2f}' if ratio else '?'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
