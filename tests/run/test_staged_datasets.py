"""--staged reads a dataset's sidecar, the dataset a sidecar serves, and the suites that name a file of tests
from the git index, as it reads the files it lints: each test stages one text and leaves another in the working
tree."""
from __future__ import annotations

import shutil

import pytest
from clirun import git, run_concise
from test_dependents import AS_DATASET, AS_TESTS, CASES, EV116, INLINE, NAMING, SIDECAR_EV703, TARGETS

LINE = '{"id": "c", "input": "q", "expected_outcome": "g"}\n'  # an AgentV 2.2 line
TARGETED = '{"id": "c", "input": "q", "expected_outcome": "g", "target": "fast"}\n'
LATER_LINE = '{"id": "c", "input": "q", "criteria": "g"}\n'  # an AgentV 4.42.4 line


@pytest.fixture
def repo(tmp_path):
    git(tmp_path, "init", "-q")
    for folder in ("data", "evals", ".agentv"):
        (tmp_path / folder).mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(TARGETS)
    return tmp_path


def stage(repo, name: str, staged: str, on_disk) -> None:
    """Stage ``staged`` as the file ``name``, then leave ``on_disk`` in the working tree (None: no file)."""
    path = repo / name
    path.write_text(staged)
    git(repo, "add", name)
    if on_disk is None:
        path.unlink()
    else:
        path.write_text(on_disk)


def test_a_datasets_sidecar_is_read_from_the_index(repo):
    stage(repo, "data/math.jsonl", TARGETED, TARGETED)
    stage(repo, "data/math.yaml", "execution:\n  target: slow\n", "execution:\n  target: fast\n")
    assert run_concise(repo, "--staged") == (1, EV116, "")
    assert run_concise(repo, "--no-cache", "data") == (0, (
        "data/math.jsonl:1:52: EV109 [warning] unknown key 'target' in eval case; the runner ignores a case's target "
        "(it names the dataset's target here, so the run is the same)\n"), "")


def test_the_dataset_a_sidecar_serves_is_read_from_the_index(repo):
    """The sidecar is of its dataset's AgentV version, which the dataset's lines tell: those of the index."""
    stage(repo, "data/math.yaml", "dataset: math\n", "dataset: math\n")
    stage(repo, "data/math.jsonl", LATER_LINE, LINE)
    assert run_concise(repo, "--staged") == (1, SIDECAR_EV703, "")
    assert run_concise(repo, "--no-cache", "data") == (0, "", "")
    stage(repo, "data/math.jsonl", LINE, LATER_LINE)
    assert run_concise(repo, "--staged") == (0, "", "")
    assert run_concise(repo, "--no-cache", "data") == (1, SIDECAR_EV703, "")


def test_a_yaml_file_is_a_sidecar_when_the_index_holds_its_dataset(repo):
    stage(repo, "data/math.yaml", "dataset: math\nfoo: 1\n", "dataset: math\nfoo: 1\n")
    (repo / "data" / "math.jsonl").write_text(LINE)  # untracked: no dataset in the index
    assert run_concise(repo, "--staged") == (0, "", "")
    stage(repo, "data/math.jsonl", LINE, None)  # in the index, gone from the working tree
    assert run_concise(repo, "--staged") == (1, (
        "data/math.yaml:2:1: EV703 [error] unknown key 'foo' in dataset sidecar (known keys: $schema, dataset, "
        "description, evaluator, execution)\n"), "")


def test_whether_a_suite_names_a_file_of_tests_is_read_from_the_index(repo):
    stage(repo, "data/cases.jsonl", CASES, CASES)
    stage(repo, "evals/suite.yaml", NAMING, INLINE)
    assert run_concise(repo, "--staged") == (1, AS_TESTS, "")
    assert run_concise(repo, "--no-cache", ".") == (1, AS_DATASET, "")
    stage(repo, "evals/suite.yaml", INLINE, NAMING)
    assert run_concise(repo, "--staged") == (1, AS_DATASET, "")
    assert run_concise(repo, "--no-cache", ".") == (1, AS_TESTS, "")


@pytest.mark.parametrize("gone", ["evals/suite.yaml", "evals"])
def test_the_suites_that_may_name_a_file_of_tests_are_listed_from_the_index(repo, gone):
    """A suite (or its whole folder) that the index holds and the working tree does not names the file; one the
    working tree holds and the index does not names none."""
    stage(repo, "data/cases.jsonl", CASES, CASES)
    stage(repo, "evals/suite.yaml", NAMING, NAMING)
    shutil.rmtree(repo / gone) if gone == "evals" else (repo / gone).unlink()
    assert run_concise(repo, "--staged") == (1, AS_TESTS, "")
    (repo / "more").mkdir()
    (repo / "more" / "new.yaml").write_text(NAMING)  # untracked
    git(repo, "rm", "-q", "--cached", "evals/suite.yaml")
    assert run_concise(repo, "--staged") == (1, AS_DATASET, "")


EXTERNAL = "input_files: [./docs/a.txt]\ntests:\n  - file://cases.yaml\n"
MESSAGES = "- {id: c1, input: hello, criteria: c}\n- {id: c2, input: [{role: user, content: hi}], criteria: c}\n"


def test_a_file_of_tests_gets_the_defaults_of_the_suite_in_the_index(repo):
    (repo / "evals" / "docs").mkdir()
    stage(repo, "evals/docs/a.txt", "some context\n", "some context\n")
    stage(repo, "evals/cases.yaml", MESSAGES, MESSAGES)
    stage(repo, "evals/a.eval.yaml", EXTERNAL, "tests:\n  - file://cases.yaml\n")
    ev105 = (1, "evals/cases.yaml:2:19: EV105 [error] the suite's 'input_files' make the runner read only a string "
                "'input', so it skips this test; give it 'execution: {skip_defaults: true}' or a string input\n", "")
    assert run_concise(repo, "--staged") == ev105
    assert run_concise(repo, "--no-cache", "evals") == (0, "", "")
    stage(repo, "evals/a.eval.yaml", "tests:\n  - file://cases.yaml\n", EXTERNAL)
    assert run_concise(repo, "--staged") == (0, "", "")
    assert run_concise(repo, "--no-cache", "evals") == ev105


def test_a_folder_of_tests_is_found_in_the_index(repo):
    """The suite's 'tests: ./cases/' names a folder the index holds, gone from the working tree: its subfolder's
    case file is linted as that folder's one test."""
    (repo / "evals" / "cases" / "a").mkdir(parents=True)
    stage(repo, "evals/suite.yaml", "tests: ./cases/\n", "tests: ./cases/\n")
    stage(repo, "evals/cases/a/case.yaml", "input: hi\n", None)
    shutil.rmtree(repo / "evals" / "cases")
    assert run_concise(repo, "--staged") == (1, (
        "evals/cases/a/case.yaml:1:1: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or "
        "'turns'; the runner skips it as incomplete\n"), "")
