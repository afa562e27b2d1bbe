"""Edge cases of a 4.42 suite where evallint is checked against what AgentV 4.42.4's loader does with the same
files: a blank id, a null grader list alone, a folder of tests, a file of tests that several suites name."""
from __future__ import annotations

import shutil

import pytest

from agentv_runner import load_tests, run_suite
from agreement import model_tests, run_written, runner_tests, write_suite
from clirun import git, run_concise
from evallint.config import Config
from evallint.lint import lint_file

BLANK_IDS = ("tests:\n"
             "  - {id: ' ', input: hi, criteria: c}\n"
             "  - {id: ' x ', input: hi, criteria: c}\n")


def test_an_id_of_spaces_is_kept_as_written_only_an_empty_one_is_refused(tmp_path):
    assert run_concise(write_suite(tmp_path, BLANK_IDS), "--no-cache", "a.eval.yaml") == (0, "", "")
    assert [test[0] for test in model_tests(tmp_path, "a.eval.yaml")] == [" ", " x "]
    write_suite(tmp_path, BLANK_IDS + "  - {id: '', input: hi, criteria: c}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:4:10: EV103 [error] case 'id' is an empty string; every case needs a unique string id\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_a_test_whose_id_is_only_spaces_and_skips_an_empty_one(tmp_path):
    write_suite(tmp_path, BLANK_IDS)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")
    write_suite(tmp_path, BLANK_IDS + "  - {id: '', input: hi, criteria: c}\n")
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert ([test["id"] for test in loaded["tests"]], loaded["logs"]) == ([" ", " x "], [
        "Error: Skipping incomplete test: . Missing required fields: id, input, and at least one of "
        "criteria/expected_output/assertions/turns"])


NULL_LISTS_ALONE = (
    "tests:\n"
    "  - {id: nothing-else, input: hi, assertions: null}\n"
    "  - {id: with-criteria, input: hi, criteria: c, assert: null}\n"
    "  - {id: evaluators-after, input: hi, assertions: null, evaluators: [{type: contains, value: x}]}\n"
    "  - {id: last-list-null, input: hi, criteria: c, evaluators: null}\n"
    "  - {id: not-graded, input: hi, execution: {evaluators: null}}\n")


def test_a_null_grader_list_alone_is_absent_but_for_the_last_one_the_loader_tries(tmp_path):
    """A null 'assertions' or 'assert' holds no grader and is no list the runner skips (no EV306), yet makes the
    test complete (graded by nothing else, against empty criteria: EV106); only a null in the last list of the
    loader's '??' chain is what it reads, and warns of."""
    assert run_concise(write_suite(tmp_path, NULL_LISTS_ALONE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:35: EV106 [error] test has no 'criteria' or 'expected_output', and its grader list is empty: the "
        "runner keeps it, but grades it with its default llm-grader against empty criteria, so its score means "
        "nothing; add criteria or graders\n"
        "a.eval.yaml:5:62: EV306 [error] 'evaluators' must be a list of assertions, found null; the runner skips "
        "them\n"
        "a.eval.yaml:6:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
        "runner skips it as incomplete\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_a_test_whose_only_grader_list_is_null(tmp_path):
    write_suite(tmp_path, NULL_LISTS_ALONE)
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert ([(test["id"], [a["name"] for a in test.get("assertions") or ()]) for test in loaded["tests"]],
            loaded["logs"]) == ([("nothing-else", []), ("with-criteria", []), ("evaluators-after", ["contains-x"]),
                                 ("last-list-null", [])], [
        "Warning: Skipping evaluators for 'last-list-null': expected array",
        "Error: Skipping incomplete test: not-graded. Missing required fields: id, input, and at least one of "
        "criteria/expected_output/assertions/turns"])
    write_suite(tmp_path, NULL_LISTS_ALONE.rsplit("  - ", 2)[0])  # the tests the loader keeps as written
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")


# blank criteria, an empty expected output: all a test is graded by, but for the last two (the loader's view of
# more of them: test_agentv4_model_agrees.KEPT)
BLANK_GRADING = ("tests:\n"
                 "  - {id: blank-criteria, input: hi, criteria: '   '}\n"
                 "  - {id: empty-messages, input: hi, expected_output: [{role: assistant, content: ' '}]}\n"
                 "  - {id: blank-but-graded, input: hi, criteria: '  ', assertions: [{type: contains, value: x}]}\n"
                 "  - {id: blank-but-expected, input: hi, criteria: '  ', expected_output: four}\n")


def test_blank_criteria_or_an_empty_expected_output_alone_grade_by_nothing(tmp_path):
    then = ("the runner keeps it, but grades it with its default llm-grader against empty criteria, so its score means "
            "nothing; add criteria or graders")
    nothing = "nothing else to grade it by (graders, criteria, an expected answer)"
    assert run_concise(write_suite(tmp_path, BLANK_GRADING), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:47: EV106 [error] 'criteria' is blank and the test has {nothing}: {then}\n"
        f"a.eval.yaml:3:54: EV106 [error] 'expected_output' is empty and the test has {nothing}: {then}\n"
    ), "")


@pytest.mark.runner
def test_the_runner_grades_blank_criteria_against_nothing(tmp_path):
    """The default grader's prompt holds neither criteria nor a reference answer, but for the test that expects
    'four' (the one with graders of its own asks no llm-grader)."""
    ran = run_written(tmp_path, BLANK_GRADING)
    nothing = "[[ ## criteria ## ]]\n\n\n[[ ## question ## ]]\nhi\n\n[[ ## reference_answer ## ]]\n\n\n"
    assert [(graded["test"], nothing in graded["prompt"]) for graded in ran["graded"]] == [
        ("blank-criteria", True), ("empty-messages", True), ("blank-but-expected", False)]


NULL_LINES = ('{"id": "l1", "input": "hi", "criteria": "c", "execution": {"evaluators": null}}\n'
              '{"id": "l2", "input": "hi", "assert": null}\n'
              '{"id": "l3", "input": "hi", "criteria": "c", "assertions": null}\n')


def test_a_dataset_lines_null_list_is_reported_only_where_the_loader_reads_it(tmp_path):
    """A line's 'execution.evaluators' is the last list of its default graders' chain: null there is what the
    loader reads, and warns of; a null 'assert' makes the line complete (graded by nothing else, against empty
    criteria: EV106, as a YAML test's)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "d.jsonl").write_text(NULL_LINES)
    assert run_concise(tmp_path, "--no-cache", "d.jsonl") == (1, (
        "d.jsonl:1:74: EV306 [error] 'execution.evaluators' must be a list of assertions, found null; the runner "
        "skips them\n"
        "d.jsonl:2:29: EV106 [error] test has no 'criteria' or 'expected_output', and its grader list is empty: the "
        "runner keeps it, but grades it with its default llm-grader against empty criteria, so its score means "
        "nothing; add criteria or graders\n"), "")


@pytest.mark.runner
def test_the_runner_warns_of_a_dataset_lines_null_default_list_alone(tmp_path):
    (tmp_path / "d.jsonl").write_text(NULL_LINES)
    loaded = load_tests(tmp_path, ["d.jsonl"])["d.jsonl"]
    assert ([test["id"] for test in loaded["tests"]], loaded["logs"]) == (
        ["l1", "l2", "l3"], ["Warning: Skipping evaluators for 'l1': expected array"])


FOLDER_SUITES = (
    ("good.eval.yaml", "assertions: [{type: contains, value: SUITE}]\ninput_files: [shared.md]\ntests: ./good/\n"),
    ("shared.md", "shared\n"),
    ("good/a-first/case.yaml", "input: hi\ncriteria: c\n"),
    ("good/a-first/workspace/keep.txt", "kept\n"),
    ("good/b-second/case.yaml", "id: null\ninput: hi\nassertions: [{type: equals, value: B}]\n"),
    ("good/c-yml/case.yml", "id: c\ninput: hi\nexpected_output: C\n"),
    ("good/d-both/case.yaml", "id: d-yaml\ninput: hi\ncriteria: c\n"),
    ("good/d-both/case.yml", "id: d-yml\ninput: hi\ncriteria: c\n"),
    ("bad.eval.yaml", "tests: bad\n"),
    ("bad/a-none/notes.txt", "no test here\n"),
    ("bad/b-typo/cases.yaml", "id: b\ninput: hi\ncriteria: c\n"),
    ("bad/c-incomplete/case.yaml", "input: hi\n"),
    ("empty.eval.yaml", "tests: ./empty/\n"),
    ("empty/keep.txt", "no subfolder\n"),
    ("item.eval.yaml", "tests:\n  - file://good/\n"),
    ("listed.eval.yaml", "tests: listed/\n"),
    ("listed/x/case.yaml", "- id: x\n  input: hi\n  criteria: c\n"),
)


def _folder_suites(tmp_path):
    git(tmp_path, "init", "-q")
    for path, text in FOLDER_SUITES:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


def _model(root, name: str):
    return lint_file(str(root / name), Config(root=str(root))).model


def test_a_case_without_a_workspace_gets_its_subfolders_workspace_folder_for_a_template(tmp_path):
    """As the runner's loader gives it, written from the suite's folder; a test with a workspace of its own keeps
    it, and one without a workspace folder gets none."""
    _folder_suites(tmp_path)
    (tmp_path / "good" / "b-second" / "workspace").mkdir()
    (tmp_path / "good" / "c-yml" / "case.yml").write_text("id: c\ninput: hi\nexpected_output: C\nworkspace: ./w.yaml\n")
    (tmp_path / "good" / "c-yml" / "workspace").mkdir()
    assert [_model(tmp_path, name).tests[0].workspace for name in (
        "good/a-first/case.yaml", "good/b-second/case.yaml", "good/c-yml/case.yml", "good/d-both/case.yaml")] == [
        {"template": "good/a-first/workspace"}, {"template": "good/b-second/workspace"}, "./w.yaml", None]


def test_the_implied_workspace_is_no_reference_and_a_case_of_assertions_alone_is_no_template(tmp_path):
    """Suites at two depths name the same folder of tests: the workspace folder the loader puts in the case is
    not looked up again (from either suite); a case file that holds only 'assertions' is a test without input,
    not an assertion template."""
    git(tmp_path, "init", "-q")
    for path, text in (("suite.eval.yaml", "tests: ./cases/\n"), ("other/o.eval.yaml", "tests: ../cases/\n"),
                       ("cases/x/case.yaml", "input: hi\ncriteria: c\n"), ("cases/x/workspace/keep.txt", "\n"),
                       ("cases/y/case.yaml", "assertions: [{type: is-json}]\n")):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    assert run_concise(tmp_path, "--no-cache", ".", "cases/x/case.yaml", "cases/y/case.yaml") == (1, (
        "cases/y/case.yaml:1:1: EV105 [error] test has no 'input'; the runner skips it (the suite's input does not "
        "count)\n"), "")


def test_a_folder_of_tests_is_read_as_the_runner_reads_it(tmp_path):
    """Each subfolder's case.yaml (else case.yml) is one test with the suite's defaults, its missing or null id
    the subfolder's name; a subfolder without one is skipped (EV111, EV401 when it holds a near miss), one with
    both runs case.yaml's alone
    (EV104), a folder without subfolders runs nothing (EV111), a 'file://' item names no folder (EV401) and a case
    file that is no mapping rejects the suite."""
    assert run_concise(_folder_suites(tmp_path), "--no-cache", ".") == (1, (
        "bad.eval.yaml:1:8: EV111 [warning] subfolder 'a-none' of the folder of tests 'bad' holds no case.yaml or "
        "case.yml, nor a sign of a test; the runner skips it with a warning ('no case.yaml found') on every run; move "
        "it out of the folder of tests\n"
        "bad.eval.yaml:1:8: EV401 [error] subfolder 'b-typo' of the folder of tests 'bad' has no case.yaml or "
        "case.yml (it holds 'cases.yaml': did you mean 'case.yaml'?); the runner skips it (warning 'no case.yaml "
        "found')\n"
        "bad/c-incomplete/case.yaml:1:1: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or "
        "'turns'; the runner skips it as incomplete\n"
        "empty.eval.yaml:1:8: EV111 [warning] folder of tests './empty/' has no subfolder; the runner reads a test "
        "from each subfolder's case.yaml (or case.yml), so this suite runs nothing\n"
        "good.eval.yaml:3:8: EV104 [error] subfolder 'd-both' of the folder of tests './good/' holds both case.yaml "
        "and case.yml, each a test of the subfolder: the runner reads case.yaml alone, so case.yml never runs; keep "
        "one\n"
        "item.eval.yaml:2:5: EV401 [error] file of tests 'good/' is a folder: a 'file://' item names a file (a folder "
        "of tests is read only when 'tests' is its path alone); the runner rejects the suite\n"
        "listed/x/case.yaml:1:1: EV008 [error] the top level is a list; the case file of a folder of tests' subfolder "
        "must be a mapping, its one test; the runner rejects the suite that names the folder ('Case file must "
        "contain a YAML object')\n"), "")


@pytest.mark.runner
def test_the_runner_reads_a_folder_of_tests_as_evallint_does(tmp_path):
    _folder_suites(tmp_path)
    cases = ["good/a-first/case.yaml", "good/b-second/case.yaml", "good/c-yml/case.yml", "good/d-both/case.yaml"]
    assert runner_tests(tmp_path, "good.eval.yaml") == [test for name in cases for test in model_tests(tmp_path, name)]
    loaded = load_tests(tmp_path, ["good.eval.yaml", "bad.eval.yaml", "empty.eval.yaml", "item.eval.yaml",
                                   "listed.eval.yaml"])
    assert loaded["good.eval.yaml"]["tests"][0]["workspace"] == {"template": "good/a-first/workspace"} == \
        _model(tmp_path, "good/a-first/case.yaml").tests[0].workspace
    assert [(name, [test["id"] for test in entry["tests"] or ()], entry["logs"], entry["error"])
            for name, entry in loaded.items() if name != "good.eval.yaml"] == [
        ("bad.eval.yaml", [], [
            "Warning: Skipping directory 'a-none' — no case.yaml found",
            "Warning: Skipping directory 'b-typo' — no case.yaml found",
            "Error: Skipping incomplete test: c-incomplete. Missing required fields: id, input, and at least one of "
            "criteria/expected_output/assertions/turns"], None),
        ("empty.eval.yaml", [], [], None),
        ("item.eval.yaml", [], [], "Cannot read external test file: good\n  EISDIR: illegal operation on a "
                                   "directory, read"),
        ("listed.eval.yaml", [], [], "Case file must contain a YAML object, got object: listed/x/case.yaml")]


SHARED_FILE = (("x.md", "x\n"), ("cases.jsonl", '{"id": "msgs", "input": [{"role": "user", "content": "hi"}], '
                                               '"criteria": "c"}\n{"id": "nothing", "input": "hi"}\n'),
               ("b.eval.yaml", "input_files: [x.md]\ntests: ./cases.jsonl\n"))


def test_a_file_of_tests_that_two_suites_name_is_checked_with_each_suites_defaults(tmp_path):
    """The runner loads the file once per suite: the second suite's input_files make it skip the test whose input
    is messages (EV105, naming that suite); a finding both suites give (EV106) is reported once, naming none."""
    assert run_concise(write_suite(tmp_path, "tests: ./cases.jsonl\n", SHARED_FILE), "--no-cache", "cases.jsonl") == (
        1, "cases.jsonl:1:25: EV105 [error] the suite's 'input_files' make the runner read only a string 'input', so it "
           "skips this test; give it 'execution: {skip_defaults: true}' or a string input (as b.eval.yaml loads this "
           "file)\n"
           "cases.jsonl:2:2: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
           "runner skips it as incomplete\n", "")


@pytest.mark.runner
def test_the_runner_loads_a_file_of_tests_once_per_suite_that_names_it(tmp_path):
    loaded = load_tests(write_suite(tmp_path, "tests: ./cases.jsonl\n", SHARED_FILE), ["a.eval.yaml", "b.eval.yaml"])
    skipped = "Error: Skipping incomplete test: {}. Missing required fields: id, input, and at least one of " \
              "criteria/expected_output/assertions/turns"
    assert [([test["id"] for test in entry["tests"]], entry["logs"]) for entry in loaded.values()] == [
        (["msgs"], [skipped.format("nothing")]), ([], [skipped.format("msgs"), skipped.format("nothing")])]


SUITE_FOLDER = (("evals/suite.yaml", "tests: ./cases/more.yaml\n"),
                ("evals/cases/more.yaml", "- id: near-the-file\n  input: hi\n  assertions:\n    - type: llm-grader\n"
                                          "      prompt: file://prompts/judge.md\n"
                                          "- id: near-the-suite\n  input: hi\n  assertions:\n    - type: llm-grader\n"
                                          "      prompt: file://shared/judge.md\n"
                                          "- id: attached\n  input: [{role: user, content: [{type: file, value: "
                                          "prompts/judge.md}]}]\n  criteria: c\n"
                                          "- id: included\n  input: hi\n  assertions: [include: ./checks.yaml]\n"),
                ("evals/cases/checks.yaml", "assertions: [{type: is-json}]\n"),
                ("evals/cases/prompts/judge.md", "Grade {{ output }}\n"),
                ("evals/shared/judge.md", "Grade {{ output }}\n"),
                ("evals/folder.yaml", "tests: ./each/\n"),
                ("evals/each/one/case.yaml", "input: hi\nassertions: [{type: code-grader, command: [node, "
                                             "./check.js]}]\n"),
                ("evals/each/one/check.js", "\n"))


def test_the_paths_in_a_file_of_tests_are_looked_up_from_its_suites_folder(tmp_path):
    """The runner resolves a test's paths from the folder of the suite that names its file (evals/), never from
    the file's own (evals/cases/, evals/each/one/): a prompt or a script beside the file of tests is not found."""
    git(tmp_path, "init", "-q")
    for path, text in SUITE_FOLDER:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    looked = "the runner looks from the folder of evals/{}, the suite naming this file"
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "evals/cases/more.yaml:5:15: EV404 [error] prompt file 'prompts/judge.md' not found (looked in: evals/, ./; "
        f"{looked.format('suite.yaml')}); the runner skips the test\n"
        "evals/cases/more.yaml:12:54: EV401 [error] file 'prompts/judge.md' not found (looked in: evals/, ./; "
        f"{looked.format('suite.yaml')})\n"
        "evals/cases/more.yaml:16:25: EV401 [error] assertion template './checks.yaml' not found (looked in: evals/, "
        f"./; {looked.format('suite.yaml')}); the runner skips the test\n"
        "evals/each/one/case.yaml:2:50: EV408 [error] script file './check.js' not found in evals/ (the folder the "
        f"command runs in; {looked.format('folder.yaml')}); the command fails when the grader runs\n"), "")


