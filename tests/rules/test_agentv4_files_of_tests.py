"""The files of tests an AgentV 4.42 suite names in 'tests' (a path, or 'file://' items), read as AgentV 4.42.4's
loader reads them (loaders/case-file-loader.ts): a YAML list of mappings or JSONL lines, by the file's suffix; any
other file, or another item in such a file, makes it reject the suite. Checked with the runner's loadTests."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests, run_suite
from clirun import git, run_concise

CASES = "- {id: t1, input: What is 2+2?, criteria: Says 4}\n"
# suite -> (its text, the files it names)
SUITES = {
    "url-path": ("tests: file://cases.yaml\n", (("cases.yaml", CASES),)),
    "a-suite": ("tests: ./cases.yaml\n", (("cases.yaml", "tests:\n" + CASES.replace("- ", "  - ")),)),
    "json": ("tests:\n  - file://cases.json\n", (("cases.json", '[{"id": "t1", "input": "hi", "criteria": "c"}]\n'),)),
    "items": ("tests: ./cases.yaml\n", (("cases.yaml", CASES + "- file://more.yaml\n-\n"), ("more.yaml", CASES))),
    "strings": ("tests:\n  - {id: inline, input: hi, criteria: c}\n  - 'file: cases.yaml'\n  - FILE://cases.yaml\n",
                (("cases.yaml", CASES),)),
    "glob": ("tests:\n  - file://sub/*\n", (("sub/a.json", "[]\n"), ("sub/b.yaml", CASES))),
}


def _write(root, name: str, suites: dict = SUITES) -> str:
    text, files = suites[name]
    (root / name).mkdir(parents=True)
    (root / name / "suite.eval.yaml").write_text(text)
    for path, content in files:
        (root / name / path).parent.mkdir(parents=True, exist_ok=True)
        (root / name / path).write_text(content)
    return f"{name}/suite.eval.yaml"


def _run_errors(tmp_path, suites: dict) -> dict:
    """suite name -> the error the runner's runEvaluation stops with on it (None: it runs), each suite of ``suites``
    written in ``tmp_path``'s repo/ with its files (``agentv_runner.run_suite``: home/ is the runner's home)."""
    for name in suites:
        _write(tmp_path / "repo", name, suites)
    (tmp_path / "home").mkdir()
    return {name: run_suite(tmp_path / "repo", f"{name}/suite.eval.yaml", tmp_path / "home")["error"] for name in suites}


def _lint_all(tmp_path, suites: dict) -> tuple:
    """(exit code, output, errors) of evallint on the suites of ``suites``, written in a git repository."""
    git(tmp_path, "init", "-q")
    return run_concise(tmp_path, "--no-cache", *[_write(tmp_path, name, suites) for name in suites])


def _loaded_ids(tmp_path, suites: dict) -> list:
    """The ids of the tests the runner's loader reads of the one suite of ``suites``."""
    (name,) = suites
    path = _write(tmp_path, name, suites)
    return [test["id"] for test in load_tests(tmp_path, [path])[path]["tests"]]


def test_a_file_of_tests_the_runner_cannot_read_as_one_rejects_the_suite(tmp_path):
    git(tmp_path, "init", "-q")
    for name in SUITES:
        _write(tmp_path, name)
    rejects = "the runner rejects each suite that names this file"
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "a-suite/suite.eval.yaml:1:8: EV401 [error] file of tests './cases.yaml' holds a mapping, not a list of tests; "
        "the runner rejects the suite ('External test file must contain a YAML array'); list the tests at its top level\n"
        "glob/suite.eval.yaml:2:5: EV401 [error] file of tests pattern 'sub/*' matches 'glob/sub/a.json', which is no "
        ".jsonl, .yaml, .yml file; the runner rejects the suite ('Unsupported external test file format')\n"
        "items/cases.yaml:2:3: EV102 [error] a test must be a mapping with 'id', 'input' and 'criteria', found "
        f"'file://more.yaml'; {rejects}\n"
        f"items/cases.yaml:3:2: EV102 [error] a test must be a mapping with 'id', 'input' and 'criteria', found null; "
        f"{rejects}\n"
        "json/suite.eval.yaml:2:5: EV401 [error] file of tests 'cases.json' is no .jsonl, .yaml, .yml file; the runner "
        "rejects the suite ('Unsupported external test file format')\n"
        "strings/suite.eval.yaml:3:5: EV102 [error] a test must be a mapping with 'id', 'input' and 'criteria' (or a "
        "'file://' reference), found 'file: cases.yaml'; the runner skips it\n"
        "strings/suite.eval.yaml:4:5: EV102 [error] a test must be a mapping with 'id', 'input' and 'criteria' (or a "
        "'file://' reference), found 'FILE://cases.yaml'; the runner skips it\n"
        "url-path/suite.eval.yaml:1:8: EV401 [error] 'tests' names a path as written, not a 'file://' reference: the "
        "runner looks for 'file://cases.yaml' and does not find it; the runner rejects the suite; write 'cases.yaml'\n"),
        "")


