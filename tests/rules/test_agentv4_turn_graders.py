"""A conversation turn's graders, which AgentV 4.42.4's loader passes on as written (yaml-parser.ts parseTurns): what
a test's own graders get from the loader and a turn's do not (EV307), checked against the runner's runEvaluation."""
from __future__ import annotations

import os

import pytest

from agentv_runner import load_tests
from agreement import run_files, run_written, scores_of, write_suite
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
# why a grader of the run's data always fails in a conversation, and what to do
NO_DATA = ("the runner grades a conversation, its turns and its transcript, without the run's duration, cost and token "
           "usage; grade it in a test without 'mode: conversation'")
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
        f"a.eval.yaml:31:29: EV307 [error] a turn's 'latency' grader always scores 0: {NO_DATA}\n"
        f"a.eval.yaml:37:48: EV307 [error] a turn's execution-metrics 'max_tokens' always fails: {NO_DATA}\n"
        "a.eval.yaml:43:49: EV307 [error] a turn's grader's prompt 'file://judge.md' is not read from a file: the "
        "runner passes a turn's graders on as written, so these words are the grader's criteria; write the prompt's "
        "text, or grade in the test's own 'assertions'\n"), "")


@pytest.mark.runner
def test_the_runner_grades_a_turn_with_its_graders_as_written(tmp_path):
    ran = run_written(tmp_path, TURN_GRADERS, FILES)
    assert ran["error"] is None
    assert {test: ran["scores"][test] for test in SCORED} == scores_of(SCORED)
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
    ran = run_files(tmp_path, (CHECK, ("evals/a.eval.yaml", suite)))
    assert (ran["error"], ran["scores"]) == (None, {"beside-the-suite": 0, "from-the-root": 1})


def _composite(path: str) -> str:
    return ("{name: c, type: composite, assertions: [{name: a, type: contains, value: zzz}], "
            f"aggregator: {{type: code-grader, path: {path}}}}}")


AGGREGATORS = ("tests:\n"
               f"  - {{id: missing, input: hi, assertions: [{_composite('python3 gone.py')}]}}\n"
               f"  - {{id: beside, input: hi, assertions: [{_composite('python3 agg.py')}]}}\n"
               f"  - {{id: bare, input: hi, assertions: [{_composite('agg.py')}]}}\n"
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
        "evals/a.eval.yaml:4:158: EV408 [error] aggregator script file 'agg.py' is in evals/, but the shell it runs "
        "in looks a command's first word without a '/' up on PATH only, so the composite scores 0 unless PATH has one; "
        "write './agg.py' (an executable file) or put its interpreter first\n"
        "evals/a.eval.yaml:10:140: EV408 [error] script file 'agg.py' not found in ./ (the script's working folder; a "
        "turn's grader runs in the folder the run starts in, taken as the repository root, not the eval file's "
        "folder)\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_code_grader_aggregator_where_its_composite_runs(tmp_path):
    ran = run_files(tmp_path, (AGGREGATOR, ("evals/a.eval.yaml", AGGREGATORS)))
    assert (ran["error"], ran["scores"]) == (None, {"missing": 0, "beside": 1, "bare": 0, "turn-beside": 0,
                                                    "turn-from-root": 1})


NESTED = ("tests:\n"
           "  - id: dropped\n"
           "    input: hi\n"
           "    criteria: c\n"
           "    turns:\n"
           "      - input: q\n"
           "        assertions:\n"
           "          - {type: latency, threshold: 5}\n"
           "          - {type: llm-grader, prompt: 'file://x.md'}\n"
           "          - {include: gone}\n"
           "  - id: composite\n"
           "    mode: conversation\n"
           "    input: hi\n"
           "    turns:\n"
           "      - input: q\n"
           "        expected_output: Y\n"
           "        assertions:\n"
           "          - name: c\n"
           "            type: composite\n"
           "            assertions:\n"
           "              - {name: m1, type: llm-grader, rubrics: [{id: criterion-1, outcome: Polite}]}\n"
           "              - {name: m2, type: contains, value: answer}\n"
           "            aggregator: {type: code_grader, path: ./missing.sh}\n"
           "          - {include: gone}\n"
           "  - id: ranges\n"
           "    mode: conversation\n"
           "    input: hi\n"
           "    turns:\n"
           "      - input: q\n"
           "        assertions:\n"
           "          - type: llm-grader\n"
           "            rubrics:\n"
           "              - {id: criterion-1, weight: 1, score_ranges: [{score_range: [0, 10], outcome: Good}]}\n"
           "              - {id: criterion-2, weight: 1, outcome: Polite, score_ranges: {0: Rude, 7: Polite}}\n"
           "          - {type: execution-metrics, max_tool_calls: 5, maxTokens: 10}\n"
           "          - {type: latency, threshold: 5, negate: true}\n")


def test_a_turn_the_runner_plays_is_checked_to_its_composites_members(tmp_path):
    """A turn of a test not in conversation mode is never played (only EV121 says so); a turn's composite makes its
    members and aggregator from their settings as written; a rubric item with score bands needs no outcome, and its
    bands must be a list; a negated grader of no data always passes."""
    write_suite(tmp_path, "", (("evals/a.eval.yaml", NESTED),))
    assert run_concise(tmp_path, "--no-cache", "evals/a.eval.yaml") == (1, (
        "evals/a.eval.yaml:5:5: EV121 [error] 'turns' is ignored without 'mode: conversation': the runner runs the "
        "test once, on its input alone, and drops every turn and its assertions; add 'mode: conversation'\n"
        "evals/a.eval.yaml:16:9: EV121 [error] a turn's 'expected_output' is not shown to its graders: only a "
        "code-grader or field-accuracy reads the turn's (an llm-grader, the turn's criteria or the test's when the "
        "turn has none, gets the test's expected output as its reference answer); write what the answer must say in "
        "the turn's 'assertions'\n"
        "evals/a.eval.yaml:21:57: EV307 [error] a turn's rubric item needs 'weight': the runner passes a turn's "
        "graders on as written, with no defaults filled in, so the grader matches no verdict to this item (or weighs "
        "it as nothing) and scores 0\n"
        "evals/a.eval.yaml:23:32: EV307 [error] a turn's aggregator type 'code_grader' is not read: the runner passes "
        "a turn's graders on as written, and the composite averages its members' scores instead; write 'code-grader'\n"
        "evals/a.eval.yaml:24:14: EV307 [error] an include in a turn is not expanded: the runner passes a turn's "
        "graders on as written, so this one is a grader of no type, which fails ('Unknown grader type') and scores 0; "
        "write the template's assertions here\n"
        "evals/a.eval.yaml:34:77: EV307 [error] a turn's rubric item's 'score_ranges' must be a list of ranges: the "
        "runner passes a turn's graders on as written, so the mapping shorthand is not expanded and the grader scores "
        "the item as a plain criterion\n"
        "evals/a.eval.yaml:35:58: EV307 [error] 'maxTokens' is not read in a turn's execution-metrics: the runner "
        "passes a turn's graders on as written, and the grader reads only 'max_tokens', which always fails there; "
        "write 'max_tokens' here\n"
        f"evals/a.eval.yaml:36:20: EV307 [error] a turn's 'latency' grader always scores 1 (negated): {NO_DATA}\n"),
        "")


@pytest.mark.runner
def test_the_runner_drops_the_turns_of_a_test_without_mode_and_takes_a_composites_members_as_written(tmp_path):
    """The test without mode runs once (its criteria, 1); the composite's member without a weight scores 0, the
    'code_grader' aggregator averages (0.5), and the include fails (0): the turn scores 0.25."""
    ran = run_files(tmp_path, (("evals/a.eval.yaml", NESTED.split("  - id: ranges")[0]),))
    assert (ran["error"], ran["scores"]) == (None, {"dropped": 1, "composite": 0.25})
    assert [sent["test"] for sent in ran["sent"]] == ["dropped", "composite/turn-1"]


def test_a_file_of_tests_that_holds_only_conversations_is_read_as_agentv_4(tmp_path):
    """A top-level list is read by no release but AgentV 4.42.4 (a file of tests a suite names), whatever keys its
    tests hold, unless they are AgentV 2.2's."""
    cases = "- id: x\n  mode: conversation\n  input: hi\n  turns:\n    - {input: q, assertions: [{type: cost, budget: 1}]}\n"
    write_suite(tmp_path, "tests: ./cases.yaml\n", (("cases.yaml", cases),))
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        f"cases.yaml:5:38: EV307 [error] a turn's 'cost' grader always scores 0: {NO_DATA}\n"), "")


