"""Fixes on YAML whose layout gives a text edit another meaning: a value on the next line or
in a block scalar, '---' lines with a comment, tag or anchor, an indented top level, a lone anchor or tag
line, anchors and tags on the node a fix edits. Each fix gives the intended data or is not offered."""
from __future__ import annotations

import pytest
from clirun import run

from evallint import lint_paths
from evallint.config import Config

CASE = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
SCHEMA = "$schema: agentv-eval-v2\n"


def fixed(tmp_path, text: str, code: str) -> tuple:
    """(exit code, stderr, the file after ``evallint --fix`` with only rule ``code`` selected)."""
    (tmp_path / "evals").mkdir(exist_ok=True)
    path = tmp_path / "evals" / "suite.yaml"
    path.write_bytes(text.encode())
    code_, _, err = run("--fix", "--select", code, "--no-references", "--format", "concise", "--quiet", str(path))
    return code_, err, path.read_bytes().decode()


def fixable(tmp_path, text: str, code: str) -> list:
    path = tmp_path / "evals" / "suite.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode())
    return [(d.code, d.line, d.fix is not None) for d in lint_paths([path], config=Config(select=(code,),
                                                                                          references=False))]


@pytest.mark.parametrize("before, after", [
    ("target:\n  default\n" + CASE, "execution:\n  target:\n    default\n" + CASE),
    ("target: |\n  default\n\n" + CASE, "execution:\n  target: |\n    default\n\n" + CASE),
    ("target: >-\n  de\n  fault\n" + CASE, "execution:\n  target: >-\n    de\n    fault\n" + CASE),
    ("target: &t default  # the model\n" + CASE + "    conversation_id: *t\n",
     "execution:\n  target: &t default  # the model\n" + CASE + "    conversation_id: *t\n"),
    ("  target: default\n  evalcases: []\n", "  execution:\n    target: default\n  evalcases: []\n"),
    ("target: default\r\n" + CASE.replace("\n", "\r\n"), "execution:\r\n  target: default\r\n" + CASE.replace("\n", "\r\n")),
], ids=["next-line", "literal", "folded", "anchor-and-comment", "indented", "crlf"])
def test_ev902_moves_the_whole_entry(tmp_path, before, after):
    assert fixed(tmp_path, before, "EV902") == (0, "", after)


@pytest.mark.parametrize("header, after", [
    ("# c\n--- # the suite\n", "# c\n--- # the suite\n" + SCHEMA),
    ("--- !!map\n", "--- !!map\n" + SCHEMA),
    ("--- &top\n", "--- &top\n" + SCHEMA),
    ("# c\n&top\n", "# c\n&top\n" + SCHEMA),
    ("!!map\n", "!!map\n" + SCHEMA),
    ("# c\n\n&top # the suite\n", "# c\n\n&top # the suite\n" + SCHEMA),
    ("# c\n\n", "# c\n" + SCHEMA + "\n"),
], ids=["dashes-comment", "dashes-tag", "dashes-anchor", "anchor-line", "tag-line", "anchor-after-blank",
        "comment-block"])
def test_ev904_goes_below_the_document_start_and_the_mappings_properties(tmp_path, header, after):
    assert fixed(tmp_path, header + CASE, "EV904") == (0, "", after + CASE)


def test_ev904_takes_the_indentation_of_an_indented_top_level(tmp_path):
    text = "# c\n  evalcases:\n    - id: a\n      expected_outcome: g\n      input: q\n"
    assert fixed(tmp_path, text, "EV904") == (0, "", "# c\n  $schema: agentv-eval-v2\n" + text[4:])


@pytest.mark.parametrize("text", ["--- {evalcases: []}\n", "{\n  evalcases: []\n}\n"], ids=["flow-on-dashes", "flow-on-lines"])
def test_ev904_is_not_offered_where_a_line_cannot_go(tmp_path, text):
    assert fixable(tmp_path, text, "EV904") == [("EV904", 1 + text.startswith("{"), False)]


def test_ev103_keeps_the_anchor_of_the_id(tmp_path):
    text = "evalcases:\n  - id: &x 5\n    expected_outcome: g\n    input: q\n"
    assert fixed(tmp_path, text, "EV103") == (0, "", text.replace("&x 5", '&x "5"'))


