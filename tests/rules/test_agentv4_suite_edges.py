"""What the runner accepts beside the checks of a 4.42 suite's workspace, hooks, dependencies and composites, each
checked against what AgentV 4.42.4's loader makes of the same files: environment references, a first test's own
workspace, hooks that are off, tests from another file, a dependency on a test the loader skips."""
from __future__ import annotations

import json
import subprocess

import pytest

from agentv_runner import HERE, load_tests, require_runner, run_suite
from agreement import model_tests, run_written, runner_tests, write_suite
from clirun import run_concise

SUITE = """\
workspace:
  mode: static
  path: /srv/ws
  isolation: per_test
  env: null
  repos:
    - {repo: x, path: app, commit: "${{ SHA }}", base_commit: abc}
  hooks:
    before_all:
      command: [bash, setup.sh, "${{ DB_URL }}", "s/{{api_key}}/k/"]
    before_each:
      command: null
      script: [node, scripts/gone.mjs]
    after_all:
      command: [python3, /usr/local/bin/tool.py]
tests:
  - id: first
    input: hi
    criteria: c
    workspace: {isolation: shared}
  - id: second
    input: hi
    depends_on: [1, first, third]
    turns: []
    assertions:
      - name: comp
        type: composite
        aggregator: {type: weighted_average}
        assertions: []
      - name: comp2
        type: composite
        aggregator: {type: weighted_average}
        assertions: [{name: m, type: word_count}]
      - {name: g, type: code-grader, command: [bash, -c, "python3 check.py"]}
  - id: third
    input: hi
"""
OFF = """\
workspace:
  hooks:
    enabled: false
    before_all: {command: node scripts/missing.mjs}
tests:
  - {id: main, input: hi, criteria: c}
  - file://cases/more.yaml
"""


def _repo(tmp_path):
    (tmp_path / ".git").mkdir()
    for path, text in (("evals/a.eval.yaml", SUITE), ("evals/b.eval.yaml", OFF), (".agentv/assertions/word_count.ts", ""),
                       ("evals/cases/more.yaml", "- {id: follow, criteria: c, input: hi, depends_on: [main]}\n"),
                       ("evals/d.jsonl", '{"id": "b", "criteria": "c", "input": "hi", "depends_on": ["zz"]}\n')):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


def test_only_what_the_runner_fails_on_or_drops_is_an_error(tmp_path):
    """Not reported: a commit the environment gives, '${{ NAME }}' and a '{{name}}' that is no near miss in a hook's
    command, a null 'env', a script at an absolute path, hooks that are off, the mode and isolation a first test's
    own workspace replaces, a dependency on a test of another file, a JSONL line's 'depends_on' (not read: EV115),
    'turns: []', a shell's script. A hook's null 'command' gives way to its 'script'; a composite member of a custom
    type is dropped, whatever its file."""
    assert run_concise(_repo(tmp_path), "--no-cache", ".") == (1, (
        "evals/a.eval.yaml:10:23: EV408 [error] hook script file 'setup.sh' not found in evals/ (the folder the command "
        "runs in); the hook fails when the runner runs it\n"
        "evals/a.eval.yaml:13:22: EV408 [error] hook script file 'scripts/gone.mjs' not found in evals/ (the folder the "
        "command runs in); the hook fails when the runner runs it\n"
        "evals/a.eval.yaml:23:18: EV110 [error] an item of 'depends_on' must be a string, found 1 (a number); the runner "
        "drops it\n"
        "evals/a.eval.yaml:23:28: EV122 [error] 'depends_on' names 'third', a test the runner skips (see why there); "
        "the run fails before any test\n"
        "evals/a.eval.yaml:29:21: EV330 [error] composite 'assertions' is empty; the runner drops the composite, which "
        "has no member\n"
        "evals/a.eval.yaml:33:9: EV330 [error] the loader drops every member of 'assertions'; the runner drops the "
        "composite\n"
        "evals/a.eval.yaml:33:38: EV301 [error] composite member type 'word_count' is no built-in kind; the runner "
        "drops a member of a custom type\n"
        "evals/a.eval.yaml:35:5: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
        "runner skips it as incomplete\n"
        "evals/d.jsonl:1:45: EV115 [error] 'depends_on' is not read in a JSONL dataset line: the runner reads it only in "
        "a test of a YAML suite, so what it holds is dropped\n"), "")


@pytest.mark.runner
def test_the_loader_reads_these_as_evallint_does(tmp_path):
    loaded = load_tests(_repo(tmp_path), ["evals/a.eval.yaml", "evals/b.eval.yaml"], env={"SHA": "abc", "DB_URL": "u"})
    suite, off = loaded["evals/a.eval.yaml"], loaded["evals/b.eval.yaml"]
    assert (suite["error"], off["error"]) == (None, None)
    first, second = suite["tests"]
    workspace = first["workspace"]
    assert (workspace["isolation"], workspace["repos"], "env" in workspace) == (
        "shared", [{"base_commit": "abc", "commit": "abc", "path": "app", "repo": "x"}], False)
    assert workspace["hooks"]["before_all"]["command"] == ["bash", "setup.sh", "u", "s/{{api_key}}/k/"]
    assert workspace["hooks"]["before_each"]["command"] == ["node", "scripts/gone.mjs"]
    assert second["depends_on"] == ["first", "third"] and [grader["name"] for grader in second["assertions"]] == ["g"]
    assert suite["logs"][-1].startswith("Error: Skipping incomplete test: third.")
    assert "Warning: Skipping composite evaluator 'comp' in 'second': no valid member evaluators" in suite["logs"]
    assert [(test["id"], test.get("depends_on")) for test in off["tests"]] == [("main", None), ("follow", ["main"])]


VARS = """\
tests:
  - id: v
    criteria: mentions the city
    input: "Tell me about {{ town }} and {{ city }}, not {{ town }} nor ${{ github.ref }}"
    vars: {city: Paris}
    assertions:
      - type: contains
        value: "{{ city }}"
      - type: llm-grader
        prompt: "Does {{ output }} mention {{ city }}?"
  - id: w
    criteria: c
    input: hi
    vars: {city: Rome}
    evaluators: [{type: contains, value: "{{ city }}"}]
  - id: plain
    criteria: "Prints {{ placeholder }} unchanged"
    input: hi
"""


def test_a_name_a_tests_vars_do_not_fill_is_a_warning(tmp_path):
    """A name the vars do not hold where they are filled (once a string), and one they hold in a grader, where they
    are not; a grader's own variables ('output'), another tool's '${{ ... }}' and a test without vars are left
    alone."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text(VARS)
    not_filled = ("is not filled in: the runner fills a test's vars only into its criteria, input, input_files, "
                  "expected_output and each turn's input and expected_output, so the grader gets the text as written")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:4:27: EV406 [warning] '{{ town }}' names no variable of the test's vars, so the runner sends it "
        "as written\n"
        f"a.eval.yaml:8:17: EV406 [warning] '{{{{ city }}}}' {not_filled}\n"
        f"a.eval.yaml:10:44: EV406 [warning] '{{{{ city }}}}' {not_filled}\n"
        f"a.eval.yaml:15:43: EV406 [warning] '{{{{ city }}}}' {not_filled}\n"), "")


@pytest.mark.runner
def test_the_loader_fills_a_tests_vars_into_its_input_and_not_into_its_graders(tmp_path):
    (tmp_path / "a.eval.yaml").write_text(VARS)
    test = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"][0]
    assert test["input"] == [{"content": "Tell me about {{ town }} and Paris, not {{ town }} nor ${{ github.ref }}",
                              "role": "user"}]
    assert [grader.get("value", grader.get("prompt")) for grader in test["assertions"]] == [
        "{{ city }}", "Does {{ output }} mention {{ city }}?"]
    assert load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"][1]["assertions"][0]["value"] == "{{ city }}"


WORKSPACE_FILES = (("ws/w1.yaml", "workspace:\n  template: ../tmpl\n"),
                   ("ws/w2.yaml", "static_path: /x\n"),
                   ("ws/w3.yaml", "template: tmpl\nhooks:\n  before_all:\n    command: node scripts/setup.mjs\n"
                                  "    cwd: scripts\nrepos:\n  - {path: ./r, source: https://github.com/x/y.git}\n"),
                   ("ws/w4.yaml", "template: tmpl\nhooks:\n  before_all: {command: \"node s.mjs {{workspace_path}}\"}\n"),
                   ("ws/w5.yaml", "template: ${{ WS_TEMPLATE }}\nhooks:\n  before_all: {command: [node, s.mjs], "
                                  "cwd: \"${{ TOOLS }}\"}\n"),
                   ("ws/w6.yaml", "isolation: shared\nisolation: per_test\n"),
                   ("ws/w7.yaml", "workspace:\n  isolation: shared\nhooks: {}\n"),
                   ("ws/tmpl/.keep", ""), ("ws/s.mjs", ""))


def _workspace_files(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    for path, text in WORKSPACE_FILES:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    for i in range(1, 8):
        (tmp_path / "evals" / f"s{i}.eval.yaml").write_text(
            f"workspace: ../ws/w{i}.yaml\ntests:\n  - {{id: t, input: hi, criteria: c}}\n")
    return tmp_path


def test_a_workspace_files_mistakes_are_reported_where_a_suite_names_it(tmp_path):
    """Read as a workspace written in place, its paths from its own folder, what the environment gives not looked up
    (w4 and w5 are right); what the runner's YAML parser refuses; a wrapper beside a setting it does not keep."""
    assert run_concise(_workspace_files(tmp_path), "--no-cache", "evals") == (1, (
        "evals/s1.eval.yaml:1:12: EV110 [error] in workspace file '../ws/w1.yaml': its settings are under a "
        "'workspace:' key, where the runner does not look: it rejects the suite (write them at the top level)\n"
        "evals/s2.eval.yaml:1:12: EV115 [error] in workspace file '../ws/w2.yaml': 'static_path' in workspace is a "
        "removed key and the runner rejects the file; write 'path'\n"
        "evals/s3.eval.yaml:1:12: EV115 [error] in workspace file '../ws/w3.yaml': 'source' in a workspace repo is a "
        "removed key and the runner rejects the file; write 'repo'\n"
        "evals/s3.eval.yaml:1:12: EV407 [error] in workspace file '../ws/w3.yaml': hook cwd 'scripts' names no folder "
        "(looked in: ws/); the hook fails to start when the runner runs it\n"
        "evals/s6.eval.yaml:1:12: EV003 [error] in workspace file '../ws/w6.yaml': duplicate key 'isolation' (first "
        "defined on line 1); the runner rejects files with duplicate keys\n"
        "evals/s7.eval.yaml:1:12: EV110 [error] in workspace file '../ws/w7.yaml': its settings are under a "
        "'workspace:' key, where the runner does not look: it rejects the suite (write them at the top level)\n"), "")


