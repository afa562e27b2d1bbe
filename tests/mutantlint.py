"""Lint single-mistake variants of a corpus as the differential tests do: every variant built into one copy
of the corpus (a git repository whose last commit holds each variant's unmutated text at the variant's
path, so the mistake is an edit of a file that exists), linted once by the command line; then, per
variant, the errors it has that its unmutated file has not, and whether one is at the place of the edit.

``python tests/mutantlint.py`` prints evallint's figures on AgentV 4.42.4's variants, group by group (see
``groups``): of those the runner treats differently from their source, how many get an error at the edit (and
how many only a warning, or nothing); of those it treats identically, how many get an error."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ANCHOR = re.compile(r"&([^\s,\[\]{}]+)")  # a YAML anchor's name, as the spec allows it in a plain line

def build(corpus: Path, mutants: list, folder: Path) -> dict:
    """path -> its diagnostics (JSON) for every variant and every unmutated source, linted in a copy of
    ``corpus`` at ``folder``; "<repo>" -> that copy."""
    repo = folder / corpus.name
    shutil.copytree(corpus, repo)
    for mutant in mutants:
        shutil.copyfile(corpus / mutant["source"], repo / mutant["file"])
    for source in {baseline(m) for m in mutants} - {m["source"] for m in mutants}:
        shutil.copyfile(corpus / source.replace(UNEDITED, ""), repo / source)
    git = ["git", "-c", "user.name=evallint", "-c", "user.email=evallint@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "the unmutated files"], cwd=repo, check=True)
    for mutant in mutants:
        (repo / mutant["file"]).write_bytes(edited_file(corpus, mutant).encode("utf-8"))
    sources = sorted({m["source"] for m in mutants} | {baseline(m) for m in mutants})
    return {**lint_paths(repo, sources), **lint_paths(repo, [m["file"] for m in mutants]), "<repo>": repo}


UNEDITED = "__unedited"


def baseline(mutant: dict) -> str:
    """The file a variant's diagnostics are compared with: its source, or for a dataset's line, an unedited copy of
    the dataset beside it, which no suite names and no sidecar of its name sets, as none does the variant."""
    source = mutant["source"]
    if not source.endswith(".jsonl"):
        return source
    return source[:-len(".jsonl")] + UNEDITED + ".jsonl"


def edited_file(corpus: Path, mutant: dict) -> str:
    """The variant's text, made as the generator made the text the runner loaded."""
    from agentv.mutants import apply

    return apply((corpus / mutant["source"]).read_text(encoding="utf-8"), mutant["edits"])


def lint_paths(folder: Path, paths: list) -> dict:
    """path -> its diagnostics (JSON), from one run of the command line over ``paths``."""
    proc = subprocess.run([sys.executable, "-m", "evallint", "--no-cache", "--format", "json", "--exit-zero", *paths],
                          cwd=folder, capture_output=True, text=True, check=True)
    out: dict = {path: [] for path in paths}
    for d in json.loads(proc.stdout):
        out.setdefault(d["path"], []).append(d)
    return out


def new_errors(mutant: dict, linted: dict) -> list:
    """The mutant's errors that its unmutated file does not have (same code and message; for a renamed key,
    the message with the new name quoted in it read as the old, so that a finding about a key the runner
    does not read in either spelling is the same finding)."""
    base = Counter((d["code"], d["message"]) for d in linted[baseline(mutant)] if d["severity"] == "error")
    out = []
    for d in linted[mutant["file"]]:
        if d["severity"] != "error":
            continue
        said = (d["code"], _renamed_back(d["message"], mutant.get("renamed")))
        if base[said] > 0:
            base[said] -= 1
        else:
            out.append(d)
    return out


def _renamed_back(message: str, renamed) -> str:
    if not renamed:
        return message
    old, new = renamed
    return message.replace(f"'{new}'", f"'{old}'")


