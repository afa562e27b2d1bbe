"""Combinations that AgentV's own examples do not use, where evallint's model of a 4.42 test is checked against
what AgentV 4.42.4's loader makes of the same file: the tests kept, their criteria, input, expected output and
graders."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import model_tests, run_written, runner_tests, write_suite
from clirun import git, run_concise
from evallint.config import Config
from evallint.format.agentv4.model import Include
from evallint.lint import lint_file


NULL_LISTS = (
    "execution:\n"
    "  assertions: null\n"
    "  assert: [{type: contains, value: SUITE}]\n"
    "tests:\n"
    "  - id: assert-after-null\n"
    "    input: q\n"
    "    assertions: null\n"
    "    assert: [{type: contains, value: A}]\n"
    "  - id: evaluators-after-null\n"
    "    input: q\n"
    "    criteria: c\n"
    "    assertions: ~\n"
    "    execution: {evaluators: null}\n"
    "    evaluators: [{type: equals, value: E}]\n")


def test_a_null_grader_list_is_passed_over_for_the_next_one(tmp_path):
    """The loader picks a grader list with '??': a null one counts as absent, so the next list is read, not
    shadowed (no EV113), and the null is no list it skips (no EV306)."""
    assert run_concise(write_suite(tmp_path, NULL_LISTS), "--no-cache", "a.eval.yaml") == (0, "", "")
    assert [(test.id, [a.name for a in test.assertions]) for test in
            lint_file(str(tmp_path / "a.eval.yaml"), Config(root=str(tmp_path))).model.tests] == [
        ("assert-after-null", ["contains-A", "contains-SUITE"]),
        ("evaluators-after-null", ["equals-E", "contains-SUITE"])]


def test_a_null_grader_list_before_a_list_shadows_nothing_but_a_list_does(tmp_path):
    write_suite(tmp_path, "assertions: null\nassert: [{type: contains, value: S}]\n"
                     "tests:\n  - {id: t, input: q, criteria: c, assertions: [], evaluators: [{type: is-json}]}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:4:52: EV113 [error] 'evaluators' is ignored because 'assertions' is also set; the runner reads "
        "only the first of 'assertions', 'assert', 'execution.evaluators', 'evaluators'\n"), "")


@pytest.mark.runner
def test_the_runner_reads_the_list_after_a_null_one(tmp_path):
    write_suite(tmp_path, NULL_LISTS)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")


PATTERNS = ("tests:\n"
            "  - file://more/*.yaml\n"
            "  - file://{more,other}/x.yaml\n"
            "  - file://**/x.yaml\n"
            "  - file://nomatch/*.yaml\n"
            "  - file://more/*.yml\n")
PATTERN_FILES = (("more/x.yaml", "- {id: g1, input: hello, criteria: c}\n"),)


def test_a_file_item_with_a_glob_is_a_pattern_reported_only_when_it_matches_no_file(tmp_path):
    """Three patterns match one file, whose test the loader then holds three times under one id (EV104)."""
    twice = ("file of tests 'more/x.yaml' is read again here (an earlier item reads it too), so its test id 'g1' is "
             "there twice; the run stops before any test runs ('Duplicate test ID')")
    assert run_concise(write_suite(tmp_path, PATTERNS, PATTERN_FILES), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:3:5: EV104 [error] {twice}\n"
        f"a.eval.yaml:4:5: EV104 [error] {twice}\n"
        "a.eval.yaml:5:5: EV401 [error] file of tests pattern 'nomatch/*.yaml' matches no file (looked in: nomatch); "
        "the runner loads no test from it (warning 'Glob pattern matched no files')\n"
        "a.eval.yaml:6:5: EV401 [error] file of tests pattern 'more/*.yml' matches no file (looked in: more/); the "
        "runner loads no test from it (warning 'Glob pattern matched no files')\n"), "")


@pytest.mark.runner
def test_the_runner_loads_what_a_pattern_matches_and_warns_for_the_others(tmp_path):
    loaded = load_tests(write_suite(tmp_path, PATTERNS, PATTERN_FILES), ["a.eval.yaml"])["a.eval.yaml"]
    assert [test["id"] for test in loaded["tests"]] == ["g1", "g1", "g1"]
    assert loaded["logs"] == [
        "Warning: Glob pattern matched no files: file://nomatch/*.yaml (resolved to nomatch/*.yaml)",
        "Warning: Glob pattern matched no files: file://more/*.yml (resolved to more/*.yml)"]


def test_a_pattern_is_matched_in_the_git_index_with_staged(tmp_path):
    """With --staged, a pattern matches the files of the index: one only on disk matches nothing."""
    git(tmp_path, "init", "-q")
    (tmp_path / "a.eval.yaml").write_text("tests:\n  - file://more/*.yaml\n")
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "x.yaml").write_text("- {id: g1, input: hello, criteria: c}\n")
    git(tmp_path, "add", "a.eval.yaml")
    assert run_concise(tmp_path, "--staged") == (1, (
        "a.eval.yaml:2:5: EV401 [error] file of tests pattern 'more/*.yaml' matches no file (looked in: more); the "
        "runner loads no test from it (warning 'Glob pattern matched no files')\n"), "")
    git(tmp_path, "add", "more/x.yaml")
    assert run_concise(tmp_path, "--staged") == (0, "", "")


INCLUDES = ("tests:\n"
            "  - id: included\n"
            "    input: q\n"
            "    assertions:\n"
            "      - {type: equals, value: a}\n"
            "      - include: base\n"
            "      - include: ./more.yaml\n"
            "      - type: composite\n"
            "        assertions: [include: base]\n"
            "        aggregator: {type: weighted_average}\n"
            "  - id: missing-template\n"
            "    input: q\n"
            "    assertions: [include: nothing, include: ./nothing.yaml]\n")
TEMPLATES = ((".agentv/templates/base.yaml", "assertions:\n  - {name: t1, type: contains, value: T1}\n"),
             ("more.yaml", "assertions:\n  - {type: is-json}\n"))


def test_an_include_entry_names_a_template_reported_only_when_it_is_not_found(tmp_path):
    """An entry whose one key is 'include' is no assertion without a type: the runner puts the template's
    assertions in its place (a bare name is a template of '.agentv/templates/'), and skips the test without it."""
    assert run_concise(write_suite(tmp_path, INCLUDES, TEMPLATES), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:13:27: EV401 [error] assertion template 'nothing' not found (looked for "
        "'.agentv/templates/nothing.yaml' or '.yml' from: ./); the runner skips the test\n"
        "a.eval.yaml:13:45: EV401 [error] assertion template './nothing.yaml' not found (looked in: ./); the runner "
        "skips the test\n"), "")
    model = lint_file(str(tmp_path / "a.eval.yaml"), Config(root=str(tmp_path))).model
    assert [(a.name, a.type) for a in model.tests[0].assertions] == [
        ("equals-a", "equals"), ("t1", "contains"), ("is-json", "is-json"), ("composite", "composite")]
    assert [(m.name, m.type) for m in model.tests[0].assertions[3].members] == [("t1", "contains")]
    assert model.tests[1].assertions == (Include("nothing"), Include("./nothing.yaml"))  # kept: the runner skips it


def test_the_model_keeps_an_include_when_no_repository_root_is_known():
    """Text loaded without a repository root reads no template: the include entry stays as written."""
    from evallint.api import load_eval_text

    suite = load_eval_text(INCLUDES.split("  - id: missing-template")[0])
    assert suite.tests[0].assertions[1:3] == (Include("base"), Include("./more.yaml"))


@pytest.mark.runner
def test_the_model_expands_the_templates_as_the_runner_does(tmp_path):
    write_suite(tmp_path, INCLUDES.split("  - id: missing-template")[0], TEMPLATES)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")


@pytest.mark.runner
def test_the_runner_expands_the_templates_and_skips_the_test_without_one(tmp_path):
    loaded = load_tests(write_suite(tmp_path, INCLUDES, TEMPLATES), ["a.eval.yaml"])["a.eval.yaml"]
    assert [(test["id"], [(a["name"], a["type"]) for a in test["assertions"]]) for test in loaded["tests"]] == [
        ("included", [("equals-a", "equals"), ("t1", "contains"), ("is-json", "is-json"),
                      ("composite", "composite")])]
    assert [len(a["assertions"]) for a in loaded["tests"][0]["assertions"] if a["type"] == "composite"] == [1]
    assert loaded["logs"][0].startswith("Error: Skipping test 'missing-template': Assertion template not found in "
                                        "'missing-template': .agentv/templates/nothing.yaml")


NOT_FINITE = ("tests:\n"
              "  - id: t\n"
              "    vars: {n: .nan, i: -.inf, o: {a: .nan}}\n"
              "    input: \"n={{ n }} i={{ i }} o={{ o }}\"\n"
              "    criteria: c\n")


def test_a_number_that_is_not_finite_is_null_in_text_as_javascript_writes_it(tmp_path):
    write_suite(tmp_path, NOT_FINITE)
    assert [test.input[0].content for test in lint_file(str(tmp_path / "a.eval.yaml"),
                                                        Config(root=str(tmp_path))).model.tests] == [
        'n=null i=null o={"a":null}']


@pytest.mark.runner
def test_the_runner_writes_a_number_that_is_not_finite_as_null_in_text(tmp_path):
    write_suite(tmp_path, NOT_FINITE)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")


VARS = ("input: \"ctx {{ who }}\"\n"
        "input_files: [\"{{ dir }}/a.txt\"]\n"
        "tests:\n"
        "  - id: values-in-text\n"
        "    vars: {flag: true, n: 1.0, obj: {a: 1}, nul: null, who: W, dir: docs}\n"
        "    input: \"flag={{ flag }} n={{ n }} obj={{ obj }} nul={{ nul }} missing={{ nope }}\"\n"
        "    criteria: \"c {{ flag }}\"\n"
        "  - id: spaced\n"
        "    vars: {obj: {a: 1}, dir: docs}\n"
        "    input: \" {{ obj }} \"\n"
        "    criteria: c\n"
        "  - id: messages-from-a-variable\n"
        "    vars: {msgs: [{role: user, content: hello}]}\n"
        "    input: \"{{ msgs }}\"\n"
        "    expected_output: \"{{ msgs }}\"\n"
        "    execution: {skip_defaults: true}\n"
        "  - id: own-files\n"
        "    vars: {dir: docs}\n"
        "    input: q\n"
        "    input_files: [\"{{ dir }}/a.txt\"]\n"
        "    criteria: c\n"
        "  - id: one-message-list\n"
        "    vars: {dir: docs}\n"
        "    input: [{role: user, content: hi}]\n"
        "    criteria: c\n"
        "  - id: null-criteria\n"
        "    vars: {nul: null, dir: docs}\n"
        "    input: x\n"
        "    criteria: \"{{ nul }}\"\n"
        "  - id: number-criteria\n"
        "    vars: {n: 5}\n"
        "    input: q\n"
        "    criteria: \"{{ n }}\"\n"
        "    execution: {skip_defaults: true}\n"
        "  - id: number-input\n"
        "    vars: {n: 5}\n"
        "    input: \"{{ n }}\"\n"
        "    criteria: c\n"
        "    execution: {skip_defaults: true}\n")
DOCS = (("docs/a.txt", "hi\n"),)


def test_a_test_that_its_vars_leave_with_nothing_to_grade_by_is_an_error(tmp_path):
    """A criteria that is one '{{ name }}' becomes the variable's value, which is no criteria when it is no
    string (and the value of 'criteria' is checked as filled in); a message list under suite input files is no
    string input; an input that becomes a number is none. A name the vars do not hold is sent as written (EV406),
    in the suite's input too."""
    assert run_concise(write_suite(tmp_path, VARS, DOCS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:13: EV406 [warning] '{{ who }}' names no variable of the vars of test 'spaced', so the runner "
        "sends it to that test as written\n"
        "a.eval.yaml:6:57: EV406 [warning] '{{ nul }}' names the test's var 'nul', which is null (written with no "
        "value), so the runner fills in the text 'null'; give it a value\n"
        "a.eval.yaml:6:75: EV406 [warning] '{{ nope }}' names no variable of the test's vars, so the runner sends it "
        "as written\n"
        "a.eval.yaml:24:12: EV105 [error] the suite's 'input_files' make the runner read only a string 'input', so it "
        "skips this test; give it 'execution: {skip_defaults: true}' or a string input\n"
        "a.eval.yaml:26:5: EV106 [error] once its vars are filled in, the test has no 'criteria', 'expected_output', "
        "'assertions' or 'turns' ('criteria' '{{ nul }}' becomes null); the runner skips it as incomplete\n"
        "a.eval.yaml:29:15: EV107 [error] with the test's vars filled in, 'criteria' must be a string describing the "
        "goal, found null; the runner ignores it\n"
        "a.eval.yaml:30:5: EV106 [error] once its vars are filled in, the test has no 'criteria', 'expected_output', "
        "'assertions' or 'turns' ('criteria' '{{ n }}' becomes 5); the runner skips it as incomplete\n"
        "a.eval.yaml:33:15: EV107 [error] with the test's vars filled in, 'criteria' must be a string describing the "
        "goal, found 5 (a number); the runner ignores it\n"
        "a.eval.yaml:37:12: EV112 [error] with the test's vars filled in, 'input' must be a string, a mapping or a "
        "list of messages, found 5 (a number); the runner finds no input in it\n"), "")