@pytest.mark.runner
def test_the_loader_rejects_those_workspace_files_and_reads_the_paths_of_one_from_its_folder(tmp_path):
    files = [f"evals/s{i}.eval.yaml" for i in range(1, 8)]
    loaded = load_tests(_workspace_files(tmp_path), files, env={"WS_TEMPLATE": "tmpl", "TOOLS": "tmpl"})
    assert [loaded[f]["error"].split(".")[0] for f in files[:3]] == [
        "Invalid workspace file format: ws/w1", "workspace", "workspace"]
    assert "static_path has been removed" in loaded[files[1]]["error"]
    assert "repos[].source has been removed" in loaded[files[2]]["error"]
    workspace = loaded[files[3]]["tests"][0]["workspace"]
    assert (workspace["template"], workspace["workspaceFileDir"]) == ("ws/tmpl", "ws")
    assert loaded[files[4]]["tests"][0]["workspace"]["template"] == "ws/tmpl"
    assert loaded[files[5]]["error"].startswith("Map keys must be unique")
    assert loaded[files[6]]["error"].startswith("Invalid workspace file format: ws/w7.yaml")


YAML_11 = "%YAML 1.1\n---\nexecution:\n  cache: on\ntests:\n  - {id: t, input: hi, criteria: c}\n"


def test_a_value_a_yaml_1_1_directive_changes_gets_only_ev014(tmp_path):
    """The rules read 'on' as the text YAML 1.2 makes of it; the runner follows the directive (below)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text(YAML_11)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:4:10: EV014 [error] 'on' is the boolean true under YAML 1.1, which the '%YAML 1.1' directive "
        "makes the runner use, and a string under YAML 1.2; quote it, or remove the directive\n"), "")


@pytest.mark.runner
def test_the_loader_reads_a_yaml_1_1_word_as_its_boolean_under_the_directive(tmp_path):
    (tmp_path / "a.eval.yaml").write_text(YAML_11)
    assert load_tests(tmp_path, ["a.eval.yaml"], suite=True)["a.eval.yaml"]["suite"] == {"cacheConfig": {"enabled": True}}


# YAML 1.2's octal number, which YAML 1.1 reads as text: the loader skips the test for a weight that is no number
OCTAL_11 = "%YAML 1.1\n---\ntests:\n  - {id: t, input: hi, assertions: [{type: contains, value: answer, weight: 0o12}]}\n"


def test_a_yaml_1_2_octal_number_under_a_yaml_1_1_directive_is_an_error(tmp_path):
    assert run_concise(write_suite(tmp_path, OCTAL_11), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:4:77: EV014 [error] '0o12' is a string under YAML 1.1, which the '%YAML 1.1' directive makes the "
        "runner use, and the number 10 under YAML 1.2; write 10, or remove the directive\n"), "")


@pytest.mark.runner
def test_the_loader_reads_a_yaml_1_2_octal_number_as_text_under_a_yaml_1_1_directive(tmp_path):
    loaded = load_tests(write_suite(tmp_path, OCTAL_11), ["a.eval.yaml"])["a.eval.yaml"]
    assert loaded["tests"] == [] and "Invalid weight for evaluator 'contains-answer' in 't': must be a number" in \
        loaded["logs"][0]


BLIND = """\
tests:
  - id: t
    input: hi
    criteria: c
    assertions:
      - type: llm-grader
        prompt: "The user asked: {{ input }}. Was it polite? Criteria: {{ criteria }}"
      - type: llm-grader
        prompt: "Is {{ output }} polite?"
      - type: llm-grader
        prompt: "Does it say what {{ expected_output }} says?"
      - type: llm-grader
        prompt: "Is this change safe? {{ file_changes }}"
      - type: llm-grader
        prompt: Check it is polite
"""


def test_an_inline_prompt_template_without_the_answer_is_an_error(tmp_path):
    """A prompt with a template variable is the whole grader prompt (builtin-graders.ts, prompt-resolution.ts
    containsTemplateVariables); one without is the criteria, and one with '{{ output }}' shows the answer ('{{
    file_changes }}' the agent's changes). One with '{{ expected_output }}' alone shows what the answer should say."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text(BLIND)
    then = ("but not '{{ output }}': with a template variable it is the whole grader prompt, so the grader never sees "
            "the answer; add '{{ output }}', or write it without variables (it is then the criteria)\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:7:17: EV405 [error] inline prompt uses '{{{{ criteria }}}}' and '{{{{ input }}}}' {then}"
        f"a.eval.yaml:11:17: EV405 [error] inline prompt uses '{{{{ expected_output }}}}' {then}"), "")


# whether the grader prompt AgentV 4.42.4 makes of each template holds the answer or the agent's changes
ASSEMBLED = """
import { assembleLlmGraderPrompt } from "@agentv/core";
const [test, ...templates] = JSON.parse(process.argv[1]);
for (const template of templates) {
  const prompt = assembleLlmGraderPrompt({evalCase: test, candidate: "THE-ANSWER", promptInputs: {question: "hi"},
                                          fileChanges: "THE-CHANGES", graderTemplateOverride: template});
  console.log(/THE-ANSWER|THE-CHANGES/.test(JSON.stringify(prompt)));
}
"""


@pytest.mark.runner
def test_the_grader_prompt_the_runner_makes_of_such_a_template_lacks_the_answer(tmp_path):
    (tmp_path / "a.eval.yaml").write_text(BLIND)
    test = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"][0]
    prompts = [grader["prompt"] for grader in test["assertions"][:4]]
    done = subprocess.run([require_runner(), "--input-type=module", "-e", ASSEMBLED, json.dumps([test, *prompts])],
                          capture_output=True, text=True, timeout=120, cwd=HERE, check=True)
    assert done.stdout.split() == ["false", "true", "false", "true"]


SUITE_INPUT = ("input: \"Talk about {{ topic }} please\"\n"
               "tests:\n"
               "  - {id: t1, criteria: c, input: hi, vars: {topic: cats}}\n"
               "  - {id: t2, criteria: c, input: hi, vars: {other: x}}\n")


def test_a_name_of_the_suites_input_a_tests_vars_do_not_hold_is_a_warning(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text(SUITE_INPUT)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:1:20: EV406 [warning] '{{ topic }}' names no variable of the vars of test 't2', so the runner "
        "sends it to that test as written\n"), "")


@pytest.mark.runner
def test_the_loader_fills_the_suites_input_with_each_tests_vars(tmp_path):
    (tmp_path / "a.eval.yaml").write_text(SUITE_INPUT)
    tests = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert [test["input"][0]["content"] for test in tests] == ["Talk about cats please", "Talk about {{ topic }} please"]


