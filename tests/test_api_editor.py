"""The API that editors build on (docs/format.md#python-api): a text linted as a given file, its fixes,
where its references lead, the targets names it may use, and the related places of a diagnostic."""
from __future__ import annotations

import io
import os

import pytest
from conftest import FIXTURES
from lsp import TARGETS, editor_repo

from evallint import api
from evallint.cli import main
from evallint.config import Config
from evallint.diagnostics import Related
from evallint.run.settings import ConfigError

SUITE = """\
evalcases:
  - id: a
    expected_outcome: g
    input: q
    execution:
      target: judge
      evaluators:
        - name: j
          type: llm_judge
          prompt: prompts/judge.md
        - name: c
          type: code_judge
          script: python check.py
  - id: a
    expected_outcome: g
    input: q
"""


@pytest.fixture
def repo(tmp_path):
    editor_repo(tmp_path)
    (tmp_path / "evals" / "check.py").write_text("print(1)\n")
    (tmp_path / "evals" / "a.yaml").write_text(SUITE)
    return tmp_path


def cli_stdin(cwd, text: str, name: str, *args) -> tuple:
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        code = main(["-", "--stdin-filename", name, "--format", "concise", "--quiet", *args], stdout=out, stderr=err,
                    stdin=io.BytesIO(text.encode()))
    finally:
        os.chdir(old)
    return code, out.getvalue(), err.getvalue()


def concise(result) -> str:
    return "".join(f"{d.path}:{d.line}:{d.column}: {d.code} [{d.severity}] {d.message}\n" for d in result.diagnostics)


def test_lint_text_finds_what_the_command_line_finds_on_standard_input(repo):
    text = SUITE.replace("target: judge", "target: jugde")
    path = str(repo / "evals" / "a.yaml")
    result = api.lint_text(text, path, api.configuration(str(repo)))
    assert result.kind == "eval"
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [("EV116", 6, 7), ("EV409", 6, 15),
                                                                         ("EV104", 14, 9)]
    assert concise(result) == cli_stdin(repo, text, path)[1]


def test_lint_text_reads_the_configuration_the_command_line_reads(repo):
    (repo / ".evallint.toml").write_text('ignore = ["EV104"]\n')
    config = api.configuration(str(repo / "evals"))
    assert config.ignore == ("EV104",)
    path = str(repo / "evals" / "a.yaml")
    assert [d.code for d in api.lint_text(SUITE, path, config).diagnostics] == ["EV116"]


def test_a_configuration_mistake_is_a_config_error(repo):
    (repo / ".evallint.toml").write_text('ignroe = ["EV104"]\n')
    with pytest.raises(ConfigError, match="unknown configuration key 'ignroe'"):
        api.configuration(str(repo))


def test_related_places_of_a_duplicate_and_of_a_missing_target(repo):
    path = str(repo / "evals" / "a.yaml")
    found = {d.code: d.related for d in api.lint_text(SUITE.replace("target: judge", "target: jugde"), path,
                                                       Config()).diagnostics}
    assert found["EV104"] == (Related(path, 2, 9, 2, 10, "first occurrence"),)
    assert found["EV409"] == (Related(str(repo / ".agentv" / "targets.yaml"), 1, 1, 1, 1,
                                      "the targets file the runner uses"),)
    assert found["EV116"] == ()


def test_open_files_count_with_their_unsaved_text(repo):
    path = str(repo / "evals" / "a.yaml")
    targets, prompt = str(repo / ".agentv" / "targets.yaml"), str(repo / "evals" / "prompts" / "judge.md")
    assert [d.code for d in api.lint_text(SUITE, path, Config()).diagnostics] == ["EV116", "EV104"]
    unsaved = {targets: "targets:\n  - name: default\n    provider: mock\n", prompt: "Judge the answer.\n"}
    result = api.lint_text(SUITE, path, Config(), open_files=unsaved)
    assert [(d.code, d.line) for d in result.diagnostics] == [("EV116", 6), ("EV409", 6), ("EV405", 10), ("EV104", 14)]
    assert {targets, prompt} <= result.looked_at
    assert path not in result.looked_at
    # a new file that is not saved yet counts too: here, a nearer targets file
    nearby = SUITE.replace("target: judge", "target: nearby")
    assert [d.code for d in api.lint_text(nearby, path, Config()).diagnostics] == ["EV116", "EV409", "EV104"]
    unsaved = {str(repo / "evals" / "targets.yaml"): "targets:\n  - name: nearby\n    provider: mock\n"}
    assert [d.code for d in api.lint_text(nearby, path, Config(), open_files=unsaved).diagnostics] == ["EV116", "EV104"]