FILLED_BEFORE_READ = (
    "tests:\n"
    "  - id: files-from-a-variable\n"
    "    criteria: c\n"
    "    vars: {files: [docs/a.txt]}\n"
    "    input: q\n"
    "    input_files: \"{{ files }}\"\n"
    "  - id: messages-and-files\n"
    "    criteria: c\n"
    "    vars: {files: [docs/a.txt], msgs: [{role: user, content: hello}]}\n"
    "    input: \"{{ msgs }}\"\n"
    "    input_files: \"{{ files }}\"\n"
    "  - id: a-message-of-no-role\n"
    "    criteria: c\n"
    "    vars: {msgs: [{role: robot, content: hi}, {role: user, content: hello}]}\n"
    "    input: \"{{ msgs }}\"\n")


def test_a_tests_values_are_checked_with_its_vars_filled_in(tmp_path):
    """The loader fills the vars in before it reads the test: files given by a variable are a list, messages
    given by one are no string input beside 'input_files', and a message they hold is checked, at the reference."""
    assert run_concise(write_suite(tmp_path, FILLED_BEFORE_READ, DOCS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:10:12: EV105 [error] once its vars are filled in, 'input' '{{ msgs }}' is no longer a string, "
        "and with 'input_files', the runner reads only a string 'input' and skips this test (put the files in the "
        "messages as 'type: file' blocks instead)\n"
        "a.eval.yaml:15:12: EV201 [error] with the test's vars filled in, invalid role 'robot'; the runner drops this "
        "message; expected one of 'assistant', 'system', 'tool', 'user' (in lower case)\n"), "")