ENV = """\
workspace:
  env: {required_commands: [no-such-command-xyz]}
tests:
  - {id: first, input: hi, criteria: c, workspace: {isolation: shared}}
  - {id: second, input: hi, criteria: c, workspace: {env: {required_commands: [git]}}}
"""
ENV_ALONE = """\
tests:
  - {id: skipped, input: hi}
  - {id: first, input: hi, criteria: c, workspace: {env: {required_commands: [git]}}}
  - {id: second, input: hi, criteria: c, workspace: {env: {required_commands: [jq]}}}
"""


ENV_KEPT = """\
workspace:
  env: {required_commands: [jq]}
tests:
  - {id: skipped, input: [], criteria: c, workspace: {isolation: shared}}
  - {id: no-message, input: [{role: user}], criteria: c, workspace: {isolation: shared}}
  - {id: first, input: hi, criteria: c, workspace: {hooks: {}}}
"""


def test_a_workspace_env_the_run_never_checks_is_an_error(tmp_path):
    """The run checks the 'env' of the first test's workspace only (workspace/setup.ts), which the loader merges
    from the suite's and the test's own, leaving 'env' out (yaml-parser.ts mergeWorkspaceConfigs); the first test
    is the first the loader keeps, and a workspace that sets nothing the loader keeps is none."""
    write_suite(tmp_path, ENV)
    (tmp_path / "b.eval.yaml").write_text(ENV_ALONE)
    (tmp_path / "c.eval.yaml").write_text(ENV_KEPT)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml", "b.eval.yaml", "c.eval.yaml") == (1, (
        "a.eval.yaml:2:3: EV123 [error] the suite's workspace 'env' is never checked: the first test has a workspace "
        "of its own, which the runner merges with this one, leaving 'env' out, and it checks only the first test's "
        "workspace; move that test's workspace settings here\n"
        "a.eval.yaml:5:54: EV123 [error] this test's workspace 'env' is never checked: the runner merges this "
        "workspace with the suite's, leaving 'env' out; set 'env' in the suite's workspace, and give the first test no "
        "workspace of its own\n"
        "b.eval.yaml:2:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the runner "
        "skips it as incomplete\n"
        "b.eval.yaml:4:54: EV123 [error] this test's workspace 'env' is never checked: the runner checks only the "
        "first test's workspace, before the run; set it in the first test's workspace (or in a workspace of the "
        "suite's)\n"
        "c.eval.yaml:4:26: EV105 [error] 'input' is an empty list; there is nothing to send\n"
        "c.eval.yaml:5:31: EV202 [error] message has no 'content' (a string, a mapping or a list of content blocks) "
        "and no non-empty 'tool_calls'\n"), "")


ENV_FILE = ("ws.yaml", "isolation: shared\nenv: {required_commands: [no-such-command-xyz]}\n")
# the suites that name it, each with whether the run checks its 'env'
ENV_FILE_SUITES = {
    "workspace: ws.yaml\ntests:\n  - {id: first, input: hi, criteria: c, workspace: {isolation: per_test}}\n": False,
    "workspace: {isolation: shared}\ntests:\n  - {id: first, input: hi, criteria: c, workspace: ws.yaml}\n": False,
    "tests:\n  - {id: first, input: hi, criteria: c}\n  - {id: second, input: hi, criteria: c, workspace: ws.yaml}\n": False,
    "workspace: ws.yaml\ntests:\n  - {id: first, input: hi, criteria: c}\n": True,
    "tests:\n  - {id: first, input: hi, criteria: c, workspace: ws.yaml}\n"
    "  - {id: second, input: hi, criteria: c, workspace: ./ws.yaml}\n": True,
}


def test_a_workspace_files_env_the_run_never_checks_is_an_error_where_the_file_is_named(tmp_path):
    suites = list(ENV_FILE_SUITES)
    write_suite(tmp_path, suites[0], (ENV_FILE,))
    for name, text in zip("bcde", suites[1:]):
        (tmp_path / f"{name}.eval.yaml").write_text(text)
    assert run_concise(tmp_path, "--no-cache", *(f"{name}.eval.yaml" for name in "abcde")) == (1, (
        "a.eval.yaml:1:12: EV123 [error] in workspace file 'ws.yaml': 'env' is never checked: the first test has a "
        "workspace of its own, which the runner merges with this one, leaving 'env' out, and it checks only the first "
        "test's workspace; move that test's workspace settings here\n"
        "b.eval.yaml:3:52: EV123 [error] in workspace file 'ws.yaml': 'env' is never checked: the runner merges this "
        "workspace with the suite's, leaving 'env' out; set 'env' in the suite's workspace, and give the first test no "
        "workspace of its own\n"
        "c.eval.yaml:3:53: EV123 [error] in workspace file 'ws.yaml': 'env' is never checked: the runner checks only "
        "the first test's workspace, before the run; set it in the first test's workspace (or in a workspace of the "
        "suite's)\n"), "")


@pytest.mark.runner
def test_the_run_checks_a_workspace_files_env_only_as_the_first_tests_workspace(tmp_path):
    for text, checked in ENV_FILE_SUITES.items():
        ran = run_written(tmp_path, text, (ENV_FILE,))
        assert ran["error"].startswith("Preflight checks failed") if checked else ran["error"] is None, text


@pytest.mark.runner
def test_the_run_checks_the_env_of_the_first_tests_workspace_only(tmp_path):
    ran = run_written(tmp_path, ENV)
    assert (ran["error"], ran["scores"]) == (None, {"first": 1, "second": 1})
    for text in (ENV.replace(", workspace: {isolation: shared}", ""), ENV_KEPT.replace("[jq]", "[no-such-command-xyz]")):
        ran = run_written(tmp_path, text)
        assert ran["error"].startswith("Preflight checks failed — missing dependencies:") and ran["scores"] == {}



# the first test is one the loader skips for a grader's weight, so the second is first, and the suite's 'env' is checked
FIRST_SKIPPED = ("workspace: {env: {required_commands: [no-such-command-here]}}\ntests:\n"
                 "  - id: skipped\n    input: hi\n    workspace: {hooks: {before_each: {command: [sh, -c, 'cat']}}}\n"
                 "    assertions: [{type: contains, value: answer, weight: heavy}]\n"
                 "  - {id: first, input: hi, criteria: ok}\n")


def test_a_test_the_loader_skips_for_a_graders_weight_is_not_the_first(tmp_path):
    """A composite member's weight is taken as a grader's is (loaders/grader-parser.ts parses each member)."""
    (tmp_path / "b.eval.yaml").write_text(FIRST_SKIPPED.replace(
        "[{type: contains, value: answer, weight: heavy}]",
        "[{type: composite, aggregator: {type: weighted_average}, assertions: [{name: m, type: contains, value: "
        "answer, weight: -1}]}]"))
    write_suite(tmp_path, FIRST_SKIPPED)
    assert run_concise(tmp_path, "--no-cache", "b.eval.yaml") == (1, (
        "b.eval.yaml:6:136: EV305 [error] assertion 'weight' must be >= 0, found -1; the runner skips the test\n"), "")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:58: EV304 [error] assertion 'weight' must be a finite number >= 0, found 'heavy'; the runner skips "
        "the test\n"), "")


@pytest.mark.runner
def test_the_runner_checks_the_env_of_the_first_test_it_keeps(tmp_path):
    ran = run_written(tmp_path, FIRST_SKIPPED)
    assert "no-such-command-here" in ran["error"]
    assert "Error: Skipping test 'skipped': Invalid weight for evaluator 'contains-answer' in 'skipped': must be a " \
           "number" in ran["logs"]


# graders the loader drops, for what they lack, before it reads their weight: their tests are kept
DROPPED_FIRST = ("tests:\n"
                 "  - {id: no-value, input: hi, criteria: c, assertions: [{type: contains, weight: -1}]}\n"
                 "  - {id: no-command, input: hi, criteria: c, assertions: [{type: code-grader, weight: -1}]}\n"
                 "  - {id: json, input: hi, criteria: c, assertions: [{type: is-json, weight: -1}]}\n"
                 "  - {id: rubrics, input: hi, criteria: c, assertions: [{type: rubrics, weight: -1, criteria: [{id: x}, 5]}]}\n"
                 "  - {id: composite, input: hi, criteria: c, assertions: [{type: composite, weight: -1, aggregator: "
                 "{type: weighted_average}, assertions: [5]}]}\n")