@pytest.mark.runner
def test_the_runner_looks_up_a_tests_paths_from_its_suites_folder(tmp_path):
    for path, text in SUITE_FOLDER:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    loaded = load_tests(tmp_path, ["evals/suite.yaml", "evals/folder.yaml"])
    suite, folder = loaded["evals/suite.yaml"], loaded["evals/folder.yaml"]
    assert [test["id"] for test in suite["tests"]] == ["near-the-suite", "attached"]
    assert suite["logs"][2].startswith("Error: Skipping test 'included': Assertion template not found")
    assert suite["logs"][0] == ("Error: Skipping test 'near-the-file': Grader 'llm-grader' in 'near-the-file': prompt "
                                "file not found: prompts/judge.md")
    assert suite["tests"][1]["input"] == [{"content": [], "role": "user"}]  # the file is not attached
    assert [grader.get("resolvedScriptPath") for grader in folder["tests"][0]["assertions"]] == [None]


NULL_ASSERT = (("erased.eval.yaml", "assert:\nexecution:\n  assertions: [{type: contains, value: x}]\n"
                                    "tests:\n  - {id: a, input: q, criteria: c}\n"),
               ("next.eval.yaml", "assert:\nexecution:\n  assertions: [{type: contains, value: x}]\n"
                                  "  evaluators: [{type: equals, value: y}]\ntests:\n  - {id: a, input: q, criteria: c}\n"),
               ("kept.eval.yaml", "assertions:\nexecution:\n  assertions: [{type: contains, value: x}]\n"
                                  "tests:\n  - {id: a, input: q, criteria: c}\n"))


