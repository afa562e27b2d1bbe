"""A ``.jsonl`` file an AgentV 4.42.4 suite names from its 'tests' is a file of external tests, read with the suite's
rules (``load/case_files.py``), however it is reached: named, found by a folder walk, or beside other files."""
from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES

from evallint import lint_paths
from evallint.config import Config

CASES = FIXTURES / "bad" / "EV106_external_cases_jsonl"
MALFORMED = FIXTURES / "bad" / "EV701_external_cases_jsonl"
LINE = '{"id": "graded-by-assertions", "input": "Say hello.", "assertions": [{"type": "contains", "value": "hello"}]}\n'
UNGRADED = ("EV106", 2, 2, "test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the runner skips it "
            "as incomplete")


def found(paths, **options) -> list:
    config = Config(references=False, **options)
    return [(d.path.rsplit("/", 1)[-1], d.code, d.line, d.column, d.message) for d in lint_paths(paths, config=config)]


def test_a_jsonl_file_a_suite_names_is_linted_with_the_suites_rules_however_it_is_reached(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(CASES, repo / "evals")
    (repo / ".git").mkdir()
    expected = [("cases.jsonl",) + UNGRADED]
    assert found([repo / "evals" / "cases.jsonl"], root=str(repo)) == expected
    assert found([repo / "evals"], root=str(repo)) == expected
    assert found([repo], root=str(repo)) == expected


def test_the_same_lines_no_suite_names_are_a_dataset(tmp_path):
    (tmp_path / ".git").mkdir()
    shutil.copy(CASES / "cases.jsonl", tmp_path / "cases.jsonl")
    assert [f[1:4] for f in found([tmp_path / "cases.jsonl"], root=str(tmp_path))] == [
        ("EV106", 1, 55), ("EV106", 2, 2)]


def test_a_suite_in_a_sibling_folder_and_a_glob_name_the_file(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cases.jsonl").write_text(LINE)
    (tmp_path / "evals").mkdir()
    suite = tmp_path / "evals" / "suite.yaml"
    for tests in ("tests: ../data/cases.jsonl\n", "tests:\n  - file://../data/*.jsonl\n"):
        suite.write_text(tests)
        assert found([tmp_path / "data" / "cases.jsonl"], root=str(tmp_path)) == []
    suite.write_text("tests:\n  - file://../data/*.yaml\n")
    assert [f[1:4] for f in found([tmp_path / "data" / "cases.jsonl"], root=str(tmp_path))] == [("EV106", 1, 55)]


def test_a_file_of_tests_whose_first_line_is_no_case_is_linted_when_a_suite_names_it(tmp_path):
    """Its first line has no 'id' (no dataset's first line), outside the folders of eval files: linted because a
    suite names it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "cases.jsonl").write_text('{"input": "Say hello.", "criteria": "Says hello."}\n')
    (tmp_path / "suite.eval.yaml").write_text("tests: ./cases.jsonl\n")
    assert [f[:3] for f in found([tmp_path], root=str(tmp_path))] == [("cases.jsonl", "EV103", 1)]


def test_agentv_2_reads_no_file_of_tests():
    """Read as AgentV 2.2's, whose suites name no file of tests, the lines are a dataset's."""
    assert [f[1:4] for f in found([CASES / "cases.jsonl"], agentv_version="2.2")] == [
        ("EV106", 1, 2), ("EV109", 1, 55), ("EV106", 2, 2)]


def test_a_malformed_line_of_a_file_of_tests_is_an_error_at_that_line():
    assert found([MALFORMED]) == [("cases.jsonl", "EV701", 2, 41, "Line 2: invalid JSON: Expecting property name "
                                   "enclosed in double quotes at column 41")]


@pytest.mark.runner
def test_agentv_4s_loader_reads_the_file_as_the_suites_tests(tmp_path):
    from agentv_runner import load_tests

    for fixture in (CASES, MALFORMED):
        shutil.copytree(fixture, tmp_path / fixture.name)
    live = load_tests(tmp_path, [f"{CASES.name}/suite.eval.yaml", f"{MALFORMED.name}/suite.eval.yaml"])
    cases = live[f"{CASES.name}/suite.eval.yaml"]
    assert [test["id"] for test in cases["tests"]] == ["graded-by-assertions"]  # line 2 skipped: EV106 there only
    assert any("Skipping incomplete test: graded-by-nothing" in line for line in cases["logs"])
    assert live[f"{MALFORMED.name}/suite.eval.yaml"]["error"].startswith("Malformed JSONL at line 2:")


def test_the_python_api_loads_the_tests_the_runner_keeps():
    """``load_eval_file`` reads the file as the lint does: the line graded by 'assertions' alone is a test."""
    from evallint.api import load_eval_file

    suite = load_eval_file(CASES / "cases.jsonl", allow=("EV106",))
    assert [test.id for test in suite.tests] == ["graded-by-assertions"]


def test_a_brace_or_double_star_pattern_names_the_file(tmp_path):
    """fast-glob reads '{a,b}' as either word and '**' as any folders: such a pattern names the file too."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "data" / "deep").mkdir(parents=True)
    (tmp_path / "data" / "deep" / "cases.jsonl").write_text(LINE)
    suite = tmp_path / "data" / "suite.eval.yaml"
    for tests in ("file://{deep,other}/cases.jsonl", "file://**/*.jsonl", "file://deep/case?.jsonl"):
        suite.write_text(f"tests:\n  - {tests}\n")
        assert found([tmp_path / "data" / "deep" / "cases.jsonl"], root=str(tmp_path)) == [], tests
    suite.write_text("tests:\n  - file://{other,more}/cases.jsonl\n")
    assert [f[1:4] for f in found([tmp_path / "data" / "deep" / "cases.jsonl"], root=str(tmp_path))] == [
        ("EV106", 1, 55)]


def test_a_tests_path_with_glob_characters_names_no_file(tmp_path):
    """'tests' given as a path alone is read as written: a '*' there is no glob, and the file is a dataset."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "cases.jsonl").write_text(LINE)
    (tmp_path / "suite.eval.yaml").write_text("tests: ./*.jsonl\n")
    assert [f[1:4] for f in found([tmp_path / "cases.jsonl"], root=str(tmp_path))] == [("EV106", 1, 55)]


def test_a_yaml_file_of_tests_beside_a_dataset_of_its_name_is_read_as_tests_not_as_its_sidecar(tmp_path):
    """The runner reads 'tests: ./cases.yaml' as the suite's tests; it reads the file as the sidecar of cases.jsonl
    only when that dataset runs, and then only warns that it is no mapping."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "cases.jsonl").write_text('{"id": "j1", "criteria": "c", "input": "hi"}\n')
    (tmp_path / "cases.yaml").write_text("- id: y1\n  input: hi\n  criteria: c\n- id: y2\n  input: hi\n")
    (tmp_path / "s.eval.yaml").write_text("tests: ./cases.yaml\n")
    assert found([tmp_path], root=str(tmp_path)) == [("cases.yaml",) + UNGRADED[:1] + (4, 3) + UNGRADED[3:]]


def test_no_suite_above_the_root_is_looked_for_and_the_folder_above_is_no_dependency(tmp_path):
    """Whether a folder holding the file is a folder of tests a suite names is asked up to the root, of the suites
    of the repository: one beside the repository naming it is none of its (and the folder above changing, a clone
    added beside it, keeps every cached result)."""
    from evallint.lint import lint_file
    from evallint.load import deps

    (tmp_path / "outer.eval.yaml").write_text("tests: ./repo/\n")
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "evals").mkdir()
    (repo / "evals" / "notes.yaml").write_text("a: 1\n")
    with deps.run_scope(), deps.recording() as seen:
        result = lint_file(str(repo / "evals" / "notes.yaml"), Config(references=False), explicit=False)
    assert result.kind == "eval"
    assert [path for path in seen if not path.startswith(str(repo))] == []


def test_the_files_of_tests_a_suite_names_however_its_yaml_writes_them(tmp_path):
    """``named_by``: 'tests' as a path (plain, quoted, tagged, anchored, on the line below, in a flow mapping, the first
    of a key written twice, beside an anchor defined twice, which PyYAML's composer refuses) or a list's ``file://`` items; and 'tests' beside 'evalcases', which
    AgentV 4.42.4 reads; nothing from a list of tests or a number."""
    from evallint.load.case_files import named_by

    suite = str(tmp_path / "s.eval.yaml")
    cases, jsonl = str(tmp_path / "cases.yaml"), str(tmp_path / "more.jsonl")
    (tmp_path / "cases").mkdir()
    texts = {"tests:\n  ./cases/\n": (str(tmp_path / "cases") + "/",), "tests:\n  cases.yaml\n": (cases,),
             "tests: cases.yaml\n": (cases,), "tests: 'cases.yaml'\n": (cases,), "tests: !!str cases.yaml\n": (cases,),
             "x: &t cases.yaml\ntests: *t\n": (cases,), "{tests: cases.yaml}\n": (cases,),
             "tests: cases.yaml\ntests: [{id: a}]\n": (cases,), "a: &x 1\nb: &x 2\ntests: cases.yaml\n": (cases,),
             "tests:\n  - file://more.jsonl\n  - {id: a, input: q, criteria: c}\n": (jsonl,),
             "tests:\n  - {id: a, input: q, criteria: c, prompt: file://p.yaml}\n": (), "tests: 5\n": (),
             "evalcases: []\ntests: cases.yaml\n": (cases,)}
    assert {text: named_by(suite, text.encode()) for text in texts} == texts


def test_a_folder_of_tests_named_on_the_line_below_tests_has_its_case_files_linted(tmp_path):
    """AgentV 4.42.4's loader reads 'tests:' with './cases/' on the next line as it reads 'tests: ./cases/'."""
    from clirun import run_concise

    (tmp_path / ".git").mkdir()
    (tmp_path / "evals" / "cases" / "one").mkdir(parents=True)
    (tmp_path / "evals" / "s.eval.yaml").write_text("name: s\ntests:\n  ./cases/\n")
    (tmp_path / "evals" / "cases" / "one" / "case.yaml").write_text("input: hi\n")
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "evals/cases/one/case.yaml:1:1: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or "
        "'turns'; the runner skips it as incomplete\n"), "")