# a turn's grader lists that no loader reads, and what the runner scores each test
LISTS = {
    "null-entry": ("[~, {type: contains, value: answer}]", 0),
    "not-a-list": ("{type: contains, value: zzz}", 1),
    "number": ("[5, {type: contains, value: answer}]", 0.5),
}
LIST_SUITE = "tests:\n" + "".join(
    f"  - id: {test_id}\n    mode: conversation\n    input: hi\n    turns:\n      - input: q\n"
    f"        assertions: {graders}\n" for test_id, (graders, _) in LISTS.items())


def test_a_turns_grader_list_is_read_as_written(tmp_path):
    """The runner takes a turn's list as written: a null entry fails the whole test, a list that is none is
    ignored, an entry that is no grader fails as one."""
    write_suite(tmp_path, LIST_SUITE)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:22: EV306 [error] an assertion must be a mapping with 'type', or a criterion string, found "
        "null; in a turn the runner takes it as written and fails the whole test on it\n"
        "a.eval.yaml:13:21: EV306 [error] 'assertions' must be a list of assertions, found a mapping; the runner "
        "ignores it and grades the turn as one without assertions\n"
        "a.eval.yaml:19:22: EV306 [error] an assertion must be a mapping with 'type', or a criterion string, found 5 "
        "(a number); in a turn the runner takes it as written, so the grader fails ('Unknown grader type') and scores "
        "0\n"), "")


@pytest.mark.runner
def test_the_runner_takes_a_turns_grader_list_as_written(tmp_path):
    ran = run_written(tmp_path, LIST_SUITE)
    assert (ran["error"], ran["scores"]) == (None, scores_of(LISTS))


CONVERSATION_OWN = ("tests:\n"
                    "  - id: c\n"
                    "    mode: conversation\n"
                    "    input: hi\n"
                    "    turns: [{input: q}]\n"
                    "    assertions:\n"
                    "      - {type: latency, threshold: 5000}\n"
                    "      - {name: m, type: composite, aggregator: {type: weighted_average}, assertions: [\n"
                    "          {name: e, type: execution-metrics, maxTokens: 10, max_tool_calls: 3}]}\n"
                    "  - {id: plain, input: hi, assertions: [{type: latency, threshold: 5000}]}\n")


def test_a_conversation_tests_own_grader_of_the_runs_data_always_fails(tmp_path):
    """The runner grades a conversation's transcript without the run's duration, cost and token usage, as its
    turns (orchestrator.ts runConversationMode gives evaluateCandidate none of them); a test's own execution-metrics
    is read by the loader in either spelling."""
    write_suite(tmp_path, CONVERSATION_OWN)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:7:16: EV307 [error] a conversation test's 'latency' grader always scores 0: {NO_DATA}\n"
        f"a.eval.yaml:9:46: EV307 [error] a conversation test's execution-metrics 'maxTokens' always fails: "
        f"{NO_DATA}\n"), "")


@pytest.mark.runner
def test_the_runner_grades_a_conversation_tests_own_graders_without_the_runs_data(tmp_path):
    """The target reports its duration, tokens and cost (``run.mjs``): the plain test's latency passes on them, the
    conversation's fails."""
    ran = run_written(tmp_path, CONVERSATION_OWN)
    assert (ran["error"], ran["scores"]["plain"]) == (None, 1)
    assert ran["scores"]["c"] < 1