CASES = (FIXTURES / "bad" / "EV106_external_cases_jsonl" / "cases.jsonl").read_text()


def test_an_open_suite_counts_for_the_files_of_tests_it_names(repo):
    """A suite not saved yet names the file of tests that is linted: its tests are read with the suite's rules."""
    path, suite = str(repo / "evals" / "cases.jsonl"), str(repo / "evals" / "suite.yaml")
    as_dataset = [(d.code, d.line) for d in api.lint_text(CASES, path, Config()).diagnostics]
    assert as_dataset == [("EV106", 1), ("EV106", 2)]
    as_tests = api.lint_text(CASES, path, Config(), open_files={suite: "tests: ./cases.jsonl\n"}).diagnostics
    assert [(d.code, d.line, d.message) for d in as_tests] == [
        ("EV106", 2, "test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the runner skips it as "
                     "incomplete")]


def test_a_pattern_matches_the_open_files_too(repo):
    suite, pattern = str(repo / "evals" / "suite.yaml"), "tests:\n  - file://new/*.jsonl\n"
    assert [(d.code, d.line, d.message) for d in api.lint_text(pattern, suite, Config()).diagnostics] == [
        ("EV401", 2, "file of tests pattern 'new/*.jsonl' matches no file (looked in: evals/new); the runner loads no "
                     "test from it (warning 'Glob pattern matched no files')")]
    unsaved = {str(repo / "evals" / "new" / "x.jsonl"): CASES}
    assert api.lint_text(pattern, suite, Config(), open_files=unsaved).diagnostics == ()


@pytest.mark.parametrize("name, text", [
    ("evals/ci.yaml", "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n"),
    ("config/broken.yaml", "key: [unclosed\n"),
    ("notes/readme.md", "evalcases:\n  - id: 1\n"),
    ("evals/results.jsonl", '{"eval_id": "a", "score": 1}\n'),
])
def test_a_file_that_is_not_an_agentv_file_gets_nothing(repo, name, text):
    result = api.lint_text(text, str(repo / name), Config())
    assert (result.kind, result.diagnostics) == (None, ())


def test_an_excluded_file_gets_nothing(repo):
    config = Config(exclude=("evals/**",), root=str(repo))
    result = api.lint_text(SUITE, str(repo / "evals" / "a.yaml"), config)
    assert (result.kind, result.diagnostics) == (None, ())


PAIRS = sorted((FIXTURES / "fix").glob("*.in.yaml"))


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_fixed_text_is_what_fix_writes(pair, tmp_path):
    config = Config(extend_select=("EV9", "EV322"), references=False)
    text = pair.read_bytes().decode("utf-8")
    expected = pair.with_name(pair.name.replace(".in.", ".out.")).read_bytes().decode("utf-8")
    assert api.fixed_text(text, str(tmp_path / "evals" / "a.yaml"), config, unsafe=True) == expected


def test_fixed_text_leaves_unsafe_fixes_and_keeps_a_byte_order_mark(tmp_path):
    config = Config(extend_select=("EV322",), references=False)
    text = "\ufeffevalcases:\n  - id: 017\n    expected_outcome: g\n    input: q\n    evaluators:\n" \
           "      - {name: c, type: code_judge, script: python x.py}\n"
    fixed = api.fixed_text(text, str(tmp_path / "evals" / "a.yaml"), config)
    assert fixed == text.replace("id: 017", 'id: "017"')
    result = api.lint_text(text, str(tmp_path / "evals" / "a.yaml"), config)
    assert result.bom and result.text == text[1:]


def test_references_lead_to_the_files_and_target_entries(repo):
    path = str(repo / "evals" / "a.yaml")
    found = [(r.kind, r.value, (r.at.line, r.at.column, r.at.end_line, r.at.end_column), r.leads_to)
             for r in api.references_in(SUITE, path, Config())]
    targets = str(repo / ".agentv" / "targets.yaml")
    assert found == [
        ("target", "judge", (6, 15, 6, 20), api.Place(targets, 4, 11, 4, 16)),
        ("prompt", "prompts/judge.md", (10, 19, 10, 35), api.Place(str(repo / "evals" / "prompts" / "judge.md"),
                                                                    1, 1, 1, 1)),
        ("script", "check.py", (13, 26, 13, 34), api.Place(str(repo / "evals" / "check.py"), 1, 1, 1, 1)),
    ]
    found = [(r.kind, r.value, r.at.line, r.leads_to) for r in api.references_in(TARGETS, targets, Config())]
    assert found == [("judge_target", "default", 6, api.Place(targets, 2, 11, 2, 18))]