def test_a_bad_weight_of_a_grader_the_loader_drops_skips_no_test(tmp_path):
    write_suite(tmp_path, DROPPED_FIRST)
    unread = "the runner drops the assertion before it reads its weight (and skips the test once it keeps it)"
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:58: EV110 [error] contains assertion has no 'value'; the runner drops it\n"
        f"a.eval.yaml:2:82: EV305 [error] assertion 'weight' must be >= 0, found -1; {unread}\n"
        "a.eval.yaml:3:60: EV320 [error] code-grader assertion has no 'command' (an argv list such as [\"python\", "
        "\"check.py\"]); the runner drops it\n"
        f"a.eval.yaml:3:87: EV305 [error] assertion 'weight' must be >= 0, found -1; {unread}\n"
        "a.eval.yaml:4:77: EV305 [error] assertion 'weight' must be >= 0, found -1; the runner skips the test\n"
        f"a.eval.yaml:5:80: EV305 [error] assertion 'weight' must be >= 0, found -1; {unread}\n"
        "a.eval.yaml:5:84: EV360 [error] the loader drops every item of 'criteria'; the runner drops the assertion\n"
        "a.eval.yaml:5:96: EV361 [error] rubric item has no 'outcome' (or 'score_ranges'); the runner drops it\n"
        "a.eval.yaml:5:104: EV361 [error] a rubric item must be a non-empty string or a mapping with 'outcome', found 5 (a "
        "number); the runner drops it\n"
        f"a.eval.yaml:6:84: EV305 [error] assertion 'weight' must be >= 0, found -1; {unread}\n"
        "a.eval.yaml:6:126: EV330 [error] the loader drops every member of 'assertions'; the runner drops the composite\n"
        "a.eval.yaml:6:139: EV330 [error] a composite member must be a mapping with 'name' and 'type', found 5 (a number); "
        "the runner drops it\n"), "")


@pytest.mark.runner
def test_the_loader_drops_a_grader_before_it_reads_its_weight(tmp_path):
    loaded = load_tests(write_suite(tmp_path, DROPPED_FIRST), ["a.eval.yaml"])["a.eval.yaml"]
    assert ([test["id"] for test in loaded["tests"]], [test.get("assertions") for test in loaded["tests"]]) == (
        ["no-value", "no-command", "rubrics", "composite"], [None, None, None, None])
    assert "Error: Skipping test 'json': Invalid weight for evaluator 'is-json' in 'json': must be non-negative " \
           "(got -1)" in loaded["logs"]


def _write_suites(root, suites: dict):
    """``root`` as a repository holding each suite of ``suites`` (file name -> text), and a suite a.eval.yaml."""
    for name, text in suites.items():
        (root / name).write_text(text)
    return write_suite(root, "tests: [{id: t, input: hi, criteria: c}]\n")


# a suite's default grader with a bad weight: the loader parses it with each test's graders
SUITE_WEIGHT = {
    "top.eval.yaml": "assertions:\n  - {type: contains, value: answer, weight: -1}\ntests:\n"
                     "  - {id: gets, input: hi, criteria: c}\n"
                     "  - {id: skips, input: hi, criteria: c, execution: {skip_defaults: true}}\n",
    "execution.eval.yaml": "execution:\n  assertions: [{type: contains, value: answer, weight: heavy}]\ntests:\n"
                           "  - {id: gets, input: hi, criteria: c}\n",
    "prompt.eval.yaml": "assertions:\n  - {type: llm-grader, prompt: {command: x}}\ntests:\n"
                        "  - {id: gets, input: hi, criteria: c}\n",
}


def test_a_bad_weight_of_a_suites_default_grader_skips_each_test_that_gets_it(tmp_path):
    _write_suites(tmp_path, SUITE_WEIGHT)
    each = "the runner skips each test that gets the suite's graders (all but those with 'execution: {skip_defaults: true}')"
    assert run_concise(tmp_path, "--no-cache", *SUITE_WEIGHT) == (1, (
        f"execution.eval.yaml:2:56: EV304 [error] assertion 'weight' must be a finite number >= 0, found 'heavy'; {each}\n"
        "prompt.eval.yaml:2:42: EV321 [error] prompt 'command' must be an argv list of strings, found 'x'; the runner "
        f"splits no command string here and {each[len('the runner '):]}\n"
        f"top.eval.yaml:2:45: EV305 [error] assertion 'weight' must be >= 0, found -1; {each}\n"), "")


@pytest.mark.runner
def test_the_loader_skips_each_test_that_gets_a_suites_grader_of_a_bad_weight(tmp_path):
    loaded = load_tests(_write_suites(tmp_path, SUITE_WEIGHT), list(SUITE_WEIGHT))
    assert {name: [test["id"] for test in loaded[name]["tests"]] for name in SUITE_WEIGHT} == {
        "top.eval.yaml": ["skips"], "execution.eval.yaml": [], "prompt.eval.yaml": []}
    assert loaded["execution.eval.yaml"]["logs"] == [
        "Error: Skipping test 'gets': Invalid weight for evaluator 'contains-answer' in 'gets': must be a number"]


# two tests of one id the loader keeps stop the run; one it skips (no criteria) does not count
DUPLICATES = {
    "kept.eval.yaml": "tests:\n  - {id: add, input: 1+1?, criteria: Says 2}\n  - {id: add, input: 2+2?, criteria: Says 4}\n",
    "skipped.eval.yaml": "tests:\n  - {id: add, input: 1+1?, criteria: Says 2}\n  - {id: add, input: 2+2?}\n",
}


def test_two_tests_of_one_id_the_loader_keeps_stop_the_run(tmp_path):
    _write_suites(tmp_path, DUPLICATES)
    assert run_concise(tmp_path, "--no-cache", *DUPLICATES) == (1, (
        "kept.eval.yaml:3:10: EV104 [error] duplicate test id 'add' (first used on line 2); the run stops before any test "
        "runs ('Duplicate test ID')\n"
        "skipped.eval.yaml:3:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the "
        "runner skips it as incomplete\n"), "")


@pytest.mark.runner
@pytest.mark.parametrize(("name", "error", "scores"), (
    ("kept.eval.yaml", "Duplicate test ID 'add' — each test must have a unique ID", {}),
    ("skipped.eval.yaml", None, {"add": 1})))
def test_the_run_stops_on_two_tests_of_one_id_the_loader_keeps(tmp_path, name, error, scores):
    ran = run_written(tmp_path, DUPLICATES[name])
    assert (ran["error"], ran["scores"]) == (error, scores)


# a named suite's metadata, which the loader checks (metadata.ts): any string is an author, a version or a license
METADATA = {
    "blank.eval.yaml": "name: math\nauthor: ''\nversion: ''\nlicense: ''\ntests: [{id: t, input: hi, criteria: c}]\n",
    "requires.eval.yaml": "name: math\nrequires: '>=4.42'\ntests: [{id: t, input: hi, criteria: c}]\n",
    "agentv.eval.yaml": "name: math\nrequires: {agentv: 4.42}\ntests: [{id: t, input: hi, criteria: c}]\n",
}


def test_a_named_suites_metadata_is_checked_as_the_loader_checks_it(tmp_path):
    _write_suites(tmp_path, METADATA)
    checks = "with a 'name', the runner checks the suite's metadata and rejects the file"
    assert run_concise(tmp_path, "--no-cache", *METADATA) == (1, (
        f"agentv.eval.yaml:2:20: EV110 [error] 'requires.agentv' in eval suite must be a string (a version range), "
        f"found 4.42; {checks}\n"
        f"requires.eval.yaml:2:11: EV110 [error] 'requires' in eval suite must be a mapping {{agentv: a version range}}, "
        f"found '>=4.42'; {checks}\n"), "")


@pytest.mark.runner
def test_the_loader_rejects_a_named_suite_for_its_metadata(tmp_path):
    loaded = load_tests(_write_suites(tmp_path, METADATA), list(METADATA))
    assert {name: (loaded[name]["error"] or "")[:9] for name in METADATA} == {
        "blank.eval.yaml": "", "requires.eval.yaml": "[\n  {\n   ", "agentv.eval.yaml": "[\n  {\n   "}
    assert '"path": [\n      "requires"' in loaded["requires.eval.yaml"]["error"]
    assert '"path": [\n      "requires",\n      "agentv"' in loaded["agentv.eval.yaml"]["error"]


# run settings written in the other level's 'execution', where the runner does not read them
SETTINGS = {
    "test.eval.yaml": "tests:\n  - {id: t, input: hi, criteria: c, execution: {trials: {count: 3}, workers: 2}}\n",
    "suite.eval.yaml": "execution: {skip_defaults: true}\nassertions: [{type: contains, value: answer}]\n"
                       "tests:\n  - {id: t, input: hi, criteria: c}\n",
    "read.eval.yaml": "execution: {trials: {count: 3}, workers: 2}\ntests:\n  - {id: t, input: hi, criteria: c}\n",
}


