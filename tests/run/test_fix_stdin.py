"""--fix on standard input gives back the bytes that --fix on a file writes: a BOM, line endings and bytes
that are not UTF-8 come through as they are, and only the fixed spans change."""
from __future__ import annotations

import io
import itertools
import subprocess
import sys

import pytest

from evallint.cli import main

BODIES = {
    "fixable": "evalcases:\n  - id: 017\n    expected_outcome: g  # é\n    input: q\n",
    "error": "evalcases:\n  - id: a\n    expected_outcome: g  # é\n    inptu: q\n",
    "clean": "evalcases:\n  - id: a\n    expected_outcome: g  # é\n    input: q\n",
}
BOM = b"\xef\xbb\xbf"


def layout(body: str, bom: bool, newline: str, final_newline: bool, invalid: bool) -> bytes:
    text = body.replace("\n", newline)
    if not final_newline:
        text = text[: -len(newline)]
    data = text.encode()
    if invalid:  # a Latin-1 byte in the comment: not UTF-8, so the file is reported and never fixed
        data = data.replace("é".encode(), b"\xe9")
    return (BOM if bom else b"") + data


LAYOUTS = [
    pytest.param(layout(BODIES[name], bom, newline, final, invalid),
                 id=f"{name}-{'bom' if bom else 'nobom'}-{'crlf' if newline == chr(13) + chr(10) else 'lf'}"
                    f"-{'final' if final else 'open'}{'-latin1' if invalid else ''}")
    for name, bom, newline, final, invalid in itertools.product(BODIES, (False, True), ("\n", "\r\n"),
                                                                 (True, False), (False, True))
    if not (invalid and name == "clean")
]


def fixed_on_disk(tmp_path, data: bytes) -> bytes:
    path = tmp_path / "evals" / "f.yaml"
    path.parent.mkdir()
    path.write_bytes(data)
    main(["--fix", "--quiet", "--no-references", str(path)], stdout=io.StringIO(), stderr=io.StringIO())
    return path.read_bytes()


def fixed_on_stdin(data: bytes) -> bytes:
    out = io.StringIO()
    main(["--fix", "--quiet", "--stdin-filename", "evals/f.yaml", "-"], stdout=out, stderr=io.StringIO(),
         stdin=io.BytesIO(data))
    return out.getvalue().encode("utf-8", "surrogateescape")


@pytest.mark.parametrize("data", LAYOUTS)
def test_standard_input_comes_back_as_the_file_would_be_written(tmp_path, monkeypatch, data):
    monkeypatch.chdir(tmp_path)
    assert fixed_on_stdin(data) == fixed_on_disk(tmp_path, data)


def test_the_fix_applies_on_standard_input_with_a_bom_and_crlf():
    data = layout(BODIES["fixable"], True, "\r\n", True, False)
    assert fixed_on_stdin(data) == data.replace(b"id: 017", b'id: "017"')


@pytest.mark.parametrize("body", ["fixable", "error"])
def test_a_real_stdout_gets_the_bytes_unchanged(tmp_path, body):
    """Through a real process: stdout's bytes, not a text layer's, for fixed and unfixed input alike."""
    data = layout(BODIES[body], True, "\r\n", False, body == "error")
    done = subprocess.run([sys.executable, "-m", "evallint", "--fix", "--quiet", "--stdin-filename",
                           "evals/f.yaml", "-"], input=data, capture_output=True, cwd=tmp_path, timeout=60)
    expected = data.replace(b"id: 017", b'id: "017"') if body == "fixable" else data
    assert done.stdout == expected, done.stderr.decode(errors="replace")