SUITE_COMPOSITE = ("assertions:\n"
                   "  - name: both\n"
                   "    type: composite\n"
                   "    aggregator: {type: weighted_average}\n"
                   "    assertions:\n"
                   "      - {name: said, type: contains, value: answer}\n"
                   "      - {name: fast, type: latency, threshold: 100000}\n"
                   "      - {type: cost, budget: 5}\n"
                   "tests:\n"
                   "  - {id: talk, mode: conversation, input: hi, turns: [{input: q}]}\n"
                   "  - {id: plain, input: hi, criteria: c}\n")


def test_a_suites_default_composites_members_of_the_runs_data_always_fail_for_its_conversation_tests(tmp_path):
    """The loader keeps a composite's member with a 'name' and a grader kind as its type (the nameless one is
    EV302's, and dropped)."""
    write_suite(tmp_path, SUITE_COMPOSITE)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:28: EV307 [error] for the conversation test 'talk', the suite's 'latency' grader always scores 0: "
        "the runner grades a conversation, its turns and its transcript, without the run's duration, cost and token "
        "usage; give a conversation test 'execution: {skip_defaults: true}'\n"
        "a.eval.yaml:8:10: EV302 [error] composite member has no string 'name'; the runner drops the member\n"), "")


@pytest.mark.runner
def test_the_runner_grades_a_suites_default_composite_without_the_runs_data_in_a_conversation(tmp_path):
    ran = run_written(tmp_path, SUITE_COMPOSITE)
    assert (ran["error"], ran["scores"]["plain"]) == (None, 1)
    assert ran["scores"]["talk"] < 1
    assert "Warning: Skipping member evaluator with invalid name/type in composite 'both'" in ran["logs"]


def test_a_shell_word_is_looked_up_only_as_the_shell_takes_it_and_a_turns_aggregator_from_its_folder(tmp_path):
    """A code-grader's string command and an aggregator's path run in a shell: a first word with quotes, '~', a glob
    or a backslash is the shell's to read. A turn's aggregator runs in its own 'cwd' (read there), or in the folder
    of the input files of the test or the suite (not looked up)."""
    suite = ("input_files: [data/doc.txt]\n"
             "tests:\n"
             "  - id: t\n"
             "    input: hi\n"
             "    assertions:\n"
             "      - {name: a, type: code-grader, command: \"'./my dir/g.sh' --x\"}\n"
             "      - {name: b, type: code-grader, command: \"~/g.sh\"}\n"
             "      - {name: c, type: code-grader, command: \"./g*.sh\"}\n"
             + _turn("cwd", _composite("./agg.sh").replace("path: ./agg.sh", "path: ./agg.sh, cwd: scripts"))
             + _turn("input-file", _composite("./elsewhere.sh")))
    write_suite(tmp_path, suite, (("data/doc.txt", "x\n"), ("scripts/agg.sh", "#!/bin/sh\ncat\n")))
    (tmp_path / "scripts" / "agg.sh").chmod(0o755)
    # the suite's input files reach its conversation tests as JSON text (EV112), which is not what this case is about
    unattached = ("EV112 [error] the suite's 'input_files' are not attached to this conversation test: in a "
                  "conversation the runner sends a message whose content is no string as its JSON text, so the files "
                  "reach the agent as JSON, their paths and text in quotes; give the test 'execution: {skip_defaults: "
                  "true}' and put what the agent needs in its input text\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (
        1, f"a.eval.yaml:10:5: {unattached}a.eval.yaml:16:5: {unattached}", "")


def test_a_list_a_suite_names_is_a_file_of_tests_and_one_no_suite_names_is_no_eval_file(tmp_path):
    """The runner reads a top-level list only as the tests of a suite that names it (its tests' deprecated keys
    then warn); run alone, it rejects the file ('Invalid test file format')."""
    cases = "- {id: a, input: hi, expected_outcome: says hello}\n"
    write_suite(tmp_path, "tests: ./cases.yaml\n", (("cases.yaml", cases), ("other.eval.yaml", cases)))
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "cases.yaml:1:22: EV109 [warning] 'expected_outcome' in a test is deprecated (the runner warns); write "
        "'criteria'\n"
        "other.eval.yaml:1:1: EV008 [error] the top level is a list; an eval file must be a mapping with 'evalcases'\n"),
        "")


def test_a_conversation_tests_own_graders_are_read_as_the_loader_reads_them(tmp_path):
    """'assert' when 'assertions' is absent, a type with '_' read as '-'."""
    write_suite(tmp_path, "tests:\n  - id: c\n    mode: conversation\n    input: hi\n    turns: [{input: q}]\n"
                          "    assert:\n      - {type: token_usage, max_total: 5}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:7:16: EV307 [error] a conversation test's 'token-usage' grader always scores 0: {NO_DATA}\n"), "")


def test_a_suites_default_grader_of_the_runs_data_always_fails_for_its_conversation_tests(tmp_path):
    """The loader appends the suite's graders to each test's but those that skip the defaults
    (loaders/grader-parser.ts), and a conversation's are graded on its transcript, without the run's data."""
    write_suite(tmp_path, "assertions:\n  - {type: latency, threshold: 100000}\ntests:\n"
                          "  - {id: plain, input: hi, criteria: c}\n"
                          "  - {id: talk, mode: conversation, input: hi, turns: [{input: q}]}\n"
                          "  - {id: own, mode: conversation, input: hi, turns: [{input: q}], criteria: c,\n"
                          "     execution: {skip_defaults: true}}\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:12: EV307 [error] for the conversation test 'talk', the suite's 'latency' grader always scores 0: "
        "the runner grades a conversation, its turns and its transcript, without the run's duration, cost and token "
        "usage; give a conversation test 'execution: {skip_defaults: true}'\n"
        "a.eval.yaml:6:67: EV121 [error] the conversation test's 'criteria' is never graded: no turn has 'assertions' or "
        "an 'expected_output' and the test gets no graders, so the runner scores each turn 1 without grading; give the "
        "turns their 'assertions' (or the test its own, which grade the whole transcript)\n"), "")