@pytest.mark.runner
def test_the_runner_rejects_a_suite_whose_file_of_tests_it_cannot_read_as_one(tmp_path):
    files = [_write(tmp_path, name) for name in SUITES]
    loaded = load_tests(tmp_path, files)
    errors = {name: (loaded[file]["error"] or "").split(":")[0] for name, file in zip(SUITES, files)}
    assert errors == {"url-path": "Cannot read external test file", "a-suite": "External test file must contain a YAML "
                      "array, got object", "json": "Unsupported external test file format '.json'",
                      "items": "External test file contains non-object entry", "strings": "",
                      "glob": "Unsupported external test file format '.json'"}
    assert [test["id"] for test in loaded["strings/suite.eval.yaml"]["tests"]] == ["inline"]



# a test id that a suite's own list and a file of tests it names both hold, or two files of tests
ACROSS = {
    "inline": ("tests:\n  - {id: add, input: 1+1?, criteria: Says 2}\n  - file://cases.yaml\n",
               (("cases.yaml", "- {id: add, input: 2+2?, criteria: Says 4}\n- {id: other, input: hi}\n"),)),
    "files": ("tests:\n  - file://a/*.yaml\n  - file://more.jsonl\n",
              (("a/one.yaml", CASES), ("a/two.yaml", CASES.replace("2+2", "3+3")),
               ("more.jsonl", '{"id": "other", "input": "hi", "criteria": "c"}\n'))),
    "kept-once": ("tests:\n  - {id: add, input: 1+1?}\n  - file://cases.yaml\n", (("cases.yaml", CASES),)),
}


def test_a_test_id_that_a_file_of_tests_shares_with_the_suite_stops_the_run(tmp_path):
    stops = "the run stops before any test runs ('Duplicate test ID')"
    assert _lint_all(tmp_path, ACROSS) == (1, (
        f"files/suite.eval.yaml:2:5: EV104 [error] file of tests 'files/a/two.yaml' holds test id 't1', as file of tests "
        f"'files/a/one.yaml' does; {stops}\n"
        "inline/cases.yaml:2:4: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
        "runner skips it as incomplete\n"
        f"inline/suite.eval.yaml:3:5: EV104 [error] file of tests 'cases.yaml' holds test id 'add', as the test on line 2 "
        f"does; {stops}\n"
        "kept-once/suite.eval.yaml:2:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; "
        "the runner skips it as incomplete\n"), "")


@pytest.mark.runner
def test_the_run_stops_on_a_test_id_a_file_of_tests_shares_with_the_suite(tmp_path):
    assert _run_errors(tmp_path, ACROSS) == {"inline": "Duplicate test ID 'add' — each test must have a unique ID",
                      "files": "Duplicate test ID 't1' — each test must have a unique ID", "kept-once": None}


# files of tests that hold nothing: null or comments (rejected), white space (skipped with a warning)
NOTHING = {
    "comments": ("tests: ./cases.yaml\n", (("cases.yaml", "# only a comment\n"),)),
    "null": ("tests: ./cases.yaml\n", (("cases.yaml", "null\n"),)),
    "blank": ("tests:\n  - {id: t, input: hi, criteria: c}\n  - file://cases.yaml\n", (("cases.yaml", "\n  \n"),)),
    "lines": ("tests: ./cases.jsonl\n", (("cases.jsonl", "\n \n"),)),
}


