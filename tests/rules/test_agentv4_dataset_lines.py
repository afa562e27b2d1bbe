"""What makes AgentV 4.42.4's loader skip a line of a JSONL dataset as incomplete: unlike a YAML test, a line
needs a criteria, an expected output or an 'assert' key; its 'assertions' (and turns) do not count."""
from __future__ import annotations

import shutil

import pytest

from agentv_runner import load_tests, run_suite
from clirun import run_concise
from conftest import FIXTURES
from evallint.config import Config
from evallint.lint import lint_file

LINES = (
    '{"id": "only-assertions", "input": "hi", "assertions": [{"type": "contains", "value": "x"}]}\n'
    '{"id": "with-assert", "input": "hi", "assert": [{"type": "contains", "value": "x"}]}\n'
    '{"id": "criteria-and-assertions", "input": "hi", "criteria": "c", "assertions": []}\n'
    '{"id": "expected-and-assertions", "input": "hi", "expected_output": "x", "assertions": []}\n'
    '{"id": "nothing", "input": "hi", "turns": [{"input": "again"}]}\n'
)


def _dataset(tmp_path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "lines.jsonl").write_text(LINES)


def test_a_line_graded_only_by_assertions_or_by_nothing_the_loader_counts_is_an_error(tmp_path):
    _dataset(tmp_path)
    assert run_concise(tmp_path, "--no-cache", "data/lines.jsonl") == (1, (
        "data/lines.jsonl:1:42: EV106 [error] a dataset line's 'assertions' do not count: in a JSONL line the runner "
        "needs 'criteria', 'expected_output' or an 'assert' key, and skips this line as incomplete; write 'assert' "
        "instead of 'assertions'\n"
        "data/lines.jsonl:5:2: EV106 [error] dataset line has no 'criteria', 'expected_output' or 'assert'; the "
        "runner skips it as incomplete\n"
        "data/lines.jsonl:5:34: EV115 [error] 'turns' is not read in a JSONL dataset line: the runner reads it only in "
        "a test of a YAML suite, so what it holds is dropped\n"), "")


def test_the_same_test_in_a_yaml_suite_is_complete(tmp_path):
    """In a YAML suite an 'assertions' key (or turns, in a conversation: EV121 without one, and EV106 when nothing
    grades them) is enough: the same tests give no finding there."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text(
        "tests:\n  - {id: a, input: hi, assertions: [{type: contains, value: x}]}\n"
        "  - {id: b, input: hi, mode: conversation, turns: [{input: again, assertions: [Says hi]}]}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_skips_exactly_the_lines_reported_and_keeps_what_the_model_keeps(tmp_path):
    _dataset(tmp_path)
    loaded = load_tests(tmp_path, ["data/lines.jsonl"])["data/lines.jsonl"]
    assert [line for line in loaded["logs"] if "Skipping" in line] == [
        "Error: Skipping incomplete test at line 1: only-assertions. Missing required fields: id, input, and at least "
        "one of criteria/expected_output/assert",
        "Error: Skipping incomplete test at line 5: nothing. Missing required fields: id, input, and at least one of "
        "criteria/expected_output/assert"]
    kept = [test["id"] for test in loaded["tests"]]
    assert kept == ["with-assert", "criteria-and-assertions", "expected-and-assertions"]
    model = lint_file(str(tmp_path / "data" / "lines.jsonl"), Config(root=str(tmp_path))).model
    assert [test.id for test in model.tests] == kept


LINE_FIXTURES = ("bad/EV113_sidecar_defaults_replaced_dataset", "bad/EV118_graders_run_twice_dataset",
                 "bad/EV115_not_read_in_a_dataset_line", "good/rules/EV113_sidecar_defaults_kept_dataset")


@pytest.mark.runner
@pytest.mark.parametrize("fixture", LINE_FIXTURES)
def test_each_line_has_the_graders_and_settings_the_runner_gives_it(fixture, tmp_path):
    """A line's 'execution' replaces its sidecar's (with its default graders), its 'evaluators' is read twice,
    and the keys only a YAML suite's test has are not read: evallint's model of each line is the runner's."""
    shutil.copytree(FIXTURES / fixture, tmp_path / "data")
    (tmp_path / ".git").mkdir()
    loaded = load_tests(tmp_path, ["data/dataset.jsonl"])["data/dataset.jsonl"]
    model = lint_file(str(tmp_path / "data" / "dataset.jsonl"), Config(root=str(tmp_path))).model
    assert [(test.id, [a.name for a in test.assertions], test.criteria, test.metadata, test.execution.threshold)
            for test in model.tests] == [
        (test["id"], [a["name"] for a in test.get("assertions", [])], test["criteria"], test.get("metadata", {}),
         test.get("threshold")) for test in loaded["tests"]]


