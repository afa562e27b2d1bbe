"""What AgentV 4.42.4's loader fills in for a test's '{{ name }}' beyond its vars: the members every JavaScript
mapping inherits, and a path of 'input_files' that no var fills in (looked up as written)."""
from __future__ import annotations

import pytest

from agentv_runner import load_tests
from agreement import run_written, write_suite
from clirun import run_concise

INHERITED = """\
tests:
  - id: partial
    vars: {x: 1}
    input: "A {{ constructor }} B {{ __proto__ }} C {{ constructor.name }}"
    criteria: ok
  - id: whole
    vars: {x: 1}
    input: "{{ toString }}"
    criteria: ok
  - id: path
    vars: {x: 1}
    input: hi
    input_files: ["{{ valueOf }}.txt"]
    criteria: ok
"""


def test_a_name_every_mapping_inherits_is_filled_in_as_javascript_does(tmp_path):
    """The loader's lookup (interpolation.ts lookupTemplateVar, `vars[name]`) finds a function in any mapping:
    'undefined' within text, no value as a whole (the test is skipped); '__proto__' is an empty mapping. A
    function has no members of its own, so 'constructor.name' is left as written. A path it makes is looked up
    as made (EV401)."""
    inherits = "names no variable of the test's vars but what every JavaScript mapping inherits, so the runner"
    assert run_concise(write_suite(tmp_path, INHERITED), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:4:15: EV406 [warning] '{{{{ constructor }}}}' {inherits} fills in 'undefined'\n"
        f"a.eval.yaml:4:35: EV406 [warning] '{{{{ __proto__ }}}}' {inherits} fills in '{{}}'\n"
        "a.eval.yaml:4:53: EV406 [warning] '{{ constructor.name }}' names no variable of the test's vars, so the runner "
        "sends it as written\n"
        "a.eval.yaml:8:12: EV105 [error] with the test's vars filled in, 'input' has no value; there is nothing to send\n"
        f"a.eval.yaml:8:13: EV406 [warning] '{{{{ toString }}}}' {inherits} leaves the value empty\n"
        "a.eval.yaml:13:19: EV401 [error] input file 'undefined.txt' not found (looked in: ./); the runner leaves it out "
        "of the input it sends (warning 'File not found')\n"), "")


@pytest.mark.runner
def test_the_loader_fills_in_what_every_mapping_inherits(tmp_path):
    loaded = load_tests(write_suite(tmp_path, INHERITED), ["a.eval.yaml"])["a.eval.yaml"]
    partial, path = loaded["tests"]
    assert partial["input"] == [{"role": "user", "content": "A undefined B {} C {{ constructor.name }}"}]
    assert (path["id"], path["input"]) == ("path", [{"role": "user", "content": [{"type": "text", "value": "hi"}]}])
    skipped, not_found = loaded["logs"]
    assert skipped.startswith("Error: Skipping incomplete test: whole.")
    assert not_found.startswith("Warning: File not found: undefined.txt\n")


UNFILLED = """\
input_files: ["notes/{{ topic }}.md"]
tests:
  - {id: filled, vars: {topic: maths}, input: hi, criteria: ok}
  - {id: other, vars: {subject: maths}, input: hi, criteria: ok}
  - {id: none, input: hi, criteria: ok}
  - {id: own, vars: {topic: maths}, input: hi, criteria: ok, input_files: ["notes/{{ topc }}.md"]}
"""


def test_an_input_file_no_var_fills_in_is_looked_up_as_written(tmp_path):
    """The loader fills the suite's and a test's input files from the test's vars (yaml-parser.ts), leaves an
    unknown name as written, and drops the file it then does not find. The suite's path is reported once, naming
    the first test whose vars do not fill it."""
    assert run_concise(write_suite(tmp_path, UNFILLED, (("notes/maths.md", "x\n"),)), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:15: EV401 [error] input file 'notes/{{ topic }}.md' not found (looked in: ./); the vars of test "
        "'other' do not fill in '{{ topic }}', so the runner looks for a file of that name and leaves it out of that "
        "test's input (warning 'File not found')\n"
        "a.eval.yaml:6:76: EV401 [error] input file 'notes/{{ topc }}.md' not found (looked in: ./); no var of the test "
        "fills in '{{ topc }}', so the runner looks for a file of that name and leaves it out of the input it sends "
        "(warning 'File not found')\n"), "")


