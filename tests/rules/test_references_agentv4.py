"""What an AgentV 4.42.4 suite points at, checked as its loader and runner look it up: file:// prompts and
their templates, bare prompts that look like paths (sent as text), executable prompts' files, custom
assertion types ('.agentv/assertions/'), and the files a suite reads from its own folder."""
from __future__ import annotations

from clirun import run_concise

SUITE = """\
workspace: ./missing-workspace.yaml
tests:
  - id: a
    criteria: c
    input: hi
    assertions:
      - {name: g1, type: llm-grader, prompt: "file://prompts/judge.md"}
      - {name: g2, type: llm-grader, prompt: "file://prompts/nothing.md"}
      - {name: g3, type: llm-grader, prompt: prompts/judge.md}
      - {name: g4, type: llm-grader, prompt: {command: [bun, prompts/gone.ts]}}
      - {name: g5, type: word-count}
      - {name: g6, type: sentiment-check}
      - {name: g7, type: word_count}
  - file://more-tests.yaml
"""


def test_each_reference_of_an_agentv_4_suite_is_looked_up_as_the_runner_does(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals" / "prompts").mkdir(parents=True)
    (tmp_path / ".agentv" / "assertions").mkdir(parents=True)
    (tmp_path / ".agentv" / "assertions" / "word-count.ts").write_text("export default {}\n")
    (tmp_path / "evals" / "prompts" / "judge.md").write_text("Grade {{ output }} against {{ criteria }} and {{ colour }}.\n")
    (tmp_path / "evals" / "a.eval.yaml").write_text(SUITE)
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:1:12: EV401 [error] workspace file './missing-workspace.yaml' not found (looked in: evals/); "
        "the runner rejects the suite\n"
        "evals/a.eval.yaml:7:46: EV406 [warning] prompt template 'prompts/judge.md' uses unknown variable "
        "'{{ colour }}'; known: 'expected_output', 'criteria', 'metadata', 'metadata_json', 'rubrics', 'rubrics_json', "
        "'input', 'output', 'file_changes', 'tool_calls'\n"
        "evals/a.eval.yaml:8:46: EV404 [error] prompt file 'prompts/nothing.md' not found (looked in: evals/, ./); the "
        "runner skips the test\n"
        "evals/a.eval.yaml:9:46: EV404 [error] prompt 'prompts/judge.md' looks like a path, but the runner reads a "
        "prompt from a file only after 'file://': it sends these words to the grader as its prompt; write "
        "'file://prompts/judge.md'\n"
        "evals/a.eval.yaml:10:62: EV408 [error] prompt command file 'prompts/gone.ts' not found (looked in: evals/, "
        "./); the runner skips the test\n"
        "evals/a.eval.yaml:12:26: EV301 [error] assertion type 'sentiment-check' is no built-in kind and no custom "
        "grader '.agentv/assertions/sentiment-check.ts' (or .js, .mts, .mjs) is found from this folder up; the run "
        "fails with 'Unknown grader type'\n"
        "evals/a.eval.yaml:14:5: EV401 [error] file of tests 'more-tests.yaml' not found (looked in: evals/); the "
        "runner rejects the suite\n"), "")


def test_a_template_without_the_answer_makes_the_runner_skip_the_test(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "judge.md").write_text("Is {{ criteria }} met?\n")
    (tmp_path / "evals" / "a.eval.yaml").write_text(
        "tests:\n  - id: a\n    criteria: c\n    input: hi\n    assertions:\n"
        "      - {name: g, type: llm-grader, prompt: 'file://judge.md'}\n")
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:6:45: EV405 [error] prompt template 'judge.md' uses neither '{{ output }}' nor "
        "'{{ expected_output }}'; the runner skips the test\n"), "")


def test_an_aggregator_prompt_is_its_words_even_after_file(tmp_path):
    """An llm-grader aggregator's prompt is sent as written, a path included (AgentV 4.42.4's composite grader
    uses the words, never a file's text); after 'file://' the runner also needs the file, or skips the test."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "decide.md").write_text("Decide from {{EVALUATOR_RESULTS_JSON}}\n")
    (tmp_path / "evals" / "a.eval.yaml").write_text(
        "tests:\n  - id: a\n    criteria: c\n    input: hi\n    assertions:\n"
        "      - name: both\n        type: composite\n        assertions:\n"
        "          - {name: m, type: contains, value: x}\n"
        "        aggregator: {type: llm-grader, prompt: 'file://decide.md'}\n"
        "  - id: b\n    criteria: c\n    input: hi\n    assertions:\n"
        "      - name: both\n        type: composite\n        assertions:\n"
        "          - {name: m, type: contains, value: x}\n"
        "        aggregator: {type: llm-grader, prompt: 'file://gone.md'}\n"
        "  - id: c\n    criteria: c\n    input: hi\n    assertions:\n"
        "      - name: both\n        type: composite\n        assertions:\n"
        "          - {name: m, type: contains, value: x}\n"
        "        aggregator: {type: llm-grader, prompt: 'Decide from {{EVALUATOR_RESULTS_JSON}}'}\n")
    words = ("the runner sends these words as the aggregator's prompt, never a file's text (after 'file://' it only "
             "checks that the file exists): write the prompt itself, with {{EVALUATOR_RESULTS_JSON}} where the "
             "members' results go")
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        f"evals/a.eval.yaml:10:48: EV404 [error] aggregator prompt 'decide.md' looks like a path, but {words}\n"
        "evals/a.eval.yaml:19:48: EV404 [error] prompt file 'gone.md' not found (looked in: evals/, ./); the runner "
        "skips the test\n"), "")