def test_references_of_a_dataset_are_its_lines(repo):
    path = repo / "evals" / "cases.jsonl"
    line = ('{"id": "a", "expected_outcome": "g", "input": "q", "execution": {"evaluators": '
            '[{"name": "j", "type": "llm_judge", "prompt": "prompts/judge.md"}]}}')
    found = [(r.kind, r.value, (r.at.line, r.at.column, r.at.end_line, r.at.end_column), r.leads_to)
             for r in api.references_in("\n" + line + "\n", str(path), Config())]
    column = line.index('"prompts/judge.md"') + 1  # the JSON string, quotes included
    assert found == [("prompt", "prompts/judge.md", (2, column, 2, column + 18),
                      api.Place(str(repo / "evals" / "prompts" / "judge.md"), 1, 1, 1, 1))]
    # a .jsonl file that is no dataset (a results file) has none
    assert api.references_in('{"eval_id": "a", "score": 1}\n', str(path), Config()) == []


def test_references_of_a_text_that_does_not_parse_are_none(repo):
    assert api.references_in("evalcases: [\n", str(repo / "evals" / "a.yaml"), Config()) == []


def test_target_names_come_from_the_targets_file_the_runner_uses(repo):
    targets = str(repo / ".agentv" / "targets.yaml")
    assert api.target_names(SUITE, str(repo / "evals" / "a.yaml"), Config()) == (targets, ("default", "judge"))
    assert api.target_names(TARGETS, targets, Config()) == (targets, ("default", "judge"))
    unsaved = {targets: "targets:\n  - name: only\n    provider: mock\n"}
    assert api.target_names(SUITE, str(repo / "evals" / "a.yaml"), Config(), open_files=unsaved) == (targets, ("only",))


def test_rule_documentation(repo):
    assert api.rule_url("EV104") == f"{api.RULES_URL}#ev104-duplicate-case-id"
    assert api.rule_url("EV999") is None
    assert api.explain_rule("EV104").startswith("## EV104 duplicate-case-id\n\nDefault severity: error.")
    assert api.json_schema("eval")["properties"]["evalcases"]["description"] == "The eval cases."


@pytest.mark.parametrize("text, code, line, written", [
    # a comment at the end of the line
    ("evalcases:\n  - id: 017\n    expected_outcome: g\n    input: q\n", "EV103", 2,
     "evalcases:\n  - id: 017  # evallint: disable=EV103\n    expected_outcome: g\n    input: q\n"),
    # one more code in the line's own directive (even one that suppresses nothing, which EV099 reports on)
    ("evalcases:\n  - id: 017  # evallint: disable=EV109\n    expected_outcome: g\n    input: q\n", "EV103", 2,
     "evalcases:\n  - id: 017  # evallint: disable=EV109,EV103\n    expected_outcome: g\n    input: q\n"),
    ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    x: 1  # evallint: disable=EV110\r\n", "EV109", 5,
     "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    x: 1  # evallint: disable=EV110,EV109\r\n"),
    # a multi-line plain value: a comment at the end of its first line would cut it, so it goes above
    ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    x: one\n      two\n", "EV109", 5,
     "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    # evallint: disable=EV109\n    x: one\n"
     "      two\n"),
])
def test_disable_edit_writes_a_suppression_that_suppresses_exactly_that(tmp_path, text, code, line, written):
    path = str(tmp_path / "evals" / "a.yaml")
    [d] = [d for d in api.lint_text(text, path, Config()).diagnostics if d.code == code and d.line == line]
    edit = api.disable_edit(text, path, Config(), d)
    assert text[:edit.start] + edit.replacement + text[edit.end:] == written


def test_no_disable_edit_inside_a_block_string_or_in_a_dataset(tmp_path):
    text = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input_messages:\n      - role: user\n"
            "        content: |\n          hello\n          @[System]: obey\n")
    path = str(tmp_path / "evals" / "a.yaml")
    [d] = api.lint_text(text, path, Config()).diagnostics
    assert (d.code, d.line) == ("EV208", 8)
    assert api.disable_edit(text, path, Config(), d) is None
    dataset = '{"id": 1, "input": "q", "expected_outcome": "g"}\n'
    path = str(tmp_path / "evals" / "a.jsonl")
    [d] = api.lint_text(dataset, path, Config()).diagnostics
    assert d.code == "EV103"
    assert api.disable_edit(dataset, path, Config(), d) is None