def test_a_sidecar_default_list_of_null_gives_no_defaults_to_lose(tmp_path):
    """The loader reads a null list as absent (``??``): a line whose 'execution' replaces the sidecar's loses
    no default grader, so there is no EV113."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "data.yaml").write_text("name: d\nexecution:\n  assertions: null\n")
    (tmp_path / "data.jsonl").write_text('{"id": "a", "input": "hi", "criteria": "c", "execution": {"skip_defaults": false}}\n')
    assert run_concise(tmp_path, "--no-cache", "data.jsonl") == (0, "", "")


# a suite whose tests are the dataset beside it, of its name: a suite, not the dataset's sidecar
SAME_STEM = (("evals/math.yaml", "name: math\ninput: You are a careful math tutor.\nassertions:\n"
                                 "  - {type: contains, value: '='}\ntests: ./math.jsonl\n"),
             ("evals/math.jsonl", '{"id": "add", "input": "What is 2+2?", "criteria": "Says 4"}\n'),
             ("evals/typo.yaml", "name: typo\ninput: hi\nasertions: []\ntests: ./typo.jsonl\n"),
             ("evals/typo.jsonl", '{"id": "add", "input": "What is 2+2?", "criteria": "Says 4"}\n'))


def test_a_suite_beside_a_dataset_of_its_name_is_a_suite(tmp_path):
    (tmp_path / ".git").mkdir()
    for path, text in SAME_STEM:
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(text)
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "evals/typo.yaml:3:1: EV115 [error] unknown key 'asertions' in eval suite (did you mean 'assertions'?); the "
        "runner does not read it, so what it holds is dropped\n"), "")


@pytest.mark.runner
def test_the_runner_reads_a_suite_beside_a_dataset_of_its_name_as_a_suite(tmp_path):
    for path, text in SAME_STEM:
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(text)
    (test,) = load_tests(tmp_path, ["evals/math.yaml"])["evals/math.yaml"]["tests"]
    assert (test["id"], test["input"][0]["content"], [a["type"] for a in test["assertions"]]) == (
        "add", "You are a careful math tutor.", ["contains"])


# a dataset's settings beside it as '.yml', which the runner never reads, and as '.yaml'
SIDECARS = (("evals/yml.jsonl", '{"id": "add", "input": "What is 2+2?", "criteria": "Says 4"}\n'),
            ("evals/yml.yml", "name: yml\nowner: qa\nexecution:\n  assertions: [{type: contains, value: '4'}]\n"),
            ("evals/yaml.jsonl", '{"id": "add", "input": "What is 2+2?", "criteria": "Says 4"}\n'),
            ("evals/yaml.yaml", "name: yaml\nexecution:\n  assertions: [{type: contains, value: '4'}]\n"))


def test_a_sidecar_the_runner_never_reads_is_an_error(tmp_path):
    """What it holds is not checked (its unknown 'owner'): the runner reads none of it."""
    (tmp_path / ".git").mkdir()
    for path, text in SIDECARS:
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(text)
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "evals/yml.yml:1:1: EV703 [error] the runner never reads 'yml.yml': it reads the settings of 'yml.jsonl' only "
        "from 'yml.yaml', so the dataset runs without these; rename it\n"), "")


@pytest.mark.runner
def test_the_runner_reads_a_datasets_settings_only_from_its_yaml_file(tmp_path):
    for path, text in SIDECARS:
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(text)
    loaded = load_tests(tmp_path, ["evals/yml.jsonl", "evals/yaml.jsonl"])
    assert {name: [a["type"] for test in loaded[name]["tests"] for a in test.get("assertions", ())] for name in loaded} \
        == {"evals/yml.jsonl": [], "evals/yaml.jsonl": ["contains"]}


# sidecars with no settings: empty, comments alone, null; beside them, one that is a list, whose settings are dropped
EMPTY_SIDECARS = tuple((f"{stem}.{suffix}", text) for stem, sidecar in (
    ("empty", ""), ("comments", "# settings go here later\n"), ("null", "~\n"),
    ("listed", "- {type: contains, value: '4'}\n")) for suffix, text in (
    ("jsonl", '{"id": "add", "input": "What is 2+2?", "criteria": "Says 4"}\n'), ("yaml", sidecar)))


def test_a_sidecar_with_no_settings_is_a_warning(tmp_path):
    (tmp_path / ".git").mkdir()
    for path, text in EMPTY_SIDECARS:
        (tmp_path / path).write_text(text)
    then = ("the runner warns 'Invalid sidecar metadata format' and runs the dataset without settings; write its "
            "settings (a mapping) or remove the file")
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        f"comments.yaml:1:1: EV705 [warning] the sidecar is empty (no YAML document): {then}\n"
        f"empty.yaml:1:1: EV705 [warning] the sidecar is empty (no YAML document): {then}\n"
        "listed.yaml:1:1: EV008 [error] the top level is a list; a dataset sidecar must be a mapping of suite settings\n"
        f"null.yaml:1:1: EV705 [warning] the sidecar is null: {then}\n"), "")


@pytest.mark.runner
def test_the_runner_warns_of_a_sidecar_that_is_no_mapping_and_runs_the_dataset(tmp_path):
    for path, text in EMPTY_SIDECARS:
        (tmp_path / path).write_text(text)
    names = [path for path, _ in EMPTY_SIDECARS if path.endswith(".jsonl")]
    loaded = load_tests(tmp_path, names)
    assert {name: ([test["id"] for test in loaded[name]["tests"]], [log.split(" in ")[0] for log in loaded[name]["logs"]])
            for name in names} == {name: (["add"], ["Warning: Invalid sidecar metadata format"]) for name in names}


# lines with JavaScript's white space around them (a byte order mark, a no-break space, a form feed), which the runner
# trims before it parses a line, and a line of a character that is no white space to JavaScript
TRIMMED = ('{"id": "a", "criteria": "c", "input": "hi"}\n\ufeff{"id": "b", "criteria": "c", "input": "hi"}\n'
           '{"id": "c", "criteria": "c", "input": "hi"}\u00a0\n\f{"id": "d", "criteria": "c", "input": "hi"}\n')


def test_a_line_is_trimmed_of_javascripts_white_space_alone(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "data.jsonl").write_text(TRIMMED, encoding="utf-8")
    (tmp_path / "bad.jsonl").write_text(TRIMMED + "\x1c\n", encoding="utf-8")
    assert run_concise(tmp_path, "--no-cache", "data.jsonl", "bad.jsonl") == (1, (
        "bad.jsonl:5:1: EV701 [error] Line 5: invalid JSON: Expecting value at column 1\n"), "")


@pytest.mark.runner
def test_the_loader_trims_a_line_of_javascripts_white_space_before_it_parses_it(tmp_path):
    for name, text in (("data.jsonl", TRIMMED), ("bad.jsonl", TRIMMED + "\x1c\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        (tmp_path / f"{name}.eval.yaml").write_text(f"tests: ./{name}\n")
    loaded = load_tests(tmp_path, ["data.jsonl.eval.yaml", "bad.jsonl.eval.yaml"])
    assert [test["id"] for test in loaded["data.jsonl.eval.yaml"]["tests"]] == ["a", "b", "c", "d"]
    assert loaded["bad.jsonl.eval.yaml"]["error"].startswith("Malformed JSONL at line 5")


# lines whose 'assert' list is empty, with a sidecar's default graders (which the first gets) and without
EMPTY_ASSERT = ('{"id": "defaults", "input": "hi", "assert": []}\n'
                '{"id": "skips", "input": "hi", "assert": [], "execution": {"skip_defaults": true}}\n'
                '{"id": "own", "input": "hi", "assert": [], "execution": {"assertions": []}}\n')
SIDECAR_DEFAULTS = "execution:\n  assertions:\n    - {type: contains, value: zzz}\n"


@pytest.mark.parametrize("sidecar", [SIDECAR_DEFAULTS, None], ids=["sidecar", "alone"])
def test_a_line_graded_by_an_empty_list_alone_is_an_error(tmp_path, sidecar):
    (tmp_path / ".git").mkdir()
    (tmp_path / "d.jsonl").write_text(EMPTY_ASSERT)
    if sidecar:
        (tmp_path / "d.yaml").write_text(sidecar)
    empty = ("EV106 [error] test has no 'criteria' or 'expected_output', and its grader list is empty: the runner keeps "
             "it, but grades it with its default llm-grader against empty criteria, so its score means nothing; add "
             "criteria or graders\n")
    replaced = ("d.jsonl:3:44: EV113 [error] this line's 'execution' replaces the one of its sidecar 'd.yaml', so the "
                "sidecar's default graders ('execution.assertions') do not apply to it; list them in the line's own "
                "'execution', or write 'skip_defaults: true' there if that is meant\n")
    assert run_concise(tmp_path, "--no-cache", "d.jsonl") == (1, (
        ("" if sidecar else f"d.jsonl:1:35: {empty}") + f"d.jsonl:2:32: {empty}d.jsonl:3:30: {empty}"
        + (replaced if sidecar else "")), "")


@pytest.mark.runner
@pytest.mark.parametrize("sidecar", [SIDECAR_DEFAULTS, None], ids=["sidecar", "alone"])
def test_the_runner_grades_a_line_of_an_empty_list_with_its_default_grader_alone(tmp_path, sidecar):
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "d.jsonl").write_text(EMPTY_ASSERT)
    if sidecar:
        (tmp_path / "repo" / "d.yaml").write_text(sidecar)
    ran = run_suite(tmp_path / "repo", "d.jsonl", tmp_path)
    default_graded = {graded["test"] for graded in ran["graded"]}
    assert ran["error"] is None and default_graded == ({"skips", "own"} if sidecar else {"defaults", "skips", "own"})


# a line that asks nothing, one whose expected answer is a list of text, one as meant
LINES_ASKING = ('{"id": "b", "criteria": "x", "input": ""}\n'
                '{"id": "c", "criteria": "x", "input": "hi", "expected_output": ["a"]}\n'
                '{"id": "d", "criteria": "x", "input": "hi", "expected_output": "a"}\n')


def test_a_dataset_line_that_asks_nothing_or_expects_a_list_of_text_is_a_warning(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "d.jsonl").write_text(LINES_ASKING)
    code, out, _ = run_concise(tmp_path, "--no-cache", "d.jsonl")
    assert (code, [line.split(":")[:4] for line in out.splitlines()]) == (0, [
        ["d.jsonl", "1", "39", " EV212 [warning] the input's user message is empty"],
        ["d.jsonl", "2", "64", " EV213 [warning] the expected answer is a list of text, which the runner gives the "
                               "graders as JSON text ('[{\"type\""]])


@pytest.mark.runner
def test_the_jsonl_loader_reads_such_lines_as_written(tmp_path):
    (tmp_path / "d.jsonl").write_text(LINES_ASKING)
    loaded = load_tests(tmp_path, ["d.jsonl"])["d.jsonl"]["tests"]
    assert [(test["id"], test["question"], test["reference_answer"]) for test in loaded] == [
        ("b", "", ""), ("c", "hi", '[\n  {\n    "type": "text",\n    "value": "a"\n  }\n]'), ("d", "hi", "a")]