SUITE_FILES_FILLED = ("input_files: [\"{{ dir }}/a.txt\"]\n"
                      "tests:\n"
                      "  - {id: found, vars: {dir: docs}, input: q, criteria: c}\n"
                      "  - {id: missing, vars: {dir: nope}, input: q, criteria: c}\n"
                      "  - {id: own-files, vars: {dir: nope}, input: q, criteria: c, input_files: [docs/a.txt]}\n"
                      "  - id: messages-from-a-variable\n"
                      "    vars: {dir: docs, msgs: [{role: user, content: hi}]}\n"
                      "    input: \"{{ msgs }}\"\n"
                      "    criteria: c\n")


def test_the_suites_input_files_are_checked_as_each_tests_vars_fill_them_in(tmp_path):
    """A test with input files of its own does not get the suite's; messages a variable holds are no string input
    beside the suite's input files."""
    assert run_concise(write_suite(tmp_path, SUITE_FILES_FILLED, DOCS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:15: EV401 [error] input file 'nope/a.txt' not found (looked in: ./); the runner leaves it out "
        "of the input of test 'missing', whose vars fill it in (warning 'File not found')\n"
        "a.eval.yaml:8:12: EV105 [error] once its vars are filled in, the suite's 'input_files' make the runner read "
        "only a string 'input', so it skips this test; give it 'execution: {skip_defaults: true}' or a string "
        "input\n"), "")


@pytest.mark.runner
def test_the_runner_fills_each_tests_vars_into_the_suites_input_files(tmp_path):
    loaded = load_tests(write_suite(tmp_path, SUITE_FILES_FILLED, DOCS), ["a.eval.yaml"])["a.eval.yaml"]
    assert [log.splitlines()[0] for log in loaded["logs"]] == [
        "Warning: File not found: nope/a.txt",
        "Error: Skipping incomplete test: messages-from-a-variable. Missing required fields: id, input, and at least "
        "one of criteria/expected_output/assertions/turns"]
    assert [(test["id"], test["file_paths"]) for test in loaded["tests"]] == [
        ("found", ["docs/a.txt"]), ("missing", []), ("own-files", ["docs/a.txt"])]