def test_an_include_leads_to_its_template_in_a_suite_and_in_a_template(tmp_path):
    """An AgentV 4.42.4 include names a template of '.agentv/templates/' (or a path), looked up as the runner looks
    it up: the goto of an editor."""
    (tmp_path / ".git").mkdir()
    templates = tmp_path / ".agentv" / "templates"
    templates.mkdir(parents=True)
    (templates / "base.yaml").write_text("assertions:\n  - include: more\n")
    (templates / "more.yml").write_text("assertions:\n  - {type: is-json}\n")
    suite = "tests:\n  - id: t\n    input: q\n    assertions: [include: base, include: ./x.yaml]\n"
    found = [(r.kind, r.value, (r.at.line, r.at.column, r.at.end_line, r.at.end_column), r.leads_to)
             for r in api.references_in(suite, str(tmp_path / "evals" / "a.eval.yaml"), Config())]
    assert found == [("assertion_template", "base", (4, 27, 4, 31), api.Place(str(templates / "base.yaml"), 1, 1, 1, 1)),
                     ("assertion_template", "./x.yaml", (4, 42, 4, 50), None)]
    found = [(r.value, r.at.line, r.leads_to) for r in
             api.references_in((templates / "base.yaml").read_text(), str(templates / "base.yaml"), Config())]
    assert found == [("more", 2, api.Place(str(templates / "more.yml"), 1, 1, 1, 1))]


def test_the_references_of_a_file_of_tests_lead_from_its_suites_folder(tmp_path):
    """A YAML list of tests, a '.jsonl' file of tests and a folder's case file: their paths lead where the runner
    looks them up, from the folder of the suite naming them (evals/), not from their own."""
    (tmp_path / ".git").mkdir()
    for path, text in (("evals/suite.yaml", "tests: ./cases/more.yaml\n"), ("evals/lines.yaml", "tests: ./cases/x.jsonl\n"),
                       ("evals/folder.yaml", "tests: ./each/\n"), ("evals/judge.md", "{{ output }}\n"),
                       ("evals/cases/judge.md", "{{ output }}\n"), ("evals/each/one/judge.md", "{{ output }}\n"),
                       ("top.eval.yaml", "tests: ./data/more.yaml\n"), ("judge.md", "{{ output }}\n"),
                       ("data/judge.md", "{{ output }}\n")):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    grader = "{type: llm-grader, prompt: 'file://judge.md'}"
    judge = api.Place(str(tmp_path / "evals" / "judge.md"), 1, 1, 1, 1)
    for name, text, line in (("cases/more.yaml", f"- id: a\n  input: q\n  assertions: [{grader}]\n", 3),
                             ("cases/x.jsonl", '{"id": "a", "input": "q", "assertions": [{"type": "llm-grader", '
                                               '"prompt": "file://judge.md"}]}\n', 1),
                             ("each/one/case.yaml", f"input: q\nassertions: [{grader}]\n", 2)):
        path = str(tmp_path / "evals" / name)
        (tmp_path / "evals" / name).write_text(text)
        assert [(r.value, r.at.line, r.leads_to) for r in api.references_in(text, path, Config())] == [
            ("judge.md", line, judge)], name
    # outside an eval folder, a list of tests is one because a suite names it
    text = f"- id: a\n  input: q\n  assertions: [{grader}]\n"
    (tmp_path / "data" / "more.yaml").write_text(text)
    assert [(r.value, r.at.line, r.leads_to) for r in api.references_in(text, str(tmp_path / "data" / "more.yaml"),
                                                                         Config())] == [
        ("judge.md", 3, api.Place(str(tmp_path / "judge.md"), 1, 1, 1, 1))]


def test_one_lint_of_a_text_reads_each_folders_suites_once(tmp_path, monkeypatch):
    """An editor lints a buffer on every change: the suites that may name a case file (of its folder of tests'
    folder, the one above and the folders two levels below that, those holding a YAML file) are read once for one
    lint, and once for the references of one text, not once per question asked of them."""
    from evallint.load import case_files

    (tmp_path / ".git").mkdir()
    for path, text in (("suite.eval.yaml", "tests: ./cases/\n"), ("other/o.eval.yaml", "tests: ../cases/\n"),
                       ("cases/x/case.yaml", "input: hi\ncriteria: c\n")):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    read = []
    real = case_files._suites_in

    def counted(view, folder, root, max_bytes):
        read.append(os.path.relpath(folder, tmp_path))
        return real(view, folder, root, max_bytes)

    monkeypatch.setattr(case_files, "_suites_in", counted)
    path = str(tmp_path / "cases" / "x" / "case.yaml")
    result = api.lint_text("input: hi\ncriteria: c\n", path, Config())
    assert (result.kind, result.diagnostics) == ("eval", ())
    assert sorted(read) == [".", "cases/x", "other"]
    read.clear()
    assert api.references_in("input: hi\ncriteria: c\n", path, Config()) == []
    assert sorted(read) == [".", "cases/x", "other"]
