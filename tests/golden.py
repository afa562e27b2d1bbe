"""Helpers for golden fixtures: ``name.yaml`` beside ``name.out``."""
from __future__ import annotations

import os
from pathlib import Path

from evallint import lint_paths
from evallint.config import Config

ROOT = Path(__file__).resolve().parent.parent


def code_of(path: Path) -> str:
    return path.name.split("_", 1)[0]


def render(diagnostics, base: Path) -> str:
    lines = []
    for d in diagnostics:
        rel = os.path.relpath(d.path, base).replace(os.sep, "/")
        lines.append(f"{rel}:{d.line}:{d.column}: {d.code} {d.message}")
    return "".join(line + "\n" for line in lines)


# codes besides the EV4xx that are found in the files a suite names, which only a check of references reads
FOUND_IN_NAMED_FILES = ("EV704",)


def lint_fixture(path: Path, *extra_codes: str):
    """Default rules plus the fixture's own code (style rules are off by default).
    References are checked for EV4xx fixtures (and ``FOUND_IN_NAMED_FILES``') only, from the repository root."""
    code = code_of(path)
    config = Config(extend_select=tuple(extra_codes) or (code,),
                    references=code.startswith("EV4") or code in FOUND_IN_NAMED_FILES, root=str(ROOT))
    return lint_paths([path], config=config)


def fixture_files(folder: Path) -> list:
    """EVxxx_*.yaml / .jsonl files, and EVxxx_* folders (a file with its companions)."""
    return sorted(p for p in folder.glob("EV*") if p.suffix in (".yaml", ".jsonl") or p.is_dir())