def test_a_run_setting_in_the_other_levels_execution_is_an_error(tmp_path):
    _write_suites(tmp_path, SETTINGS)
    dropped = "so what it holds is dropped here; move it there"
    assert run_concise(tmp_path, "--no-cache", *SETTINGS) == (1, (
        "suite.eval.yaml:1:13: EV115 [error] unknown key 'skip_defaults' in execution: the runner reads it only in each "
        f"test's 'execution', {dropped}\n"
        "test.eval.yaml:2:49: EV115 [error] unknown key 'trials' in a test's execution: the runner reads it only in the "
        f"suite's 'execution', {dropped}\n"
        "test.eval.yaml:2:69: EV115 [error] unknown key 'workers' in a test's execution: the runner reads it only in the "
        f"suite's 'execution', {dropped}\n"), "")


@pytest.mark.runner
def test_the_loader_reads_run_settings_only_in_the_suites_execution(tmp_path):
    loaded = load_tests(_write_suites(tmp_path, SETTINGS), list(SETTINGS), suite=True)
    assert {name: sorted(loaded[name]["suite"]) for name in SETTINGS} == {
        "test.eval.yaml": [], "suite.eval.yaml": [], "read.eval.yaml": ["trials", "workers"]}
    assert [a["type"] for a in loaded["suite.eval.yaml"]["tests"][0]["assertions"]] == ["contains"]


# values the loader ignores or skips the test for, with what it does said
IGNORED = ("execution: {budget_usd: 0, trials: {count: 2, cost_limit_usd: 0}}\ntests:\n"
           "  - {id: setup, input: hi, criteria: c}\n"
           "  - {id: check, input: hi, criteria: c, depends_on: setup}\n"
           "  - {id: files, input: hi, criteria: c, input_files: data.csv}\n")


def test_what_the_loader_ignores_or_skips_a_test_for_is_said(tmp_path):
    write_suite(tmp_path, IGNORED, (("data.csv", "a,b\n"),))
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:1:25: EV110 [error] 'budget_usd' must be a number > 0, found 0 (a number); the runner ignores it\n"
        "a.eval.yaml:1:63: EV110 [error] trials 'cost_limit_usd' must be a number > 0, found 0 (a number); the runner "
        "ignores it\n"
        "a.eval.yaml:4:53: EV110 [error] 'depends_on' must be a list of strings, found 'setup'; the runner ignores it and "
        "runs the test without waiting\n"
        "a.eval.yaml:5:54: EV112 [error] 'input_files' must be a list of strings, found 'data.csv'; the runner skips the "
        "test\n"), "")


@pytest.mark.runner
def test_the_loader_ignores_or_skips_a_test_for_these_values(tmp_path):
    loaded = load_tests(write_suite(tmp_path, IGNORED, (("data.csv", "a,b\n"),)), ["a.eval.yaml"], suite=True)
    loaded = loaded["a.eval.yaml"]
    assert ([(test["id"], test.get("depends_on")) for test in loaded["tests"]], "budgetUsd" in loaded["suite"]) == (
        [("setup", None), ("check", None)], False)
    assert "Warning: Invalid execution.budget_usd: 0. Must be a positive number. Ignoring." in loaded["logs"]
    assert "Warning: Invalid trials.cost_limit_usd: 0. Must be a positive number. Ignoring." in loaded["logs"]


NULL_BUDGET = "execution: {budget_usd: null}\ntests:\n  - {id: t, input: hi, criteria: c}\n"


def test_a_null_budget_is_none(tmp_path):
    write_suite(tmp_path, NULL_BUDGET)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_loader_reads_a_null_budget_as_none_without_a_warning(tmp_path):
    loaded = load_tests(write_suite(tmp_path, NULL_BUDGET), ["a.eval.yaml"], suite=True)["a.eval.yaml"]
    assert (loaded["logs"], "budgetUsd" in loaded["suite"], [test["id"] for test in loaded["tests"]]) == ([], False, ["t"])


# a test's deprecated 'evaluators' beside its 'assertions': never read, so what it holds skips nothing
SHADOWED = ("tests:\n  - id: t\n    input: hi\n    assertions: [{type: contains, value: answer}]\n"
            "    evaluators: [{type: contains, value: answer, weight: -1}]\n")


def test_a_grader_list_the_loader_does_not_read_is_reported_once_as_unread(tmp_path):
    write_suite(tmp_path, SHADOWED)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:5:5: EV113 [error] 'evaluators' is ignored because 'assertions' is also set; the runner reads only "
        "the first of 'assertions', 'assert', 'execution.evaluators', 'evaluators'\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_test_whose_unread_list_holds_a_bad_weight(tmp_path):
    ran = run_written(tmp_path, SHADOWED)
    assert (ran["error"], ran["scores"]) == (None, {"t": 1})


# a static workspace without a path, whose hook writes what the run tells it (the workspace's folder) beside the suite
STATIC = ("workspace:\n  mode: static\n  hooks:\n    before_all:\n      command: [node, -e, \"let s = ''; process.stdin."
          "on('data', d => s += d).on('end', () => require('fs').writeFileSync('seen.json', s))\"]\n"
          "tests:\n  - {id: t, input: hi, criteria: c}\n")


def test_a_static_workspace_without_a_path_is_an_error(tmp_path):
    write_suite(tmp_path, STATIC)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:9: EV110 [error] a static workspace needs a 'path': without one (or the command line's "
        "--workspace-path) the run ignores the mode and falls back to temp\n"), "")
    write_suite(tmp_path, STATIC.replace("mode: static\n", "mode: static\n  path: ./w\n"))
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_run_sets_up_a_static_workspace_without_a_path_in_a_fresh_folder(tmp_path):
    for text, folder in ((STATIC, str(tmp_path / "home")), (STATIC.replace("mode: static\n", "mode: static\n  path: ./w\n"),
                                                             "./w")):
        assert run_written(tmp_path, text)["error"] is None
        assert json.loads((tmp_path / "repo" / "seen.json").read_text())["workspace_path"].startswith(folder), text


# a test's null 'input_files', which the loader reads as absent ('raw.input_files ?? the suite's')
NULL_FILES = (("a.md", "notes\n"), ("lines.jsonl", '{"id": "j", "criteria": "c", "input": "hi", "input_files": null}\n'),
              ("b.eval.yaml", "tests: ./lines.jsonl\n"))


NULL_SUITE = "input_files: [a.md]\ntests:\n  - {id: t, criteria: c, input: hi, input_files: null}\n"


def test_a_tests_null_input_files_are_no_finding(tmp_path):
    write_suite(tmp_path, NULL_SUITE, NULL_FILES)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml", "b.eval.yaml", "lines.jsonl") == (0, "", "")


@pytest.mark.runner
def test_the_loader_gives_a_test_of_null_input_files_the_suites(tmp_path):
    write_suite(tmp_path, NULL_SUITE, NULL_FILES)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")
    assert runner_tests(tmp_path, "a.eval.yaml")[0][2] == [("user", [{"type": "file", "value": "a.md"},
                                                                     {"type": "text", "value": "hi"}])]


# code-grader commands the grader parser throws on, which skip the test, and one it reads as absent
COMMANDS = ("tests:\n"
            "  - {id: t1, criteria: c, input: hi, assertions: [{type: code-grader, command: ''}]}\n"
            "  - {id: t1, criteria: c, input: hi}\n"
            "  - {id: listed, criteria: c, input: hi, assertions: [{type: code-grader, command: [python, '']}]}\n"
            "  - {id: nulls, criteria: c, input: hi, assertions: [{type: code-grader, command: null, script: null}]}\n"
            "  - {id: absent, criteria: c, input: hi, assertions: [{type: code-grader, command: null}]}\n")


def test_a_code_graders_command_that_is_no_argv_skips_its_test_so_its_id_is_no_duplicate(tmp_path):
    skips = "the runner skips the test"
    assert run_concise(write_suite(tmp_path, COMMANDS), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:80: EV321 [error] code-grader 'command' is an empty string; {skips}; give the command as an argv "
        "list\n"
        f"a.eval.yaml:4:93: EV321 [error] code-grader 'command' tokens must be non-empty strings, found ''; {skips}\n"
        "a.eval.yaml:5:97: EV321 [error] code-grader 'script' must be a command string or an argv list of strings, "
        f"found null; {skips}\n"
        "a.eval.yaml:6:56: EV320 [error] code-grader assertion has no 'command' (an argv list such as [\"python\", "
        "\"check.py\"]); the runner drops it\n"), "")


@pytest.mark.runner
def test_the_loader_skips_a_test_whose_code_graders_command_is_no_argv(tmp_path):
    loaded = load_tests(write_suite(tmp_path, COMMANDS), ["a.eval.yaml"])["a.eval.yaml"]
    assert [(test["id"], len(test.get("assertions") or ())) for test in loaded["tests"]] == [("t1", 0), ("absent", 0)]


