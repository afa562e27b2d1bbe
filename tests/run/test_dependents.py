"""A commit that breaks eval files through a file they use fails: when the paths given (as pre-commit gives
them) or the files staged include a targets file, a prompt or a script, or a suite that names (or named) a
.jsonl file of tests, or name one that is gone, the eval files that use it are linted too, and no others."""
from __future__ import annotations

import pytest
from clirun import git, run_concise
from conftest import FIXTURES

from evallint.run.dependents import dependents, named_users

SUITE = ("execution:\n  target: default\nevalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
         "    evaluators:\n      - {name: j, type: llm_judge, prompt: ../prompts/judge.md}\n")
OTHER = "evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n"  # broken, but uses neither file
PROMPT = "Grade {{ candidate_answer }} against {{ expected_outcome }}.\n"
EV409 = ("evals/s.yaml:2:11: EV409 [error] target 'default' is not defined in .agentv/targets.yaml; its targets: "
         "'main'\n")
EV404 = ("evals/s.yaml:8:44: EV404 [error] prompt '../prompts/judge.md' looks like a path but names no file "
         "(looked in: evals/); it will be sent as inline prompt text\n")


@pytest.fixture
def repo(tmp_path):
    git(tmp_path, "init", "-q")
    for folder in ("evals", ".agentv", "prompts"):
        (tmp_path / folder).mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - name: default\n    provider: mock\n")
    (tmp_path / "evals" / "s.yaml").write_text(SUITE)
    (tmp_path / "evals" / "t.yaml").write_text(OTHER)
    (tmp_path / "prompts" / "judge.md").write_text(PROMPT)
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "suites")
    return tmp_path


def _rename_target(repo):
    targets = repo / ".agentv" / "targets.yaml"
    targets.write_text(targets.read_text().replace("default", "main"))


@pytest.mark.parametrize("warm", [False, True])
def test_renaming_a_target_lints_the_eval_files_that_use_it(repo, warm):
    if warm:  # the cache holds what each eval file looked at
        assert run_concise(repo, ".")[0] == 1
    _rename_target(repo)
    assert run_concise(repo, ".agentv/targets.yaml") == (1, EV409, "")
    assert run_concise(repo, "--no-cache", ".agentv/targets.yaml") == (1, EV409, "")


@pytest.mark.parametrize("warm", [False, True])
def test_a_new_targets_file_in_a_new_agentv_folder_lints_the_eval_files_it_serves(repo, warm):
    """The cache's row of an eval file notes the '.agentv' folder its lint looked for and did not find; a
    targets file given in that folder once made is one the eval file uses."""
    if warm:
        assert run_concise(repo, ".") == (1, "evals/t.yaml:2:9: EV103 [error] case 'id' must be a string: the runner "
                                             "reads 1 as the number 1 and skips the case; the fix writes \"1\"\n", "")
    (repo / "evals" / ".agentv").mkdir()
    (repo / "evals" / ".agentv" / "targets.yaml").write_text("targets:\n  - name: main\n    provider: mock\n")
    assert run_concise(repo, *([] if warm else ["--no-cache"]), "evals/.agentv/targets.yaml") == (1, (
        "evals/s.yaml:2:11: EV409 [error] target 'default' is not defined in evals/.agentv/targets.yaml; its "
        "targets: 'main'\n"), "")


def test_renaming_a_target_fails_the_staged_lint(repo):
    _rename_target(repo)
    git(repo, "add", "-A")
    assert run_concise(repo, "--staged") == (1, EV409, "")


def test_a_deleted_prompt_lints_the_eval_files_that_named_it(repo):
    assert run_concise(repo, ".")[0] == 1
    git(repo, "rm", "-q", "prompts/judge.md")
    assert run_concise(repo, "--staged") == (1, EV404, "")
    assert run_concise(repo, "prompts/judge.md") == (1, EV404, "")  # a path given that is gone
    assert run_concise(repo, "--no-cache", "prompts/judge.md") == (1, EV404, "")


