"""AgentV 4.42.4's assertion templates (``.agentv/templates/NAME.yaml``): linted as files of their own, and
expanded in place of an ``include`` entry as the runner's loader expands them (or reported where it cannot)."""
from __future__ import annotations

import shutil

import pytest

from agentv_runner import load_tests
from agreement import model_tests, runner_tests, write_suite
from clirun import run_concise
from conftest import FIXTURES
from evallint.config import Config
from evallint.format.agentv4.model import Include
from evallint.lint import lint_file
from evallint.load import files

BAD = FIXTURES / "bad" / "EV410_template_not_expandable"
GOOD = FIXTURES / "good" / "rules" / "EV410_template_not_expandable"


@pytest.mark.parametrize("path,kind", [
    (".agentv/templates/polite.yaml", files.TEMPLATE), (".agentv/templates/polite.yml", files.TEMPLATE),
    (".agentv/templates/more/polite.yaml", None), ("templates/polite.yaml", None),
    (".agentv/templates/notes.md", None), (".agentv/targets.yaml", files.TARGETS)])
def test_a_yaml_file_right_in_agentv_templates_is_a_template(tmp_path, path, kind):
    assert files.PathKind(str(tmp_path / path), str(tmp_path), ()).kind == kind


def test_a_template_is_linted_whatever_it_holds_and_whatever_version_is_configured(tmp_path):
    (tmp_path / ".git").mkdir()
    template = tmp_path / ".agentv" / "templates" / "t.yaml"
    template.parent.mkdir(parents=True)
    template.write_text("assertions:\n  - {type: contains, value: x, weight: -1}\n")
    for version in ("2.2", "4.42"):
        result = lint_file(str(template), Config(root=str(tmp_path), agentv_version=version), explicit=False)
        assert (result.kind, result.version, [(d.code, d.line, d.column) for d in result.diagnostics]) == (
            files.TEMPLATE, "4.42", [("EV305", 2, 40)])


def test_a_mapping_of_only_an_assertions_list_is_a_template_wherever_it_lies(tmp_path):
    """An include may name a template by its path (AgentV's docs: ``include: ./shared/format.yaml``): such a file,
    in an eval folder, is linted as the template it is, not as a suite without tests; a file with other keys
    beside 'assertions' stays a suite."""
    root = write_suite(tmp_path, "tests:\n  - {id: t, input: q, assertions: [include: ./shared/format.yaml]}\n",
                       (("shared/format.yaml", "assertions:\n  - {type: contains, value: x, weight: -1}\n"),
                        ("other.eval.yaml", "description: d\nassertions: [{type: is-json}]\n")))
    assert run_concise(root, "--no-cache", ".") == (1, (
        "other.eval.yaml:1:1: EV101 [error] no 'evalcases' list; the runner finds no cases in this file\n"
        "other.eval.yaml:2:1: EV109 [warning] unknown key 'assertions' in eval suite (known keys: $schema, dataset, "
        "description, evalcases, evaluator, execution, target)\n"
        "shared/format.yaml:2:40: EV305 [error] assertion 'weight' must be >= 0, found -1; the runner skips the test\n"), "")


def test_the_keys_that_make_a_file_a_template_are_the_template_schemas():
    from evallint.format.agentv4.templates import TEMPLATE_SCHEMA
    from evallint.format.keys import known_keys

    assert set(files.TEMPLATE_KEYS) == set(known_keys(TEMPLATE_SCHEMA))


def test_the_template_schema_is_shipped_and_accepts_the_good_template_only():
    import io
    import json

    import jsonschema
    from conftest import ROOT
    from evallint.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["schema", "template"], stdout=out, stderr=err) == 0
    schema = json.loads(out.getvalue())
    jsonschema.Draft7Validator.check_schema(schema)
    assert (ROOT / "evallint" / "jsonschemas" / "template-4.42.schema.json").read_text(encoding="utf-8") == \
        out.getvalue(), "stale: run 'evallint schema template --output evallint/jsonschemas/template-4.42.schema.json'"
    validator = jsonschema.Draft7Validator(schema)
    assert validator.is_valid({"assertions": ["Is short.", {"include": "other"}, {"type": "is-json"}]})
    assert [error.message for error in validator.iter_errors({"graders": [{"type": "is-json"}]})] == [
        "'assertions' is a required property",
        "Additional properties are not allowed ('graders' was unexpected)"]
    assert main(["schema", "template", "--agentv-version", "2.2"], stdout=out, stderr=err) == 2
    assert err.getvalue() == "evallint: error: AgentV 2.2 reads no template file; the template schema is AgentV 4.42's\n"