# keys under names people give the keys the runner reads, or beside 'execution' written in it: each dropped
OTHER_NAMES = ("system_prompt: Be terse.\n"
               "execution:\n  max_workers: 4\n  pass_threshold: 0.8\n  trials: {runs: 3}\n"
               "  input: [{role: system, content: Be terse.}]\n  workspace: {template: ./tmpl}\n"
               "workspace:\n  hooks:\n    setup: {command: [echo, hi]}\n"
               "    after_all: {command: [echo, bye], timeout_seconds: 600, workdir: sub}\n"
               "tests:\n  - id: setup\n    input: hi\n    criteria: c\n"
               "  - id: check\n    input: Say hello to {{ name }}\n    criteria: c\n    files: [data.csv]\n"
               "    variables: {name: Ada}\n    dependencies: [setup]\n    description: Checks it\n"
               "    execution: {vars: {name: Ada}, depends_on: [setup]}\n")
OTHER_NAMES_FILES = (("data.csv", "a,b\n"), ("sub/keep", ""), ("tmpl/keep", ""))


def test_a_key_under_another_name_people_give_a_read_key_or_beside_execution_in_it_is_an_error(tmp_path):
    write_suite(tmp_path, OTHER_NAMES, OTHER_NAMES_FILES)
    dropped, beside = "the runner does not read it, so what it holds is dropped", \
        "the runner reads it only beside 'execution', not in it, so what it holds is dropped here; move it there"
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:1:1: EV115 [error] unknown key 'system_prompt' in eval suite (did you mean 'input'?); {dropped}\n"
        f"a.eval.yaml:3:3: EV115 [error] unknown key 'max_workers' in execution (did you mean 'workers'?); {dropped}\n"
        f"a.eval.yaml:4:3: EV115 [error] unknown key 'pass_threshold' in execution (did you mean 'threshold'?); {dropped}\n"
        f"a.eval.yaml:5:12: EV115 [error] unknown key 'runs' in trials (did you mean 'count'?); {dropped}\n"
        f"a.eval.yaml:6:3: EV115 [error] unknown key 'input' in execution: {beside}\n"
        f"a.eval.yaml:7:3: EV115 [error] unknown key 'workspace' in execution: {beside}\n"
        f"a.eval.yaml:10:5: EV115 [error] unknown key 'setup' in workspace hooks (did you mean 'before_all' or "
        f"'before_each'?); {dropped}\n"
        f"a.eval.yaml:11:39: EV115 [error] unknown key 'timeout_seconds' in hook (did you mean 'timeout_ms'?); {dropped}\n"
        f"a.eval.yaml:11:61: EV115 [error] unknown key 'workdir' in hook (did you mean 'cwd'?); {dropped}\n"
        f"a.eval.yaml:19:5: EV115 [error] unknown key 'files' in test (did you mean 'input_files'?); {dropped}\n"
        f"a.eval.yaml:20:5: EV115 [error] unknown key 'variables' in test (did you mean 'vars'?); {dropped}\n"
        f"a.eval.yaml:21:5: EV115 [error] unknown key 'dependencies' in test (did you mean 'depends_on'?); {dropped}\n"
        "a.eval.yaml:22:5: EV109 [warning] unknown key 'description' in test: the runner does not read a test's "
        "description; put it in the test's 'metadata' or a comment\n"
        f"a.eval.yaml:23:17: EV115 [error] unknown key 'vars' in a test's execution: {beside}\n"
        f"a.eval.yaml:23:36: EV115 [error] unknown key 'depends_on' in a test's execution: {beside}\n"), "")


@pytest.mark.runner
def test_the_loader_drops_keys_under_other_names_and_those_beside_execution_written_in_it(tmp_path):
    loaded = load_tests(write_suite(tmp_path, OTHER_NAMES, OTHER_NAMES_FILES), ["a.eval.yaml"], suite=True)
    loaded = loaded["a.eval.yaml"]
    check = loaded["tests"][1]
    assert (loaded["error"], loaded["suite"], loaded["tests"][0]["workspace"], loaded["tests"][0]["input"]) == (
        None, {}, {"hooks": {"after_all": {"command": ["echo", "bye"]}}}, [{"content": "hi", "role": "user"}])
    assert (check["question"], check["file_paths"], "depends_on" in check) == ("Say hello to {{ name }}", [], False)


# system messages after another message: of the suite's own input, of a test's input after the suite's, of a test's
# own input (its suite's skipped); the first of the input is the system prompt
LATE_SYSTEM = ("input:\n  - role: user\n    content: Context first.\n  - role: system\n    content: Be terse.\n"
               "tests:\n"
               "  - id: convo\n    criteria: c\n    input:\n      - role: system\n        content: Be funny.\n"
               "      - role: user\n        content: Tell me a joke\n"
               "  - id: own\n    criteria: c\n    execution: {skip_defaults: true}\n    input:\n"
               "      - role: user\n        content: Hi\n      - role: system\n        content: Be funny.\n"
               "      - role: user\n        content: Tell me a joke\n"
               "  - id: first\n    criteria: c\n    execution: {skip_defaults: true}\n    input:\n"
               "      - role: system\n        content: Be funny.\n      - role: user\n        content: Hi\n")


def test_a_system_message_after_another_message_is_an_error(tmp_path):
    write_suite(tmp_path, LATE_SYSTEM)
    sends = ("the runner sends only the system messages that open the input as the system prompt, and this one as an "
             "assistant's turn starting '@[System]:'; move it to the start of")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:4:11: EV210 [error] system message after a user message: {sends} the input\n"
        f"a.eval.yaml:10:15: EV210 [error] system message after the suite's input: {sends} the suite's input\n"
        f"a.eval.yaml:20:15: EV210 [error] system message after a user message: {sends} the input\n"), "")


@pytest.mark.runner
def test_the_runner_sends_a_system_message_after_another_as_an_assistants_turn(tmp_path):
    """(A request with a system prompt, as test 'first' makes, is filed as a grader's by run.mjs.)"""
    sent = {item["test"]: item["messages"] for item in run_written(tmp_path, LATE_SYSTEM)["sent"]}
    assert sent == {
        "convo": [["user", "Context first."], ["assistant", "@[System]:\nBe terse."],
                  ["assistant", "@[System]:\nBe funny."], ["user", "Tell me a joke"]],
        "own": [["user", "Hi"], ["assistant", "@[System]:\nBe funny."], ["user", "Tell me a joke"]]}


# ids that differ as written, so both tests run, but that name one artifact folder; and one the loader skips
ARTIFACTS = ("tests:\n  - {id: a, input: hi, criteria: c}\n  - {id: 'a ', input: hi, criteria: c}\n"
             "  - {id: 'x/y', input: hi, criteria: c}\n  - {id: 'x_y', input: hi, criteria: c}\n"
             "  - {id: ' x_y', input: hi}\n")


def test_test_ids_that_name_one_artifact_folder_are_a_warning(tmp_path):
    write_suite(tmp_path, ARTIFACTS)
    overwrite = ("the runner keeps both tests, but writes each test's results to a folder named after its id, trimmed, "
                 "with / \\ : * ? \" < > | made '_', so one's overwrite the other's; give them ids that differ otherwise")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:3:10: EV126 [warning] test id 'a ' names the artifact folder of test 'a' (line 2): {overwrite}\n"
        f"a.eval.yaml:5:10: EV126 [warning] test id 'x_y' names the artifact folder of test 'x/y' (line 4): {overwrite}\n"
        "a.eval.yaml:6:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the runner "
        "skips it as incomplete\n"), "")


@pytest.mark.runner
def test_the_runner_runs_both_and_writes_their_results_to_one_folder(tmp_path):
    ran = run_written(tmp_path, ARTIFACTS)
    assert (ran["scores"], ran["artifacts"]) == ({"a": 1, "a ": 1, "x/y": 1, "x_y": 1}, ["a/a", "a/x_y"])


# the same across files of tests, whose ids the runner keeps as written, and across the cases of a folder of tests
FILE_ARTIFACTS = ("tests:\n  - {id: 'x/y', input: hi, criteria: c}\n  - file://cases/*.yaml\n")
ARTIFACT_FILES = (("cases/one.yaml", "- {id: 'x:y', input: hi, criteria: c}\n"),
                  ("cases/two.yaml", "- {id: x_y, input: hi, criteria: c}\n"),
                  ("b.eval.yaml", "tests: ./dir/\n"), ("dir/a/case.yaml", "id: 'q:r'\ninput: hi\ncriteria: c\n"),
                  ("dir/b/case.yaml", "id: q_r\ninput: hi\ncriteria: c\n"))