def test_a_null_top_level_assert_takes_the_place_of_execution_assertions(tmp_path):
    """The loader puts the top level's 'assertions ?? assert' in place of 'execution.assertions' when it is not
    undefined: a null 'assert' erases 'execution.assertions' (EV113), and 'execution.evaluators' is read in its
    place; a null 'assertions' alone is absent."""
    assert run_concise(write_suite(tmp_path, "tests: []\n", NULL_ASSERT), "--no-cache", "--ignore", "EV109,EV111",
                       "erased.eval.yaml", "next.eval.yaml", "kept.eval.yaml") == (1, "".join(
        f"{name}.eval.yaml:3:3: EV113 [error] 'execution.assertions' is ignored because the top-level 'assert' is "
        "null: the runner puts the top level's 'assertions' (else 'assert') in place of 'execution.assertions', so "
        "it reads none of these graders; remove 'assert'\n" for name in ("erased", "next")), "")
    assert [[[grader[1] for grader in test[4]] for test in model_tests(tmp_path, name)]
            for name in ("erased.eval.yaml", "next.eval.yaml", "kept.eval.yaml")] == [[[]], [["equals"]], [["contains"]]]


@pytest.mark.runner
def test_the_runner_reads_no_execution_assertions_under_a_null_assert(tmp_path):
    write_suite(tmp_path, "tests: []\n", NULL_ASSERT)
    for name in ("erased.eval.yaml", "next.eval.yaml", "kept.eval.yaml"):
        assert runner_tests(tmp_path, name) == model_tests(tmp_path, name), name