def test_a_script_given_lints_its_code_judge(repo):
    (repo / "evals" / "c.yaml").write_text(
        "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
        "      - {name: c, type: code_judge, script: [python, ../scripts/check.py]}\n")
    (repo / "scripts").mkdir()
    (repo / "scripts" / "check.py").write_text("print('{}')\n")
    assert run_concise(repo, "scripts/check.py") == (0, "", "")
    (repo / "scripts" / "check.py").write_text("")
    assert run_concise(repo, "scripts/check.py") == (
        0, "evals/c.yaml:6:54: EV402 [warning] script file '../scripts/check.py' is empty\n", "")


def test_the_eval_files_added_are_named_with_verbose(repo):
    _rename_target(repo)
    assert run_concise(repo, "--verbose", ".agentv/targets.yaml") == (
        1, EV409, "evallint: also linting evals/s.yaml, which uses .agentv/targets.yaml\n")


def test_a_file_given_that_is_not_yaml_is_not_linted_itself(repo):
    (repo / "notes.md").write_text("- a list\nthen: a key\n")  # as YAML, a syntax error
    assert run_concise(repo, "notes.md") == (0, "", "")


def test_a_path_given_that_is_gone_and_was_used_by_nothing_is_an_error(repo):
    assert run_concise(repo, "prompts/nothere.md") == (
        2, "", "evallint: error: no such file or folder: 'prompts/nothere.md'\n")


def test_the_cache_rows_answer_and_only_an_eval_file_that_names_the_file_is_linted():
    linted = []

    def looked_at(path, data):
        linted.append(path)
        return {"/r/prompts/judge.md"} if path == "/r/evals/b.yaml" else set()

    texts = {"/r/evals/b.yaml": b"prompt: ../prompts/judge.md", "/r/evals/c.yaml": b"input: q",
             "/r/evals/d.yaml": b"prompt: judge.md"}
    rows = {"/r/evals/a.yaml": {"/r/prompts/judge.md"}}
    found = dependents(sorted(texts) + ["/r/evals/a.yaml"], {"/r/prompts/judge.md"}, texts.get, looked_at,
                       lambda paths: [rows.get(p) for p in paths])
    assert found == {"/r/evals/a.yaml": ["/r/prompts/judge.md"], "/r/evals/b.yaml": ["/r/prompts/judge.md"]}
    assert linted == ["/r/evals/b.yaml", "/r/evals/d.yaml"]


def test_a_prompt_edited_lints_the_eval_files_that_use_it(repo):
    ev405 = (1, "evals/s.yaml:8:44: EV405 [error] prompt template '../prompts/judge.md' uses neither '{{ "
                "candidate_answer }}' nor '{{ expected_messages }}'; the runner skips cases judged by it\n", "")
    (repo / "prompts" / "judge.md").write_text("Grade it.\n")
    assert run_concise(repo, "prompts/judge.md") == ev405
    git(repo, "add", "-A")
    assert run_concise(repo, "--staged") == ev405


@pytest.mark.parametrize("warm", [False, True])
def test_an_eval_file_that_spells_the_name_with_an_escape_is_found(repo, warm):
    (repo / "evals" / "d.jsonl").write_text(
        '{"id": "c", "input": "q", "expected_outcome": "g", "evaluators": [{"name": "j", "type": "llm_judge", '
        '"prompt": "../prompts/judge\\u002emd"}]}\n')
    if warm:
        assert run_concise(repo, ".")[0] == 1
    (repo / "prompts" / "judge.md").unlink()
    assert run_concise(repo, *([] if warm else ["--no-cache"]), "prompts/judge.md") == (
        1, "evals/d.jsonl:1:112: EV404 [error] prompt '../prompts/judge.md' looks like a path but names no file "
           "(looked in: evals/); it will be sent as inline prompt text\n" + EV404, "")