# a suite whose default grader of the run's data its file of tests' conversation tests get
IN_A_FILE = (("evals/a.eval.yaml", "assertions:\n  - {type: latency, threshold: 600000}\ntests: ./cases.yaml\n"),
             ("evals/cases.yaml", "- {id: plain, input: hi, criteria: c}\n"
                                  "- {id: talk, mode: conversation, input: hi, turns: [{input: q}]}\n"
                                  "- {id: own, mode: conversation, input: hi, turns: [{input: q}],\n"
                                  "   execution: {skip_defaults: true}}\n"))


def test_a_suites_default_grader_of_the_runs_data_fails_for_the_conversation_tests_of_its_file_of_tests(tmp_path):
    """Reported at the test in the file of tests: the suite's own place does not show which test gets it."""
    write_suite(tmp_path, "", IN_A_FILE)
    assert run_concise(tmp_path, "--no-cache", "evals") == (1, (
        "evals/cases.yaml:2:14: EV307 [error] for this conversation test, the suite's 'latency' grader always scores 0: "
        "the runner grades a conversation, its turns and its transcript, without the run's duration, cost and token "
        "usage; give it 'execution: {skip_defaults: true}'\n"
        "evals/cases.yaml:3:44: EV106 [error] the conversation test grades nothing: no turn has 'assertions' or an "
        "'expected_output', and the test has no criteria and gets no graders, so the runner scores each turn 1 without "
        "grading; give the turns their 'assertions' (or the test its own, which grade the whole transcript)\n"), "")


@pytest.mark.runner
def test_the_runner_grades_the_conversation_tests_of_a_file_of_tests_with_the_suites_default_graders(tmp_path):
    ran = run_files(tmp_path, IN_A_FILE)
    assert (ran["error"], ran["scores"]) == (None, {"plain": 1, "talk": 0.5, "own": 1})


# each test's one turn; what the runner scores it: a grader the loader would drop (or a test it would skip) runs as
# written, and some mistakes change nothing in a turn
AS_WRITTEN = {
    "weight-text": ("{type: contains, value: answer}, {type: contains, value: zzz, weight: high}", 0),
    "weight-null": ("{type: contains, value: answer, weight: null}", 1),
    "old-type": ("{type: contains, value: answer}, {type: llm_judge, prompt: polite?}", 0.5),
    "required-no": ("{type: contains, value: answer}, {type: contains, value: zzz, required: 'no'}", 0),
    "unnamed-member": ("{type: composite, aggregator: {type: weighted_average}, assertions: "
                       "[{type: contains, value: answer}]}", 1),
    "min-score-text": ("{type: contains, value: answer, required: true, min_score: '0.4'}", 1),
    # a value that holds the word 'turn' is no message said of a turn already
    "mode-return": ("{type: contains, value: answer}, {type: tool-trajectory, mode: return, expected: []}", 0.5),
    # RegExp reads flags that are no text as JavaScript writes them as text: [i] as 'i', [i, m] as 'i,m'
    "flags-list": ("{type: regex, value: ANSWER, flags: [i]}", 1),
    "flags-joined": ("{type: regex, value: answer, flags: [i, m]}", 0),
    "flags-null": ("{type: regex, value: answer, flags: null}", 0),
}
REFUSED = ("the grader fails when it grades ('Invalid flags supplied to RegExp constructor') and scores 0; flags: d, g, i, "
           "m, s, u, v, y, each once")
AS_WRITTEN_SUITE = "tests:\n" + "".join(_turn(test_id, graders) for test_id, (graders, _) in AS_WRITTEN.items())


def test_a_turns_grader_is_reported_as_the_runner_runs_it(tmp_path):
    """The loader's checks do not run on a turn's graders: what they would drop runs as written."""
    write_suite(tmp_path, AS_WRITTEN_SUITE)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:92: EV304 [error] assertion 'weight' must be a finite number >= 0, found 'high'; in a turn the "
        "runner does not check a grader's weight: it weighs the turn's score with this one as written, which makes the "
        "score meaningless (0, NaN, or above 1)\n"
        "a.eval.yaml:19:62: EV301 [error] assertion type 'llm_judge' is deprecated; in a turn the runner takes the "
        "grader as written, so it fails ('Unknown grader type') and scores 0; use 'llm-grader'\n"
        "a.eval.yaml:25:94: EV110 [error] assertion 'required' must be true or false, found 'no'; in a turn the runner "
        "takes any text but '' as true, so this grader is required (the turn scores 0 when it scores below its "
        "min_score); write true or false\n"
        "a.eval.yaml:43:85: EV310 [error] invalid tool-trajectory mode 'return'; in a turn the runner takes the grader "
        "as written, so it fails ('Unknown mode') and scores 0; expected one of 'any_order', 'in_order', 'exact', "
        "'subset', 'superset'\n"
        "a.eval.yaml:55:58: EV110 [error] a turn's regex 'flags' that are no text are read as the text 'i,m': ',' is no "
        f"flag of a JavaScript regular expression; {REFUSED}\n"
        "a.eval.yaml:61:58: EV110 [error] a turn's regex 'flags' that are no text are read as the text 'null': 'l' and "
        f"'n' are no flag of a JavaScript regular expression; {REFUSED}\n"), "")


@pytest.mark.runner
def test_the_runner_runs_a_turns_graders_as_written(tmp_path):
    ran = run_written(tmp_path, AS_WRITTEN_SUITE)
    assert (ran["error"], ran["scores"]) == (None, scores_of(AS_WRITTEN))


MEMBERS_SUITE = ("tests:\n"
                 + _turn("member-rubric", "{type: composite, name: c, aggregator: {type: weighted_average}, assertions: "
                                          "[{name: a, type: rubric, rubrics: [{id: r1, outcome: polite}]}]}")
                 + _turn("member-typo", "{type: composite, name: c, aggregator: {type: weighted_average}, assertions: "
                                        "[{name: a, type: containz, value: answer}]}")
                 + _turn("member-number", "{type: composite, name: c, aggregator: {type: weighted_average}, assertions: "
                                          "[{name: a, type: contains, value: answer}, 5]}"))