WORKSPACE_SETTINGS = ("metadata: [team-a]\n"
                      "workspace:\n"
                      "  env: {required_commands: git}\n"
                      "  repos:\n"
                      "    - {path: ./r, repo: x, commit: abc, base_commit: def}\n"
                      "tests:\n"
                      "  - {id: t, input: hi, criteria: c, workspace: null, metadata: owner bob}\n")


def test_workspace_settings_the_loader_rejects_or_drops_are_errors(tmp_path):
    """A removed repo key and two commits that differ make the loader reject the file; metadata that is no
    mapping and an 'env' that holds no list are dropped; a null workspace is none (no finding)."""
    assert run_concise(write_suite(tmp_path, WORKSPACE_SETTINGS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:11: EV110 [error] 'metadata' must be a mapping, found a list; the runner drops it\n"
        "a.eval.yaml:3:28: EV110 [error] workspace env 'required_commands' must be a list of command names, found "
        "'git'; the runner ignores it\n"
        "a.eval.yaml:5:54: EV110 [error] repo 'base_commit' 'def' differs from its 'commit' 'abc'; the runner rejects "
        "the file (they must match when both are set)\n"
        "a.eval.yaml:7:64: EV110 [error] 'metadata' must be a mapping, found 'owner bob'; the runner drops it\n"), "")
    write_suite(tmp_path, "workspace: {repos: [{path: ./r, source: x}]}\ntests: [{id: t, input: hi, criteria: c}]\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:33: EV115 [error] 'source' in a workspace repo is a removed key and the runner rejects the "
        "file; write 'repo'\n"), "")


@pytest.mark.runner
def test_the_runner_rejects_a_removed_repo_key_or_two_commits_and_drops_what_is_no_mapping(tmp_path):
    loaded = load_tests(write_suite(tmp_path, WORKSPACE_SETTINGS), ["a.eval.yaml"])["a.eval.yaml"]
    assert loaded["error"] == "workspace.repos[].commit and workspace.repos[].base_commit must match."
    fixed = WORKSPACE_SETTINGS.replace("base_commit: def", "base_commit: abc")
    (test,) = load_tests(write_suite(tmp_path, fixed), ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert (test.get("metadata"), "env" in test["workspace"]) == (None, False)
    for key in ("source: x", "checkout: {ref: main}", "clone: {depth: 1}"):
        write_suite(tmp_path, "workspace: {repos: [{path: ./r, %s}]}\ntests: [{id: t, input: hi, criteria: c}]\n" % key)
        assert load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["error"].endswith("has been removed. Use " + {
            "source: x": "workspace.repos[].repo.", "checkout: {ref: main}": "top-level commit, base_commit, and ancestor.",
            "clone: {depth: 1}": "top-level sparse if needed."}[key])


WORKSPACE_FILES = (  # what a workspace file holds that the parser reads on from, and a mistake after it
    ("tag", "isolation: !custom per_test\nhooks:\n  before_al: {command: [x]}\n"),
    ("merge", "<<: {isolation: shared}\nisolation: per_tst\n"),
    ("yaml 1.1", "%YAML 1.1\n---\nrepos:\n  - {path: ./r, repo: x, commit: 0123}\nisolation: per_tst\n"),
)
WORKSPACE_FILE_SUITE = "tests:\n  - {id: t, input: hi, criteria: c, workspace: ./ws.yaml}\n"


def test_a_workspace_file_the_parser_reads_has_its_settings_checked(tmp_path):
    """A tag the parser does not know, a '<<' whose keys are all written out (what AgentV 2.2 would not merge), or a
    '%YAML 1.1' directive does not stop the loader: the mistake after it is reported, with the tag's own EV004 and
    the EV014 of a value YAML 1.1 reads otherwise (which alone says what is wrong with that value)."""
    found = {name: run_concise(write_suite(tmp_path, WORKSPACE_FILE_SUITE, (("ws.yaml", text),)), "--no-cache",
                               "a.eval.yaml") for name, text in WORKSPACE_FILES}
    at = "a.eval.yaml:2:48: "
    assert found == {"tag": (1, (
        f"{at}EV004 [error] in workspace file './ws.yaml': tag '!custom' is not a standard YAML tag; nothing is "
        "constructed from it (accepted: !!str, !!int, !!float, !!bool, !!null, !!map, !!seq, !!omap, !!set, "
        "!!pairs)\n"
        f"{at}EV115 [error] in workspace file './ws.yaml': unknown key 'before_al' in workspace hooks (did you mean "
        "'before_all'?); the runner does not read it, so what it holds is dropped\n"), ""), "merge": (1, (
        f"{at}EV110 [error] in workspace file './ws.yaml': invalid workspace isolation 'per_tst' (did you mean "
        "'per_test'?); the runner ignores it; expected one of 'shared', 'per_test'\n"), ""), "yaml 1.1": (1, (
        f"{at}EV014 [error] in workspace file './ws.yaml': '0123' is the octal number 83 under YAML 1.1, which the "
        "'%YAML 1.1' directive makes the runner use, and 123 under YAML 1.2; quote it, or remove the directive\n"
        f"{at}EV110 [error] in workspace file './ws.yaml': invalid workspace isolation 'per_tst' (did you mean "
        "'per_test'?); the runner ignores it; expected one of 'shared', 'per_test'\n"), "")}


@pytest.mark.runner
def test_the_loader_reads_a_workspace_file_with_an_unknown_tag_or_a_merge(tmp_path):
    """It keeps the tagged value and drops the misspelt hook; it ignores the invalid isolation, which leaves the
    test no workspace but for the repo whose commit YAML 1.1 reads as a number, which it drops."""
    workspaces = {}
    for name, text in WORKSPACE_FILES:
        loaded = load_tests(write_suite(tmp_path, WORKSPACE_FILE_SUITE, (("ws.yaml", text),)), ["a.eval.yaml"])
        (test,) = loaded["a.eval.yaml"]["tests"]
        workspaces[name] = (loaded["a.eval.yaml"]["error"], test.get("workspace"))
    assert workspaces == {"tag": (None, {"isolation": "per_test", "workspaceFileDir": "."}), "merge": (None, None),
                          "yaml 1.1": (None, {"repos": [{"path": "./r", "repo": "x"}], "workspaceFileDir": "."})}


BROKEN_WORKSPACE_FILE = ("ws.yaml", "isolation: per_test\nhooks: [a\n")


def test_a_workspace_file_that_is_no_valid_yaml_is_an_error_saying_where(tmp_path):
    write_suite(tmp_path, WORKSPACE_FILE_SUITE, (BROKEN_WORKSPACE_FILE,))
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:48: EV110 [error] in workspace file './ws.yaml': it is not valid YAML (line 3, column 1: did "
        "not find expected ',' or ']' (while parsing a flow sequence); the '[' opened at line 2 column 8 is not "
        "closed before this point, or a ',' is missing between two of its entries); the runner rejects the suite\n"), "")