SUITE_FILES_VARIABLE = ("input_files: \"{{ files }}\"\n"
                        "tests:\n"
                        "  - {id: found, vars: {files: [docs/a.txt]}, input: q, criteria: c}\n"
                        "  - {id: missing, vars: {files: [docs/gone.txt]}, input: q, criteria: c}\n")


def test_the_suites_input_files_may_be_one_variable_each_test_fills_in(tmp_path):
    assert run_concise(write_suite(tmp_path, SUITE_FILES_VARIABLE, DOCS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:14: EV401 [error] input file 'docs/gone.txt' not found (looked in: ./); the runner leaves it "
        "out of the input of test 'missing', whose vars fill it in (warning 'File not found')\n"), "")


@pytest.mark.runner
def test_the_runner_fills_a_variable_of_the_suites_input_files_for_each_test(tmp_path):
    loaded = load_tests(write_suite(tmp_path, SUITE_FILES_VARIABLE, DOCS), ["a.eval.yaml"])["a.eval.yaml"]
    assert [log.splitlines()[0] for log in loaded["logs"]] == ["Warning: File not found: docs/gone.txt"]
    assert [(test["id"], test["file_paths"]) for test in loaded["tests"]] == [("found", ["docs/a.txt"]),
                                                                             ("missing", [])]


SUITE_INPUT_FILLED = ("input:\n"
                      "  - {role: system, content: \"Answer in {{ lang }}.\"}\n"
                      "  - \"{{ extra }}\"\n"
                      "tests:\n"
                      "  - {id: filled, vars: {lang: French, extra: {role: user, content: hi}}, input: q, criteria: c}\n"
                      "  - {id: same, vars: {lang: German, extra: {role: user, content: hi}}, input: q, criteria: c}\n"
                      "  - {id: wizard, vars: {extra: {role: wizard, content: hi}}, input: q, criteria: c}\n"
                      "  - id: gone\n"
                      "    vars: {extra: {role: user, content: [{type: file, value: docs/gone.txt}]}}\n"
                      "    input: q\n"
                      "    criteria: c\n"
                      "  - {id: own, vars: {extra: 5}, input: q, criteria: c, execution: {skip_defaults: true}}\n"
                      "  - {id: unfilled, input: q, criteria: c}\n")


def test_the_suites_input_is_checked_as_each_tests_vars_fill_it_in(tmp_path):
    """Each problem once, for the first test whose vars make it; a test that skips the defaults does not get the
    suite's input; one without vars gets it as written (a string where a message belongs, EV406 for each name a
    test's vars do not hold)."""
    assert run_concise(write_suite(tmp_path, SUITE_INPUT_FILLED), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:40: EV406 [warning] '{{ lang }}' names no variable of the vars of test 'wizard', so the runner "
        "sends it to that test as written\n"
        "a.eval.yaml:3:5: EV201 [error] with the vars of test 'wizard' filled in, invalid role 'wizard'; the runner "
        "drops this message; expected one of 'assistant', 'system', 'tool', 'user' (in lower case)\n"
        "a.eval.yaml:3:5: EV207 [error] a message must be a mapping with 'role' and 'content', found '{{ extra }}'; "
        "the runner drops it\n"
        "a.eval.yaml:3:5: EV401 [error] file 'docs/gone.txt' not found (looked in: ./); the runner leaves it out of "
        "the input of test 'gone', whose vars fill it in (warning 'File not found')\n"
        "a.eval.yaml:3:6: EV406 [warning] '{{ extra }}' names no variable of the vars of test 'unfilled', so the "
        "runner sends it to that test as written\n"), "")


@pytest.mark.runner
def test_the_runner_fills_each_tests_vars_into_the_suites_input(tmp_path):
    write_suite(tmp_path, SUITE_INPUT_FILLED)
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert [log.splitlines()[0] for log in loaded["logs"]] == ["Warning: File not found: docs/gone.txt"]
    assert [(test["id"], [m["role"] for m in test["input"]]) for test in loaded["tests"]] == [
        ("filled", ["system", "user", "user"]), ("same", ["system", "user", "user"]), ("wizard", ["system", "user"]),
        ("gone", ["system", "user", "user"]), ("own", ["user"]), ("unfilled", ["system", "user"])]
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")


MISSING_BLOCKS = ("tests:\n"
                  "  - id: t\n"
                  "    input: [{role: user, content: [{type: file, value: gone.md}, {type: file, value: docs/a.txt}, q]}]\n"
                  "    expected_output:\n"
                  "      - {role: assistant, content: [{type: file, value: gone.md}, {type: file, value: docs/a.txt}]}\n")


@pytest.mark.runner
def test_the_model_leaves_out_a_file_block_the_runner_does_not_find(tmp_path):
    write_suite(tmp_path, MISSING_BLOCKS, DOCS)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml") == [
        ("t", "", [("user", [{"type": "file", "value": "docs/a.txt"}, {"type": "text", "value": "q"}])],
         [("assistant", [{"type": "file", "value": "docs/a.txt"}])], [])]
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml")[1].splitlines() == [
        f"a.eval.yaml:{line}: EV401 [error] file 'gone.md' not found (looked in: ./)" for line in ("3:56", "5:57")]


# EV211's message: an image block of an input, which the runner never sends to the target
NEVER_SENT = ("image block in an input: AgentV 4.42.4 sends the target an input's text and files, never its images, so "
              "the agent is asked about a picture it never sees (only a code-grader's input holds it); describe the "
              "picture in text (an agent target can open the file when the text names its path)")