def test_normalize_names_a_template_as_a_kind_it_does_not_take(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv" / "templates").mkdir(parents=True)
    (tmp_path / ".agentv" / "templates" / "t.yaml").write_text("assertions: [{type: is-json}]\n")
    monkeypatch.chdir(tmp_path)
    from evallint.cli import main
    import io

    err = io.StringIO()
    assert main(["normalize", ".agentv/templates/t.yaml"], stdout=io.StringIO(), stderr=err) == 1
    assert err.getvalue().startswith(".agentv/templates/t.yaml: an assertion template (the assertions an 'include' "
                                      "entry stands for), not an eval file; ")


def test_an_include_in_a_template_is_checked_from_the_template_and_its_other_paths_are_not(tmp_path):
    """A template's own include is looked up from its folder first, so it is checked there; its prompt files and
    custom types are looked up from each suite that includes it, so the template alone does not check them. The
    template that includes it is linted with it, as it uses it."""
    write_suite(tmp_path, "tests: []\n", ((".agentv/templates/t.yaml", (
        "assertions:\n  - include: self-ref\n  - {type: my-grader}\n"
        "  - {type: llm-grader, prompt: 'file://prompts/none.md'}\n")),
        (".agentv/templates/self-ref.yaml", "assertions:\n  - include: t\n")))
    assert run_concise(tmp_path, "--no-cache", ".agentv/templates/t.yaml") == (1, (
        ".agentv/templates/self-ref.yaml:2:14: EV410 [error] assertion template 't' cannot be expanded: the includes "
        "make a cycle (.agentv/templates/self-ref.yaml -> .agentv/templates/t.yaml -> .agentv/templates/self-ref.yaml); "
        "the runner skips every test that includes this template\n"
        ".agentv/templates/t.yaml:2:14: EV410 [error] assertion template 'self-ref' cannot be expanded: the includes "
        "make a cycle (.agentv/templates/t.yaml -> .agentv/templates/self-ref.yaml -> .agentv/templates/t.yaml); the "
        "runner skips every test that includes this template\n"), "")


SUITE_INCLUDING = "tests:\n  - {id: t, input: q, assertions: [include: judged]}\n"
INCLUDED = ((".agentv/templates/judged.yaml", "assertions:\n  - {type: llm-grader, prompt: 'file://prompts/judge.md'}\n"
                                              "  - {type: my-check}\n  - include: nested\n"),
            (".agentv/templates/nested.yaml", "assertions:\n  - {type: code-grader, command: [node, ./check.js]}\n"),
            ("b/b.eval.yaml", SUITE_INCLUDING),
            ("b/prompts/judge.md", "Grade {{ output }}\n"), ("b/check.js", "\n"),
            ("b/.agentv/assertions/my-check.ts", "\n"))


def test_what_a_templates_items_point_at_is_checked_from_each_suite_that_includes_it(tmp_path):
    """The runner looks up a template's prompt files, commands and custom types from the folder of the suite that
    includes it: found from b/, not from the root, where each finding is at the include, naming the template."""
    write_suite(tmp_path, SUITE_INCLUDING, INCLUDED)
    template = "in assertion template 'judged': "
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        f"a.eval.yaml:2:45: EV301 [error] {template}assertion type 'my-check' is no built-in kind and no custom "
        "grader '.agentv/assertions/my-check.ts' (or .js, .mts, .mjs) is found from this folder up; the run fails with "
        "'Unknown grader type'\n"
        f"a.eval.yaml:2:45: EV404 [error] {template}prompt file 'prompts/judge.md' not found (looked in: ./); the "
        "runner skips the test\n"
        f"a.eval.yaml:2:45: EV408 [error] {template}script file './check.js' not found in ./ (the folder the command "
        "runs in); the command fails when the grader runs\n"), "")