@pytest.mark.runner
def test_the_loader_rejects_a_suite_whose_workspace_file_is_no_valid_yaml(tmp_path):
    loaded = load_tests(write_suite(tmp_path, WORKSPACE_FILE_SUITE, (BROKEN_WORKSPACE_FILE,)), ["a.eval.yaml"])
    assert (loaded["a.eval.yaml"]["tests"], loaded["a.eval.yaml"]["error"].split(" at line")[0]) == (
        [], "Flow sequence in block collection must be sufficiently indented and end with a ]")


BLANK_WORKSPACE = "tests:\n  - {id: t, input: hi, criteria: c, workspace: \" \"}\n  - {id: u, input: hi, criteria: c}\n"


def test_a_blank_workspace_path_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, BLANK_WORKSPACE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:48: EV110 [error] 'workspace' ' ' names no workspace file; the runner rejects the suite (write "
        "the workspace's settings, or leave 'workspace' out)\n"), "")


@pytest.mark.runner
def test_the_loader_rejects_a_suite_with_a_blank_workspace_path(tmp_path):
    loaded = load_tests(write_suite(tmp_path, BLANK_WORKSPACE), ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["tests"], loaded["error"].startswith("Workspace file not found:")) == ([], True)


NULL_TURN = ("tests:\n"
             "  - {id: t, mode: conversation, input: hi, criteria: c, turns: [null, x]}\n"
             "  - {id: u, input: hi, criteria: c}\n")


def test_a_turn_that_is_no_mapping_is_an_error_and_a_null_one_says_the_file_is_rejected(tmp_path):
    assert run_concise(write_suite(tmp_path, NULL_TURN), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:65: EV110 [error] a turn must be a mapping with 'input', found null; the loader fails on it and "
        "rejects the file\n"
        "a.eval.yaml:2:71: EV110 [error] a turn must be a mapping with 'input', found 'x'; the runner reads it as a "
        "turn with nothing in it and sends a user message with no content\n"), "")


@pytest.mark.runner
def test_the_loader_fails_on_a_null_turn_and_empties_another(tmp_path):
    loaded = load_tests(write_suite(tmp_path, NULL_TURN), ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["tests"], loaded["error"]) == ([], "Cannot read properties of null (reading 'input')")
    (test,) = load_tests(write_suite(tmp_path, NULL_TURN.replace("null, ", "")), ["a.eval.yaml"])["a.eval.yaml"]["tests"][:1]
    assert test["turns"] == [{}]


TURNS_WITHOUT_MODE = ("tests:\n"
                      "  - id: t\n"
                      "    input: [{role: system, content: You are a tutor.}]\n"
                      "    criteria: c\n"
                      "    aggregation: min\n"
                      "    turns: [{input: What is 15% of 200?, assertions: [Says 30]}]\n")


def test_conversation_settings_without_the_mode_are_errors(tmp_path):
    """The run plays the turns only in conversation mode (orchestrator.ts runEvalCase); the loader keeps them."""
    assert run_concise(write_suite(tmp_path, TURNS_WITHOUT_MODE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:5:5: EV121 [error] 'aggregation' is ignored without 'mode: conversation': the runner runs the "
        "test once, on its input alone; add 'mode: conversation'\n"
        "a.eval.yaml:6:5: EV121 [error] 'turns' is ignored without 'mode: conversation': the runner runs the test "
        "once, on its input alone, and drops every turn and its assertions; add 'mode: conversation'\n"), "")