SUITE_INPUT_WRITTEN = ("input:\n"
                       "  - {role: System, content: \"be {{ tone }}\"}\n"
                       "  - \"{{ extra }}\"\n"
                       "  - {role: user, content: [{type: image, value: \"{{ img }}\"}, {type: file, value: gone.md}]}\n"
                       "tests:\n"
                       "  - {id: t, vars: {tone: terse, extra: {role: user, content: hi}, img: gone.png}, input: q, "
                       "criteria: c}\n"
                       "  - {id: incomplete, vars: {extra: {role: wrong, content: x}}, input: q}\n"
                       "  - {vars: {extra: {role: wrong, content: x}}, input: q, criteria: c}\n")


def test_what_no_vars_make_in_the_suites_input_is_reported_as_written(tmp_path):
    """A problem the vars do not change names no test; a test the runner skips (no criteria, no id) gets no
    suite input; a missing image is left out as a missing file is."""
    assert run_concise(write_suite(tmp_path, SUITE_INPUT_WRITTEN), "--no-cache", "--select", "EV2,EV4",
                       "a.eval.yaml") == (1, (
        "a.eval.yaml:2:12: EV201 [error] invalid role 'System' (did you mean 'system'?); the runner drops this message; "
        "expected one of 'assistant', 'system', 'tool', 'user' (in lower case)\n"
        f"a.eval.yaml:4:35: EV211 [error] {NEVER_SENT}\n"
        "a.eval.yaml:4:49: EV401 [error] image file 'gone.png' not found (looked in: ./); the runner leaves it out of "
        "the input of test 't', whose vars fill it in (warning 'Image file not found')\n"
        "a.eval.yaml:4:83: EV401 [error] file 'gone.md' not found (looked in: ./)\n"), "")


@pytest.mark.runner
def test_the_runner_reads_the_suites_input_of_each_test_it_keeps(tmp_path):
    write_suite(tmp_path, SUITE_INPUT_WRITTEN)
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert [log.splitlines()[0] for log in loaded["logs"]] == [
        "Warning: Image file not found: gone.png", "Warning: File not found: gone.md",
        "Error: Skipping incomplete test: incomplete. Missing required fields: id, input, and at least one of "
        "criteria/expected_output/assertions/turns",
        "Error: Skipping incomplete test: unknown. Missing required fields: id, input, and at least one of "
        "criteria/expected_output/assertions/turns"]
    assert [(test["id"], [m["role"] for m in test["input"]]) for test in loaded["tests"]] == [
        ("t", ["user", "user", "user"])]


@pytest.mark.parametrize("tests", ["eval_cases:\n  - {id: t, vars: {extra: {role: user, content: hi}}, input: q, "
                                   "criteria: c}\n", "tests: [file://cases.yaml]\n", "tests: ./cases.yaml\n"])
def test_the_suites_input_is_checked_per_test_wherever_its_tests_are(tmp_path, tests):
    """Tests under a deprecated key are filled in as those under 'tests'; with tests in another file, only what
    no '{{ name }}' is in is checked."""
    write_suite(tmp_path, "input:\n  - \"{{ extra }}\"\n  - {role: Bad, content: x}\n" + tests,
                (("cases.yaml", "- {id: t, vars: {extra: {role: user, content: hi}}, input: q, criteria: c}\n"),))
    assert run_concise(tmp_path, "--no-cache", "--select", "EV2", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:12: EV201 [error] invalid role 'Bad'; the runner drops this message; expected one of "
        "'assistant', 'system', 'tool', 'user' (in lower case)\n"), "")


VARIABLE_MESSAGES = ("input: \"{{ m }}\"\n"
                     "tests:\n"
                     "  - id: t\n"
                     "    vars:\n"
                     "      m: [{role: user, content: [{type: video, value: x}, d]}, {role: user, content: [{type: text}]},\n"
                     "          {role: user, content: d, tool_calls: 5}, {role: User, content: z}]\n"
                     "    input: q\n"
                     "    criteria: c\n")


@pytest.mark.runner
def test_the_model_keeps_each_message_the_loader_keeps_of_messages_vars_make(tmp_path):
    """The loader keeps a message with a role it knows and content it can carry, whatever evallint reports of
    it."""
    write_suite(tmp_path, VARIABLE_MESSAGES)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml") == [
        ("t", "c", [("user", [{"type": "video", "value": "x"}, {"type": "text", "value": "d"}]),
                    ("user", [{"type": "text"}]), ("user", "d"), ("user", "q")], [], [])]


TOOL_CALLS_ALONE = ("input:\n"
                    "  - {role: assistant, tool_calls: [{tool: lookup}]}\n"
                    "  - {role: user, content: before}\n"
                    "tests:\n"
                    "  - id: t\n"
                    "    input:\n"
                    "      - {role: user, content: find it}\n"
                    "      - {role: assistant, content: null, tool_calls: [{tool: search, input: {q: x}}]}\n"
                    "      - {role: tool, content: found}\n"
                    "    expected_output: [{role: assistant, tool_calls: [{tool: search}]}]\n"
                    "    turns: [{input: [{role: assistant, tool_calls: [{tool: search}]}], assertions: [ok]}]\n"
                    "    mode: conversation\n")


def test_an_input_message_of_tool_calls_alone_is_an_error(tmp_path):
    """The loader sends an input message's content only; an expected output's may be tool calls. A turn's input
    is sent as text (EV112)."""
    assert run_concise(write_suite(tmp_path, TOOL_CALLS_ALONE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:6: EV202 [error] an input message without 'content' is dropped by the runner, its 'tool_calls' "
        "with it (only an expected output's message may be tool calls alone); give it content\n"
        "a.eval.yaml:8:36: EV202 [error] an input message without 'content' is dropped by the runner, its "
        "'tool_calls' with it (only an expected output's message may be tool calls alone); give it content\n"
        "a.eval.yaml:11:21: EV112 [error] a turn's 'input' must be a string, found a list; the runner sends anything "
        "else as its JSON text in one user message (roles, blocks and files as text): write what the user says\n"), "")