TARGETS = "targets:\n" + "".join(f"  - name: {name}\n    provider: mock\n" for name in ("default", "fast", "slow"))
EV116 = ("data/math.jsonl:1:52: EV116 [error] a case's target 'fast' is ignored: the runner runs every case of the "
         "dataset against the dataset's target 'slow'; set 'execution.target' in its sidecar 'math.yaml', or move the "
         "case to a dataset of its own\n")


def commit_dataset(repo, lines: str, sidecar: str) -> None:
    """Commit the dataset data/math.jsonl holding ``lines`` and its sidecar data/math.yaml holding ``sidecar``."""
    (repo / "data").mkdir()
    (repo / "data" / "math.jsonl").write_text(lines)
    (repo / "data" / "math.yaml").write_text(sidecar)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "dataset")


@pytest.mark.parametrize("warm", [False, True])
def test_a_sidecar_given_lints_its_dataset(repo, warm):
    (repo / ".agentv" / "targets.yaml").write_text(TARGETS)
    commit_dataset(repo, '{"id": "c", "input": "q", "expected_outcome": "g", "target": "fast"}\n',
                   "execution:\n  target: fast\n")
    if warm:
        assert run_concise(repo, "data/math.yaml")[0] == 0
    (repo / "data" / "math.yaml").write_text("execution:\n  target: slow\n")
    assert run_concise(repo, *([] if warm else ["--no-cache"]), "data/math.yaml") == (1, EV116, "")
    git(repo, "add", "-A")
    (repo / "data" / "math.yaml").write_text("execution:\n  target: fast\n")
    assert run_concise(repo, "--staged") == (1, EV116, "")


SIDECAR_EV703 = ("data/math.yaml:1:1: EV703 [error] unknown key 'dataset' in dataset sidecar (known keys: $schema, "
                 "description, evaluator, execution, name)\n")


@pytest.mark.parametrize("warm", [False, True])
def test_a_dataset_given_lints_its_sidecar(repo, warm):
    """The sidecar is of its dataset's AgentV version, which the dataset's lines tell: a change of the lines alone
    changes the sidecar's findings, and those of the targets file, which shows no release of its own and is read as
    the suites it serves are."""
    commit_dataset(repo, '{"id": "c", "input": "q", "expected_outcome": "g"}\n', "dataset: math\n")
    if warm:
        assert run_concise(repo, "data")[0] == 0
    later = '{"id": "c", "input": "q", "criteria": "g"}\n'  # an AgentV 4.42.4 line
    (repo / "data" / "math.jsonl").write_text(later)
    assert run_concise(repo, *([] if warm else ["--no-cache"]), "--verbose", "data/math.jsonl") == (
        1, SIDECAR_EV703, "evallint: also linting .agentv/targets.yaml, which uses data/math.jsonl\n"
                          "evallint: also linting data/math.yaml, which uses data/math.jsonl\n")
    git(repo, "add", "-A")
    (repo / "data" / "math.jsonl").write_text('{"id": "c", "input": "q", "expected_outcome": "g"}\n')
    assert run_concise(repo, "--staged") == (1, SIDECAR_EV703, "")


CASES = (FIXTURES / "bad" / "EV106_external_cases_jsonl" / "cases.jsonl").read_text()
NAMING = "tests: ../data/cases.jsonl\n"
INLINE = "tests:\n  - id: a\n    input: q\n    criteria: g\n"  # names no file of tests
AS_TESTS = ("data/cases.jsonl:2:2: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; "
            "the runner skips it as incomplete\n")
AS_DATASET = ("data/cases.jsonl:1:55: EV106 [error] a dataset line's 'assertions' do not count: in a JSONL line the "
              "runner needs 'criteria', 'expected_output' or an 'assert' key, and skips this line as incomplete; write "
              "'assert' instead of 'assertions'\n"
              "data/cases.jsonl:2:2: EV106 [error] dataset line has no 'criteria', 'expected_output' or 'assert'; the "
              "runner skips it as incomplete\n")