@pytest.mark.runner
def test_the_loader_keeps_turns_without_a_mode_and_reads_the_mode_only_as_conversation(tmp_path):
    (test,) = load_tests(write_suite(tmp_path, TURNS_WITHOUT_MODE), ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert ("mode" in test, len(test["turns"]), test["aggregation"]) == (False, 1, "min")
    fixed = TURNS_WITHOUT_MODE.replace("    aggregation", "    mode: conversation\n    aggregation")
    (test,) = load_tests(write_suite(tmp_path, fixed), ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert test["mode"] == "conversation"


MODE_WITHOUT_TURNS = ("tests:\n"
                      "  - {id: t1, mode: conversation, input: hi, criteria: c}\n"
                      "  - {id: t2, mode: conversation, input: hi, criteria: c, turns: []}\n"
                      "  - {id: t3, mode: conversation, input: hi}\n")


def test_the_conversation_mode_without_turns_is_an_error(tmp_path):
    """The run plays a conversation only when the test has turns too (orchestrator.ts runEvalCase: 'mode ===
    conversation && turns.length'); else it runs the test once. A test with nothing to grade by is skipped (EV106)."""
    assert run_concise(write_suite(tmp_path, MODE_WITHOUT_TURNS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:20: EV121 [error] 'mode: conversation' is ignored without turns: the runner runs the test once, "
        "on its input alone; add its 'turns'\n"
        "a.eval.yaml:3:20: EV121 [error] 'mode: conversation' is ignored without turns: the runner runs the test once, "
        "on its input alone; add its 'turns'\n"
        "a.eval.yaml:4:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the runner "
        "skips it as incomplete\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_conversation_without_turns_once(tmp_path):
    """The loader keeps the mode; the run sends the input once, with no conversation history."""
    sent = run_written(tmp_path, MODE_WITHOUT_TURNS)["sent"]
    loaded = load_tests(tmp_path / "repo", ["a.eval.yaml"])["a.eval.yaml"]
    assert [(test["id"], test["mode"], "turns" in test) for test in loaded["tests"]] == [
        ("t1", "conversation", False), ("t2", "conversation", False)]
    assert sent == [
        {"test": "t1", "question": "hi", "messages": []}, {"test": "t2", "question": "hi", "messages": []}]


TURN_EXPECTATIONS = ("tests:\n"
                     "  - id: conv\n"
                     "    mode: conversation\n"
                     "    input: start\n"
                     "    criteria: TOP-CRITERIA\n"
                     "    turns:\n"
                     "      - {input: first, expected_output: TURN-ONE-EXPECTED}\n"
                     "      - {input: second, expected_output: TURN-TWO-EXPECTED, assertions: [Is polite]}\n"
                     "      - input: third\n"
                     "        expected_output: {tool: lookup}\n"
                     "        assertions: [{type: code-grader, command: [python3, check.py]}]\n"
                     "      - {input: fourth, expected_output: X, assertions: [{type: rubrics, criteria: [short]}]}\n"
                     "      - {input: fifth, expected_output: Y, assertions: [{type: contains, value: answer}]}\n")


def test_a_turns_expected_output_no_grader_of_it_reads_is_an_error(tmp_path):
    """The run grades a turn with its assertions, else the test's criteria (orchestrator.ts runConversationMode);
    an llm-grader shows the test's expected output as its reference answer, never the turn's (llm-grader.ts), which
    only a code-grader or field-accuracy reads (graders/*.ts: none of the text checks does). A turn's graders are not
    parsed, so 'rubrics' there is no kind the run knows (EV301, below)."""
    turn = ("is not shown to its graders: only a code-grader or field-accuracy reads the turn's (an llm-grader, the "
            "turn's criteria or the test's when the turn has none, gets the test's expected output as its reference "
            "answer); write what the answer must say in the turn's 'assertions'")
    assert run_concise(write_suite(tmp_path, TURN_EXPECTATIONS, (("check.py", "print(1)\n"),)), "--no-cache",
                       "a.eval.yaml") == (1, (
        f"a.eval.yaml:7:24: EV121 [error] a turn's 'expected_output' {turn}\n"
        f"a.eval.yaml:8:25: EV121 [error] a turn's 'expected_output' {turn}\n"
        "a.eval.yaml:12:65: EV301 [error] turn grader type 'rubrics' is not read in a turn: the runner takes a turn's "
        "graders as written, and its registry has no grader of that type, so the grader fails ('Unknown grader type') "
        "and scores 0; write an llm-grader with 'rubrics'\n"
        f"a.eval.yaml:13:24: EV121 [error] a turn's 'expected_output' {turn}\n"), "")


@pytest.mark.runner
def test_the_runner_shows_no_grader_a_turns_expected_output(tmp_path):
    graded = run_written(tmp_path, TURN_EXPECTATIONS.split("      - input: third")[0])["graded"]
    assert [grade["test"] for grade in graded] == ["conv/turn-1", "conv/turn-2"]
    assert all("TOP-CRITERIA" in grade["prompt"] and "EXPECTED" not in grade["prompt"] for grade in graded)


TURN_GRADER_TYPES = ("tests:\n"
                     "  - id: shorthand\n"
                     "    mode: conversation\n"
                     "    input: start\n"
                     "    criteria: ok\n"
                     "    turns:\n"
                     "      - {input: one, assertions: [{type: rubrics, criteria: [short]}]}\n"
                     "      - {input: two, assertions: [{type: llm_grader, prompt: 'grade {{ output }}'}]}\n"
                     "  - id: written\n"
                     "    mode: conversation\n"
                     "    input: start\n"
                     "    criteria: ok\n"
                     "    turns:\n"
                     "      - {input: one, assertions: [{type: llm-grader, rubrics: [{id: criterion-1, weight: 1, "
                     "outcome: short}]}]}\n")


def test_a_turn_grader_of_a_type_only_the_loader_reads_is_an_error(tmp_path):
    """The loader copies a turn's graders as written (yaml-parser.ts parseTurns), so the run's registry gets
    'rubrics' or 'llm_grader' as they are and fails them ('Unknown grader type')."""
    turn = ("is not read in a turn: the runner takes a turn's graders as written, and its registry has no grader of "
            "that type, so the grader fails ('Unknown grader type') and scores 0; write")
    assert run_concise(write_suite(tmp_path, TURN_GRADER_TYPES), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:7:42: EV301 [error] turn grader type 'rubrics' {turn} an llm-grader with 'rubrics'\n"
        f"a.eval.yaml:8:42: EV301 [error] turn grader type 'llm_grader' {turn} 'llm-grader'\n"), "")


@pytest.mark.runner
def test_the_run_fails_a_turn_grader_of_a_type_only_the_loader_reads(tmp_path):
    ran = run_written(tmp_path, TURN_GRADER_TYPES)
    # only the turn written as an llm-grader reaches a grader; the other fails before and scores 0
    assert (ran["scores"], [grade["test"] for grade in ran["graded"]]) == ({"shorthand": 0, "written": 1},
                                                                           ["written/turn-1"])


DEPENDENCIES = ("tests:\n"
                "  - {id: setup, input: hi, criteria: c}\n"
                "  - {id: t2, input: hi, criteria: c, depends_on: [set-up]}\n"
                "  - {id: t3, input: hi, criteria: c, depends_on: [t3]}\n"
                "  - {id: t4, input: hi, criteria: c, depends_on: [setup, t5]}\n"
                "  - {id: t5, input: hi, criteria: c, depends_on: [t4]}\n")


def test_a_dependency_on_no_test_on_itself_or_in_a_cycle_is_an_error(tmp_path):
    """The loader keeps each id (below); the run checks them before any test and throws (orchestrator.ts
    validateDependencyGraph). Tests from another file may hold the ids: then nothing is checked."""
    assert run_concise(write_suite(tmp_path, DEPENDENCIES), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:51: EV122 [error] 'depends_on' names 'set-up', which is no test of this suite (did you mean "
        "'setup'?); the run fails before any test\n"
        "a.eval.yaml:4:51: EV122 [error] test 't3' depends on itself; the run fails before any test\n"
        "a.eval.yaml:5:58: EV122 [error] 'depends_on' 't5' closes a cycle, t4 → t5 → t4; the run fails before any "
        "test\n"), "")
    write_suite(tmp_path, "tests:\n  - file://more.yaml\n  - {id: t, input: hi, criteria: c, depends_on: [m]}\n",
                (("more.yaml", "- {id: m, input: hi, criteria: c}\n"),))
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_loader_keeps_every_dependency_as_written(tmp_path):
    loaded = load_tests(write_suite(tmp_path, DEPENDENCIES), ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["error"], [test.get("depends_on") for test in loaded["tests"]]) == (
        None, [None, ["set-up"], ["t3"], ["setup", "t5"], ["t4"]])


# input files the loader attaches to a string input: a test that gets some (its own unless null, else the suite's
# unless null) and has another input is skipped, which may make its id free for a later test
INPUT_FILES = ("input_files: [a.txt]\n"
               "tests:\n"
               "  - {id: x, input: [{role: user, content: hi}], criteria: c}\n"
               "  - {id: x, input: hello, criteria: c}\n"
               "  - {id: own-null, input: [{role: user, content: hi}], input_files: null, criteria: c}\n")
VAR_FILES = ("input_files: '{{ files }}'\n"  # one '{{ name }}': each test's vars make the list, or no list
             "tests:\n"
             "  - {id: x, input: [{role: user, content: hi}], criteria: c, vars: {files: [a.txt]}}\n"
             "  - {id: x, input: hello, criteria: c, vars: {files: [a.txt]}}\n"
             "  - {id: no-vars, input: hello, criteria: c}\n")
NULL_FILES = ("input_files: null\n"
              "tests:\n"
              "  - {id: suite-null, input: [{role: user, content: hi}], criteria: c}\n"
              "  - {id: both-null, input: [{role: user, content: hi}], input_files: null, criteria: c}\n")


def test_a_test_the_input_files_make_the_loader_skip_leaves_its_id_to_the_next(tmp_path):
    write_suite(tmp_path, INPUT_FILES, (("a.txt", "a\n"),))
    skipped = ("the suite's 'input_files' make the runner read only a string 'input', so it skips this test; give "
               "it 'execution: {skip_defaults: true}' or a string input")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:3:20: EV105 [error] {skipped}\n"
        f"a.eval.yaml:5:27: EV105 [error] {skipped}\n"), "")
    write_suite(tmp_path, VAR_FILES)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:3:20: EV105 [error] {skipped}\n"
        "a.eval.yaml:5:6: EV105 [error] the suite's 'input_files' '{{ files }}' are no list of files once this test's "
        "vars are filled in, so the runner finds no input and skips the test; give it vars that fill them in with a "
        "list, or 'execution: {skip_defaults: true}'\n"), "")
    write_suite(tmp_path, NULL_FILES)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_skips_a_test_whose_input_files_it_cannot_attach(tmp_path):
    write_suite(tmp_path, INPUT_FILES, (("a.txt", "a\n"),))
    assert [test["id"] for test in load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]] == ["x"]
    (tmp_path / "run").mkdir()
    ran = run_written(tmp_path / "run", INPUT_FILES, (("a.txt", "a\n"),))
    assert (ran["error"], ran["scores"]) == (None, {"x": 1})  # no duplicate id stops the run
    write_suite(tmp_path, VAR_FILES)
    assert [test["id"] for test in load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]] == ["x"]
    write_suite(tmp_path, NULL_FILES)
    assert [test["id"] for test in load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]] == [
        "suite-null", "both-null"]


