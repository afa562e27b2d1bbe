"""Coverage-guided fuzzing of the whole per-file pipeline with atheris.

    pip install atheris
    mkdir -p /tmp/evallint-fuzz
    python tests/fuzz/fuzz_lint.py -max_total_time=600 /tmp/evallint-fuzz fixtures/hostile/evals fixtures/good

The first folder receives the new inputs libFuzzer finds (keep it out of the repository).

Any exception, any EV000 and any diagnostic outside the file is a crash that
atheris reports with the input that caused it. Not run in CI."""
from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from evallint.config import Config
    from evallint.lint import lint_bytes

CONFIG = Config(references=False, extend_select=("EV9",))


def test_one_input(data: bytes) -> None:
    result = lint_bytes(data, "evals/fuzz.yaml", CONFIG, references=False)
    if result.traceback is not None:
        raise RuntimeError(result.traceback)
    lines = data.decode("utf-8", "replace").lstrip("\ufeff").split("\n")
    for d in result.diagnostics:
        if d.code == "EV000" or not 1 <= d.line <= max(1, len(lines)):
            raise RuntimeError(f"bad diagnostic {d}")


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
