"""The '<<' merges AgentV 4.42.4's YAML parser refuses (EV001 at the merge's value), and AgentV 2.2's files, whose
parser keeps '<<' as a plain key; and the byte order mark the parser refuses before a first list item."""
from __future__ import annotations

import pytest
from conftest import FIXTURES

from evallint import lint_paths
from evallint.config import Config

SUFFIX = ("not a mapping: AgentV 4.42.4's YAML parser merges only a mapping or a list of mappings (or an alias of "
          "one) and rejects the whole file (\"Merge sources must be maps or map aliases\")")
BAD = FIXTURES / "bad" / "EV001_merge_source_agentv4.yaml"
GOOD = FIXTURES / "good" / "rules" / "EV001_merge_source_agentv4.yaml"


def suite(merge: str) -> str:
    """An AgentV 4.42.4 suite of one test whose '<<' holds ``merge``, its anchors set in the test's metadata."""
    return ("tests:\n  - id: t\n    metadata: {s: &s text, m: &m {x: 1}, l: &l [1], lm: &lm [{y: 2}], e: &e []}\n"
            f"    <<: {merge}\n    criteria: c\n    input: hi\n")


# each shape of a merge: the EV001 message evallint gives (None: the parser merges it)
SHAPES = {
    "42": "merge key '<<' holds 42 (a number), ",
    "*s": "merge key '<<' holds alias '*s', which is 'text', ",
    "[*m, *s]": "merge key '<<' holds '[*m, *s]' whose item 2 is 'text', ",
    "[1, 2]": "merge key '<<' holds '[1, 2]' whose item 1 is 1 (a number), ",
    "*l": "merge key '<<' holds alias '*l', a list whose item 1 is 1 (a number), ",
    "null": "merge key '<<' holds null, ",
    "": "merge key '<<' holds null, ",
    "[[{a: 1}]]": "merge key '<<' holds '[[{a: 1}]]' whose item 1 is a list, ",
    "[*lm]": "merge key '<<' holds '[*lm]' whose item 1 is a list, ",
    "{a: 1}": None,
    "*m": None,
    "[*m, {b: 2}]": None,
    "*lm": None,
    "[]": None,
    "*e": None,
}


def test_a_merge_of_no_mapping_is_ev001_at_its_value_in_an_agentv_4_file():
    found = [(d.code, d.line, d.column, d.end_column) for d in lint_paths([BAD], config=Config(references=False))]
    assert found == [("EV001", 5, 9, 11), ("EV001", 10, 9, 18), ("EV001", 14, 9, 31), ("EV001", 17, 8, 9),
                     ("EV001", 21, 9, 24)]


@pytest.mark.parametrize("merge", sorted(SHAPES))
def test_each_shape_of_a_merge(tmp_path, merge):
    path = tmp_path / "suite.yaml"
    path.write_text(suite(merge))
    found = [(d.code, d.line, d.column, d.message) for d in lint_paths([path], config=Config(references=False))
             if d.code == "EV001"]  # the merged keys are unknown to a test (EV109)
    expected = SHAPES[merge]
    column = 9 if merge else 8
    assert found == ([] if expected is None else [("EV001", 4, column, expected + SUFFIX)])


def test_agentv_2_files_keep_their_merge_findings():
    """AgentV 2.2 parses with merge keys off ('<<' is a plain key): its files get EV010, never this EV001."""
    found = {(d.code, d.line) for d in lint_paths([BAD], config=Config(references=False, agentv_version="2.2"))}
    assert {line for code, line in found if code == "EV010"} == {5, 10, 14, 17, 21}
    assert "EV001" not in {code for code, _ in found}


def test_a_file_whose_merges_all_merge_is_not_reported():
    assert lint_paths([GOOD], config=Config(references=False)) == []


@pytest.mark.runner
def test_ev001_is_reported_exactly_for_the_merges_agentv_4s_loader_refuses(tmp_path):
    from agentv_runner import load_tests

    names = {f"shape{i}.yaml": merge for i, merge in enumerate(sorted(SHAPES))}
    for name, merge in names.items():
        (tmp_path / name).write_text(suite(merge))
    (tmp_path / "bad.yaml").write_text(BAD.read_text())
    (tmp_path / "good.yaml").write_text(GOOD.read_text())
    live = load_tests(tmp_path, sorted(names) + ["bad.yaml", "good.yaml"])
    refused = {name for name in live if live[name]["error"] == "Merge sources must be maps or map aliases"}
    assert refused == {name for name, merge in names.items() if SHAPES[merge] is not None} | {"bad.yaml"}
    assert live["good.yaml"]["error"] is None and len(live["good.yaml"]["tests"]) == 5


# files of tests with a byte order mark: before a list item on the first line (rejected), before a comment line, a
# dash alone on its line, and a suite's mapping (each read)
MARKED = {"item.yaml": "- id: a\n  input: hi\n  criteria: ok\n",
          "comment.yaml": "# tests\n- id: b\n  input: hi\n  criteria: ok\n",
          "dash.yaml": "-\n  id: c\n  input: hi\n  criteria: ok\n"}


def _marked(root) -> None:
    (root / ".git").mkdir()
    for name, text in MARKED.items():
        (root / f"{name[:-5]}.eval.yaml").write_text(f"tests: ./{name}\n")
        (root / name).write_bytes(b"\xef\xbb\xbf" + text.encode())
    (root / "suite.eval.yaml").write_bytes(b"\xef\xbb\xbftests:\n  - {id: d, input: hi, criteria: ok}\n")


def test_a_byte_order_mark_before_a_first_list_item_is_an_error(tmp_path):
    from clirun import run_concise

    _marked(tmp_path)
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "item.yaml:1:1: EV001 [error] the file starts with a byte order mark right before a list item: AgentV 4.42.4's "
        "YAML parser reads the mark as text and rejects the whole file (\"Unexpected scalar at node end\"); remove the "
        "byte order mark, or start the file with a comment line\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_a_suite_whose_file_of_tests_has_it(tmp_path):
    from agentv_runner import load_tests

    _marked(tmp_path)
    loaded = load_tests(tmp_path, ["item.eval.yaml", "comment.eval.yaml", "dash.eval.yaml", "suite.eval.yaml"])
    assert [(name, (read["error"] or "").split(" at line")[0], [test["id"] for test in read["tests"]])
            for name, read in loaded.items()] == [
        ("item.eval.yaml", "Unexpected scalar at node end", []), ("comment.eval.yaml", "", ["b"]),
        ("dash.eval.yaml", "", ["c"]), ("suite.eval.yaml", "", ["d"])]