def place(corpus: Path, mutant: dict, text: str) -> set:
    """The lines (1-based) at the place of the edit: the lines it wrote (for a cut, the lines around it), the
    first line of each node that holds it (found by indentation), the other lines of the innermost mapping
    that holds it (a missing key is reported at its mapping, a value whose meaning the edit changed at the
    value), and for an edit of the top level, the file's first key (a finding about the whole file)."""
    lines = text.splitlines()
    source = (corpus / mutant["source"]).read_text(encoding="utf-8").splitlines()
    lines_at = set()
    offset = 0
    for start, end, new in sorted(mutant["edits"]):
        first, last = start + offset, start + offset + len(new)
        offset += len(new) - (end - start)
        lines_at.update(range(first, max(last, first + 1)))
        if last == first:
            lines_at.add(first - 1)
        lines_at.update(_holders(lines, min(first, len(lines) - 1)))
        written = [line for line in list(new) + source[start:end] if _content(line)]
        if not written or _indent(written[0]) == 0:
            keys = [n for n, line in enumerate(lines) if _content(line) and not line.startswith(("%", "---"))]
            lines_at.update(keys[:1] or [0])
        lines_at.update(_aliases_of_cut_anchors(lines, source[start:end], new))
    return {n + 1 for n in lines_at}


def _aliases_of_cut_anchors(lines: list, cut: list, new: list) -> set:
    """The lines (0-based) that use an anchor the edit cut: the alias is where the YAML breaks."""
    anchors = set(ANCHOR.findall("".join(cut))) - set(ANCHOR.findall("".join(new)))
    return {n for n, line in enumerate(lines) for name in anchors if re.search(rf"\*{re.escape(name)}\b", line)}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


def _holders(lines: list, at: int) -> set:
    """The first line of each node holding line ``at``, and the other lines of the innermost one."""
    while at >= 0 and not _content(lines[at]):
        at -= 1
    if at < 0:
        return set()
    out, depth, innermost = set(), _indent(lines[at]), True
    for n in range(at - 1, -1, -1):
        if _content(lines[n]) and _indent(lines[n]) < depth:
            out.add(n)
            depth = _indent(lines[n])
            if innermost:
                below = n + 1
                while below < len(lines) and (not _content(lines[below]) or _indent(lines[below]) > depth):
                    out.add(below)
                    below += 1
                innermost = False
    return out


def verdict(corpus: Path, mutant: dict, linted: dict) -> str:
    """What evallint says of a variant beyond what it says of its source: "error at the edit", "error
    elsewhere", "warning only" or "silent"."""
    errors = new_errors(mutant, linted)
    if errors:
        text = (linted["<repo>"] / mutant["file"]).read_text(encoding="utf-8", errors="replace")
        at = place(corpus, mutant, text)
        return "error at the edit" if any(d["line"] in at for d in errors) else "error elsewhere"
    base = Counter((d["code"], d["message"]) for d in linted[baseline(mutant)])
    warned = any(base[(d["code"], d["message"])] == 0 for d in linted[mutant["file"]])
    return "warning only" if warned else "silent"


def groups(mutants: list) -> list:
    """(name, variants) for each group the figures count: the variants the runner treats differently from
    their source, those of them it complains of (prints a line or throws), those it reads alike but for a
    warning it prints, those whose only difference is carried into a grader's config, those it treats
    identically."""
    differ = [m for m in mutants if not (m["identical"] or m["carried"] or m["warned"])]
    return [("treated differently", differ),
            ("of them complained of by the runner", [m for m in differ if m["runner"]["logs"] or m["runner"]["error"]]),
            ("read alike but for a warning the runner prints", [m for m in mutants if m["warned"]]),
            ("carried into a grader's config", [m for m in mutants if m["carried"]]),
            ("treated identically", [m for m in mutants if m["identical"]])]


def main() -> int:
    import tempfile

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    corpus = fixtures / "agentv-4.42.4-examples"
    mutants = [json.loads(line) for line in (fixtures / "agentv-4.42.4-mutants" / "mutants.jsonl").open()]
    with tempfile.TemporaryDirectory() as folder:
        linted = build(corpus, mutants, Path(folder))
        for group, chosen in groups(mutants):
            counts = Counter(verdict(corpus, m, linted) for m in chosen)
            print(f"{len(chosen)} {group}: " + ", ".join(f"{n} {what}" for what, n in counts.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
