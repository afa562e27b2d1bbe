"""A conversation turn's graders, which AgentV 4.42.4's loader passes on as written (yaml-parser.ts parseTurns): what
a test's own graders get from the loader and a turn's do not (EV307), checked against the runner's runEvaluation."""
from __future__ import annotations

import pytest

from agentv_runner import run_suite
from agreement import run_written, write_suite
from clirun import run_concise


def _turn(test_id: str, grader: str) -> str:
    return (f"  - id: {test_id}\n    mode: conversation\n    input: hi\n    turns:\n      - input: q\n"
            f"        assertions: [{grader}]\n")


# each test's one turn, graded by one grader; what the runner scores the test (the turn's score)
SCORED = {
    "rubric-defaults": ("{type: llm-grader, rubrics: [{outcome: Be polite}]}", 0),
    "rubric-complete": ("{type: llm-grader, rubrics: [{id: criterion-1, weight: 1, outcome: Be polite}]}", 1),
    "include": ("{include: answered}", 0),
    "include-written": ("{type: contains, value: answer}", 1),
    "latency": ("{type: latency, threshold: 600000}", 0),
    "metrics": ("{type: execution-metrics, max_tokens: 100000}", 0),
}
TURN_GRADERS = "tests:\n" + "".join(_turn(test_id, grader) for test_id, (grader, _) in SCORED.items()) \
    + _turn("prompt-file", "{type: llm-grader, prompt: 'file://judge.md'}")
FILES = (("judge.md", "JUDGE FILE TEXT {{ output }}\n"),
         (".agentv/templates/answered.yaml", "assertions:\n  - type: contains\n    value: answer\n"))


def test_what_a_turns_grader_does_not_get_as_a_tests_own_does_is_an_error(tmp_path):
    write_suite(tmp_path, TURN_GRADERS, FILES)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:52: EV307 [error] a turn's rubric item needs 'id' and 'weight': the runner passes a turn's "
        "graders on as written, with no defaults filled in, so the grader matches no verdict to this item (or weighs "
        "it as nothing) and scores 0\n"
        "a.eval.yaml:19:23: EV307 [error] an include in a turn is not expanded: the runner passes a turn's graders on "
        "as written, so this one is a grader of no type, which fails ('Unknown grader type') and scores 0; write the "
        "template's assertions here\n"
        "a.eval.yaml:31:29: EV307 [error] a turn's 'latency' grader always scores 0: the runner grades a turn without "
        "the run's duration, cost and token usage; grade it in the test's own 'assertions'\n"
        "a.eval.yaml:37:48: EV307 [error] a turn's execution-metrics 'max_tokens' always fails: the runner grades a "
        "turn without the run's duration, cost and token usage; check it in the test's own 'assertions'\n"
        "a.eval.yaml:43:49: EV307 [error] a turn's grader's prompt 'file://judge.md' is not read from a file: the "
        "runner passes a turn's graders on as written, so these words are the grader's criteria; write the prompt's "
        "text, or grade in the test's own 'assertions'\n"), "")


@pytest.mark.runner
def test_the_runner_grades_a_turn_with_its_graders_as_written(tmp_path):
    ran = run_written(tmp_path, TURN_GRADERS, FILES)
    assert ran["error"] is None
    assert {test: ran["scores"][test] for test in SCORED} == {test: score for test, (_, score) in SCORED.items()}
    (prompt,) = [graded["prompt"] for graded in ran["graded"] if graded["test"] == "prompt-file/turn-1"]
    assert "[[ ## criteria ## ]]\nfile://judge.md\n" in prompt and "JUDGE FILE TEXT" not in prompt


CHECK = ("evals/check.py", "import json, sys\njson.load(sys.stdin)\nprint(json.dumps({'score': 1, 'assertions': []}))\n")
# a suite in evals/ whose turns' graders name files and settings as a test's own graders would
IN_A_FOLDER = "tests:\n" + "".join(_turn(test_id, grader) for test_id, grader in (
    ("beside-the-suite", "{type: code-grader, command: [python3, check.py], threshold: 3}"),
    ("from-the-root", "{type: code-grader, command: [python3, evals/check.py], config: {threshold: 3}}"),
    ("bare-prompt", "{type: llm-grader, prompt: ./judge.md}"),
    ("preprocessed", "{type: llm-grader, preprocessors: [{type: txt, command: [node, convert.mjs]}]}"),
    ("trajectory", "{type: tool-trajectory, mode: in_order, expected: [{tool: Read, max_duration_ms: 9}], "
                   "args_match: superset}"),
    ("rubric-criteria", "{type: llm-grader, rubrics: [{id: r1, weight: 1, criteria: Be polite}]}"),
    ("fields", "{type: field-accuracy, fields: [{path: total, match: exact}]}")))


