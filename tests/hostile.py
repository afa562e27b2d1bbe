"""Hostile inputs: small ones are checked in under fixtures/hostile/,
large and special ones (FIFOs, links, 50 MB) are made at test time by ``build``, and so are inputs of thousands
of items (tests, targets, case files), by ``build_many``.

    python tests/hostile.py fixtures/hostile     # rewrite the checked-in files
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

CASE = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"


def _laughs() -> str:
    lines = ["evalcases: []", "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    return "\n".join(lines) + "\n"


def _merge_bomb() -> str:
    lines = ["evalcases: []", "l0: &l0 {a: 1, b: 2}"]
    lines += [f"l{i}: &l{i}\n  <<: [" + ", ".join([f"*l{i - 1}"] * 8) + "]" for i in range(1, 9)]
    return "\n".join(lines) + "\n"


# name -> (bytes, expected codes in order of appearance)
SMALL = {
    "billion_laughs.yaml": (_laughs().encode(), ["EV005"]),
    "quadratic_alias.yaml": (("evalcases: []\nbig: &big [" + ", ".join(["x"] * 200) + "]\nuse: ["
                              + ", ".join(["*big"] * 200) + "]\n").encode(), ["EV005"]),
    # the first merge lacks its keys (EV010); the next merge mappings left empty by it (EV013)
    "merge_bomb.yaml": (_merge_bomb().encode(), ["EV010", "EV013", "EV013", "EV005"]),
    "recursive_alias.yaml": (b"evalcases: &loop [*loop]\n", ["EV005"]),
    "undefined_alias.yaml": (b"evalcases: *nowhere\n", ["EV001"]),
    "deep_sequence_10k.yaml": (("evalcases: " + "[" * 10_000 + "]" * 10_000 + "\n").encode(), ["EV006"]),
    "deep_mapping_10k.yaml": (("evalcases: " + "{a: " * 10_000 + "1" + "}" * 10_000 + "\n").encode(), ["EV006"]),
    "deep_block_10k.yaml": (("evalcases:\n" + "  " + "- " * 10_000 + "x\n").encode(), ["EV006"]),
    "invalid_utf8.yaml": (b"evalcases:\n  - id: caf\xe9\n", ["EV002"]),
    "utf16_bom.yaml": (b"\xff\xfe" + CASE.encode("utf-16-le"), ["EV002"]),
    "utf8_bom.yaml": (b"\xef\xbb\xbf" + CASE.encode(), []),
    "nul_byte.yaml": (b"evalcases:\n  - id: a\x00b\n", ["EV002"]),
    "crlf.yaml": (CASE.replace("\n", "\r\n").encode(), []),
    "tabs.yaml": (b"evalcases:\n\t- id: a\n", ["EV001"]),
    "duplicate_keys.yaml": ((CASE + "evalcases: []\n").encode(), ["EV003"]),
    "python_tags.yaml": (b"evalcases: !!python/object/apply:os.system ['echo pwned']\n", ["EV004", "EV102"]),
    "unknown_local_tag.yaml": ((CASE.replace("input: q", "input: !secret q")).encode(), ["EV004"]),
    "multi_document.yaml": ((CASE + "---\n" + CASE).encode(), ["EV007"]),
    "empty.yaml": (b"", ["EV008"]),
    "comments_only.yaml": (b"# nothing but a comment\n# and another\n", ["EV008"]),
    "scalar_root.yaml": (b"just a string\n", ["EV008"]),
    "list_root.yaml": (b"- id: a\n  expected_outcome: g\n", ["EV008"]),
    "odd_keys.yaml": ((CASE + "    1: one\n    ? [a, b]\n    : complex\n    null: nothing\n").encode(),
                      ["EV109", "EV109", "EV109"]),
    "huge_numbers.yaml": (("evalcases:\n  - id: " + "9" * 5000 + "\n    expected_outcome: g\n    input: q\n"
                           "    evaluators:\n      - {name: t, type: latency, threshold: 1e400}\n").encode(),
                          ["EV103", "EV350"]),
    "bad_dates.yaml": (b"evalcases:\n  - id: 2026-02-30\n    expected_outcome: 2026-13-45T99:99:99\n    input: q\n",
                       []),
    "yaml11_booleans.yaml": (b"evalcases:\n  - id: yes\n    expected_outcome: no\n    input: on\n", []),
    "path_traversal.yaml": ((CASE.replace("input: q", "input:\n      - role: user\n        content:\n"
                                          "          - {type: file, value: ../../../../../../../../etc/passwd}")).encode(),
                            ["EV403"]),
}

# made at test time: name -> expected codes
LARGE = {
    "deep_sequence_1m.yaml": ["EV006"],
    "deep_mapping_1m.yaml": ["EV006"],
    "deep_block_1m.yaml": ["EV006"],
    "big_50mb.yaml": ["EV006"],
    "line_10mb.yaml": ["EV006"],
    "quadratic_merge.yaml": None,  # thousands of EV010, then EV005: checked by prefix
    "long_script_4mb.yaml": [],  # one 4 MB word in a code_judge's command string: over the cap, never given to shlex
    "link_out_of_root.yaml": ["EV009"],
    "link_loop.yaml": ["EV009"],
    "fifo.yaml": ["EV009"],
    "dev_zero.yaml": ["EV009"],
    "directory.yaml": ["EV009"],
}

# made at test time, each linted in its own process rather than in a folder of hostile files, where each would
# add its seconds: name -> expected codes
MANY = {
    "dependency_chain_10k.eval.yaml": [],  # each of 10,000 tests depends on the one before: no cycle, found in linear time
    "unknown_dependencies_10k.eval.yaml": ["EV122"] * 10_000,  # each names no test: few compared with the 10,000 ids
    # 10,000 targets each standing for the next: those more than 5 steps from the end, each followed once (in a
    # folder of its own, where no eval file of this folder uses it)
    "chain/.agentv/targets.yaml": ["EV511"] * 9_995,
    "folder_2k.eval.yaml": [],  # a folder of 2,000 tests: each case file finds its suite's folder listed once
    "string_5mb.jsonl": [],  # a dataset line with a string of 5 MB, read in memory that does not grow per character
}


def write_small(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (data, _) in SMALL.items():
        (folder / name).write_bytes(data)


def build(folder: Path, outside: Path) -> None:
    """Make the large and special inputs in ``folder`` (inside a repository);
    ``outside`` is a folder outside that repository."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deep_sequence_1m.yaml").write_text("evalcases: " + "[" * 1_000_000 + "]" * 1_000_000 + "\n")
    (folder / "deep_mapping_1m.yaml").write_text("evalcases: " + "{a: " * 1_000_000 + "1" + "}" * 1_000_000 + "\n")
    (folder / "deep_block_1m.yaml").write_text("evalcases:\n  " + "- " * 1_000_000 + "x\n")
    with open(folder / "big_50mb.yaml", "w") as fh:
        fh.write(CASE)
        chunk = "# " + "x" * 1022 + "\n"
        for _ in range(50 * 1024):
            fh.write(chunk)
    (folder / "line_10mb.yaml").write_text(CASE.replace("expected_outcome: g", "expected_outcome: " + "y" * 10_000_000))
    keys = "".join(f"  k{i}: {i}\n" for i in range(5000))
    merges = "".join(f"m{i}:\n  <<: *map\n" for i in range(5000))
    (folder / "quadratic_merge.yaml").write_text("evalcases: []\nmap: &map\n" + keys + merges)
    (folder / "long_script_4mb.yaml").write_text(
        CASE + "    evaluators:\n      - {name: k, type: code_judge, script: " + "x" * 4_000_000 + "}\n")
    (outside / "secret.yaml").write_text(CASE)
    os.chmod(outside / "secret.yaml", 0)
    (folder / "link_out_of_root.yaml").symlink_to(outside / "secret.yaml")
    (folder / "link_loop.yaml").symlink_to(folder / "link_loop_b.yaml")
    (folder / "link_loop_b.yaml").symlink_to(folder / "link_loop.yaml")
    os.mkfifo(folder / "fifo.yaml")
    (folder / "dev_zero.yaml").symlink_to("/dev/zero")
    (folder / "directory.yaml").mkdir()