def test_a_turns_composite_fails_whole_on_a_member_type_the_registry_does_not_know(tmp_path):
    """graders/composite.ts makes a member of a kind it knows as written, else fails the composite."""
    write_suite(tmp_path, MEMBERS_SUITE)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:116: EV307 [error] a turn's composite member of type 'rubric' makes the whole composite fail "
        "('Unsupported grader type in composite') and score 0: the runner passes a turn's graders on as written; write "
        "an llm-grader with 'rubrics'\n"
        "a.eval.yaml:13:116: EV301 [error] unknown assertion type 'containz' (did you mean 'contains'?); in a turn the "
        "runner takes the grader as written, so the whole composite fails ('Unsupported grader type in composite') and "
        "scores 0; built-in types: 'contains', 'icontains', 'starts-with', 'ends-with', 'equals', 'contains-any', "
        "'contains-all', 'icontains-any', 'icontains-all', 'regex', 'is-json', 'latency', 'cost', 'token-usage', "
        "'execution-metrics', 'skill-trigger', 'tool-trajectory', 'field-accuracy', 'code-grader', 'llm-grader', "
        "'rubrics', 'rubric', 'inline-assert', 'composite'\n"
        "a.eval.yaml:19:142: EV330 [error] a composite member must be a mapping with 'name' and 'type', found 5 (a "
        "number); in a turn the runner takes the grader as written, so the whole composite fails ('Unsupported grader "
        "type in composite') and scores 0\n"), "")


@pytest.mark.runner
def test_the_runner_fails_a_turns_composite_on_a_member_type_it_does_not_know(tmp_path):
    ran = run_written(tmp_path, MEMBERS_SUITE)
    assert (ran["error"], ran["scores"]) == (None, {"member-rubric": 0, "member-typo": 0, "member-number": 0})


# a turn's composite with its members where a test's own reads them, and a custom type spelt as the loader reads it;
# each turn's first grader passes, so a turn scores 0.5 when the second fails
HALF = "{type: contains, value: answer}, "
SPELT_SUITE = ("tests:\n"
               + _turn("evaluators", HALF + "{type: composite, name: c, aggregator: {type: weighted_average}, "
                                            "evaluators: [{name: a, type: contains, value: answer}]}")
               + _turn("no-members", HALF + "{type: composite, name: c, aggregator: {type: weighted_average}}")
               + _turn("snake-case", HALF + "{type: word_count}")
               + _turn("as-named", HALF + "{type: word-count}")
               + "  - {id: own, input: hi, assertions: [{type: word_count}]}\n")
SPELT = {"evaluators": 0.5, "no-members": 0.5, "snake-case": 0.5, "as-named": 1, "own": 1}
# a custom grader file, and a stand-in for the 'bun' that runs it, which this machine may not have
CUSTOM = ((".agentv/assertions/word-count.ts", "export {};\n"),)
BUN = "#!/bin/sh\ncat >/dev/null\necho '{\"score\": 1, \"assertions\": []}'\n"


def test_a_turns_grader_is_read_as_written_where_a_tests_own_is_read_otherwise(tmp_path):
    write_suite(tmp_path, SPELT_SUITE, CUSTOM)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:120: EV307 [error] a turn's composite reads its members only from 'assertions', not "
        "'evaluators': the runner passes a turn's graders on as written, so the composite finds no members, fails and "
        "scores 0; write 'assertions'\n"
        "a.eval.yaml:13:56: EV330 [error] composite assertion has no 'assertions' list of members; in a turn the runner "
        "takes the grader as written, so the composite finds no members, fails and scores 0\n"
        "a.eval.yaml:19:62: EV301 [error] turn grader type 'word_count' is not read as 'word-count': the runner takes a "
        "turn's graders as written, and its registry has no grader of that type, so the grader fails ('Unknown grader "
        "type') and scores 0; write 'word-count'\n"), "")


@pytest.mark.runner
def test_the_runner_reads_a_turns_composite_and_custom_type_as_written(tmp_path, monkeypatch):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "bun").write_text(BUN)
    (tmp_path / "bin" / "bun").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    ran = run_written(tmp_path, SPELT_SUITE, CUSTOM)
    assert (ran["error"], ran["scores"]) == (None, SPELT)


# conversation tests with a criteria: graded only by what grades a turn or the transcript
CRITERIA_SUITE = ("tests:\n"
                  "  - {id: ungraded, mode: conversation, input: hi, criteria: Stays polite, turns: [{input: q}]}\n"
                  "  - {id: turn, mode: conversation, input: hi, criteria: Stays polite,\n"
                  "     turns: [{input: q, assertions: [{type: contains, value: answer}]}]}\n"
                  "  - {id: own, mode: conversation, input: hi, criteria: Stays polite, turns: [{input: q}],\n"
                  "     assertions: [{type: llm-grader}]}\n"
                  "  - {id: rubrics, mode: conversation, input: hi, criteria: Stays polite, turns: [{input: q}],\n"
                  "     rubrics: [Is polite]}\n"
                  "  - {id: strings, mode: conversation, input: hi, criteria: Stays polite,\n"
                  "     turns: [{input: q, assertions: [Says the answer]},\n"
                  "             {input: r, assertions: [{type: equals, value: a}]}]}\n")


def test_a_conversation_tests_criteria_that_nothing_grades_is_an_error(tmp_path):
    write_suite(tmp_path, CRITERIA_SUITE)
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:2:51: EV121 [error] the conversation test's 'criteria' is never graded: no turn has 'assertions' or "
        "an 'expected_output' and the test gets no graders, so the runner scores each turn 1 without grading; give the "
        "turns their 'assertions' (or the test its own, which grade the whole transcript)\n"
        "a.eval.yaml:3:47: EV121 [error] the conversation test's 'criteria' is never graded: none of the graders the "
        "runner gives its turns and its transcript reads it, only an llm-grader, a code-grader, an inline-assert or a "
        "custom type does; write what the answers must do in the turns' 'assertions' (a string there is graded by an "
        "llm-grader)\n"), "")