def test_a_turns_grader_finds_its_files_from_the_root_and_reads_its_settings_as_written(tmp_path):
    write_suite(tmp_path, "", (CHECK, ("evals/a.eval.yaml", IN_A_FOLDER), ("evals/judge.md", "x\n"),
                               ("evals/convert.mjs", "")))
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:7:61: EV408 [error] script file 'check.py' not found in ./ (the folder the command runs in; "
        "a turn's grader runs in the folder the run starts in, taken as the repository root, not the eval file's "
        "folder); the command fails when the grader runs\n"
        "evals/a.eval.yaml:7:72: EV307 [error] 'threshold' does not reach a turn's code-grader: the runner passes a "
        "turn's graders on as written, and the script gets 'config' alone; move it under 'config'\n"
        "evals/a.eval.yaml:19:49: EV404 [error] prompt './judge.md' looks like a path, but a turn's grader reads its "
        "prompt as written: it sends these words to the grader as its criteria; write the prompt's text\n"
        "evals/a.eval.yaml:25:85: EV408 [error] preprocessor command file 'convert.mjs' not found (looked in: ./; a "
        "turn's grader runs in the folder the run starts in, taken as the repository root, not the eval file's "
        "folder); the preprocessor fails when the grader runs, and the grader gets a warning in place of the file's "
        "text\n"
        "evals/a.eval.yaml:31:86: EV307 [error] 'max_duration_ms' is not read in a turn's expected tool call: the "
        "runner passes a turn's graders on as written, and the grader reads only 'maxDurationMs'; write "
        "'maxDurationMs' here\n"
        "evals/a.eval.yaml:31:108: EV307 [error] 'args_match' is not read in a turn's tool-trajectory: the runner "
        "passes a turn's graders on as written, and the grader reads only 'argsMatch'; write 'argsMatch' here\n"
        "evals/a.eval.yaml:37:52: EV307 [error] a turn's rubric item needs 'outcome' ('criteria' is not read there): "
        "the runner passes a turn's graders on as written, so the grader is shown 'undefined' as this criterion\n"
        "evals/a.eval.yaml:43:29: EV307 [error] a turn's field-accuracy grader finds no expected data and scores 0: "
        "the runner passes a turn's 'expected_output' on as written, and the grader reads only a message {role: "
        "assistant, content: {...}} there; write the turn's expected output so\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_turns_code_grader_in_the_folder_it_starts_in(tmp_path):
    """run_suite starts the run in the repository's root: the script beside the suite is not found there."""
    suite = "tests:\n" + "".join(_turn(test_id, grader) for test_id, grader in (
        ("beside-the-suite", "{type: code-grader, command: [python3, check.py]}"),
        ("from-the-root", "{type: code-grader, command: [python3, evals/check.py]}")))
    (tmp_path / "repo").mkdir()
    (tmp_path / "home").mkdir()
    repo = write_suite(tmp_path / "repo", "", (CHECK, ("evals/a.eval.yaml", suite)))
    ran = run_suite(repo, "evals/a.eval.yaml", tmp_path / "home")
    assert (ran["error"], ran["scores"]) == (None, {"beside-the-suite": 0, "from-the-root": 1})


def _composite(path: str) -> str:
    return ("{name: c, type: composite, assertions: [{name: a, type: contains, value: zzz}], "
            f"aggregator: {{type: code-grader, path: {path}}}}}")


AGGREGATORS = ("tests:\n"
               f"  - {{id: missing, input: hi, assertions: [{_composite('python3 gone.py')}]}}\n"
               f"  - {{id: beside, input: hi, assertions: [{_composite('python3 agg.py')}]}}\n"
               + _turn("turn-beside", _composite("python3 agg.py"))
               + _turn("turn-from-root", _composite("python3 evals/agg.py")))
AGGREGATOR = ("evals/agg.py", "import json, sys\njson.load(sys.stdin)\nprint(json.dumps({'score': 1}))\n")


def test_a_code_grader_aggregators_script_is_looked_up_in_the_folder_it_runs_in(tmp_path):
    """The runner runs a code-grader aggregator's 'path' through the shell in the eval file's folder; a turn's
    composite, in the folder the run starts in (orchestrator.ts: the folder of no input file, process.cwd())."""
    write_suite(tmp_path, "", (AGGREGATOR, ("evals/a.eval.yaml", AGGREGATORS)))
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:2:161: EV408 [error] script file 'gone.py' not found in evals/ (the script's working "
        "folder)\n"
        "evals/a.eval.yaml:9:140: EV408 [error] script file 'agg.py' not found in ./ (the script's working folder; a "
        "turn's grader runs in the folder the run starts in, taken as the repository root, not the eval file's "
        "folder)\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_code_grader_aggregator_where_its_composite_runs(tmp_path):
    (tmp_path / "repo").mkdir()
    (tmp_path / "home").mkdir()
    repo = write_suite(tmp_path / "repo", "", (AGGREGATOR, ("evals/a.eval.yaml", AGGREGATORS)))
    ran = run_suite(repo, "evals/a.eval.yaml", tmp_path / "home")
    assert (ran["error"], ran["scores"]) == (None, {"missing": 0, "beside": 1, "turn-beside": 0, "turn-from-root": 1})