@pytest.fixture
def tests_repo(tmp_path):
    """A suite in evals/ that names the file of tests data/cases.jsonl, committed."""
    git(tmp_path, "init", "-q")
    for folder in ("evals", "data"):
        (tmp_path / folder).mkdir()
    (tmp_path / "data" / "cases.jsonl").write_text(CASES)
    (tmp_path / "evals" / "suite.yaml").write_text(NAMING)
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "suite")
    return tmp_path


@pytest.mark.parametrize("warm", [False, True])
def test_a_suite_that_stops_naming_its_file_of_tests_lints_that_file_as_a_dataset(tests_repo, warm):
    if warm:  # the cache holds the file's result as a file of tests
        assert run_concise(tests_repo, ".") == (1, AS_TESTS, "")
    (tests_repo / "evals" / "suite.yaml").write_text(INLINE)
    assert run_concise(tests_repo, *([] if warm else ["--no-cache"]), "--verbose", "evals/suite.yaml") == (
        1, AS_DATASET, "evallint: also linting data/cases.jsonl, which uses evals/suite.yaml\n")
    git(tests_repo, "add", "-A")
    assert run_concise(tests_repo, "--staged") == (1, AS_DATASET, "")


@pytest.mark.parametrize("warm", [False, True])
@pytest.mark.parametrize("folder", ["evals", "more"])  # beside another suite, or in a new folder
def test_a_new_suite_that_names_a_dataset_lints_it_as_its_file_of_tests(tests_repo, warm, folder):
    (tests_repo / "evals" / "suite.yaml").write_text(INLINE)
    git(tests_repo, "commit", "-q", "-am", "no file of tests")
    if warm:  # the cache holds the file's result as a dataset
        assert run_concise(tests_repo, ".") == (1, AS_DATASET, "")
    (tests_repo / folder).mkdir(exist_ok=True)
    (tests_repo / folder / "new.yaml").write_text(NAMING)
    assert run_concise(tests_repo, *([] if warm else ["--no-cache"]), f"{folder}/new.yaml") == (1, AS_TESTS, "")
    git(tests_repo, "add", "-A")
    assert run_concise(tests_repo, "--staged") == (1, AS_TESTS, "")


@pytest.mark.parametrize("warm", [False, True])
def test_a_deleted_suite_lints_its_file_of_tests_as_a_dataset(tests_repo, warm):
    if warm:
        assert run_concise(tests_repo, ".") == (1, AS_TESTS, "")
    git(tests_repo, "rm", "-q", "evals/suite.yaml")
    assert run_concise(tests_repo, "--staged") == (1, AS_DATASET, "")
    assert run_concise(tests_repo, *([] if warm else ["--no-cache"]), "evals/suite.yaml") == (1, AS_DATASET, "")


@pytest.mark.parametrize("warm", [False, True])
def test_a_deleted_file_of_tests_given_lints_the_suite_that_names_it(tests_repo, warm):
    if warm:
        assert run_concise(tests_repo, ".") == (1, AS_TESTS, "")
    (tests_repo / "data" / "cases.jsonl").unlink()
    assert run_concise(tests_repo, *([] if warm else ["--no-cache"]), "data/cases.jsonl") == (
        1, "evals/suite.yaml:1:8: EV401 [error] file of tests '../data/cases.jsonl' not found (looked in: evals/); the "
           "runner rejects the suite\n", "")


def test_a_suite_that_never_named_a_file_of_tests_adds_nothing(tests_repo):
    """The lint of data/cases.jsonl looks at every suite of evals/ for one that names it; a suite there that
    names it neither now nor in HEAD is not one it uses."""
    other = tests_repo / "evals" / "other.yaml"
    other.write_text(INLINE)
    git(tests_repo, "add", "-A")
    git(tests_repo, "commit", "-q", "-m", "another suite")
    assert run_concise(tests_repo, ".") == (1, AS_TESTS, "")
    other.write_text(INLINE.replace("id: a", "id: b"))
    assert run_concise(tests_repo, "evals/other.yaml") == (0, "", "")
    assert run_concise(tests_repo, "--no-cache", "evals/other.yaml") == (0, "", "")
    git(tests_repo, "add", "-A")
    assert run_concise(tests_repo, "--staged") == (0, "", "")