INLINE_BANDS = ("tests:\n"
                "  - id: essay\n"
                "    input: Write on tides.\n"
                "    criteria: a clear essay\n"
                "    rubrics:\n"
                "      - {id: clarity, score_ranges: %s}\n"
                "  - {id: poem, input: Write a poem., criteria: a poem}\n")
# a test's own rubric item's bands: a shorthand mapping from 0, and mappings that are no shorthand (a key that is no
# score, JavaScript's Number of a digit that is no ASCII one included; an empty outcome), passed on as written
PASSED_ON = ("{0: Confusing, 5: Clear}", "{low: Confusing, 5: Clear}", "{1: '', 5: Clear}", "{'٣': Confusing, 5: Clear}",
             "{'²': Confusing}")


def test_a_tests_own_rubric_bands_written_as_a_mapping_from_1_fail_the_whole_file(tmp_path):
    assert run_concise(write_suite(tmp_path, INLINE_BANDS % "{1: Confusing, 5: Clear}"), "--no-cache",
                       "a.eval.yaml") == (1, (
        "a.eval.yaml:6:37: EV361 [error] rubric item 'score_ranges' as a mapping of scores must start at 0, found 1 "
        "first; the loader fails on the whole file, so none of its tests runs\n"), "")
    for bands in PASSED_ON:
        assert run_concise(write_suite(tmp_path, INLINE_BANDS % bands), "--no-cache", "a.eval.yaml") == (0, "", ""), \
            bands
    skipped = (INLINE_BANDS % "{1: Confusing, 5: Clear}").replace("    input: Write on tides.\n", "")
    assert run_concise(write_suite(tmp_path, skipped), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:5: EV105 [error] test has no 'input'; the runner skips it (the suite's input does not count)\n"), "")


@pytest.mark.runner
def test_the_loader_throws_on_a_tests_own_rubric_bands_mapping_that_does_not_start_at_0(tmp_path):
    loaded = load_tests(write_suite(tmp_path, INLINE_BANDS % "{1: Confusing, 5: Clear}"), ["a.eval.yaml"])
    assert loaded["a.eval.yaml"]["tests"] == [] and \
        loaded["a.eval.yaml"]["error"] == "score_ranges shorthand map must start at 0 (got 1)"
    for bands in PASSED_ON:
        loaded = load_tests(write_suite(tmp_path, INLINE_BANDS % bands), ["a.eval.yaml"])["a.eval.yaml"]
        assert [test["id"] for test in loaded["tests"]] == ["essay", "poem"], bands
    skipped = (INLINE_BANDS % "{1: Confusing, 5: Clear}").replace("    input: Write on tides.\n", "")
    loaded = load_tests(write_suite(tmp_path, skipped), ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["error"], [test["id"] for test in loaded["tests"]]) == (None, ["poem"])


COMPOSITE_INCLUDES = ("tests:\n"
                      "  - id: status\n"
                      "    input: Return the status as JSON.\n"
                      "    criteria: returns JSON\n"
                      "    assertions:\n"
                      "      - name: format\n"
                      "        type: composite\n"
                      "        assertions:\n"
                      "          - include: %s\n"
                      "        aggregator: {type: weighted_average}\n")
MEMBER_TEMPLATES = ((".agentv/templates/unnamed.yaml", "assertions:\n  - type: is-json\n  - Says status\n"
                                                        "  - {name: c, type: contains_any, value: [a]}\n"
                                                        "  - {name: m, type: my-check}\n"),
                    (".agentv/templates/named.yaml", "assertions:\n  - {name: j, type: is-json}\n"))


def test_a_template_included_as_a_composites_members_is_checked_as_members(tmp_path):
    """The loader expands an include among a composite's members and drops each item that is no member: no mapping,
    no string 'name', a type that is no built-in kind as written (a custom one is dropped, not looked up); each is
    reported at the include."""
    template = "in assertion template 'unnamed': "
    assert run_concise(write_suite(tmp_path, COMPOSITE_INCLUDES % "unnamed", MEMBER_TEMPLATES), "--no-cache",
                       "a.eval.yaml") == (1, (
        f"a.eval.yaml:9:22: EV301 [error] {template}composite member type 'contains_any' must be written "
        "'contains-any': the runner reads members' types as written and drops this member\n"
        f"a.eval.yaml:9:22: EV301 [error] {template}composite member type 'my-check' is no built-in kind; the runner "
        "drops a member of a custom type\n"
        f"a.eval.yaml:9:22: EV302 [error] {template}composite member has no string 'name'; the runner drops the member\n"
        f"a.eval.yaml:9:22: EV330 [error] {template}a composite member must be a mapping with 'name' and 'type', found "
        "'Says status'; the runner drops it\n"), "")
    assert run_concise(write_suite(tmp_path, COMPOSITE_INCLUDES % "named", MEMBER_TEMPLATES), "--no-cache",
                       "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_loader_drops_the_included_items_that_are_no_composite_members(tmp_path):
    loaded = load_tests(write_suite(tmp_path, COMPOSITE_INCLUDES % "unnamed", MEMBER_TEMPLATES), ["a.eval.yaml"])
    assert loaded["a.eval.yaml"]["logs"] == [
        "Warning: Skipping member evaluator with invalid name/type in composite 'format'",
        "Warning: Skipping invalid member evaluator in composite 'format' (expected object)",
        "Warning: Skipping member evaluator with invalid name/type in composite 'format'",
        "Warning: Skipping member evaluator with invalid name/type in composite 'format'",
        "Warning: Skipping composite evaluator 'format' in 'status': no valid member evaluators"]
    loaded = load_tests(write_suite(tmp_path, COMPOSITE_INCLUDES % "named", MEMBER_TEMPLATES), ["a.eval.yaml"])
    assert loaded["a.eval.yaml"]["logs"] == []


@pytest.mark.runner
def test_the_loader_makes_a_cases_workspace_folder_its_template_only_without_a_workspace(tmp_path):
    """EV129's fixtures: a case whose own workspace sets no template gets none from its subfolder's 'workspace'
    folder; a case without a workspace gets that folder, and one that names it keeps it."""
    from conftest import FIXTURES

    for name, folder in (("unused", FIXTURES / "bad" / "EV129_case_workspace_folder_unused"),
                         ("used", FIXTURES / "good" / "rules" / "EV129_case_workspace_folder_used")):
        shutil.copytree(folder, tmp_path / name)
        (tmp_path / name / ".git").mkdir()
    unused = load_tests(tmp_path / "unused", ["suite.eval.yaml"])["suite.eval.yaml"]["tests"]
    assert [(test["id"], test["workspace"]) for test in unused] == [("fix-bug", {"hooks": {"after_each": {"reset": "fast"}}})]
    used = load_tests(tmp_path / "used", ["suite.eval.yaml"])["suite.eval.yaml"]["tests"]
    assert sorted((test["id"], test["workspace"]["template"]) for test in used) == [
        ("add-docs", "cases/add-docs/workspace"), ("fix-bug", "cases/fix-bug/workspace")]


INLINE_ASSERT = "tests:\n  - id: hi\n    input: Say hi\n    criteria: Greets the user\n    assertions:\n" \
                "      - {type: inline-assert, name: says-hi}\n"


def test_an_inline_assert_in_a_yaml_file_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, INLINE_ASSERT), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:16: EV301 [error] type 'inline-assert' is a TypeScript eval's assertion function: in this file "
        "the loader makes it an llm-grader with the default prompt, which grades the answer against the test's "
        "criteria and runs no check of yours; write a built-in type, or a custom type in .agentv/assertions/\n"), "")
    turn = "tests:\n  - {id: c, mode: conversation, input: hi, turns: [{input: q, assertions: [{type: inline-assert}]}]}\n"
    assert run_concise(write_suite(tmp_path, turn), "--no-cache", "a.eval.yaml")[1].endswith(
        "EV301 [error] type 'inline-assert' is a TypeScript eval's assertion function: in a turn the runner takes it as "
        "written, and the grader fails ('No inline assert function found'); write a built-in type, or a custom type in "
        ".agentv/assertions/\n")