@pytest.mark.runner
def test_the_loader_drops_an_input_file_no_var_fills_in(tmp_path):
    loaded = load_tests(write_suite(tmp_path, UNFILLED, (("notes/maths.md", "x\n"),)), ["a.eval.yaml"])["a.eval.yaml"]
    files = {test["id"]: [block.get("value") for message in test["input"] if isinstance(message["content"], list)
                          for block in message["content"] if block.get("type") == "file"] for test in loaded["tests"]}
    assert files == {"filled": ["notes/maths.md"], "other": [], "none": [], "own": []}
    assert sorted({line.split("\n")[0] for line in loaded["logs"]}) == [
        "Warning: File not found: notes/{{ topc }}.md", "Warning: File not found: notes/{{ topic }}.md"]


EMPTY_VARS = """\
input: "Context: {{ toString }}"
tests:
  - {id: t, input: "Say {{ valueOf }} and {{ name }}", criteria: ok, vars: {}}
  - {id: none, input: "Say {{ valueOf }}", criteria: ok}
"""


def test_empty_vars_fill_in_what_every_mapping_inherits(tmp_path):
    """The loader fills vars in whenever 'vars' is a mapping, an empty one too (yaml-parser.ts interpolateRawEvalCase:
    an empty object is true in JavaScript), the suite's input included; without vars it fills nothing in."""
    inherits = "what every JavaScript mapping inherits"
    assert run_concise(write_suite(tmp_path, EMPTY_VARS), "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:1:18: EV406 [warning] '{{{{ toString }}}}' names no variable of the vars of test 't', so the "
        f"runner fills in 'undefined' for that test, {inherits}\n"
        f"a.eval.yaml:3:25: EV406 [warning] '{{{{ valueOf }}}}' names no variable of the test's vars but {inherits}, so "
        "the runner fills in 'undefined'\n"
        "a.eval.yaml:3:43: EV406 [warning] '{{ name }}' names no variable of the test's vars, so the runner sends it as "
        "written\n"), "")


@pytest.mark.runner
def test_the_loader_fills_in_empty_vars(tmp_path):
    loaded = load_tests(write_suite(tmp_path, EMPTY_VARS), ["a.eval.yaml"])["a.eval.yaml"]
    assert [[message["content"] for message in test["input"]] for test in loaded["tests"]] == [
        ["Context: undefined", "Say undefined and {{ name }}"], ["Context: {{ toString }}", "Say {{ valueOf }}"]]


SUITE_NESTED = """\
input: "Context: {{ a }}"
tests:
  - {id: t1, criteria: c, input: hi, vars: {a: "see {{ b }}", b: x}}
"""


def test_a_var_in_the_value_of_a_var_the_suites_input_uses_is_a_warning(tmp_path):
    assert run_concise(write_suite(tmp_path, SUITE_NESTED), "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:3:53: EV406 [warning] '{{ b }}' in the value of var 'a' is not filled in: the runner fills a "
        "test's vars in once, not into their own values, so the test gets it as written\n"), "")


@pytest.mark.runner
def test_the_loader_fills_the_suites_input_with_a_vars_value_as_written(tmp_path):
    (test,) = load_tests(write_suite(tmp_path, SUITE_NESTED), ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert [message["content"] for message in test["input"]] == ["Context: see {{ b }}", "hi"]



# a suite's default grader naming a var of its tests (whose value the answer holds): the loader fills in none
SUITE_GRADER = ("assertions:\n  - {type: contains, value: '{{ word }}'}\ntests:\n"
                "  - {id: one, vars: {word: answer}, input: 'Say {{ word }}', criteria: c}\n"
                "  - {id: two, vars: {word: answer}, input: 'Say {{ word }}', criteria: c}\n"
                "  - {id: own, vars: {word: answer}, input: 'Say {{ word }}', criteria: c, execution: {skip_defaults: true}}\n")


def test_a_var_in_a_suites_default_grader_is_not_filled_in(tmp_path):
    write_suite(tmp_path, SUITE_GRADER)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:2:30: EV406 [warning] '{{ word }}' is not filled in: the runner fills a test's vars only into its "
        "criteria, input, input_files, expected_output and each turn's input and expected_output, not into the suite's "
        "graders, so the grader gets the text as written\n"), "")


@pytest.mark.runner
def test_the_runner_grades_with_a_suites_default_grader_as_written(tmp_path):
    ran = run_written(tmp_path, SUITE_GRADER)
    assert (ran["error"], ran["scores"]) == (None, {"one": 0, "two": 0, "own": 1})


# a var whose key is no name the loader fills in ('-' is no letter of a name)
UNNAMED = "tests:\n  - id: greet\n    vars: {user-name: Alice, user_name: Bob}\n" \
          "    input: 'Say hello to {{ user-name }} and {{ user_name }}'\n    criteria: c\n"