@pytest.mark.runner
def test_the_runner_drops_an_input_message_of_tool_calls_alone(tmp_path):
    write_suite(tmp_path, TOOL_CALLS_ALONE)
    [test] = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert [(m["role"], m["content"]) for m in test["input"]] == [("user", "before"), ("user", "find it"),
                                                                  ("tool", "found")]
    assert test["expected_output"] == [{"role": "assistant", "tool_calls": [{"tool": "search"}]}]
    assert test["turns"][0]["input"] == [{"role": "assistant", "tool_calls": [{"tool": "search"}]}]


TURN_BLOCKS = ("tests:\n"
               "  - id: conv\n"
               "    input: start\n"
               "    criteria: ok\n"
               "    mode: conversation\n"
               "    turns:\n"
               "      - input: [{role: user, content: [{type: file, value: docs/a.txt}, {type: image, value: p.tiff}]}]\n"
               "        expected_output: [{role: assistant, content: [{type: file, value: docs/a.txt}]}]\n"
               "        assertions: [{type: code-grader, command: [python3, -c, \"print(1)\"]}]\n")


def test_a_turns_input_that_is_no_string_or_a_file_in_its_expected_output_is_an_error(tmp_path):
    """The run sends a turn's input, if it is no string, as its JSON text (orchestrator.ts runConversationMode), and
    gives a turn's expected output to its graders as written: neither attaches a file, found or not."""
    assert run_concise(write_suite(tmp_path, TURN_BLOCKS, DOCS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:16: EV112 [error] a turn's 'input' must be a string, found a list; the runner sends anything "
        "else as its JSON text in one user message (roles, blocks and files as text): write what the user says\n"
        "a.eval.yaml:8:56: EV203 [error] a block of type 'file' in a turn is not attached: the runner passes a turn's "
        "expected output on as written, so the path goes as text; only a test's own input and expected output attach "
        "files\n"), "")


@pytest.mark.runner
def test_the_loader_keeps_a_turns_blocks_as_written(tmp_path):
    loaded = load_tests(write_suite(tmp_path, TURN_BLOCKS, DOCS), ["a.eval.yaml"])["a.eval.yaml"]
    assert loaded["logs"] == []
    turn = loaded["tests"][0]["turns"][0]
    assert turn["input"][0]["content"] == [{"type": "file", "value": "docs/a.txt"}, {"type": "image", "value": "p.tiff"}]
    assert turn["expected_output"][0]["content"] == [{"type": "file", "value": "docs/a.txt"}]


@pytest.mark.runner
def test_the_runner_sends_a_turns_input_that_is_no_string_as_its_json_text(tmp_path):
    sent = run_written(tmp_path, TURN_BLOCKS, DOCS)["sent"]
    text = '[{"role":"user","content":[{"type":"file","value":"docs/a.txt"},{"type":"image","value":"p.tiff"}]}]'
    assert sent == [{"test": "conv/turn-1", "question": text, "messages": [["user", "start"], ["user", text]]}]


TURN_INPUTS = ("tests:\n"
               "  - id: conv\n"
               "    mode: conversation\n"
               "    input: start\n"
               "    criteria: ok\n"
               "    vars: {n: 42}\n"
               "    turns: [{input: 42}, {input: \"{{ n }}\"}, {assertions: [Says hello]}]\n")


def test_a_turns_number_is_sent_as_written_and_a_turn_without_input_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, TURN_INPUTS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:47: EV105 [error] a turn has no 'input'; the runner sends a user message with no content in its "
        "place\n"),
        "")


@pytest.mark.runner
def test_the_runner_sends_a_turns_number_as_its_text_and_nothing_without_input(tmp_path):
    sent = run_written(tmp_path, TURN_INPUTS)["sent"]
    assert [turn.get("question") for turn in sent] == ["42", "42", None]


IMAGES = ("tests:\n"
          "  - id: t\n"
          "    criteria: c\n"
          "    input:\n"
          "      - role: user\n"
          "        content: [{type: image, value: pics/a.tiff}, {type: image, value: pics/A.SVG}, {type: image, value: "
          "gone.png}, q]\n")


@pytest.mark.runner
def test_the_model_leaves_out_an_image_the_runner_does_not_read(tmp_path):
    write_suite(tmp_path, IMAGES, (("pics/a.tiff", "II*"), ("pics/A.SVG", "<svg/>")))
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml") == [
        ("t", "c", [("user", [{"type": "image"}, {"type": "text", "value": "q"}])], [], [])]
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:40: EV411 [error] image file 'pics/a.tiff' is of no type the runner reads as an image: it leaves the "
        "block out (warning 'Unsupported image extension'); the endings it reads, in any case: '.png', '.jpg', '.jpeg', "
        "'.gif', '.webp', '.svg', '.bmp'\n"
        f"a.eval.yaml:6:61: EV211 [error] {NEVER_SENT}\n"
        f"a.eval.yaml:6:95: EV211 [error] {NEVER_SENT}\n"
        "a.eval.yaml:6:109: EV401 [error] image file 'gone.png' not found (looked in: ./); the runner leaves it out "
        "(warning 'Image file not found')\n"), "")


SUITE_INPUT_VARIABLE = ("input: \"{{ before }}\"\n"
                        "tests:\n"
                        "  - {id: number, vars: {before: 5}, input: q, criteria: c}\n"
                        "  - {id: empty, vars: {before: []}, input: q, criteria: c}\n"
                        "  - {id: messages, vars: {before: [{role: system, content: s}]}, input: q, criteria: c}\n"
                        "  - {id: text, vars: {before: s}, input: q, criteria: c}\n")