def test_a_suite_that_names_no_file_of_tests_now_or_in_head_walks_nothing(tests_repo, monkeypatch):
    """Only a suite that names (or named) a .jsonl file of tests, or a sidecar, sends the run through the
    repository for the files that use it: a commit of other suites costs no walk of the checkout."""
    import evallint.run.dependents as module

    walked = []
    real = module.walk
    monkeypatch.setattr(module, "walk", lambda *args: walked.append(args[0]) or real(*args))
    other = tests_repo / "evals" / "other.yaml"
    other.write_text(INLINE)
    git(tests_repo, "add", "-A")
    git(tests_repo, "commit", "-q", "-m", "another suite")
    other.write_text(INLINE.replace("id: a", "id: b"))
    assert run_concise(tests_repo, "--no-cache", "evals/other.yaml") == (0, "", "")
    assert walked == []
    assert run_concise(tests_repo, "--no-cache", "evals/suite.yaml") == (1, AS_TESTS, "")
    assert walked == [str(tests_repo)]


def test_a_suites_users_are_the_files_of_tests_it_names_now_or_in_head_and_a_sidecars_its_dataset():
    texts = {"/r/evals/s.yaml": (b"tests:\n  - file://../data/*.jsonl\n", b"tests: ./old.jsonl\n"),
             "/r/data/math.yaml": (b"execution: {target: t}\n", None),
             "/r/top.yaml": (None, b"tests: data/deep/c.jsonl\n")}  # gone; never looked at for c.jsonl
    candidates = ["/r/data/a.jsonl", "/r/data/deep/b.jsonl", "/r/data/deep/c.jsonl", "/r/data/math.jsonl",
                  "/r/evals/old.jsonl", "/r/evals/t.yaml"]
    assert named_users(candidates, set(texts), texts.get, lambda path: "/r") == {
        "/r/data/a.jsonl": ["/r/evals/s.yaml"], "/r/data/math.jsonl": ["/r/data/math.yaml", "/r/evals/s.yaml"],
        "/r/evals/old.jsonl": ["/r/evals/s.yaml"]}


def test_a_datasets_users_are_its_sidecars():
    used = {"/r/data/math.jsonl", "/r/data/other.yml"}
    candidates = ["/r/data/math.jsonl", "/r/data/math.yaml", "/r/data/math.yml", "/r/data/other.jsonl",
                  "/r/data/other.yaml"]
    assert named_users(candidates, used, lambda suite: (None, None), lambda path: "/r") == {
        "/r/data/math.yaml": ["/r/data/math.jsonl"], "/r/data/math.yml": ["/r/data/math.jsonl"],
        "/r/data/other.jsonl": ["/r/data/other.yml"]}


CASE_EV105 = ("evals/cases/a/case.yaml:2:3: EV105 [error] the suite's 'input_files' make the runner read only a string "
              "'input', so it skips this test; give it 'execution: {skip_defaults: true}' or a string input\n")