@pytest.mark.runner
def test_the_loader_stores_an_inline_assert_of_a_yaml_file_as_a_default_llm_grader(tmp_path):
    loaded = load_tests(write_suite(tmp_path, INLINE_ASSERT), ["a.eval.yaml"])["a.eval.yaml"]
    assert [test["assertions"] for test in loaded["tests"]] == [[{"name": "says-hi", "type": "llm-grader"}]]


@pytest.mark.runner
def test_the_runner_reads_eval_cases_and_drops_evalcases_beside_it(tmp_path):
    """`tests ?? eval_cases ?? evalcases`: EV108 at 'evalcases' (tests/format/test_agentv4_rules.py)."""
    write_suite(tmp_path, "eval_cases:\n  - {id: a, criteria: c, input: hi}\nevalcases:\n  - {id: b, criteria: c, "
                          "input: hi}\n")
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert ([test["id"] for test in loaded["tests"]], loaded["error"]) == (["a"], None)


@pytest.mark.runner
def test_the_loader_gives_a_graders_judge_target_to_its_configuration_and_no_target(tmp_path):
    """EV115 (tests/format/test_agentv4_rules.py): the grader runs on the run's grader target, not the one named."""
    write_suite(tmp_path, "tests:\n  - id: a\n    criteria: c\n    input: hi\n    assertions:\n"
                          "      - {type: llm-grader, judge_target: big}\n      - {type: llm-grader, target: big}\n")
    (test,) = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert [(grader.get("target"), grader.get("config")) for grader in test["assertions"]] == [
        (None, {"judge_target": "big"}), ("big", None)]


# a composite whose aggregator scores the share of two results it gets; its members named alike or not
COMPOSITE = ("tests:\n  - id: a\n    criteria: c\n    input: hi\n    assertions:\n      - type: composite\n"
             "        name: both\n        assertions:\n          - {{name: check, type: contains, value: answer}}\n"
             "          - {{name: {second}, type: contains, value: answer}}\n"
             "        aggregator: {{type: code-grader, path: python3 agg.py}}\n")
AGGREGATOR = "import json, sys\nprint(json.dumps({'score': len(json.load(sys.stdin)['results']) / 2}))\n"


@pytest.mark.parametrize("second, reported", [("check", True), ("other", False)])
def test_composite_members_named_alike_are_an_error_where_the_aggregator_reads_results_by_name(tmp_path, second,
                                                                                             reported):
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text(COMPOSITE.format(second=second))
    (tmp_path / "agg.py").write_text(AGGREGATOR)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == ((1, (
        "a.eval.yaml:10:20: EV303 [error] duplicate member name 'check' (first used on line 9): the code-grader "
        "aggregator gets the members' results keyed by name, so this one's result replaces the earlier one's\n"), "")
        if reported else (0, "", ""))


@pytest.mark.runner
@pytest.mark.parametrize("second, score", [("check", 0.5), ("other", 1)])
def test_the_code_aggregator_gets_one_result_of_members_named_alike(tmp_path, second, score):
    (tmp_path / "a.eval.yaml").write_text(COMPOSITE.format(second=second))
    (tmp_path / "agg.py").write_text(AGGREGATOR)
    assert run_suite(tmp_path, "a.eval.yaml", tmp_path / "home")["scores"] == {"a": score}


@pytest.mark.runner
def test_the_loader_gives_a_rubric_string_its_id_by_its_place(tmp_path):
    """EV362 (tests/format/test_agentv4_rules.py): among every item of a grader's criteria, among a test's own
    strings and mappings alone."""
    write_suite(tmp_path, "tests:\n  - id: a\n    criteria: c\n    input: hi\n    rubrics: [null, a, {id: rubric-1, "
                          "outcome: b}]\n    assertions:\n      - {type: rubrics, criteria: [a, {id: rubric-1, outcome: b}]}\n"
                          "      - {type: rubrics, criteria: [null, a, {id: rubric-1, outcome: b}]}\n")
    (test,) = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert [[rubric["id"] for rubric in grader["rubrics"]] for grader in test["assertions"]] == [
        ["rubric-1", "rubric-1"], ["rubric-1", "rubric-1"], ["rubric-2", "rubric-1"]]


@pytest.mark.runner
def test_a_field_whose_path_names_no_expected_value_scores_1_whatever_the_answer(tmp_path):
    """EV340 (tests/format/test_agentv4_rules.py): the grader compares the field named 'total', and scores the one
    named 'totl' 1 without comparing it ('no expected value')."""
    write_suite(tmp_path, "tests:\n" + "".join(
        f"  - id: {path}\n    input: The total as JSON\n    expected_output: {{total: 120.5}}\n    assertions:\n"
        f"      - {{type: field-accuracy, fields: [{{path: {path}, match: exact}}]}}\n" for path in ("totl", "total")))
    assert run_suite(tmp_path, "a.eval.yaml", tmp_path / "home", answer='{"total": 99}')["scores"] == {
        "totl": 1, "total": 0}


@pytest.mark.runner
def test_the_loader_gives_a_prompt_script_its_own_config_alone(tmp_path):
    """EV108 (tests/format/test_agentv4_rules.py): the grader's 'config' and its other keys are dropped."""
    (tmp_path / "p.py").write_text("print('Grade it.')\n")
    write_suite(tmp_path, "tests:\n  - id: a\n    criteria: c\n    input: hi\n    assertions:\n      - type: llm-grader\n"
                          "        prompt: {command: [python3, p.py], config: {style: brief}}\n"
                          "        config: {strict: true}\n        tone: dry\n")
    (test,) = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert test["assertions"][0]["config"] == {"style": "brief"}