def test_a_conversation_tests_criteria_an_included_grader_may_read_is_no_finding(tmp_path):
    """The loader expands an include into its template's graders (an llm-grader here), which read the criteria."""
    text = ("assertions: [{include: judge}]\ntests:\n"
            "  - {id: c, mode: conversation, criteria: polite, input: hi,\n"
            "     turns: [{input: hello, assertions: [{type: contains, value: hi}]}]}\n")
    files = ((".agentv/templates/judge.yaml", "assertions: [{type: llm-grader}]\n"),)
    assert run_concise(write_suite(tmp_path, text, files), "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_grades_a_conversation_only_by_its_turns_and_its_graders(tmp_path):
    ran = run_written(tmp_path, CRITERIA_SUITE)
    # the rubrics grader matches no verdict of the recording grader's (criterion-1) to its item, rubric-1
    assert (ran["error"], ran["scores"]) == (None, {"ungraded": 1, "turn": 1, "own": 1, "rubrics": 0.5, "strings": 0.5})
    assert sorted((graded["test"], "Stays polite" in graded["prompt"]) for graded in ran["graded"]) == [
        ("own/conversation", True), ("rubrics/conversation", True), ("strings/turn-1", True)]


# conversation tests with an expected output of their own: every turn's llm-grader gets it as its reference answer
EXPECTED_SUITE = ("tests:\n"
                  "  - {id: early, mode: conversation, input: hi, expected_output: The answer is 60.,\n"
                  "     turns: [{input: q, assertions: [Says 30]}, {input: r, assertions: [Says 60]}]}\n"
                  "  - {id: last, mode: conversation, input: hi, expected_output: The answer is 60.,\n"
                  "     turns: [{input: q, assertions: [{type: contains, value: answer}]}, {input: r, assertions: [Says 60]}]}\n")


def test_a_conversation_tests_expected_output_that_an_early_turns_llm_grader_gets_is_a_warning(tmp_path):
    assert run_concise(write_suite(tmp_path, EXPECTED_SUITE), "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:2:48: EV214 [warning] a conversation test's 'expected_output' is the reference answer of every "
        "turn's llm-grader: turn 1's grades its answer against it too, though the conversation has not reached it; put "
        "what each turn's answer must say in its 'assertions', and what the conversation must end with in the last "
        "turn's\n"), "")


@pytest.mark.runner
def test_the_runner_gives_every_turns_llm_grader_the_conversations_expected_output(tmp_path):
    ran = run_written(tmp_path, EXPECTED_SUITE)
    assert sorted((graded["test"], "The answer is 60." in graded["prompt"]) for graded in ran["graded"]) == [
        ("early/turn-1", True), ("early/turn-2", True), ("last/turn-2", True)]


# a conversation test's own text checks whose values its own messages hold
OWN_WORDS = ("tests:\n"
             "  - id: words\n    mode: conversation\n    input: [{role: system, content: You are a maths tutor.}]\n"
             "    turns: [{input: What is 15% of 200?}]\n    assertions: [{type: contains, value: '200'}]\n"
             "  - id: any\n    mode: conversation\n    input: [{role: system, content: You are a maths tutor.}]\n"
             "    turns: [{input: q}]\n    assertions: [{type: icontains-any, value: [xyz, TUTOR]}]\n"
             "  - id: negated\n    mode: conversation\n    input: hi {{ who }}\n    vars: {who: Ada}\n"
             "    turns: [{input: q}]\n    assertions: [{type: contains, value: Ada, negate: true}]\n"
             "  - id: all\n    mode: conversation\n    input: hi\n"
             "    turns: [{input: q}]\n    assertions: [{type: contains-all, value: [q, answer]}]\n")


def test_a_conversation_tests_own_text_check_that_its_own_messages_decide_is_a_warning(tmp_path):
    then = ("the runner grades a conversation test's own graders on its whole transcript, each message written 'role: "
            "content', so the grader")
    assert run_concise(write_suite(tmp_path, OWN_WORDS), "--no-cache", "a.eval.yaml") == (0, (
        f"a.eval.yaml:6:42: EV309 [warning] contains 'value' '200' is in turn 1's input: {then} passes whatever the "
        "answers; grade the answers in the turns' assertions\n"
        f"a.eval.yaml:11:53: EV309 [warning] icontains-any 'value' item 'TUTOR' is in the test's input message 1: {then} "
        "passes whatever the answers; grade the answers in the turns' assertions\n"
        f"a.eval.yaml:17:42: EV309 [warning] contains 'value' 'Ada' is in the test's input: {then} fails whatever the "
        "answers (negated); grade the answers in the turns' assertions\n"), "")


@pytest.mark.runner
def test_the_runner_grades_a_conversations_own_text_check_on_its_own_messages_too(tmp_path):
    """Each turn without graders scores 1; the transcript's check decides the rest."""
    assert run_written(tmp_path, OWN_WORDS)["scores"] == {"words": 1, "any": 1, "negated": 0.5, "all": 1}


# conversation tests whose input makes a message of content blocks
BLOCKS_SUITE = ("tests:\n"
                "  - {id: files, mode: conversation, input_files: [order.md], input: Here is my order,\n"
                "     turns: [{input: q, assertions: [{type: contains, value: answer}]}]}\n"
                "  - id: blocks\n    mode: conversation\n"
                "    input: [{role: user, content: [{type: text, value: Here is my order}]}]\n"
                "    turns: [{input: q, assertions: [{type: contains, value: answer}]}]\n")


def test_a_conversation_tests_input_of_content_blocks_is_an_error(tmp_path):
    write_suite(tmp_path, BLOCKS_SUITE, (("order.md", "Order 123\n"),))
    as_json = "in a conversation the runner sends a message whose content is no string as its JSON text"
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:37: EV112 [error] a conversation test's 'input_files' are not attached: {as_json}, so the files "
        "reach the agent as JSON, their paths and text in quotes; put what the agent needs in the input text\n"
        f"a.eval.yaml:6:35: EV112 [error] a conversation test's input message of content blocks is sent as text: "
        f"{as_json}, so no file or image is attached; write the content as text\n"), "")