def test_the_suites_input_may_be_one_variable_each_test_fills_in(tmp_path):
    assert run_concise(write_suite(tmp_path, SUITE_INPUT_VARIABLE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:8: EV105 [error] with the vars of test 'empty' filled in, 'input' is an empty list; there is "
        "nothing to send\n"
        "a.eval.yaml:1:8: EV112 [error] with the vars of test 'number' filled in, 'input' must be a string, a mapping "
        "or a list of messages, found 5 (a number); the runner finds no input in it\n"), "")


@pytest.mark.runner
def test_the_runner_fills_a_variable_of_the_suites_input_for_each_test(tmp_path):
    write_suite(tmp_path, SUITE_INPUT_VARIABLE)
    assert [(test["id"], [m["content"] for m in test["input"]]) for test in
            load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]] == [
        ("number", ["q"]), ("empty", ["q"]), ("messages", ["s", "q"]), ("text", ["s", "q"])]
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")


FILLED_ONCE = ("tests:\n"
               "  - id: a-variable-naming-another\n"
               "    vars: {a: \"{{ b }}\", b: 5}\n"
               "    input: \"{{ a }}\"\n"
               "    criteria: \"c {{ a }}\"\n"
               "  - id: a-written-mistake-beside-a-variable\n"
               "    criteria: c\n"
               "    vars: {x: hi}\n"
               "    input: [{role: robot, content: \"{{ x }}\"}, {role: user, content: q}]\n")


def test_vars_are_filled_in_once_and_a_mistake_they_do_not_make_is_told_as_written(tmp_path):
    """A variable's value that holds '{{ name }}' of another is not filled in again (EV406); a message role written
    wrong beside a variable is reported as any written mistake is."""
    assert run_concise(write_suite(tmp_path, FILLED_ONCE), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:16: EV406 [warning] '{{ b }}' in the value of var 'a' is not filled in: the runner fills a "
        "test's vars in once, not into their own values, so the test gets it as written\n"
        "a.eval.yaml:9:20: EV201 [error] invalid role 'robot'; the runner drops this message; expected one of "
        "'assistant', 'system', 'tool', 'user' (in lower case)\n"), "")


@pytest.mark.runner
def test_the_runner_fills_the_vars_in_once(tmp_path):
    write_suite(tmp_path, FILLED_ONCE.split("  - id: a-written-mistake")[0])
    expected = runner_tests(tmp_path, "a.eval.yaml")
    assert expected == [("a-variable-naming-another", "c {{ b }}", [("user", "{{ b }}")], [], [])]
    assert model_tests(tmp_path, "a.eval.yaml") == expected


@pytest.mark.runner
def test_the_runner_reads_a_tests_values_with_its_vars_filled_in(tmp_path):
    loaded = load_tests(write_suite(tmp_path, FILLED_BEFORE_READ, DOCS), ["a.eval.yaml"])["a.eval.yaml"]
    assert loaded["logs"] == ["Error: Skipping incomplete test: messages-and-files. Missing required fields: id, "
                              "input, and at least one of criteria/expected_output/assertions/turns"]
    assert [(test["id"], test["file_paths"], [m["role"] for m in test["input"]]) for test in loaded["tests"]] == [
        ("files-from-a-variable", ["docs/a.txt"], ["user"]), ("a-message-of-no-role", [], ["user"])]
    # a message of no role is a finding of the field that loads it, and a file with such findings has no model
    (tmp_path / "a.eval.yaml").write_text(FILLED_BEFORE_READ.split("  - id: a-message-of-no-role")[0])
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")


@pytest.mark.runner
def test_vars_are_filled_in_as_the_runner_fills_them(tmp_path):
    """Values within text are JSON (true, 1, {"a":1}, null), a whole reference keeps its value (messages), the
    suite's input and input files and the test's own are filled."""
    write_suite(tmp_path, VARS, DOCS)
    # the tests after 'one-message-list' have values of the wrong type once filled in: findings of the fields
    # that load them, and a file with such findings has no model
    kept = VARS.split("  - id: null-criteria")[0]
    (tmp_path / "a.eval.yaml").write_text(kept.replace("  - id: one-message-list", "  - id: one-message-list\n"
                                                       "    execution: {skip_defaults: true}"))
    expected = runner_tests(tmp_path, "a.eval.yaml")
    assert [test[0] for test in expected] == ["values-in-text", "spaced", "messages-from-a-variable", "own-files",
                                              "one-message-list"]
    assert model_tests(tmp_path, "a.eval.yaml") == expected


@pytest.mark.runner
def test_the_turns_get_the_vars_too(tmp_path):
    write_suite(tmp_path, "tests:\n  - id: t\n    vars: {x: X}\n    mode: conversation\n    input: sys\n"
                     "    turns:\n      - {input: \"turn {{ x }}\", expected_output: \"{{ x }}\"}\n")
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    model = lint_file(str(tmp_path / "a.eval.yaml"), Config(root=str(tmp_path))).model
    assert [list(test.turns) for test in model.tests] == [test["turns"] for test in loaded] == [
        [{"input": "turn X", "expected_output": "X"}]]


KEPT = ("tests:\n"
        "  - {id: blank-criteria, input: q, criteria: \"   \"}\n"
        "  - {id: empty-expected, input: q, expected_output: \"\"}\n"
        "  - {id: empty-list-expected, input: q, expected_output: []}\n"
        "  - {id: empty-mapping-expected, input: q, expected_output: {}}\n"
        "  - {id: criteria-from-expected-outcome, input: q, criteria: \"\", expected_outcome: eo}\n"
        "  - {id: no-valid-expected-message, input: q, expected_output: [{role: User, content: x}]}\n")