def test_ids_of_files_of_tests_that_name_one_artifact_folder_are_a_warning(tmp_path):
    write_suite(tmp_path, FILE_ARTIFACTS, ARTIFACT_FILES)
    overwrite = ("the runner keeps both tests, but writes each test's results to a folder named after its id, trimmed, "
                 "with / \\ : * ? \" < > | made '_', so one's overwrite the other's; give them ids that differ otherwise")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml", "b.eval.yaml") == (0, (
        "a.eval.yaml:3:5: EV126 [warning] file of tests 'cases/one.yaml' holds test id 'x:y', which names the artifact "
        f"folder of test 'x/y' (the test on line 2): {overwrite}\n"
        "a.eval.yaml:3:5: EV126 [warning] file of tests 'cases/two.yaml' holds test id 'x_y', which names the artifact "
        f"folder of test 'x/y' (the test on line 2): {overwrite}\n"
        "b.eval.yaml:1:8: EV126 [warning] case files 'dir/a/case.yaml' and 'dir/b/case.yaml' of the folder of tests "
        f"give the test ids 'q:r' and 'q_r', which name the same artifact folder: {overwrite}\n"), "")


@pytest.mark.runner
def test_the_runner_writes_the_results_of_such_tests_of_files_to_one_folder(tmp_path):
    ran = run_written(tmp_path, FILE_ARTIFACTS, ARTIFACT_FILES)
    assert (ran["scores"], ran["artifacts"]) == ({"x/y": 1, "x:y": 1, "x_y": 1}, ["a/x_y"])
    ran = run_suite(tmp_path / "repo", "b.eval.yaml", tmp_path / "home")
    assert (ran["scores"], ran["artifacts"]) == ({"q:r": 1, "q_r": 1}, ["b/q_r"])


# a conversation keeps each message's role; input files (the suite's, unless skipped) make one user message
LATE_SYSTEM_KEPT = ("input_files: [a.txt]\n"
                    "tests:\n"
                    "  - id: convo\n    mode: conversation\n    execution: {skip_defaults: true}\n"
                    "    input: [{role: user, content: Hi}, {role: system, content: Be terse.}]\n"
                    "    turns: [{input: Tell me a joke, assertions: [{type: contains, value: joke}]}]\n"
                    "  - id: skipped\n    criteria: c\n    execution: {skip_defaults: true}\n"
                    "    input: [{role: user, content: Hi}, {role: system, content: Be terse.}]\n")


def test_a_system_message_after_another_is_reported_where_the_runner_sends_it_as_an_assistants(tmp_path):
    write_suite(tmp_path, LATE_SYSTEM_KEPT, (("a.txt", "x\n"),))
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:11:47: EV210 [error] system message after a user message: the runner sends only the system "
        "messages that open the input as the system prompt, and this one as an assistant's turn starting "
        "'@[System]:'; move it to the start of the input\n"), "")


@pytest.mark.runner
def test_the_runner_keeps_a_conversations_roles_and_sends_a_late_system_message_of_a_test_as_an_assistants(tmp_path):
    sent = {item["test"]: item["messages"] for item in run_written(tmp_path, LATE_SYSTEM_KEPT, (("a.txt", "x\n"),))["sent"]}
    assert sent == {"convo/turn-1": [["user", "Hi"], ["system", "Be terse."], ["user", "Tell me a joke"]],
                    "skipped": [["user", "Hi"], ["assistant", "@[System]:\nBe terse."]]}


# a suite's input with a late system message, which only a conversation gets (the other test skips it)
CONVERSATIONS_ONLY = ("input: [{role: user, content: Hi}, {role: system, content: Be terse.}]\ntests:\n"
                      "  - id: convo\n    mode: conversation\n    input: hello\n"
                      "    turns: [{input: Tell me a joke, assertions: [{type: contains, value: joke}]}]\n"
                      "  - id: own\n    execution: {skip_defaults: true}\n    input: hi\n    criteria: c\n")


def test_a_late_system_message_of_a_suites_input_that_only_conversations_get_is_not_reported(tmp_path):
    write_suite(tmp_path, CONVERSATIONS_ONLY)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_keeps_the_roles_of_a_suites_input_in_a_conversation(tmp_path):
    sent = {item["test"]: item["messages"] for item in run_written(tmp_path, CONVERSATIONS_ONLY)["sent"]}
    assert sent["convo/turn-1"] == [["user", "Hi"], ["system", "Be terse."], ["user", "hello"], ["user", "Tell me a joke"]]


# image blocks: in the suite's input and a test's (never sent), in an expected output (sent to the graders as a data
# URL in text), of a type the loader does not read (EV411 alone: left out)
IMAGES = ("input: [{role: user, content: [{type: image, value: ./a.png}]}]\n"
          "tests:\n"
          "  - id: seen\n    criteria: c\n    execution: {skip_defaults: true}\n"
          "    input: [{role: user, content: [{type: image, value: ./a.png}, {type: text, value: What colour?}]}]\n"
          "  - id: expected\n    input: What colour?\n"
          "    expected_output: [{role: assistant, content: [{type: image, value: ./a.png}]}]\n"
          "  - id: tiff\n    criteria: c\n    execution: {skip_defaults: true}\n"
          "    input: [{role: user, content: [{type: image, value: ./a.tiff}, What colour?]}]\n")
IMAGE_FILES = (("a.png", "png"), ("a.tiff", "tiff"))


def test_an_image_block_in_an_input_is_an_error(tmp_path):
    write_suite(tmp_path, IMAGES, IMAGE_FILES)
    never = ("image block in an input: AgentV 4.42.4 sends the target an input's text and files, never its images, so "
             "the agent is asked about a picture it never sees (only a code-grader's input holds it); describe the "
             "picture in text (an agent target can open the file when the text names its path)")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:1:39: EV211 [error] {never}\n"
        f"a.eval.yaml:6:43: EV211 [error] {never}\n"
        "a.eval.yaml:9:58: EV211 [error] image block in an expected output: the graders get the expected answer as text, "
        "the picture in it a base64 data URL, so no grader sees the image (and each grading prompt carries its bytes); "
        "describe the expected picture in text\n"
        "a.eval.yaml:13:57: EV411 [error] image file './a.tiff' is of no type the runner reads as an image: it leaves the "
        "block out (warning 'Unsupported image extension'); the endings it reads, in any case: '.png', '.jpg', '.jpeg', "
        "'.gif', '.webp', '.svg', '.bmp'\n"), "")


@pytest.mark.runner
def test_the_runner_sends_the_target_no_image_of_an_input(tmp_path):
    ran = run_written(tmp_path, IMAGES, IMAGE_FILES)
    assert (ran["error"], ran["sent"]) == (None, [
        {"test": "seen", "question": "What colour?", "messages": []},
        {"test": "expected", "question": "What colour?", "messages": []},
        {"test": "tiff", "question": "What colour?", "messages": []}])
    # the grader's reference answer holds the expected picture as text
    (graded,) = [graded["prompt"] for graded in ran["graded"] if graded["test"] == "expected"]
    assert '"source": "data:image/png;base64,cG5n"' in graded


# what to do when a dependency fails: of a test without 'depends_on', with an empty one, with one
FAILURE_SETTINGS = ("tests:\n"
                    "  - {id: a, input: hi, criteria: ok, on_dependency_failure: skip}\n"
                    "  - {id: b, input: hi, criteria: ok, on_dependency_failure: run, depends_on: []}\n"
                    "  - {id: c, input: hi, criteria: ok, on_dependency_failure: fail, depends_on: [a]}\n")


def test_a_dependency_failure_setting_without_dependencies_is_a_warning(tmp_path):
    write_suite(tmp_path, FAILURE_SETTINGS)
    then = ("has no effect without a test id in 'depends_on': the test waits for no test, so the runner never reads "
            "it; name the tests it waits for in 'depends_on', or remove it")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:2:38: EV127 [warning] 'on_dependency_failure' 'skip' {then}\n"
        f"a.eval.yaml:3:38: EV127 [warning] 'on_dependency_failure' 'run' {then}\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_test_without_dependencies_whatever_its_failure_setting(tmp_path):
    ran = run_written(tmp_path, FAILURE_SETTINGS)
    assert (ran["error"], ran["scores"]) == (None, {"a": 1, "b": 1, "c": 1})


# inputs that ask nothing: empty user text (as written, or once a var fills it in), system messages alone or beside
# an empty user message; one that asks, an assistant's turn after an empty user message, one the loader skips (EV106
# alone), one of a file alone
NO_QUESTION = ("tests:\n"
               "  - {id: empty, input: '', criteria: ok}\n"
               "  - {id: no-blocks, input: [{role: user, content: []}], criteria: ok}\n"
               "  - {id: filled, vars: {q: ''}, input: '{{ q }}', criteria: ok}\n"
               "  - {id: system, input: [{role: system, content: You are a pirate.}], criteria: ok}\n"
               "  - {id: system-empty, input: [{role: system, content: Be brief.}, {role: user, content: ' '}], "
               "criteria: ok}\n"
               "  - {id: asks, input: hi, criteria: ok}\n"
               "  - {id: shot, input: [{role: user, content: ''}, {role: assistant, content: Hello}], criteria: ok}\n"
               "  - {id: ungraded, input: ''}\n"
               "  - {id: file, input: [{role: user, content: [{type: file, value: ./a.txt}]}], criteria: ok}\n")