@pytest.mark.runner
def test_the_runner_sends_a_conversations_message_of_content_blocks_as_json_text(tmp_path):
    ran = run_written(tmp_path, BLOCKS_SUITE, (("order.md", "Order 123\n"),))
    first = {sent["test"]: sent["messages"][0] for sent in ran["sent"]}
    assert first["files/turn-1"][0] == "user" and first["files/turn-1"][1].startswith('[{"type":"file","value":"order.md"')
    assert first["blocks/turn-1"] == ["user", '[{"type":"text","value":"Here is my order"}]']


# the suite's input files, which the loader sends with a test's string input
SUITE_FILES = ("input_files: [order.md]\ntests:\n"
               "  - {id: talk, mode: conversation, input: hi, turns: [{input: q, assertions: [{type: contains, value: a}]}]}\n"
               "  - {id: own, mode: conversation, input: hi, turns: [{input: q, assertions: [{type: contains, value: a}]}],\n"
               "     execution: {skip_defaults: true}}\n")


def test_the_suites_input_files_in_a_conversation_are_an_error(tmp_path):
    write_suite(tmp_path, SUITE_FILES, (("order.md", "Order 123\n"),))
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:3:16: EV112 [error] the suite's 'input_files' are not attached to this conversation test: in a "
        "conversation the runner sends a message whose content is no string as its JSON text, so the files reach the "
        "agent as JSON, their paths and text in quotes; give the test 'execution: {skip_defaults: true}' and put what "
        "the agent needs in its input text\n"), "")


@pytest.mark.runner
def test_the_runner_sends_the_suites_input_files_in_a_conversation_as_json_text(tmp_path):
    ran = run_written(tmp_path, SUITE_FILES, (("order.md", "Order 123\n"),))
    first = {sent["test"]: sent["messages"][0][1] for sent in ran["sent"]}
    assert (first["talk/turn-1"][:30], first["own/turn-1"]) == ('[{"type":"file","value":"order', "hi")


# a turn's keys the loader does not read (parseTurns reads 'input', 'expected_output' and 'assertions' alone)
TURN_KEYS = ("tests:\n  - id: conv\n    mode: conversation\n    input: hi\n    turns:\n"
             "      - {input: 'q {{ a }}', asserts: [Says hi], vars: {a: b}}\n"
             "      - {input: q, answer: '42', on_turn_failure: stop, assertions: [Says 42]}\n")


def test_a_turns_key_of_the_grading_or_of_the_test_is_an_error(tmp_path):
    test_key = "the runner reads it only in the conversation's test itself, for every turn, so what it holds is dropped here"
    assert run_concise(write_suite(tmp_path, TURN_KEYS), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:6:30: EV115 [error] unknown key 'asserts' in turn (did you mean 'assertions'?); the runner does "
        "not read it, so what it holds is dropped\n"
        f"a.eval.yaml:6:50: EV115 [error] unknown key 'vars' in turn: {test_key}; move it there\n"
        "a.eval.yaml:7:20: EV115 [error] unknown key 'answer' in turn (did you mean 'expected_output'?); the runner does "
        "not read it, so what it holds is dropped\n"
        f"a.eval.yaml:7:34: EV115 [error] unknown key 'on_turn_failure' in turn: {test_key}; move it there\n"), "")


@pytest.mark.runner
def test_the_loader_reads_a_turns_input_expected_output_and_assertions_alone(tmp_path):
    (test,) = load_tests(write_suite(tmp_path, TURN_KEYS), ["a.eval.yaml"])["a.eval.yaml"]["tests"]
    assert test["turns"] == [{"input": "q {{ a }}"}, {"assertions": ["Says 42"], "input": "q"}]
    assert "on_turn_failure" not in test


# a conversation's settings in the suite's 'execution', which the loader reads of each test alone
SUITE_CONVERSATION = ("execution:\n  mode: conversation\n  aggregation: min\n  on_turn_failure: stop\n  window_size: 2\n"
                      "tests:\n  - id: chat\n    mode: conversation\n    input: hi\n"
                      "    turns:\n      - {input: q, assertions: [Says q]}\n")


def test_a_conversations_setting_in_the_suites_execution_is_an_error(tmp_path):
    dropped = ("the runner reads it only in each conversation test, beside its 'execution', so what it holds "
               "is dropped here; move it there")
    assert run_concise(write_suite(tmp_path, SUITE_CONVERSATION), "--no-cache", "a.eval.yaml") == (1, "".join(
        f"a.eval.yaml:{line}:3: EV115 [error] unknown key '{key}' in execution: {dropped}\n"
        for line, key in ((2, "mode"), (3, "aggregation"), (4, "on_turn_failure"), (5, "window_size"))), "")


@pytest.mark.runner
def test_the_loader_reads_no_conversation_setting_of_the_suites_execution(tmp_path):
    loaded = load_tests(write_suite(tmp_path, SUITE_CONVERSATION), ["a.eval.yaml"], suite=True)["a.eval.yaml"]
    (test,) = loaded["tests"]
    assert (test["mode"], [key for key in ("aggregation", "on_turn_failure", "window_size") if key in test]) == (
        "conversation", [])


# a conversation's own graders whose score its transcript decides, and a conversation that nothing grades
TRANSCRIPT = ("assertions: [{type: is-json}]\ntests:\n"
              "  - id: json\n    mode: conversation\n    input: hi\n    turns:\n      - {input: q, assertions: [Says q]}\n"
              "  - id: own\n    mode: conversation\n    input: hi\n    execution: {skip_defaults: true}\n"
              "    assertions: [{type: equals, value: answer 1}]\n"
              "    turns:\n      - input: q\n"
              "  - id: nothing\n    mode: conversation\n    input: hi\n    execution: {skip_defaults: true}\n"
              "    turns:\n      - input: q\n")