def test_a_blank_criteria_or_an_empty_expected_output_is_something_to_grade_by(tmp_path):
    """The loader counts any non-empty criteria string and an expected output that makes a message (an empty
    string, list or mapping does); an empty criteria is passed over for 'expected_outcome', which it reads. A test
    graded by a blank criteria or an empty expected output alone is graded by nothing (EV106)."""
    then = ("the runner keeps it, but grades it with its default llm-grader against empty criteria, so its score means "
            "nothing; add criteria or graders")
    nothing = "nothing else to grade it by (graders, criteria, an expected answer)"
    assert run_concise(write_suite(tmp_path, KEPT), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:46: EV106 [error] 'criteria' is blank and the test has {nothing}: {then}\n"
        f"a.eval.yaml:3:53: EV106 [error] 'expected_output' is empty and the test has {nothing}: {then}\n"
        f"a.eval.yaml:4:58: EV106 [error] 'expected_output' is empty and the test has {nothing}: {then}\n"
        f"a.eval.yaml:5:61: EV106 [error] 'expected_output' is empty and the test has {nothing}: {then}\n"
        "a.eval.yaml:6:66: EV109 [warning] 'expected_outcome' in a test is deprecated (the runner warns); write "
        "'criteria'\n"
        "a.eval.yaml:7:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
        "runner skips it as incomplete\n"
        "a.eval.yaml:7:72: EV201 [error] invalid role 'User' (did you mean 'user'?); the runner drops this message; "
        "expected one of 'assistant', 'system', 'tool', 'user' (in lower case)\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_the_tests_with_a_blank_criteria_or_an_empty_expected_output(tmp_path):
    write_suite(tmp_path, KEPT.rsplit("  - {id: no-valid", 1)[0])
    expected = runner_tests(tmp_path, "a.eval.yaml")
    assert [test[0] for test in expected] == ["blank-criteria", "empty-expected", "empty-list-expected",
                                              "empty-mapping-expected", "criteria-from-expected-outcome"]
    assert model_tests(tmp_path, "a.eval.yaml") == expected


NO_PATHS = ("input_files: []\n"
            "tests:\n"
            "  - {id: suite-files, input: q, criteria: c}\n"
            "  - {id: own-files, input: q, criteria: c, input_files: []}\n"
            "  - {id: skips-the-suite-files, input: q, criteria: c, execution: {skip_defaults: true}}\n")


def test_input_files_that_name_no_file_leave_a_test_without_input(tmp_path):
    assert run_concise(write_suite(tmp_path, NO_PATHS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:14: EV105 [error] the suite's 'input_files' names no file, so the runner finds no input in any "
        "test without 'input_files' of its own or 'execution: {skip_defaults: true}', and skips it; remove it or name "
        "the files\n"
        "a.eval.yaml:4:57: EV105 [error] 'input_files' names no file, so the runner finds no input and skips this "
        "test; remove it or name the files\n"), "")


@pytest.mark.runner
def test_the_runner_skips_the_tests_whose_input_files_name_no_file(tmp_path):
    write_suite(tmp_path, NO_PATHS)
    expected = runner_tests(tmp_path, "a.eval.yaml")
    assert [test[0] for test in expected] == ["skips-the-suite-files"]
    assert model_tests(tmp_path, "a.eval.yaml") == expected


EXTERNAL = ("input: {role: system, content: Be brief.}\n"
            "input_files: [./docs/a.txt]\n"
            "assertions: [{type: contains, value: SUITE}]\n"
            "tests:\n"
            "  - file://cases.yaml\n"
            "  - file://lines.jsonl\n")
EXTERNAL_FILES = DOCS + (
    ("cases.yaml", "- {id: c1, input: hello, criteria: c}\n"
                   "- {id: c2, input: [{role: user, content: hi}], criteria: c}\n"
                   "- {id: c3, input: [{role: user, content: hi}], criteria: c, execution: {skip_defaults: true}}\n"),
    ("lines.jsonl", '{"id": "j1", "input": "q", "assertions": [{"type": "equals", "value": "y"}]}\n'
                    '{"id": "j2", "input": [{"role": "user", "content": "q"}], "criteria": "c"}\n'))


def test_a_file_of_tests_gets_the_defaults_of_the_suite_that_names_it(tmp_path):
    """The suite's input files make the runner skip a test of the file whose input is messages (EV105 in the
    file of tests, where the test is); its input and assertions are in the tests' model."""
    assert run_concise(write_suite(tmp_path, EXTERNAL, EXTERNAL_FILES), "--no-cache", ".") == (1, (
        "cases.yaml:2:19: EV105 [error] the suite's 'input_files' make the runner read only a string 'input', so it "
        "skips this test; give it 'execution: {skip_defaults: true}' or a string input\n"
        "lines.jsonl:2:23: EV105 [error] the suite's 'input_files' make the runner read only a string 'input', so it "
        "skips this test; give it 'execution: {skip_defaults: true}' or a string input\n"), "")


@pytest.mark.runner
def test_the_runner_gives_the_tests_of_a_file_the_suites_defaults(tmp_path):
    expected = runner_tests(write_suite(tmp_path, EXTERNAL, EXTERNAL_FILES), "a.eval.yaml")
    assert [test[0] for test in expected] == ["c1", "c3", "j1"]
    assert model_tests(tmp_path, "cases.yaml") + model_tests(tmp_path, "lines.jsonl") == expected


def test_the_json_schema_accepts_an_include_entry():
    """An editor that validates with the shipped JSON Schema takes an 'include' entry for what it is."""
    import json

    import jsonschema
    import yaml

    from conftest import ROOT

    schema = json.loads((ROOT / "evallint" / "jsonschemas" / "eval-4.42.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    assert list(validator.iter_errors(yaml.safe_load(INCLUDES))) == []
    assert len(list(validator.iter_errors({"tests": [{"id": "t", "input": "q", "assertions": [
        {"include": "base", "type": "contains"}]}]}))) == 1
