"""Rewrite the .out file of golden fixtures from evallint's current output.

    python tests/update_golden.py fixtures/bad/EV310_invalid_trajectory_mode.yaml [...]

Review every rewritten line before committing: a golden file is a claim about
what is right, not a snapshot of whatever the code does."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden import lint_fixture, render  # noqa: E402

if __name__ == "__main__":
    for name in sys.argv[1:]:
        path = Path(name)
        out = render(lint_fixture(path), path.parent)
        target = path / "expected.out" if path.is_dir() else path.with_suffix(".out")
        target.write_text(out, encoding="utf-8")
        print(f"== {target}\n{out}", end="")