@pytest.mark.runner
def test_the_runner_looks_up_a_templates_prompt_file_from_the_including_suite(tmp_path):
    loaded = load_tests(write_suite(tmp_path, SUITE_INCLUDING, INCLUDED), ["a.eval.yaml", "b/b.eval.yaml"])
    assert [test["id"] for test in loaded["a.eval.yaml"]["tests"]] == []
    assert loaded["a.eval.yaml"]["logs"][0] == ("Error: Skipping test 't': Grader 'llm-grader' in 't': prompt file "
                                                  "not found: prompts/judge.md")
    [test] = loaded["b/b.eval.yaml"]["tests"]
    assert [(grader["type"], grader.get("resolvedPromptPath") or grader.get("resolvedScriptPath"))
            for grader in test["assertions"]] == [("llm-grader", "b/prompts/judge.md"), ("my-check", None),
                                                  ("code-grader", "b/check.js")]


@pytest.mark.runner
def test_the_runner_skips_each_test_whose_template_evallint_says_it_cannot_expand(tmp_path):
    """The bad fixture's suite: every test is skipped, for the reason its EV410 gives; the good one is loaded with
    the graders of the model."""
    shutil.copytree(BAD, tmp_path / "bad")
    loaded = load_tests(tmp_path / "bad", ["suite.eval.yaml"])["suite.eval.yaml"]
    assert loaded["tests"] == [] and [log.split("\n")[0] for log in loaded["logs"]] == [
        "Error: Skipping test 'listed': Invalid assertion template file in 'listed': .agentv/templates/listed.yaml "
        "(expected a YAML object with an assertions array)",
        "Error: Skipping test 'nested-missing': Assertion template not found in 'nested-missing': "
        ".agentv/templates/gone.yaml",
        "Error: Skipping test 'loop': Assertion template cycle detected in 'loop': .agentv/templates/loop-a.yaml -> "
        ".agentv/templates/loop-b.yaml -> .agentv/templates/loop-a.yaml",
        "Error: Skipping test 'deep': Assertion template include depth exceeded 3 in 'deep'. Include chain: "
        ".agentv/templates/deep-1.yaml -> .agentv/templates/deep-2.yaml -> .agentv/templates/deep-3.yaml -> deep-4",
        "Error: Skipping test 'by-path': Invalid assertion template file in 'by-path': shared/mapped.yaml is missing "
        "a top-level assertions array",
        "Error: Skipping test 'no-list': Invalid assertion template file in 'no-list': .agentv/templates/no-list.yaml "
        "is missing a top-level assertions array"]
    shutil.copytree(GOOD, tmp_path / "good")
    (tmp_path / "good" / ".git").mkdir()
    assert model_tests(tmp_path / "good", "suite.eval.yaml") == runner_tests(tmp_path / "good", "suite.eval.yaml") == [
        ("deep", "", [("user", "Summarise the report.")], [], [("rubrics", "llm-grader"), ("is-json", "is-json")])]


# templates whose strings pool with the list's, an include within a template (three deep: the runner's limit), and
# a template the runner cannot expand
POOLED = ("tests:\n"
          "  - id: pooled\n"
          "    input: q\n"
          "    assertions:\n"
          "      - Is short.\n"
          "      - include: polite\n"
          "      - {type: is-json}\n"
          "  - id: cycle\n"
          "    input: q\n"
          "    criteria: c\n"
          "    assertions: [include: loop]\n")
POOLED_TEMPLATES = ((".agentv/templates/polite.yaml", "assertions:\n  - Thanks the user.\n  - include: deeper\n"),
                    (".agentv/templates/deeper.yaml", "assertions:\n  - include: deepest\n  - {type: equals, value: e}\n"),
                    (".agentv/templates/deepest.yaml", "assertions:\n  - {type: contains, value: c}\n  - Ends well.\n"),
                    (".agentv/templates/loop.yaml", "assertions:\n  - include: loop\n"))