def build_many(folder: Path) -> None:
    """Make the inputs of thousands of items in ``folder`` (inside a repository)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dependency_chain_10k.eval.yaml").write_text("tests:\n" + "".join(
        f"  - {{id: t{i}, input: hi, criteria: ok, depends_on: [t{i - 1}]}}\n" if i else "  - {id: t0, input: hi, criteria: ok}\n"
        for i in range(10_000)))
    (folder / "unknown_dependencies_10k.eval.yaml").write_text("tests:\n" + "".join(
        f"  - {{id: t{i}, input: hi, criteria: ok, depends_on: [u{i}]}}\n" for i in range(10_000)))
    (folder / "string_5mb.jsonl").write_text('{"id": "a", "criteria": "c", "input": "' + "x" * 5_000_000 + '"}\n')
    (folder / "folder_2k.eval.yaml").write_text("tests: ./cases_2k/\n")
    for i in range(2_000):
        (folder / "cases_2k" / f"case{i:04d}").mkdir(parents=True)
        (folder / "cases_2k" / f"case{i:04d}" / "case.yaml").write_text("input: hi\ncriteria: ok\n")
    (folder / "chain" / ".agentv").mkdir(parents=True)
    (folder / "chain" / ".agentv" / "targets.yaml").write_text("targets:\n" + "".join(
        f"  - {{name: t{i}, use_target: t{i + 1}}}\n" for i in range(10_000)) + "  - {name: t10000, provider: mock}\n")


if __name__ == "__main__":
    write_small(Path(sys.argv[1]))
