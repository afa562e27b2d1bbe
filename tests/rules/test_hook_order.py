"""EV134: a workspace's 'after_each' hook beside a code-grader, checked against AgentV 4.42.4's runEvaluation: the
hook runs (and resets the workspace) before the graders, so a code-grader finds the workspace as it leaves it."""
from __future__ import annotations

import pytest

from agreement import run_written, write_suite
from clirun import run_concise

# a code-grader that passes when the workspace holds report.txt, which the template gives it
GRADER = ("// passes when report.txt is in the workspace\n"
          "const fs = require('fs'), path = require('path');\n"
          "process.stdin.resume(); process.stdin.on('end', () => {\n"
          "  const ok = fs.existsSync(path.join(process.env.AGENTV_WORKSPACE_PATH, 'report.txt'));\n"
          "  console.log(JSON.stringify({score: ok ? 1 : 0, assertions: [{text: 'report.txt', passed: ok}]}));\n"
          "});\n")
FILES = (("tpl/report.txt", "the report\n"), ("has_report.js", GRADER))
REMOVES = "{command: [node, -e, \"require('fs').rmSync(process.argv[1] + '/report.txt')\", '{{workspace_path}}']}"


def _suite(after_each: str, enabled: str = "") -> str:
    return (f"workspace:\n  template: ./tpl\n  isolation: per_test\n  hooks:\n{enabled}    after_each: {after_each}\n"
            "tests:\n  - id: t1\n    criteria: Writes a report.\n    input: Write report.txt.\n"
            "    assertions: [{name: report, type: code-grader, command: [node, has_report.js]}]\n")


def test_an_after_each_hook_beside_a_composites_code_grader_is_a_warning(tmp_path):
    text = _suite(REMOVES).replace("[{name: report, type: code-grader, command: [node, has_report.js]}]",
                                   "[{name: all, type: composite, aggregator: {type: weighted_average}, evaluators: "
                                   "[{name: report, type: code-grader, command: [node, has_report.js]}]}]")
    assert run_concise(write_suite(tmp_path, text, FILES), "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:5:5: EV134 [warning] 'after_each' runs its command before the runner grades the answer, not after: "
        "the code-grader of test 't1' that inspects the workspace finds it as the hook leaves it; do in 'after_each' "
        "only what the grading does not need, and check the agent's work in the grader\n"), "")


def test_an_after_each_hook_beside_a_code_grader_is_a_warning(tmp_path):
    assert run_concise(write_suite(tmp_path, _suite(REMOVES), FILES), "--no-cache", "a.eval.yaml") == (0, (
        "a.eval.yaml:5:5: EV134 [warning] 'after_each' runs its command before the runner grades the answer, not after: "
        "the code-grader of test 't1' that inspects the workspace finds it as the hook leaves it; do in 'after_each' "
        "only what the grading does not need, and check the agent's work in the grader\n"), "")


@pytest.mark.parametrize("text", [_suite("{reset: none}"), _suite(REMOVES, "    enabled: false\n"),
                                  _suite(REMOVES).replace("    input: Write report.txt.\n", "    input: Write report.txt.\n"
                                                          "    workspace: {hooks: {enabled: false}}\n"),
                                  _suite(REMOVES).replace("type: code-grader, command: [node, has_report.js]",
                                                          "type: contains, value: report")])
def test_an_after_each_hook_that_changes_nothing_or_no_code_grader_sees_is_no_finding(tmp_path, text):
    assert run_concise(write_suite(tmp_path, text, FILES), "--no-cache", "a.eval.yaml") == (0, "", "")


@pytest.mark.runner
@pytest.mark.parametrize("after_each,score", [(REMOVES, 0), ("{reset: none}", 1)])
def test_the_runner_runs_after_each_before_the_graders(tmp_path, after_each, score):
    ran = run_written(tmp_path, _suite(after_each), FILES)
    assert (ran["error"], ran["scores"]) == (None, {"t1": score})