@pytest.mark.parametrize("warm", [False, True])
def test_a_suite_that_changes_lints_the_case_files_of_its_folder_of_tests(tmp_path, warm):
    """A suite's 'tests: ./cases/' names the case file of each subfolder: a change of the suite's defaults
    changes their findings, so they are linted with it (named alone, as pre-commit names it, or staged)."""
    git(tmp_path, "init", "-q")
    (tmp_path / "evals" / "cases" / "a").mkdir(parents=True)
    (tmp_path / "evals" / "x.md").write_text("x\n")
    (tmp_path / "evals" / "cases" / "a" / "case.yaml").write_text("input:\n  - {role: user, content: hi}\ncriteria: c\n")
    (tmp_path / "evals" / "suite.yaml").write_text("tests: ./cases/\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "suite")
    if warm:
        assert run_concise(tmp_path, ".") == (0, "", "")
    (tmp_path / "evals" / "suite.yaml").write_text("input_files: [x.md]\ntests: ./cases/\n")
    assert run_concise(tmp_path, *([] if warm else ["--no-cache"]), "--verbose", "evals/suite.yaml") == (
        1, CASE_EV105, "evallint: also linting evals/cases/a/case.yaml, which uses evals/suite.yaml\n")
    git(tmp_path, "add", "-A")
    assert run_concise(tmp_path, "--staged") == (1, CASE_EV105, "")


YAML_EV105 = ("evals/cases.yaml:1:18: EV105 [error] the suite's 'input_files' make the runner read only a string 'input', "
              "so it skips this test; give it 'execution: {skip_defaults: true}' or a string input\n")


@pytest.mark.parametrize("warm", [False, True])
def test_a_suite_that_changes_lints_the_yaml_file_of_tests_it_names(tmp_path, warm):
    """A YAML list of tests a suite names gets the suite's defaults, as a .jsonl file of tests does: linted with it."""
    git(tmp_path, "init", "-q")
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "x.md").write_text("x\n")
    (tmp_path / "evals" / "cases.yaml").write_text("- {id: a, input: [{role: user, content: hi}], criteria: c}\n")
    (tmp_path / "evals" / "suite.yaml").write_text("tests: ./cases.yaml\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "suite")
    if warm:
        assert run_concise(tmp_path, ".") == (0, "", "")
    (tmp_path / "evals" / "suite.yaml").write_text("input_files: [x.md]\ntests: ./cases.yaml\n")
    assert run_concise(tmp_path, *([] if warm else ["--no-cache"]), "--verbose", "evals/suite.yaml") == (
        1, YAML_EV105, "evallint: also linting evals/cases.yaml, which uses evals/suite.yaml\n")
    git(tmp_path, "add", "-A")
    assert run_concise(tmp_path, "--staged") == (1, YAML_EV105, "")


@pytest.fixture
def templates_repo(tmp_path):
    """Suites that include a template by its name and one by its path; the templates' mistakes are made later."""
    git(tmp_path, "init", "-q")
    for path, text in ((".agentv/templates/polite.yaml", "assertions: [{type: contains, value: please}]\n"),
                       ("evals/shared/format.yaml", "assertions: [{type: is-json}]\n"),
                       ("evals/a.eval.yaml", "tests:\n  - {id: a, input: q, assertions: [include: polite]}\n"),
                       ("evals/b.eval.yaml", "tests:\n  - {id: b, input: q, assertions: [include: ./shared/format.yaml]}\n"),
                       ("evals/c.eval.yaml", "tests:\n  - {id: c, input: q, criteria: polite}\n")):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "suites")
    return tmp_path


@pytest.mark.parametrize("warm", [False, True])
def test_a_template_given_or_staged_lints_the_suites_that_include_it(templates_repo, warm):
    """The suites that include a template (by its name, or by its path) are linted with it: the prompt file its
    change names is looked up from each of them, and is not there; a suite that only mentions the name ('criteria:
    polite') is not reported."""
    repo = templates_repo
    if warm:
        assert run_concise(repo, ".") == (0, "", "")
    for template in (".agentv/templates/polite.yaml", "evals/shared/format.yaml"):
        (repo / template).write_text("assertions: [{type: llm-grader, prompt: 'file://prompts/judge.md'}]\n")
    found = (1, "".join(
        f"evals/{name}.eval.yaml:2:{column}: EV404 [error] in assertion template '{value}': prompt file "
        "'prompts/judge.md' not found (looked in: evals/, ./); the runner skips the test\n"
        for name, column, value in (("a", 45, "polite"), ("b", 45, "./shared/format.yaml"))), "")
    assert run_concise(repo, ".agentv/templates/polite.yaml", "evals/shared/format.yaml") == found
    git(repo, "add", "-A")
    assert run_concise(repo, "--staged") == found