def test_an_input_that_asks_nothing_is_a_warning(tmp_path):
    write_suite(tmp_path, NO_QUESTION, (("a.txt", "text"),))
    empty = "the input's user message is empty: the runner sends the target an empty question; write what the user asks"
    system = ("no user message of the input asks anything: the runner sends the system messages' text as the question "
              "too (and as the system prompt); write what the user asks")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:24: EV212 [warning] {empty}\n"
        f"a.eval.yaml:3:28: EV212 [warning] {empty}\n"
        f"a.eval.yaml:4:40: EV212 [warning] {empty}\n"
        f"a.eval.yaml:5:25: EV212 [warning] {system}\n"
        f"a.eval.yaml:6:31: EV212 [warning] {system}\n"
        "a.eval.yaml:9:6: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the runner "
        "skips it as incomplete\n"), "")


# the suite's input with each test's vars filled in: a system message that a var leaves empty says nothing
FILLED_SUITE_INPUT = ("input: [{role: system, content: '{{ persona }}'}]\n"
                      "tests:\n"
                      "  - {id: blank, vars: {persona: ''}, input: '', criteria: ok}\n"
                      "  - {id: pirate, vars: {persona: You are a pirate.}, input: '', criteria: ok}\n"
                      "  - {id: asks, vars: {persona: ''}, input: hi, criteria: ok}\n")


def test_the_suite_input_a_test_gets_is_filled_with_its_vars(tmp_path):
    write_suite(tmp_path, FILLED_SUITE_INPUT)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:3:45: EV212 [warning] the input's user message is empty: the runner sends the target an empty "
        "question; write what the user asks\n"
        "a.eval.yaml:4:61: EV212 [warning] no user message of the input asks anything: the runner sends the system "
        "messages' text as the question too (and as the system prompt); write what the user asks\n"), "")


@pytest.mark.runner
def test_the_runner_fills_the_suite_input_with_each_tests_vars(tmp_path):
    write_suite(tmp_path, FILLED_SUITE_INPUT)
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert {test["id"]: test["question"] for test in loaded["tests"]} == {
        "blank": "", "pirate": "You are a pirate.", "asks": "hi"}


@pytest.mark.runner
def test_the_runner_asks_an_empty_question_or_the_system_text(tmp_path):
    """(A request with a system prompt is filed as a grader's by run.mjs: its question is the system text.)"""
    ran = run_written(tmp_path, NO_QUESTION, (("a.txt", "text"),))
    assert {sent["test"]: sent["question"] for sent in ran["sent"]} == {
        "empty": "", "no-blocks": "", "filled": "", "asks": "hi", "shot": "@[Assistant]:\nHello",
        "file": '<file path="./a.txt">\ntext\n</file>'}
    assert [(graded["test"], graded["prompt"]) for graded in ran["graded"] if graded["test"].startswith("system")][::2] \
        == [("system", "You are a pirate."), ("system-empty", "Be brief.")]


# files sent as text: a picture (a file block, an input file), UTF-16 text, and UTF-8 text
NOT_TEXT = ("tests:\n"
            "  - {id: block, input: [{role: user, content: [{type: file, value: ./chart.png}, What total?]}], criteria: c}\n"
            "  - {id: files, input: What total?, input_files: [./notes.txt, ./data.csv], criteria: c}\n")


def _not_text(tmp_path):
    write_suite(tmp_path, NOT_TEXT, (("data.csv", "month,total\nFeb,15\n"),))
    (tmp_path / "chart.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (tmp_path / "notes.txt").write_bytes("Feb total: 15\n".encode("utf-16"))
    return tmp_path


def test_a_file_sent_as_text_that_is_no_utf8_text_is_a_warning(tmp_path):
    then = ("is no UTF-8 text: the runner reads it as UTF-8, so each byte it cannot decode is sent as a replacement "
            "character (to a model target, or to the graders from an expected output; an agent target gets the path); "
            "save it as UTF-8 text, or attach a text form of it")
    assert run_concise(_not_text(tmp_path), "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:2:68: EV413 [warning] file './chart.png' {then}\n"
        f"a.eval.yaml:3:51: EV413 [warning] input file './notes.txt' {then}\n"), "")


@pytest.mark.runner
def test_the_runner_sends_such_a_file_as_replacement_characters(tmp_path):
    from agentv_runner import run_suite

    (tmp_path / "repo").mkdir()
    (tmp_path / "home").mkdir()
    ran = run_suite(_not_text(tmp_path / "repo"), "a.eval.yaml", tmp_path / "home")
    sent = {item["test"]: item["question"] for item in ran["sent"]}
    assert "\ufffdPNG" in sent["block"] and "\ufffd\ufffdF\x00e\x00b" in sent["files"] and "month,total" in sent["files"]


# expected outputs: a list of strings, a user's message last, text blocks, a tool's message alone; a string, an
# assistant's message last, tool calls alone
REFERENCES = ("tests:\n"
              "  - {id: strings, input: hi, expected_output: [some text]}\n"
              "  - {id: ends-user, input: hi, expected_output: [{role: assistant, content: a}, {role: user, content: x}]}\n"
              "  - {id: blocks, input: hi, expected_output: [{role: assistant, content: [{type: text, value: four}]}]}\n"
              "  - {id: single, input: hi, expected_output: {role: tool, content: x}}\n"
              "  - {id: text, input: hi, expected_output: four}\n"
              "  - {id: last, input: hi, expected_output: [{role: user, content: q}, {role: assistant, content: a}]}\n"
              "  - {id: tools, input: hi, expected_output: [{role: assistant, tool_calls: [{tool: search}]}]}\n")


def test_an_expected_output_that_is_no_answer_text_is_a_warning(tmp_path):
    write_suite(tmp_path, REFERENCES)
    listed = ("the expected answer is a list of text, which the runner gives the graders as JSON text "
              "('[{\"type\": \"text\", ...}]'), not as the answer's text; write the answer as one string")
    ends = ("message, which the runner gives the graders as the final expected answer (the reference answer); end it "
            "with the assistant's answer")
    before = ("the expected message before the last reaches no grader of this test: an llm-grader gets only the last "
              "message's content as the reference answer; put what the answer must show in that message or in the "
              "criteria, or check it with another grader (a code-grader gets every message, tool-trajectory the calls)")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:2:47: EV213 [warning] {listed}\n"
        f"a.eval.yaml:3:50: EV214 [warning] {before}\n"
        f"a.eval.yaml:3:88: EV213 [warning] the expected output ends in a user {ends}\n"
        f"a.eval.yaml:4:74: EV213 [warning] {listed}\n"
        f"a.eval.yaml:5:53: EV213 [warning] the expected output ends in a tool {ends}\n"
        f"a.eval.yaml:7:45: EV214 [warning] {before}\n"), "")


@pytest.mark.runner
def test_the_graders_get_the_last_messages_content_as_written_or_as_json(tmp_path):
    prompts = {graded["test"]: graded["prompt"] for graded in run_written(tmp_path, REFERENCES)["graded"]}
    reference = {test: prompt.split("[[ ## reference_answer ## ]]\n")[1].split("\n\n[[ ## answer")[0]
                 for test, prompt in prompts.items()}
    assert reference == {"strings": '[\n  {\n    "type": "text",\n    "value": "some text"\n  }\n]', "ends-user": "x",
                         "blocks": '[\n  {\n    "type": "text",\n    "value": "four"\n  }\n]', "single": "x",
                         "text": "four", "last": "a", "tools": '[\n  {\n    "tool": "search"\n  }\n]'}


SUITE_PREPROCESSOR = ("preprocessors:\n  - type: xlsx\n    command: python convert.py\n"
                      "tests:\n  - {id: a, input: hi, criteria: ok}\n")


def test_a_suites_preprocessor_command_string_says_the_file_is_rejected(tmp_path):
    assert run_concise(write_suite(tmp_path, SUITE_PREPROCESSOR), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:14: EV321 [error] preprocessor 'command' must be an argv list of strings, found 'python "
        "convert.py'; the runner splits no command string here and rejects the file\n"), "")


@pytest.mark.runner
def test_the_loader_rejects_a_file_whose_suite_preprocessor_command_is_a_string(tmp_path):
    loaded = load_tests(write_suite(tmp_path, SUITE_PREPROCESSOR), ["a.eval.yaml"])["a.eval.yaml"]
    assert (loaded["tests"], loaded["error"]) == ([], "preprocessor command for evaluator '<suite>' in 'a.eval.yaml' "
                                                      "must be an array of strings (argv tokens)")