def test_a_conversations_grader_its_transcript_decides_or_a_conversation_nothing_grades_is_an_error(tmp_path):
    transcript = "the runner grades a conversation's own graders on its whole transcript, each message written 'role: content'"
    assert run_concise(write_suite(tmp_path, TRANSCRIPT), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:1:21: EV307 [error] for the conversation test 'json', the suite's 'is-json' grader always scores 0: "
        f"{transcript}, which is no JSON; give a conversation test 'execution: {{skip_defaults: true}}'\n"
        f"a.eval.yaml:12:25: EV307 [error] a conversation test's 'equals' grader always scores 0: {transcript}, which is "
        "no one answer; grade the answers in the turns' assertions\n"
        "a.eval.yaml:19:5: EV106 [error] the conversation test grades nothing: no turn has 'assertions' or an "
        "'expected_output', and the test has no criteria and gets no graders, so the runner scores each turn 1 without "
        "grading; give the turns their 'assertions' (or the test its own, which grade the whole transcript)\n"), "")


@pytest.mark.runner
def test_the_runner_grades_a_conversations_own_graders_on_its_transcript(tmp_path):
    """A conversation's score is the mean of its turns' and, when it has graders of its own, its transcript's."""
    ran = run_written(tmp_path, TRANSCRIPT)
    assert ran["scores"] == {"json": 0.5, "own": 0.5, "nothing": 1}
    assert [graded["test"] for graded in ran["graded"]] == ["json/turn-1"]


# a turn's text graders whose value is no string, which the grader passes on to includes() or RegExp as it is written
COERCED = "tests:\n" + "".join(_turn(test_id, grader) for test_id, grader in (
    ("number", "{type: contains, value: 1}"), ("lowered", "{type: icontains, value: 2}")))


def test_a_turns_contains_value_that_javascript_makes_its_text_of_is_no_error(tmp_path):
    assert run_concise(write_suite(tmp_path, COERCED), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:13:47: EV110 [error] icontains 'value' must be a non-empty string, found 2 (a number); in a turn "
        "the runner takes the grader as written, unchecked, and runs it so: it fails or scores the turn wrongly\n"), "")


@pytest.mark.runner
def test_the_runner_makes_text_of_a_turns_contains_value_and_fails_an_icontains_one(tmp_path):
    assert run_written(tmp_path, COERCED)["scores"] == {"number": 1, "lowered": 0}


# a window of .inf or .nan, which the runner takes for the whole conversation, as it does without a window
WINDOWS = ("tests:\n" + "".join(f"  - id: {name}\n    mode: conversation\n    input: hi\n    window_size: {size}\n"
                                "    turns: [{input: q, assertions: [Says hi]}]\n" for name, size in (("inf", ".inf"),
                                                                                                    ("nan", ".nan"))))


def test_a_conversation_window_of_inf_or_nan_is_no_error(tmp_path):
    assert run_concise(write_suite(tmp_path, WINDOWS), "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
def test_the_runner_grades_a_turn_in_a_window_of_inf_or_nan_with_the_whole_conversation(tmp_path):
    prompts = {graded["test"]: graded["prompt"] for graded in run_written(tmp_path, WINDOWS)["graded"]}
    assert sorted(prompts) == ["inf/turn-1", "nan/turn-1"] and all("hi" in prompt for prompt in prompts.values())


def test_a_turns_limit_or_flag_says_what_the_run_does_with_it(tmp_path):
    """The loader's consequence (a limit dropped, a word read as text), parenthesis and all, is not a turn's."""
    suite = ("tests:\n  - id: c\n    mode: conversation\n    input: hi\n    turns:\n      - input: q\n        assertions: "
             "[{type: token-usage, max_total: x}, {type: skill-trigger, skill: s, should_trigger: no}]\n")
    as_written = ("in a turn the runner takes the grader as written, unchecked, and runs it so: it fails or scores the "
                  "turn wrongly")
    assert run_concise(write_suite(tmp_path, suite), "--no-cache", "a.eval.yaml") == (1, (
        "a.eval.yaml:7:29: EV307 [error] a turn's 'token-usage' grader always scores 0: the runner grades a "
        "conversation, its turns and its transcript, without the run's duration, cost and token usage; grade it in a "
        "test without 'mode: conversation'\n"
        f"a.eval.yaml:7:53: EV352 [error] token-usage 'max_total' must be a finite number >= 0, found 'x'; {as_written}\n"
        f"a.eval.yaml:7:105: EV110 [error] skill-trigger 'should_trigger' must be true or false, found 'no'; {as_written}"
        "\n"), "")


# a turn whose failing grader has a min_score: without 'required' the runner does not gate the turn on it
MIN_SCORE = "tests:\n" + "".join(
    f"  - id: {test_id}\n    mode: conversation\n    input: hi\n    turns:\n      - input: q\n        assertions:\n"
    f"          - {{type: contains, value: zzz, min_score: 1{required}}}\n          - {{type: contains, value: answer}}\n"
    for test_id, required in (("ungated", ""), ("not-required", ", required: false"), ("gated", ", required: true")))


def test_a_turns_min_score_without_required_is_an_error(tmp_path):
    write_suite(tmp_path, MIN_SCORE)
    message = ("EV115 [error] 'min_score' applies only to a required assertion: without 'required: true' the runner "
               "never gates the turn on this grader, so it ignores the score; add 'required: true'\n")
    assert run_concise(tmp_path, "--no-cache", "a.eval.yaml") == (1, f"a.eval.yaml:8:42: {message}"
                                                                      f"a.eval.yaml:16:42: {message}", "")


@pytest.mark.runner
def test_the_runner_gates_a_turn_only_on_a_required_graders_min_score(tmp_path):
    ran = run_written(tmp_path, MIN_SCORE)
    assert ran["error"] is None and ran["scores"] == {"ungated": 0.5, "not-required": 0.5, "gated": 0}