def test_ev103_is_not_offered_for_a_tagged_id(tmp_path):
    text = "evalcases:\n  - id: !!int 5\n    expected_outcome: g\n    input: q\n"
    assert fixable(tmp_path, text, "EV103") == [("EV103", 2, False)]
    assert fixed(tmp_path, text, "EV103") == (1, "", text)


def test_ev901_keeps_the_anchor_of_the_key(tmp_path):
    text = "evalcases:\n  - id: a\n    &k outcome: g\n    input: q\n"
    assert fixed(tmp_path, text, "EV901") == (0, "", text.replace("&k outcome", "&k expected_outcome"))


def test_ev205_and_ev322_keep_anchors_and_leave_tags_alone(tmp_path):
    text = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    expected_messages:\n"
            "      - role: assistant\n        tool_calls:\n          - {tool: t, &a args: {k: 1}}\n"
            "    evaluators:\n      - {name: j, type: code_judge, script: &s python j.py}\n"
            "      - {name: k, type: code_judge, script: !!str python k.py}\n")
    path = tmp_path / "evals" / "suite.yaml"
    path.parent.mkdir()
    path.write_text(text)
    assert run("--fix", "--unsafe-fixes", "--select", "EV205,EV322", "--no-references", "--format", "concise",
               "--quiet", str(path))[0] == 0
    assert path.read_text() == text.replace("&a args", "&a input").replace("&s python j.py", '&s ["python", "j.py"]')


# --- a fix whose result would mean something else is not applied, and evallint says why -------------

@pytest.mark.parametrize("text, code, notes", [
    ("evalcases:\n  - id: &x 5\n    expected_outcome: g\n    input: q\n    conversation_id: *x\n", "EV103",
     ["2:9: EV103 not fixed: the fixed file would also change 'evalcases[0].conversation_id'"]),
    ("evalcases:\n  - id: a\n    &k outcome: g\n    input: q\n  - id: b\n    expected_outcome: *k\n    input: q\n",
     "EV901", ["3:5: EV901 not fixed: the fixed file would also change 'evalcases[1].expected_outcome'"]),
], ids=["alias-of-the-id", "alias-of-the-key"])
def test_a_fix_that_would_change_an_alias_too_is_refused(tmp_path, text, code, notes):
    path = tmp_path / "evals" / "suite.yaml"
    exit_code = 0 if code == "EV901" else 1  # a style rule warns
    assert fixed(tmp_path, text, code) == (exit_code, "".join(f"evallint: {path}:{note}\n" for note in notes), text)
    assert [fix for _, _, fix in fixable(tmp_path, text, code)] == [True] * len(notes)


def test_a_finding_on_an_alias_is_at_the_alias_where_no_quote_fix_is_offered(tmp_path):
    """The anchor's fix would change the alias too, so it is refused; the alias itself is no number written out."""
    text = "evalcases:\n  - id: &x 5\n    expected_outcome: g\n    input: q\n  - id: *x\n    expected_outcome: h\n    input: q\n"
    path = tmp_path / "evals" / "suite.yaml"
    assert fixed(tmp_path, text, "EV103") == (
        1, f"evallint: {path}:2:9: EV103 not fixed: the fixed file would also change 'evalcases[1].id'\n", text)
    assert fixable(tmp_path, text, "EV103") == [("EV103", 2, True), ("EV103", 5, False)]


def test_a_refused_fix_leaves_its_finding_unfixable_in_the_report(tmp_path):
    import json

    path = tmp_path / "evals" / "suite.yaml"
    path.parent.mkdir()
    path.write_text("evalcases:\n  - id: &x 5\n    expected_outcome: g\n    input: q\n    conversation_id: *x\n")
    code, out, err = run("--fix", "--select", "EV103", "--no-references", "--format", "json", str(path))
    assert code == 1 and err.startswith(f"evallint: {path}:2:9: EV103 not fixed: ")
    assert [(d["code"], d["fixable"]) for d in json.loads(out)] == [("EV103", False)]