def test_a_file_of_tests_of_null_or_comments_rejects_the_suite_and_one_of_white_space_loads_no_test(tmp_path):
    rejects = ("holds null, not a list of tests; the runner rejects the suite ('External test file must contain a YAML "
               "array')")
    assert _lint_all(tmp_path, NOTHING) == (1, (
        "blank/suite.eval.yaml:3:5: EV111 [warning] file of tests 'cases.yaml' holds no test; the runner loads none from "
        "it\n"
        f"comments/suite.eval.yaml:1:8: EV401 [error] file of tests './cases.yaml' {rejects}\n"
        "lines/suite.eval.yaml:1:8: EV111 [warning] file of tests './cases.jsonl' holds no test; the runner loads none "
        "from it\n"
        f"null/suite.eval.yaml:1:8: EV401 [error] file of tests './cases.yaml' {rejects}\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_a_suite_whose_file_of_tests_holds_null(tmp_path):
    files = [_write(tmp_path, name, NOTHING) for name in NOTHING]
    loaded = load_tests(tmp_path, files)
    assert {name: (loaded[file]["error"] or "")[:44] for name, file in zip(NOTHING, files)} == {
        "comments": "External test file must contain a YAML array", "null": "External test file must contain a YAML array",
        "blank": "", "lines": ""}
    assert [test["id"] for test in loaded["blank/suite.eval.yaml"]["tests"]] == ["t"]
    assert loaded["lines/suite.eval.yaml"]["tests"] == []


# dependencies among a suite's tests and those of the files it names, which the runner checks together
SETUP = "- {id: setup, input: Create the file, criteria: The file exists}\n"
DEPENDS = {
    "inline-typo": ("tests:\n  - file://cases.yaml\n  - {id: check, input: Read it, criteria: Read, depends_on: [stup]}\n",
                    (("cases.yaml", SETUP),)),
    "file-typo": ("tests: ./cases.yaml\n",
                  (("cases.yaml", SETUP + "- {id: check, input: Read it, criteria: Read, depends_on: [setpu]}\n"),)),
    "across": ("tests:\n  - file://cases.yaml\n  - {id: check, input: Read it, criteria: Read, depends_on: [setup]}\n",
               (("cases.yaml", "- {id: setup, input: Create it, criteria: Exists, depends_on: [check]}\n"),)),
    "met": ("tests:\n  - file://cases.yaml\n  - {id: check, input: Read it, criteria: Read, depends_on: [setup]}\n",
            (("cases.yaml", SETUP),)),
}


def test_a_dependency_on_a_test_of_a_file_of_tests_is_checked_with_its_tests(tmp_path):
    fails = "the run fails before any test"
    assert _lint_all(tmp_path, DEPENDS) == (1, (
        "across/suite.eval.yaml:2:5: EV122 [error] in file of tests 'across/cases.yaml': 'depends_on' 'check' closes a "
        f"cycle, setup → check → setup; {fails}\n"
        "file-typo/suite.eval.yaml:1:8: EV122 [error] in file of tests 'file-typo/cases.yaml': 'depends_on' names "
        f"'setpu', which is no test of this suite (did you mean 'setup'?); {fails}\n"
        "inline-typo/suite.eval.yaml:3:62: EV122 [error] 'depends_on' names 'stup', which is no test of this suite (did "
        f"you mean 'setup'?); {fails}\n"), "")


@pytest.mark.runner
def test_the_runner_checks_the_dependencies_of_a_suites_tests_with_those_of_its_files(tmp_path):
    assert {name: (error or "")[:30] for name, error in _run_errors(tmp_path, DEPENDS).items()} == {
        "inline-typo": "Test 'check' depends on 'stup'", "file-typo": "Test 'check' depends on 'setpu",
        "across": "Circular dependency detected: ", "met": ""}


# a folder of tests: a test of each subfolder's case file, its id the subfolder's name unless it gives one
FOLDER = {"folder": ("tests: ./cases/\n", (("cases/a/case.yaml", "input: hi\ncriteria: c\n"),
                                           ("cases/b/case.yaml", "input: hi\ncriteria: c\ndepends_on: [aa]\n"),
                                           ("cases/c/case.yaml", "id: a\ninput: hi\ncriteria: c\n")))}


def test_a_folder_of_tests_is_checked_for_ids_and_dependencies_across_its_case_files(tmp_path):
    assert _lint_all(tmp_path, FOLDER) == (1, (
        "folder/suite.eval.yaml:1:8: EV104 [error] case files 'folder/cases/a/case.yaml' and 'folder/cases/c/case.yaml' "
        "of the folder of tests give the same test id 'a'; the run stops before any test runs ('Duplicate test ID')\n"
        "folder/suite.eval.yaml:1:8: EV122 [error] in case file 'folder/cases/b/case.yaml': 'depends_on' names 'aa', "
        "which is no test of this suite (did you mean 'a'?); the run fails before any test\n"), "")


@pytest.mark.runner
def test_the_runner_stops_on_an_id_two_case_files_give(tmp_path):
    assert _run_errors(tmp_path, FOLDER) == {"folder": "Duplicate test ID 'a' — each test must have a unique ID"}


# a pattern of 'file://' items that matches a YAML file holding a mapping: a dataset's sidecar
SIDECAR_MATCHED = {"sidecar": ("tests:\n  - file://parts/*\n", (("parts/a.jsonl", '{"id": "a", "criteria": "c", '
                                                                                  '"input": "hi"}\n'),
                                                                ("parts/a.yaml", "name: ds\n")))}


def test_a_pattern_that_matches_a_yaml_file_of_no_list_rejects_the_suite(tmp_path):
    assert _lint_all(tmp_path, SIDECAR_MATCHED) == (1, (
        "sidecar/suite.eval.yaml:2:5: EV401 [error] file of tests pattern 'parts/*' matches 'sidecar/parts/a.yaml', "
        "which holds a mapping, not a list of tests; the runner rejects the suite ('External test file must contain a "
        "YAML array')\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_a_suite_whose_pattern_matches_a_yaml_file_of_no_list(tmp_path):
    assert _run_errors(tmp_path, SIDECAR_MATCHED)["sidecar"].startswith("External test file must contain a YAML array")


# patterns whose folder is a file, or lies below one, which fast-glob fails to read; braces expanded first
BLOCKED = {"blocked": ("tests:\n  - file://f/*.yaml\n  - file://{cases/*,f/x/*}.yaml\n",
                       (("f", "x\n"), ("cases/a.yaml", CASES)))}


def test_a_pattern_that_reads_a_file_as_a_folder_rejects_the_suite(tmp_path):
    fails = "the runner's glob fails ('ENOTDIR: not a directory') and the runner rejects the suite"
    assert _lint_all(tmp_path, BLOCKED) == (1, (
        f"blocked/suite.eval.yaml:2:5: EV401 [error] file of tests pattern 'f/*.yaml' reads the folder 'blocked/f', but "
        f"'blocked/f' is a file: {fails}\n"
        f"blocked/suite.eval.yaml:3:5: EV401 [error] file of tests pattern '{{cases/*,f/x/*}}.yaml' reads the folder "
        f"'blocked/f/x', but 'blocked/f' is a file: {fails}\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_a_suite_whose_pattern_reads_a_file_as_a_folder(tmp_path):
    for i, item in enumerate(("f/*.yaml", "{cases/*,f/x/*}.yaml")):
        suite = {"blocked": (f"tests:\n  - file://{item}\n", BLOCKED["blocked"][1])}
        assert _run_errors(tmp_path / str(i), suite)["blocked"].startswith("ENOTDIR: not a directory")


# a pattern the runner's glob refuses for its length (braces read up to 10,000 characters), and one of braces nested
# thousands deep, which is matched without recursing through them
LONG = "cases/" + "{a}" * 3400 + "*.yaml"
DEEP = "cases/" + "{" * 3000 + "x" + "}" * 3000 + "/*.yaml"


def test_a_pattern_the_runners_glob_refuses_for_its_length_rejects_the_suite(tmp_path):
    length = len(f"{tmp_path}/long/{LONG}")
    long = {"long": (f"tests:\n  - file://{LONG}\n", (("cases/a.yaml", CASES),))}
    assert _lint_all(tmp_path, long) == (1, (
        f"long/suite.eval.yaml:2:5: EV110 [error] file of tests pattern '{LONG[:57]}...' is longer than the runner's glob "
        f"reads once made absolute; the runner rejects the suite ('Input length ({length}), exceeds max characters "
        "(10000)')\n"), "")


def test_braces_nested_thousands_deep_are_read_without_recursing(tmp_path):
    deep = {"deep": (f"tests:\n  - file://{DEEP}\n", (("cases/a.yaml", CASES),))}
    assert _lint_all(tmp_path, deep) == (1, (
        f"deep/suite.eval.yaml:2:5: EV401 [error] file of tests pattern '{DEEP[:57]}...' matches no file (looked in: "
        "deep/cases/); the runner loads no test from it (warning 'Glob pattern matched no files')\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_a_suite_whose_pattern_is_too_long_for_its_glob(tmp_path):
    length = len(f"{tmp_path}/repo/long/{LONG}")
    errors = _run_errors(tmp_path, {"long": (f"tests:\n  - file://{LONG}\n", (("cases/a.yaml", CASES),))})
    assert errors == {"long": f"Input length ({length}), exceeds max characters (10000)"}


# patterns with braces: a list (nested too), ranges of numbers (padded for a number or a step written with a leading
# zero, not for a 0 alone; reversed with a step; one of more than 1,000 numbers that has a step or runs down) and of
# letters, one word, and a range in a character class, read as written
BRACES = {"braces": ("tests:\n  - file://data{1}.jsonl\n  - file://d{1..3}.jsonl\n  - file://{e,f}.yaml\n"
                     "  - file://p{01..02}.yaml\n  - file://q{a..c}.yaml\n  - file://r{x{1,2}y,z}.yaml\n"
                     "  - file://s{10..2..3}.yaml\n  - file://t{1..4001..2}.yaml\n  - file://u{1500..1}.yaml\n"
                     "  - file://v{0..10}.yaml\n  - file://w{2..10..01}.yaml\n  - file://x[{0..1000}].yaml\n",
                     (("data{1}.jsonl", '{"id": "a", "criteria": "c", "input": "hi"}\n'),
                      ("d2.jsonl", '{"id": "b", "criteria": "c", "input": "hi"}\n'),
                      ("f.yaml", "- {id: c, criteria: c, input: hi}\n"), ("p01.yaml", "- {id: d, criteria: c, input: hi}\n"),
                      ("qb.yaml", "- {id: e, criteria: c, input: hi}\n"), ("rx2y.yaml", "- {id: f, criteria: c, input: hi}\n"),
                      ("s7.yaml", "- {id: g, criteria: c, input: hi}\n"), ("t3999.yaml", "- {id: h, criteria: c, input: hi}\n"),
                      ("u1234.yaml", "- {id: i, criteria: c, input: hi}\n"),
                      ("v0.yaml", "- {id: j, criteria: c, input: hi}\n"), ("w04.yaml", "- {id: k, criteria: c, input: hi}\n"),
                      ("x1.yaml", "- {id: l, criteria: c, input: hi}\n")))}
# a range of more than 1,000 numbers without a step, which fast-glob refuses to expand
LONG_RANGE = {"long-range": ("tests:\n  - {id: own, criteria: c, input: hi}\n  - file://cases/{0..1000}.yaml\n",
                             (("cases/1.yaml", "- {id: one, criteria: c, input: hi}\n"),))}


def test_a_patterns_braces_are_read_as_fast_glob_reads_them(tmp_path):
    assert _lint_all(tmp_path, BRACES) == (0, "", "")


@pytest.mark.runner
def test_the_runner_reads_a_patterns_braces_so(tmp_path):
    assert _loaded_ids(tmp_path, BRACES) == list("abcdefghijkl")


def test_a_pattern_with_a_range_of_more_than_a_thousand_numbers_rejects_the_suite(tmp_path):
    assert _lint_all(tmp_path, LONG_RANGE) == (1, (
        "long-range/suite.eval.yaml:3:5: EV110 [error] file of tests pattern 'cases/{0..1000}.yaml' has the range "
        "'{0..1000}' of more than 1000 numbers, which the runner's glob refuses to expand; the runner rejects the suite "
        "('expanded array length exceeds range limit')\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_a_suite_whose_pattern_has_a_range_of_more_than_a_thousand_numbers(tmp_path):
    assert _run_errors(tmp_path, LONG_RANGE)["long-range"].startswith("expanded array length exceeds range limit")


# a folder of tests whose subfolder holds both case files, and one whose subfolder holds case.yml alone
BOTH_CASE_FILES = {"both": ("tests: ./cases/\n", (("cases/one/case.yaml", "input: hi\ncriteria: c\n"),
                                                  ("cases/one/case.yml", "id: other\ninput: yo\ncriteria: d\n"),
                                                  ("cases/two/case.yml", "input: hi\ncriteria: c\n")))}


def test_a_subfolder_of_both_case_files_is_an_error(tmp_path):
    assert _lint_all(tmp_path, BOTH_CASE_FILES) == (1, (
        "both/suite.eval.yaml:1:8: EV104 [error] subfolder 'one' of the folder of tests './cases/' holds both case.yaml "
        "and case.yml, each a test of the subfolder: the runner reads case.yaml alone, so case.yml never runs; keep "
        "one\n"), "")


@pytest.mark.runner
def test_the_runner_reads_a_subfolders_case_yaml_alone_beside_its_case_yml(tmp_path):
    assert _loaded_ids(tmp_path, BOTH_CASE_FILES) == ["one", "two"]


# a folder of tests that holds a case file itself, beside its subfolder's
TOP_CASE_FILE = {"top": ("tests: ./cases/\n", (("cases/case.yaml", "id: top\ninput: hi\ncriteria: c\n"),
                                              ("cases/one/case.yaml", "input: hi\ncriteria: c\n")))}


def test_a_case_file_of_the_folder_of_tests_itself_is_an_error(tmp_path):
    assert _lint_all(tmp_path, TOP_CASE_FILE) == (1, (
        "top/suite.eval.yaml:1:8: EV401 [error] folder of tests './cases/' holds case.yaml itself, which the runner "
        "never reads: it reads a test from each subfolder's case.yaml (or case.yml); move it into a subfolder, or name "
        "the folder above\n"), "")


@pytest.mark.runner
def test_the_runner_reads_no_case_file_of_the_folder_of_tests_itself(tmp_path):
    assert _loaded_ids(tmp_path, TOP_CASE_FILE) == ["one"]


# a folder of tests whose subfolder 'add' is a link to a folder elsewhere, with a typo in its case file
LINKED = {"linked": ("tests: ./cases\n", (("cases/sub/case.yaml", "input: hi\ncriteria: c\n"),
                                          ("shared/add/case.yaml", "input: hi\ncriteria: c\nassertion: [x]\n")))}


def _linked(tmp_path) -> str:
    path = _write(tmp_path, "linked", LINKED)
    (tmp_path / "linked" / "cases" / "add").symlink_to(tmp_path / "linked" / "shared" / "add", target_is_directory=True)
    return path


def test_a_subfolder_of_a_folder_of_tests_that_is_a_link_is_an_error_and_its_case_is_not_linted(tmp_path):
    git(tmp_path, "init", "-q")
    assert run_concise(tmp_path, "--no-cache", _linked(tmp_path)) == (1, (
        "linked/suite.eval.yaml:1:8: EV401 [error] folder of tests './cases' holds 'add', a link to a folder, which the "
        "runner passes over without a word: it reads a test from each subfolder that is a folder itself, so this one "
        "never runs; make it a folder\n"), "")


@pytest.mark.runner
def test_the_runner_passes_over_a_subfolder_that_is_a_link(tmp_path):
    path = _linked(tmp_path)
    assert [test["id"] for test in load_tests(tmp_path, [path])[path]["tests"]] == ["sub"]


# beside the case files a folder of tests holds, files the runner never reads: a test written flat, a note, a test a
# level down, a case.yml shadowed by its case.yaml, a file of a case's workspace template; and subfolders of no case
# file, one holding a test under another name, one holding nothing of a test, one holding a case's data (which looks
# like a test but is what a case sends)
UNREAD = {"evals": ("tests: ./cases\n", (
    ("cases/alpha/case.yaml", "input: hi\ncriteria: c\n"),
    ("cases/alpha/case.yml", "input: yo\ncriteria: d\n"),
    ("cases/alpha/workspace/config.yaml", "debug: true\n"),
    ("cases/beta/case.yaml", "input: hi\ninput_files: [./cases/_fixtures/transcript.yaml]\ncriteria: c\n"),
    ("cases/beta/extra/case.yaml", "input: hi\ncriteria: c\n"),
    ("cases/_fixtures/transcript.yaml", "input: Where is my order?\nexpected_output: Tomorrow.\n"),
    ("cases/gamma.yaml", "id: gamma\ninput: hi\ncriteria: c\n"),
    ("cases/notes.yaml", "owner: qa\n"),
    ("cases/delta/test.yaml", "input: hi\ncriteria: c\n"),
    ("cases/shared/README.md", "# shared\n"))),
}


def test_files_of_a_folder_of_tests_the_runner_does_not_read_are_reported_at_the_suite_and_not_linted(tmp_path):
    git(tmp_path, "init", "-q")
    _write(tmp_path, "evals", UNREAD)
    where = "evals/suite.eval.yaml:1:8: "
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        f"{where}EV104 [error] subfolder 'alpha' of the folder of tests './cases' holds both case.yaml and case.yml, "
        "each a test of the subfolder: the runner reads case.yaml alone, so case.yml never runs; keep one\n"
        f"{where}EV111 [warning] subfolder '_fixtures' of the folder of tests './cases' holds no case.yaml or "
        "case.yml, nor a sign of a test; the runner skips it with a warning ('no case.yaml found') on every run; move "
        "it out of the folder of tests\n"
        f"{where}EV111 [warning] subfolder 'shared' of the folder of tests './cases' holds no case.yaml or case.yml, "
        "nor a sign of a test; the runner skips it with a warning ('no case.yaml found') on every run; move it out of "
        "the folder of tests\n"
        f"{where}EV401 [error] folder of tests './cases' holds the test 'gamma.yaml' beside its subfolders, which the "
        "runner never reads: it reads a test from each subfolder's case.yaml (or case.yml), and skips other files "
        "without a word; move it to './cases/gamma/case.yaml'\n"
        f"{where}EV401 [error] subfolder 'beta' of the folder of tests './cases' holds the test 'extra/case.yaml' a "
        "level down, which the runner never reads: it reads one test from each subfolder, from the subfolder's own "
        "case file; move 'extra' up into the folder of tests\n"
        f"{where}EV401 [error] subfolder 'delta' of the folder of tests './cases' has no case.yaml or case.yml (it "
        "holds the test 'test.yaml'); the runner skips it (warning 'no case.yaml found')\n"), "")


@pytest.mark.runner
def test_the_runner_reads_a_test_from_each_subfolders_case_file_alone(tmp_path):
    assert _loaded_ids(tmp_path, UNREAD) == ["alpha", "beta"]


# a dataset with a sidecar of default graders, named by a suite as a file of tests; and one whose sidecar names it only
SIDECARS = {"graded": ("tests: ./x.jsonl\n", (("x.jsonl", '{"id": "b1", "input": "What is 2+2?", "criteria": "says 4"}\n'),
                                              ("x.yaml", "name: xs\nexecution:\n  assertions:\n"
                                                         "    - {type: contains, value: '4'}\n")))}
NAMED_ONLY = {"named": ("tests:\n  - file://x.jsonl\n", (("x.jsonl", '{"id": "b1", "input": "hi", "criteria": "c"}\n'),
                                                          ("x.yaml", "name: xs\ndescription: d\n")))}


def test_a_file_of_tests_whose_sidecar_gives_default_graders_is_a_warning(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert _lint_all(tmp_path / "a", SIDECARS) == (0, (
        "graded/suite.eval.yaml:1:8: EV704 [warning] file of tests './x.jsonl' has a sidecar, 'x.yaml', that gives its "
        "lines default graders ('execution.assertions') when it runs on its own; named by this suite, the runner reads "
        "it without its sidecar and those settings; give this suite the graders meant for these tests\n"), "")
    assert _lint_all(tmp_path / "b", NAMED_ONLY) == (0, "", "")


@pytest.mark.runner
def test_the_runner_reads_a_file_of_tests_without_its_sidecar(tmp_path):
    _write(tmp_path, "graded", SIDECARS)
    loaded = load_tests(tmp_path, ["graded/suite.eval.yaml", "graded/x.jsonl"])
    assert [loaded[name]["tests"][0].get("assertions") for name in ("graded/suite.eval.yaml", "graded/x.jsonl")] == [
        None, [{"name": "contains-4", "type": "contains", "value": "4"}]]


# a list of tests beside the subfolders, one another suite reads as its file of tests; a suite whose folder of tests
# is its own folder ('tests: ./'), beside a note and a flat test; a subfolder of a test in a form the runner does not
# read ('case.json')
SHARED = {"evals": ("tests: ./cases\n", (
    ("cases/a/case.yaml", "input: hi\ncriteria: c\n"),
    ("cases/list.yaml", "- {id: x, input: hi, criteria: c}\n"),
    ("cases/read.yaml", "- {id: y, input: hi, criteria: c}\n"),
    ("cases/j/case.json", '{"input": "hi", "criteria": "c"}\n'),
    ("other.eval.yaml", "tests:\n  - file://cases/read.yaml\n"),
    ("own/eval.yaml", "input: [{role: system, content: Be terse.}]\ntests: ./\n"),
    ("own/a/case.yaml", "input: hi\ncriteria: c\n"),
    ("own/notes.yaml", "owner: qa\n"),
    ("own/flat.yaml", "input: hi\ncriteria: c\n")))}


def test_what_a_folder_of_tests_holds_beside_its_subfolders_is_reported_as_the_runner_reads_it(tmp_path):
    git(tmp_path, "init", "-q")
    _write(tmp_path, "evals", SHARED)
    never = ("beside its subfolders, which the runner never reads: it reads a test from each subfolder's case.yaml (or "
             "case.yml), and skips other files without a word;")
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "evals/own/eval.yaml:2:8: EV401 [error] folder of tests './' holds the test 'flat.yaml' " + never
        + " move it to './flat/case.yaml'\n"
        f"evals/suite.eval.yaml:1:8: EV401 [error] folder of tests './cases' holds the test 'list.yaml' {never} give each "
        "of its tests a subfolder of its own, holding it as a mapping in case.yaml\n"
        "evals/suite.eval.yaml:1:8: EV401 [error] subfolder 'j' of the folder of tests './cases' has no case.yaml or "
        "case.yml (it holds 'case.json': the runner reads case.yaml or case.yml alone); the runner skips it (warning "
        "'no case.yaml found')\n"), "")


# a folder of tests whose cases' 'workspace' folders the runner makes their templates; a suite hook logging what
# each test's workspace folder holds
CASE_WORKSPACES = {
    "evals/cases/add-greeting/case.yaml": "input: hi\ncriteria: c\n",
    "evals/cases/add-greeting/workspace/setup.txt": "a\n",
    "evals/cases/fix-null-check/case.yaml": "input: hi\ncriteria: c\n",
    "evals/cases/fix-null-check/workspace/other.txt": "b\n",
    "evals/cases/plain/case.yaml": "input: hi\ncriteria: c\n"}
LOGGED = ("workspace:\n  hooks:\n    before_each:\n      command: [sh, -c, \"python3 -c \\\"import json, os, sys; "
          "print(sorted(os.listdir(json.load(sys.stdin)['workspace_path'])))\\\" >> seen.log\"]\n"
          "tests: ./cases/\n")


def _case_workspaces(root, suite: str, files: dict = CASE_WORKSPACES):
    root.mkdir(exist_ok=True)
    git(root, "init", "-q")
    for path, text in {**files, "evals/a.eval.yaml": suite}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def test_a_later_cases_workspace_folder_in_a_shared_workspace_is_an_error(tmp_path):
    _case_workspaces(tmp_path, LOGGED)
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:5:8: EV125 [error] the workspace folder 'evals/cases/fix-null-check/workspace/' of case "
        "'fix-null-check' is never read: the runner makes it the test's workspace template, but the tests share one "
        "workspace folder, which the run sets up from the first test's workspace (merged with the suite's) alone; "
        "give the suite the template, or the suite's workspace 'isolation: per_test'\n"), "")
    (tmp_path / "evals" / "a.eval.yaml").write_text(LOGGED.replace("workspace:\n", "workspace:\n  isolation: per_test\n"))
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (0, "", "")


@pytest.mark.runner
@pytest.mark.parametrize(("isolation", "seen"), (("", ["['.git', 'setup.txt']"] * 3),
                                                  ("  isolation: per_test\n", ["['setup.txt']", "['other.txt']", "[]"])))
def test_the_runner_sets_up_a_shared_workspace_from_the_first_cases_folder_alone(tmp_path, isolation, seen):
    root = _case_workspaces(tmp_path / "repo", LOGGED.replace("workspace:\n", "workspace:\n" + isolation))
    assert run_suite(root, "evals/a.eval.yaml", tmp_path)["error"] is None
    assert (root / "evals" / "seen.log").read_text().splitlines() == seen



def test_a_pattern_of_tests_outside_the_repository_is_not_followed(tmp_path):
    """EV403 says evallint does not follow it: the tests it may match are not known, so neither is a dependency
    on one (the folders it names are not walked)."""
    (tmp_path / "repo").mkdir()
    git(tmp_path / "repo", "init", "-q")
    (tmp_path / "other.yaml").write_text("- {id: b, input: hi, criteria: c, depends_on: [zzz]}\n")
    (tmp_path / "repo" / "s.eval.yaml").write_text("tests:\n  - {id: a, input: hi, criteria: c, depends_on: [b]}\n"
                                                   "  - file://../**/*.yaml\n")
    assert run_concise(tmp_path / "repo", "--no-cache", ".") == (1, (
        "s.eval.yaml:3:5: EV403 [error] '../**/*.yaml' resolves outside the repository root; evallint does not follow "
        "it and the runner may read a file you did not mean to ship\n"), "")


# a suite's input files make the loader skip each test without a string input, of its files of tests and of its
# folder's case files too: such a test counts for no id and meets no dependency
MESSAGES = "input: [{role: user, content: hi}]\ncriteria: c\n"
WITH_FILES = {
    "item": ("input_files: [x.md]\ntests:\n  - {id: a, input: hi, criteria: c}\n  - file://more.yaml\n",
             (("more.yaml", "- id: a\n  " + MESSAGES.replace("\n", "\n  ").rstrip() + "\n"), ("x.md", "x\n"))),
    "depends": ("input_files: [x.md]\ntests:\n  - {id: c, input: hi, criteria: c, depends_on: [a]}\n  - file://more.yaml\n",
                (("more.yaml", "- id: a\n  " + MESSAGES.replace("\n", "\n  ").rstrip() + "\n"), ("x.md", "x\n"))),
    "folder": ("input_files: [x.md]\ntests: ./cases/\n", (("cases/a/case.yaml", MESSAGES),
                                                         ("cases/c/case.yaml", "id: a\ninput: hi\ncriteria: c\n"),
                                                         ("x.md", "x\n"))),
}


def test_a_test_the_suites_input_files_make_the_loader_skip_counts_for_no_id_and_meets_no_dependency(tmp_path):
    skips = ("EV105 [error] the suite's 'input_files' make the runner read only a string 'input', so it skips this test; "
             "give it 'execution: {skip_defaults: true}' or a string input")
    assert _lint_all(tmp_path, WITH_FILES) == (1, (
        "depends/more.yaml:2:10: " + skips + "\n"
        "depends/suite.eval.yaml:3:50: EV122 [error] 'depends_on' names 'a', a test the runner skips (see why there); "
        "the run fails before any test\n"
        "folder/cases/a/case.yaml:1:8: " + skips + "\n"
        "item/more.yaml:2:10: " + skips + "\n"), "")


@pytest.mark.runner
def test_the_loader_skips_a_test_of_another_file_that_the_suites_input_files_leave_without_input(tmp_path):
    files = [_write(tmp_path, name, WITH_FILES) for name in WITH_FILES]
    loaded = load_tests(tmp_path, files)
    assert {name: [test["id"] for test in loaded[file]["tests"]] for name, file in zip(WITH_FILES, files)} == {
        "item": ["a"], "depends": ["c"], "folder": ["a"]}
    assert _run_errors(tmp_path / "run", {"depends": WITH_FILES["depends"]}) == {
        "depends": "Test 'c' depends on 'a', but no test with that ID exists in this suite"}


# the suite's input files make the loader skip the first case (its input is messages): the next one sets up the
# shared workspace folder
SKIPPED_FIRST = {**CASE_WORKSPACES, "evals/cases/add-greeting/case.yaml": "input: [{role: user, content: hi}]\ncriteria: c\n",
                 "evals/x.md": "x\n"}


def test_the_first_case_the_loader_keeps_sets_up_the_shared_workspace(tmp_path):
    _case_workspaces(tmp_path, "input_files: [x.md]\n" + LOGGED, SKIPPED_FIRST)
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml", "evals/cases/add-greeting/case.yaml") == (1, (
        "evals/cases/add-greeting/case.yaml:1:8: EV105 [error] the suite's 'input_files' make the runner read only a "
        "string 'input', so it skips this test; give it 'execution: {skip_defaults: true}' or a string input\n"), "")


@pytest.mark.runner
def test_the_runner_sets_up_a_shared_workspace_from_the_first_case_it_keeps(tmp_path):
    root = _case_workspaces(tmp_path / "repo", "input_files: [x.md]\n" + LOGGED, SKIPPED_FIRST)
    assert run_suite(root, "evals/a.eval.yaml", tmp_path)["error"] is None
    assert (root / "evals" / "seen.log").read_text().splitlines() == ["['.git', 'other.txt']"] * 2
