"""Fuzzing ``--fix`` with atheris: a fixed file must mean what the original meant, with only the fixes'
keys and values changed (tests/fixvariants.py says how a file is read and what a fix may change).

    pip install atheris
    mkdir -p /tmp/evallint-fuzz-fix
    python tests/fuzz/fuzz_fix.py -max_total_time=600 /tmp/evallint-fuzz-fix

Each input seeds the layout of one variant (anchors, tags, comments, block scalars, flow style, '---'
lines, indentation); an input starting with '#' or a letter is used as a file as it is, if PyYAML reads
it. The fixes are made as ``--fix --unsafe-fixes`` makes them, without writing a file. Any exception is a
crash that atheris reports with the input that caused it. Not run in CI; tests/run/test_fix_variants.py runs
300 seeds of the same check."""
from __future__ import annotations

import os
import random
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

with atheris.instrument_imports():
    from fixvariants import meaning, variant

    from evallint.config import Config
    from evallint.lint import lint_bytes
    from evallint.run.autofix import fix_file

CONFIG = Config(references=False, extend_select=("EV9", "EV322"))


def _text(data: bytes):
    if data[:1].isalpha() or data[:1] == b"#":
        text = data.decode("utf-8", "replace")
        try:
            return text, meaning(text)
        except Exception:  # noqa: BLE001 - not a file PyYAML reads as one document: nothing to compare with
            return None, None
    text = variant(random.Random(data)).text
    return text, meaning(text)


def test_one_input(data: bytes) -> None:
    text, before = _text(data)
    if text is None:
        return
    result = lint_bytes(text.encode(), "evals/fuzz.yaml", CONFIG, references=False)
    if result.source is None:
        return
    outcome = fix_file(result, CONFIG, unsafe=True)
    fixed = ("\ufeff" if result.source.bom else "") + outcome.text
    if outcome.changed and meaning(fixed) != before:
        raise RuntimeError(f"the fixes changed the meaning of:\n{text}\ninto:\n{fixed}")
    left = [d.code for d in outcome.result.diagnostics if d.fix is not None]
    if left and outcome.count:
        raise RuntimeError(f"fixes {left} are left after {outcome.count} were made in:\n{fixed}")


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