def test_a_var_whose_key_is_no_name_the_loader_fills_is_not_filled_in(tmp_path):
    write_suite(tmp_path, UNNAMED)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:4:26: EV406 [warning] '{{ user-name }}' is not filled in: the runner fills in only a name of "
        "letters, digits, '_' and '.' that starts with a letter or '_', so the test gets the text as written; rename "
        "the var 'user-name'\n"), "")


@pytest.mark.runner
def test_the_loader_fills_in_only_a_name(tmp_path):
    (test,) = load_tests(write_suite(tmp_path, UNNAMED), ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert test["input"][0]["content"] == "Say hello to {{ user-name }} and Bob"


# an environment reference of a name of the test's vars, where '{{ name }}' was meant
DOLLAR = "tests:\n  - id: greet\n    criteria: Greets the person\n    input: Say hello to ${{ name }}\n    vars: {name: Ada}\n"


def test_an_environment_reference_of_a_vars_name_is_reported(tmp_path):
    write_suite(tmp_path, DOLLAR)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:4:25: EV406 [warning] '${{ name }}' is an environment reference, not the test's var 'name': the "
        "runner fills it in from the environment (empty when 'name' is not set there) before it fills in the vars; "
        "write '{{ name }}'\n"), "")


@pytest.mark.runner
def test_the_runner_fills_an_environment_reference_from_the_environment_not_the_vars(tmp_path):
    assert [item["question"] for item in run_written(tmp_path, DOLLAR)["sent"]] == ["Say hello to"]


NULL_VAR = "tests:\n  - id: greet\n    criteria: Greets {{ name }}\n    input: Say hello to {{ name }}\n    vars:\n      name:\n"


def test_a_null_var_in_text_is_reported(tmp_path):
    write_suite(tmp_path, NULL_VAR)
    null = "names the test's var 'name', which is null (written with no value), so the runner fills in the text 'null'"
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:3:22: EV406 [warning] '{{{{ name }}}}' {null}; give it a value\n"
        f"a.eval.yaml:4:25: EV406 [warning] '{{{{ name }}}}' {null}; give it a value\n"), "")


@pytest.mark.runner
def test_the_runner_fills_a_null_var_into_text_as_null(tmp_path):
    assert [item["question"] for item in run_written(tmp_path, NULL_VAR)["sent"]] == ["Say hello to null"]


VARS_MESSAGES = """\
tests:
  - id: whole
    vars: {expected: {vendor: ACME}}
    input: Extract the vendor.
    expected_output: "{{ expected }}"
    assertions: [{type: field-accuracy, fields: [{path: vendor, match: exact}]}]
  - id: text
    vars: {expected: '{"vendor": "ACME"}'}
    input: Extract the vendor.
    expected_output: "{{ expected }}"
    assertions: [{type: field-accuracy, fields: [{path: vendor, match: exact}]}]
  - id: none
    vars: {expected: no json here}
    input: Extract the vendor.
    expected_output: "{{ expected }}"
    assertions: [{type: field-accuracy, fields: [{path: vendor, match: exact}]}]
  - id: chat
    vars:
      convo:
        - {role: user, content: Can I get a refund?}
        - {role: system, content: You are a support agent.}
    input: "{{ convo }}"
    criteria: cites the 30 day window
"""


def test_an_expected_output_and_an_input_the_vars_make_are_checked_as_made(tmp_path):
    """EV340 reads the expected fields that a whole-value var (a mapping, or JSON text) gives 'expected_output', and
    EV210 the messages a var gives 'input', each reported at the value written."""
    assert run_concise(write_suite(tmp_path, VARS_MESSAGES), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:15:22: EV340 [error] with the test's vars filled in, the test has a field-accuracy grader, but its "
        "'expected_output' holds no JSON of the expected fields: the grader reads them from the last assistant message "
        "that holds JSON, finds none, and scores 0; give the expected fields as a mapping (or as JSON text)\n"
        "a.eval.yaml:22:12: EV210 [error] with the test's vars filled in, system message after a user message: the "
        "runner sends only the system messages that open the input as the system prompt, and this one as an "
        "assistant's turn starting '@[System]:'; move it to the start of the input\n"), "")


@pytest.mark.runner
def test_the_loader_fills_expected_output_and_input_from_whole_value_vars(tmp_path):
    loaded = load_tests(write_suite(tmp_path, VARS_MESSAGES), ["a.eval.yaml"])["a.eval.yaml"]
    tests = {test["id"]: test for test in loaded["tests"]}
    assert [message["content"] for message in tests["whole"]["expected_output"]] == [{"vendor": "ACME"}]
    assert [message["content"] for message in tests["text"]["expected_output"]] == ['{"vendor": "ACME"}']
    assert [message["role"] for message in tests["chat"]["input"]] == ["user", "system"]