def test_the_model_pools_a_templates_strings_with_the_lists_and_reports_a_cycle(tmp_path):
    assert run_concise(write_suite(tmp_path, POOLED, POOLED_TEMPLATES), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:11:27: EV410 [error] assertion template 'loop' cannot be expanded: the includes make a cycle "
        "(.agentv/templates/loop.yaml -> .agentv/templates/loop.yaml); the runner skips the test\n"), "")
    model = lint_file(str(tmp_path / "a.eval.yaml"), Config(root=str(tmp_path))).model
    rubrics, *rest = model.tests[0].assertions
    assert (rubrics.name, rubrics.weight, rubrics.settings) == (
        "rubrics", 3.0, {"criteria": ("Is short.", "Thanks the user.", "Ends well.")})
    assert [(a.name, a.type) for a in rest] == [("contains-c", "contains"), ("equals-e", "equals"), ("is-json", "is-json")]
    assert model.tests[1].assertions == (Include("loop"),)


@pytest.mark.runner
def test_the_runner_pools_a_templates_strings_and_skips_the_test_with_a_cycle(tmp_path):
    write_suite(tmp_path, POOLED.split("  - id: cycle")[0], POOLED_TEMPLATES)
    assert model_tests(tmp_path, "a.eval.yaml") == runner_tests(tmp_path, "a.eval.yaml")
    loaded = load_tests(write_suite(tmp_path, POOLED), ["a.eval.yaml"])["a.eval.yaml"]
    assert [test["id"] for test in loaded["tests"]] == ["pooled"]
    rubrics = loaded["tests"][0]["assertions"][0]
    assert (rubrics["weight"], [item["outcome"] for item in rubrics["rubrics"]]) == (
        3, ["Is short.", "Thanks the user.", "Ends well."])
    assert loaded["logs"] == ["Error: Skipping test 'cycle': Assertion template cycle detected in 'cycle': "
                              ".agentv/templates/loop.yaml -> .agentv/templates/loop.yaml"]


# an include beside a grader's keys, beside a weight alone, and one standing alone
INCLUDE_BESIDE = ("tests:\n"
                  "  - {id: typed, input: hi, assertions: [{include: ./other.yaml, type: contains, value: x}]}\n"
                  "  - {id: weighed, input: hi, assertions: [{include: ./other.yaml, weight: 2}]}\n"
                  "  - {id: alone, input: hi, assertions: [{include: ./other.yaml}]}\n")
OTHER = (("other.yaml", "assertions:\n  - {type: contains, value: from-template}\n"),)


def test_an_include_beside_other_keys_is_an_error(tmp_path):
    write_suite(tmp_path, INCLUDE_BESIDE, OTHER)
    alone = ("EV115 [error] 'include' is read only as the item's one key: beside other keys the runner reads the item "
             "as an assertion and never includes the template; write the include as an item of its own\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:42: {alone}"
        f"a.eval.yaml:3:44: {alone}"
        "a.eval.yaml:3:44: EV301 [error] assertion has no 'type' (expected one of 'contains', 'icontains', "
        "'starts-with', 'ends-with', 'equals', 'contains-any', 'contains-all', 'icontains-any', 'icontains-all', "
        "'regex', 'is-json', 'latency', 'cost', 'token-usage', 'execution-metrics', 'skill-trigger', 'tool-trajectory', "
        "'field-accuracy', 'code-grader', 'llm-grader', 'rubrics', 'rubric', 'inline-assert', 'composite', or a custom "
        "grader's name); the runner drops it\n"), "")


@pytest.mark.runner
def test_the_runner_includes_a_template_only_from_an_item_of_the_one_key(tmp_path):
    write_suite(tmp_path, INCLUDE_BESIDE, OTHER)
    loaded = load_tests(tmp_path, ["a.eval.yaml"])["a.eval.yaml"]
    assert {test["id"]: [grader["value"] for grader in test.get("assertions") or ()] for test in loaded["tests"]} == {
        "typed": ["x"], "weighed": [], "alone": ["from-template"]}
    assert "Warning: Skipping evaluator with invalid type in 'weighed'" in loaded["logs"]
