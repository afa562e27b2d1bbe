"""Suppression comments: each form, strict parsing, EV099."""
from __future__ import annotations

import io

from evallint import lint_paths
from evallint.cli import main
from evallint.config import Config


def lint(tmp_path, text, **kw):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return [(d.code, d.line, d.column) for d in lint_paths([path], config=Config(references=False, **kw))]


HEAD = "evalcases:\n"


def test_same_line(tmp_path):
    assert lint(tmp_path, HEAD + "  - id: 1  # evallint: disable=EV103\n    expected_outcome: g\n    input: q\n") == []


def test_alone_on_a_line_covers_the_next(tmp_path):
    text = HEAD + "  # evallint: disable=EV103\n  - id: 1\n    expected_outcome: g\n    input: q\n    colour: x\n"
    assert lint(tmp_path, text) == [("EV109", 6, 5)]


def test_several_codes(tmp_path):
    text = HEAD + "  - id: 1\n    expected_outcome: g\n    input: q\n    colour: x  # evallint: disable=EV109, EV305\n"
    assert lint(tmp_path, text) == [("EV103", 2, 9), ("EV099", 5, 16)]


def test_disable_file_for_codes_and_for_all(tmp_path):
    body = "  - id: 1\n    expected_outcome: g\n    input: q\n    colour: x\n"
    assert lint(tmp_path, "# evallint: disable-file=EV109\n" + HEAD + body) == [("EV103", 3, 9)]
    assert lint(tmp_path, HEAD + body + "# evallint: disable-file\n") == []
    assert lint(tmp_path, "# evallint: disable-file\n" + HEAD + "  - id: a\n    expected_outcome: g\n    input: q\n") == [
        ("EV099", 1, 1)]


def test_strict_parsing(tmp_path):
    body = "  - id: a\n    expected_outcome: g\n    input: q\n"
    for comment in ("# evallint: disable EV103", "# evallint: disable", "# evallint: disable=", "# evallint: enable=EV103",
                    "# evallint: disable=EV1"):
        assert lint(tmp_path, HEAD + body + comment + "\n") == [("EV099", 5, 1)], comment


def test_unused_only_for_enabled_rules(tmp_path):
    text = HEAD + "  - id: a  # evallint: disable=EV904\n    expected_outcome: g\n    input: q\n"
    assert lint(tmp_path, text) == []  # EV904 is off: its suppression cannot be judged unused
    assert lint(tmp_path, text, extend_select=("EV904",)) == [("EV904", 1, 1), ("EV099", 2, 12)]


def test_ev099_can_be_ignored(tmp_path):
    text = HEAD + "  - id: a  # evallint: disable=EV103\n    expected_outcome: g\n    input: q\n"
    assert lint(tmp_path, text, ignore=("EV099",)) == []


def test_hash_inside_a_quoted_value_is_not_a_comment(tmp_path):
    text = HEAD + '  - id: "a#evallint: disable=EV103"\n    expected_outcome: g\n    input: q\n'
    assert lint(tmp_path, text) == []


def test_stdin_and_statistics():
    out, err = io.StringIO(), io.StringIO()
    data = io.BytesIO(b"evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n    colour: x\n")
    code = main(["--format", "concise", "--stdin-filename", "evals/x.yaml", "-"], stdout=out, stderr=err, stdin=data)
    assert code == 1 and out.getvalue().splitlines()[0].startswith("evals/x.yaml:2:9: EV103 [error]")
    out = io.StringIO()
    data.seek(0)
    main(["--statistics", "-"], stdout=out, stderr=err, stdin=data)
    assert out.getvalue() == ("     1  EV103  [*] invalid-case-id\n     1  EV109  [ ] unknown-key\n"
                              "Found 1 error, 1 warning in 1 file (1 file checked). 1 fixable with --fix.\n")
