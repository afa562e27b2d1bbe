"""``evallint upgrade``: AgentV 2.2 files rewritten in AgentV 4.42.4's format as edits of their text. Everything
it does not change stays byte for byte; ``--diff`` writes nothing; a second run changes nothing; what 4.42.4
cannot say as 2.2 meant it is left as it is, with an error that says why; a file is written as ``--fix``
writes one, or not at all. (``test_upgrade_runner.py`` beside it proves the upgrade with both runners.)"""
from __future__ import annotations

import io
import os

import pytest

from evallint.cli import main

BOM = b"\xef\xbb\xbf"


def upgrade(root, *args: str) -> tuple:
    """(exit code, stdout, stderr) of ``evallint upgrade ARGS`` run in ``root``."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(root)
    try:
        code = main(["upgrade", *args], out, err)
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    return tmp_path


SUITE = (BOM + b"# A suite\r\n"
         b"dataset: 'my-suite'   # its name\r\n"
         b"\r\n"
         b"execution:\r\n"
         b"  target: default\r\n"
         b"  evaluators:\r\n"
         b"    - name: judge\r\n"
         b"      type: \"llm_judge\"\r\n"
         b"      prompt: judge.md\r\n"
         b"evalcases:\r\n"
         b"  - id: one   # first\r\n"
         b"    expected_outcome: \"Says hi\"\r\n"
         b"    input_messages: &hi\r\n"
         b"      - {role: user, content: hi}\r\n"
         b"    execution:\r\n"
         b"      evaluators:\r\n"
         b"        # exact check\r\n"
         b"        - {name: exact, type: code_judge, script: [python, check.py]}\r\n"
         b"  - id: two\r\n"
         b"    outcome: >-\r\n"
         b"      folded\r\n"
         b"      text\r\n"
         b"    input_messages: *hi\r\n"
         b"    evaluators:\r\n"
         b"      - name: length\r\n"
         b"        type: latency\r\n"
         b"        threshold: 5\r\n")
UPGRADED = (BOM + b"# A suite\r\n"
            b"name: 'my-suite'   # its name\r\n"
            b"\r\n"
            b"execution:\r\n"
            b"  target: default\r\n"
            b"  evaluators:\r\n"
            b"    - name: judge\r\n"
            b"      type: \"llm-grader\"\r\n"
            b"      prompt: file://judge.md\r\n"
            b"tests:\r\n"
            b"  - id: one   # first\r\n"
            b"    criteria: \"Says hi\"\r\n"
            b"    input: &hi\r\n"
            b"      - {role: user, content: hi}\r\n"
            b"    execution:\r\n"
            b"      skip_defaults: true\r\n"
            b"      evaluators:\r\n"
            b"        # exact check\r\n"
            b"        - {name: exact, type: code-grader, command: [python, check.py]}\r\n"
            b"  - id: two\r\n"
            b"    criteria: >-\r\n"
            b"      folded\r\n"
            b"      text\r\n"
            b"    input: *hi\r\n"
            b"    execution: {skip_defaults: true}\r\n"
            b"    evaluators:\r\n"
            b"      - name: length\r\n"
            b"        type: latency\r\n"
            b"        threshold: 5\r\n")


def test_the_upgrade_edits_the_text_and_keeps_every_other_byte(repo):
    """Keys renamed in place, quoting kept, anchors and aliases kept, a BOM and CRLF line endings kept; a case's
    own evaluators replace the suite's in 2.2, so each such case gets 'skip_defaults: true'; a prompt 2.2 read
    from a file gets 'file://', and its template the variable names 4.42.4 fills, spacing kept."""
    (repo / "evals" / "suite.yaml").write_bytes(SUITE)
    (repo / "evals" / "judge.md").write_bytes(b"Judge {{ candidate_answer }} against {{reference_answer}}.\n")
    assert upgrade(repo, "evals") == (0, "", "evallint: 2 files upgraded; 0 errors, 0 warnings\n")
    assert (repo / "evals" / "suite.yaml").read_bytes() == UPGRADED
    assert (repo / "evals" / "judge.md").read_bytes() == b"Judge {{ output }} against {{expected_output}}.\n"
    assert upgrade(repo, "--diff", "evals") == (0, "", "evallint: 0 files would be upgraded; 0 errors, 0 warnings\n")


def test_diff_shows_the_change_and_writes_nothing(repo):
    suite = b"evalcases:\n  - id: a\n    expected_outcome: x\n    input_messages: hi\n"
    (repo / "evals" / "a.yaml").write_bytes(suite)
    assert upgrade(repo, "--diff", "evals/a.yaml") == (1, (
        "--- a/evals/a.yaml\n+++ b/evals/a.yaml\n@@ -1,4 +1,4 @@\n-evalcases:\n+tests:\n   - id: a\n"
        "-    expected_outcome: x\n-    input_messages: hi\n+    criteria: x\n+    input: hi\n"),
        "evallint: 1 file would be upgraded; 0 errors, 0 warnings\n")
    assert (repo / "evals" / "a.yaml").read_bytes() == suite


def test_a_dataset_and_its_sidecar_are_upgraded_line_by_line(repo):
    (repo / "evals" / "data.yaml").write_text("dataset: data\nexecution:\n  target: default\nevaluator: llm_judge\n")
    (repo / "evals" / "data.jsonl").write_text(
        '{"id": "a", "expected_outcome": "x", "input_messages": [{"role": "user", "content": "hi"}]}\n'
        '\n'
        '{"id":"b","outcome":"y","input_messages":"hi","execution":{"evaluators":[{"name":"c","type":"code_judge",'
        '"script":["python","c.py"]}]}}\n')
    assert upgrade(repo, "evals") == (0, "", "evallint: 2 files upgraded; 0 errors, 0 warnings\n")
    assert (repo / "evals" / "data.yaml").read_text() == (
        "name: data\nexecution:\n  target: default\nevaluator: llm-grader\n")
    assert (repo / "evals" / "data.jsonl").read_text() == (
        '{"id": "a", "criteria": "x", "input": [{"role": "user", "content": "hi"}]}\n'
        '\n'
        '{"id":"b","criteria":"y","input":"hi","execution":{"skip_defaults": true, "evaluators":[{"name":"c",'
        '"type":"code-grader","command":["python","c.py"]}]}}\n')


def test_what_agentv_4_cannot_say_as_2_2_meant_it_is_left_with_an_error(repo):
    (repo / "evals" / "bare.md").write_text("Rate the answer.\n")
    (repo / "evals" / "a.yaml").write_text(
        "dataset: My Suite\n"
        "evalcases:\n"
        "  - id: a\n"
        "    expected_outcome: x\n"
        "    input: hi\n"
        "    input_messages: [{role: user, content: hello}]\n"
        "    execution:\n"
        "      target: other\n"
        "      evaluators:\n"
        "        - {name: j, type: llm_judge, prompt: bare.md}\n")
    code, out, err = upgrade(repo, "evals")
    assert (code, out.splitlines(), err) == (1, [
        "evals/a.yaml:1:10: error: AgentV 4.42.4 names the suite by 'name', which must be 1 to 64 lowercase "
        "letters, digits or '-' (else it rejects the file); 'My Suite' is not, so 'dataset' is left as it is and "
        "4.42.4 names the suite after its file: rename it by hand",
        "evals/a.yaml:6:5: error: 'input_messages' is AgentV 2.2's spelling of 'input', which is written too; "
        "AgentV 4.42.4 reads 'input' and 2.2 read 'input_messages': keep one",
        "evals/a.yaml:8:7: warning: AgentV 2.2 ran this case against the suite's target, not 'other', and 4.42.4 "
        "ignores a test's 'execution.target' too; to run it against that target, write 'execution.targets' (a "
        "list)",
        "evals/a.yaml:10:46: error: the prompt template 'bare.md' uses neither of the variables AgentV 4.42.4 "
        "needs in a grader's template (output nor expected_output, AgentV 2.2's candidate_answer and "
        "reference_answer), so 4.42.4 would skip the test; the prompt is left as it is (4.42.4 sends it as words)"],
        "evallint: 1 file upgraded; 3 errors, 1 warning\n")
    assert (repo / "evals" / "a.yaml").read_text() == (
        "dataset: My Suite\n"
        "tests:\n"
        "  - id: a\n"
        "    criteria: x\n"
        "    input: hi\n"
        "    input_messages: [{role: user, content: hello}]\n"
        "    execution:\n"
        "      target: other\n"
        "      evaluators:\n"
        "        - {name: j, type: llm-grader, prompt: bare.md}\n")


def test_an_environment_reference_agentv_4_would_replace_is_left_with_an_error(repo):
    """AgentV 2.2 read '${{ NAME }}' in an eval file as text; AgentV 4.42.4 puts the variable's value there."""
    (repo / "evals" / "a.yaml").write_text(
        "evalcases:\n"
        "  - id: a\n"
        "    expected_outcome: Prints ${{HOME}} as written\n"
        "    input_messages: [{role: user, content: hi}]\n")
    code, out, err = upgrade(repo, "evals")
    assert (code, out.splitlines(), err) == (1, [
        "evals/a.yaml:3:23: error: AgentV 4.42.4 puts the environment variable's value (empty when it is unset) in "
        "place of '${{HOME}}' before it reads the file, where AgentV 2.2 read it as written; reword it if it is "
        "meant as text"], "evallint: 1 file upgraded; 1 error, 0 warnings\n")
    assert (repo / "evals" / "a.yaml").read_text().startswith("tests:\n  - id: a\n    criteria: Prints ${{HOME}}")


def test_a_reference_in_what_agentv_4_does_not_read_is_left_unsaid(repo):
    """A reference in a value AgentV 4.42.4 does not read changes nothing it does: only that it is not read is
    reported."""
    (repo / ".agentv").mkdir()
    (repo / ".agentv" / "config.yaml").write_text("guideline_patterns: ['${{ GUIDES }}/**/*.md']\n")
    (repo / "evals" / "a.yaml").write_text(
        "evalcases:\n"
        "  - id: a\n"
        "    expected_outcome: x\n"
        "    input_messages: [{role: user, content: hi}]\n"
        "    execution: {target: \"${{ TARGET }}\"}\n")
    code, out, err = upgrade(repo, ".")
    assert (code, out.splitlines(), err) == (1, [
        ".agentv/config.yaml:1:1: error: AgentV 4.42.4 does not read 'guideline_patterns': a file these patterns "
        "match, which 2.2 sent to the agent apart as a guideline, is sent as an ordinary file of its message",
        "evals/a.yaml:5:17: warning: AgentV 2.2 ran this case against the suite's target, not '${{ TARGET }}', and "
        "4.42.4 ignores a test's 'execution.target' too; to run it against that target, write 'execution.targets' (a "
        "list)"], "evallint: 1 file upgraded; 1 error, 1 warning\n")


def test_merge_keys_leave_a_file_as_it_is(repo):
    """AgentV 2.2 read '<<' as a plain key and 4.42.4 merges it: nothing the upgrade writes would mean the same."""
    suite = ("base: &b {expected_outcome: x, input_messages: hi}\n"
             "evalcases:\n  - <<: *b\n    id: a\n")
    (repo / "evals" / "a.yaml").write_text(suite)
    assert upgrade(repo, "evals") == (1, (
        "evals/a.yaml:1:1: error: the file uses '<<' merge keys, which AgentV 2.2 read as a plain key and 4.42.4 "
        "merges; not upgraded: write the merged keys out first\n"), "evallint: 0 files upgraded; 1 error, 0 warnings\n")
    assert (repo / "evals" / "a.yaml").read_text() == suite


def test_a_case_rubrics_become_its_first_grader_named_as_2_2_named_it(repo):
    (repo / "evals" / "a.yaml").write_text(
        "execution:\n  evaluators:\n    - {name: s, type: latency, threshold: 1}\n"
        "evalcases:\n"
        "  - id: a\n    expected_outcome: x\n    input_messages: hi\n"
        "    rubrics:\n      - Is short\n      - id: kind\n        description: Is kind\n        weight: 2\n"
        "  - id: b\n    expected_outcome: x\n    input_messages: hi\n"
        "    rubrics:\n    - Is short\n"
        "    execution:\n      evaluators:\n        # the check\n        - {name: c, type: latency, threshold: 2}\n")
    assert upgrade(repo, "evals")[0] == 0
    assert (repo / "evals" / "a.yaml").read_text() == (
        "execution:\n  evaluators:\n    - {name: s, type: latency, threshold: 1}\n"
        "tests:\n"
        "  - id: a\n    criteria: x\n    input: hi\n"
        "    assertions:\n      - name: rubric\n        type: rubrics\n        criteria:\n"
        "          - Is short\n          - id: kind\n            outcome: Is kind\n            weight: 2\n"
        "  - id: b\n    criteria: x\n    input: hi\n"
        "    execution:\n      skip_defaults: true\n      evaluators:\n"
        "        - name: rubric\n          type: rubrics\n          criteria:\n            - Is short\n"
        "        # the check\n        - {name: c, type: latency, threshold: 2}\n")


def test_targets_and_config(repo):
    """A cli target's command, its grader target, an agent's logs; AgentV 2.2's pi-coding-agent ran the pi
    command line, which is 4.42.4's pi-cli (whose subprovider 2.2 called pi_provider)."""
    (repo / ".agentv").mkdir()
    (repo / ".agentv" / "targets.yaml").write_text(
        "targets:\n"
        "  - name: cli\n    provider: cli\n    judge_target: base\n"
        "    command_template: run {PROMPT}   # the agent\n"
        "    healthcheck: {type: command, command_template: run --ok}\n"
        "  - name: codex\n    provider: codex\n    log_format: summary\n"
        "  - name: code\n    provider: vscode\n    workspace_template: ./ws\n"
        "  - name: pi\n    provider: pi-coding-agent\n    pi_provider: google\n    log_format: json\n")
    (repo / ".agentv" / "config.yaml").write_text("guideline_patterns: ['**/*.md']\n")
    code, out, err = upgrade(repo, ".")
    assert (code, out.splitlines(), err) == (1, [
        ".agentv/config.yaml:1:1: error: AgentV 4.42.4 does not read 'guideline_patterns': a file these patterns "
        "match, which 2.2 sent to the agent apart as a guideline, is sent as an ordinary file of its message",
        ".agentv/targets.yaml:12:5: error: AgentV 4.42.4 does not read a target's 'workspace_template': write the "
        "folder as the 'workspace: {template: ...}' of the eval suites run against this target, which is where "
        "4.42.4 reads it"], "evallint: 1 file upgraded; 2 errors, 0 warnings\n")
    assert (repo / ".agentv" / "targets.yaml").read_text() == (
        "targets:\n"
        "  - name: cli\n    provider: cli\n    grader_target: base\n"
        "    command: run {PROMPT}   # the agent\n"
        "    healthcheck: {type: command, command: run --ok}\n"
        "  - name: codex\n    provider: codex\n    stream_log: summary\n"
        "  - name: code\n    provider: vscode\n    workspace_template: ./ws\n"
        "  - name: pi\n    provider: pi-cli\n    subprovider: google\n    stream_log: raw\n")


def test_files_of_agentv_4_and_other_files_are_left_alone(repo):
    suite = "tests:\n  - id: a\n    criteria: x\n    input: hi\n"
    (repo / "evals" / "a.yaml").write_text(suite)
    (repo / "evals" / "notes.md").write_text("{{ candidate_answer }}\n")
    assert upgrade(repo, ".") == (0, "", "evallint: 0 files upgraded; 0 errors, 0 warnings\n")
    assert (repo / "evals" / "a.yaml").read_text() == suite


SMALL = b"evalcases:\n  - id: a\n    expected_outcome: x\n    input_messages: hi\n"


def test_a_file_with_other_hard_links_is_not_upgraded(repo):
    """As --fix: the atomic rename would split the links, so the file is left and the run exits 2."""
    linked = repo / "evals" / "linked.yaml"
    linked.write_bytes(SMALL)
    os.link(linked, repo / "other.yaml")
    (repo / "evals" / "plain.yaml").write_bytes(SMALL)
    assert upgrade(repo, "evals") == (2, "", (
        "evallint: evals/linked.yaml has 2 hard links, which writing the new file would split; not upgraded\n"
        "evallint: 1 file upgraded, 1 not written; 0 errors, 0 warnings\n"))
    assert (linked.read_bytes(), (repo / "other.yaml").read_bytes()) == (SMALL, SMALL)
    assert (repo / "evals" / "plain.yaml").read_bytes() == SMALL.replace(b"evalcases", b"tests").replace(
        b"expected_outcome", b"criteria").replace(b"input_messages", b"input")


def test_a_read_only_file_is_not_upgraded(repo):
    locked = repo / "evals" / "locked.yaml"
    locked.write_bytes(SMALL)
    locked.chmod(0o444)
    if os.access(locked, os.W_OK):
        pytest.skip("running as root, for whom a read-only file is writable")
    assert upgrade(repo, "evals") == (2, "", "evallint: evals/locked.yaml is read-only; not upgraded\n"
                                             "evallint: 0 files upgraded, 1 not written; 0 errors, 0 warnings\n")
    assert locked.read_bytes() == SMALL


def test_a_path_that_is_not_there_is_a_usage_error(repo):
    assert upgrade(repo, "nowhere") == (2, "", "evallint: error: no such file or folder: 'nowhere'\n")


def test_a_file_that_does_not_parse_is_named_and_left(repo):
    (repo / "evals" / "a.yaml").write_text("evalcases:\n  - id: [a\n")
    (repo / "evals" / "b.yaml").write_bytes(SMALL)
    assert upgrade(repo, "evals") == (1, (
        "evals/a.yaml:3:1: error: the file does not parse as YAML (EV001: did not find expected ',' or ']' (while "
        "parsing a flow sequence); the '[' opened at line 2 column 9 is not closed before this point, or a ',' is "
        "missing between two of its entries); not upgraded\n"), "evallint: 1 file upgraded; 1 error, 0 warnings\n")
    assert (repo / "evals" / "a.yaml").read_text() == "evalcases:\n  - id: [a\n"


def test_an_error_the_upgraded_file_gets_is_reported_where_it_is(repo):
    """AgentV 2.2's cli placeholder {GUIDELINES} is none of 4.42.4's: the renamed command is still rejected, and
    the upgrade says so, at the place in the upgraded file, with the rule 4.42.4's lint reports there; so is a
    setting 4.42.4 refuses in a file the upgrade does not change."""
    (repo / ".agentv").mkdir()
    (repo / ".agentv" / "targets.yaml").write_text(
        "targets:\n  - name: cli\n    provider: cli\n    command_template: run {PROMPT} {GUIDELINES}\n")
    (repo / "evals" / ".agentv").mkdir()
    (repo / "evals" / ".agentv" / "targets.yaml").write_text(
        "targets:\n  - name: gpt\n    provider: openai\n    api_key: ${{ KEY }}\n    model: gpt-4o\n")
    assert upgrade(repo, ".") == (1, (
        ".agentv/targets.yaml:4:27: error: after the upgrade, EV509: unknown placeholder '{GUIDELINES}' in command "
        "template; known: {PROMPT}, {PROMPT_FILE}, {EVAL_ID}, {ATTEMPT}, {FILES}, {OUTPUT_FILE}\n"
        "evals/.agentv/targets.yaml:5:12: error: after the upgrade, EV110: 'model' must be an environment reference "
        "such as '${{ NAME }}' (the runner reads it only from the environment), found 'gpt-4o'; the runner rejects "
        "the target\n"), "evallint: 1 file upgraded; 2 errors, 0 warnings\n")


def test_a_sidecar_may_name_its_dataset_with_any_text(repo):
    """AgentV 4.42.4 checks a suite's 'name' as metadata (lowercase, digits, '-') but takes a sidecar's as it is."""
    (repo / "evals" / "data.yaml").write_text("dataset: My Data\n")
    (repo / "evals" / "data.jsonl").write_text('{"id": "a", "expected_outcome": "x", "input_messages": "hi"}\n')
    assert upgrade(repo, "evals") == (0, "", "evallint: 2 files upgraded; 0 errors, 0 warnings\n")
    assert (repo / "evals" / "data.yaml").read_text() == "name: My Data\n"


ORIGINAL = (
    'evalcases:\n'
    '  - id: a\n'
    '    expected_outcome: x\n'
    '    input_messages: hi\n'
    '    execution:\n'
    '      evaluators:\n'
    '        - type: latency\n'
    '          threshold: 5\n'
    '        - {name: typo, type: latencyy, threshold: 5}\n'
    '        - name: both\n'
    '          type: composite\n'
    '          evaluators:\n'
    '            - name: judge\n'
    '              type: llm_judge\n'
    '              prompt: |\n'
    '                Rate {{ candidate_answer }}\n'
    '            - {name: rubric, type: rubric, rubrics: [{id: r, description: d}]}\n'
    '          aggregator: {type: weighted_average}\n'
    '        - name: calls\n'
    '          type: tool_trajectory\n'
    '          mode: in_order\n'
    '          expected:\n'
    '            - tool: search\n'
    '              args: {q: x}\n')
UPGRADED_RUN = (
    'tests:\n'
    '  - id: a\n'
    '    criteria: x\n'
    '    input: hi\n'
    '    execution:\n'
    '      evaluators:\n'
    '        # - type: latency\n'
    '        #   threshold: 5\n'
    '        # - {name: typo, type: latencyy, threshold: 5}\n'
    '        - name: both\n'
    '          type: composite\n'
    '          assertions:\n'
    '            - name: judge\n'
    '              type: llm-grader\n'
    '              # prompt: |\n'
    '              #   Rate {{ candidate_answer }}\n'
    '            - {name: rubric, type: llm-grader}\n'
    '          aggregator: {type: weighted_average}\n'
    '        - name: calls\n'
    '          type: tool-trajectory\n'
    '          mode: in_order\n'
    '          args_match: superset\n'
    '          expected:\n'
    '            - tool: search\n'
    '              args: {q: x}\n')


def test_what_agentv_2_2_did_not_run_stays_out_of_the_run(repo):
    """2.2 dropped an evaluator without a name or of a type it did not know, ran a composite's llm_judge member
    with its default prompt (a rubric member without its rubrics), and matched expected args as a subset: the
    upgrade comments out (in flow style, deletes) what 4.42.4 would run, and says so; it asks for 'superset'."""
    (repo / "evals" / "a.yaml").write_text(ORIGINAL)
    code, out, err = upgrade(repo, "evals")
    dropped = "AgentV 2.2 dropped this evaluator ({}), and 4.42.4 would run it; commented out, so that it does not"
    member = ("AgentV 2.2 graded with a composite member's default prompt, not its '{}', and 4.42.4 would use it; "
              "{}, so that it does not")
    assert (code, out.splitlines(), err) == (0, [
        "evals/a.yaml:7:11: warning: " + dropped.format("it has no name"),
        "evals/a.yaml:9:11: warning: " + dropped.format("it knows no type 'latencyy'"),
        "evals/a.yaml:15:15: warning: " + member.format("prompt", "commented out"),
        "evals/a.yaml:17:44: warning: " + member.format("rubrics", "deleted")],
        "evallint: 1 file upgraded; 0 errors, 4 warnings\n")
    assert (repo / "evals" / "a.yaml").read_text() == UPGRADED_RUN


def test_a_template_with_a_variable_agentv_4_does_not_fill_is_left(repo):
    (repo / "evals" / "judge.md").write_text("Compare {{ candidate_answer }} with {{expected_messages}}.\n")
    (repo / "evals" / "a.yaml").write_text(
        "evalcases:\n  - id: a\n    expected_outcome: x\n    input_messages: hi\n"
        "    execution:\n      evaluators:\n        - {name: j, type: llm_judge, prompt: judge.md}\n")
    assert upgrade(repo, "evals") == (1, (
        "evals/a.yaml:7:46: error: the prompt template 'judge.md' uses '{{ expected_messages }}', which AgentV "
        "4.42.4 has no variable for (it leaves the text as written); the prompt is left as it is, which 4.42.4 "
        "sends as words: rewrite the template for 4.42.4's variables by hand\n"),
        "evallint: 1 file upgraded; 1 error, 0 warnings\n")
    assert (repo / "evals" / "judge.md").read_text() == "Compare {{ candidate_answer }} with {{expected_messages}}.\n"


def test_a_script_that_reads_what_agentv_4_no_longer_sends_is_reported(repo):
    """AgentV 4.42.4 runs a code judge's script as 2.2 did but sends it other keys ('output' for
    'candidate_answer', and no 'question'): a script that reads them, snake_case or camelCase, is an error."""
    (repo / "evals" / "check.py").write_text(
        "import json, sys\n# the question is not read here\ndata = json.load(sys.stdin)\n"
        "print(data['candidate_answer'] == data.get('question'))\n")
    (repo / "evals" / "sdk.ts").write_text("const { expectedOutcome, config } = input;\n")
    (repo / "evals" / "fine.py").write_text("import json, sys\nprint(json.load(sys.stdin)['output'])\n")
    (repo / "evals" / "a.yaml").write_text(
        "evalcases:\n  - id: a\n    expected_outcome: x\n    input_messages: hi\n"
        "    execution:\n      evaluators:\n"
        "        - {name: c, type: code_judge, script: [python, check.py]}\n"
        "        - {name: s, type: code_judge, script: bun run sdk.ts}\n"
        "        - {name: f, type: code_judge, script: [python, fine.py]}\n")
    tail = ("of the input AgentV 2.2 gave it, which AgentV 4.42.4 gives a code grader under another name or not at "
            "all: update the script (the eval file cannot say it)")
    assert upgrade(repo, "evals") == (1, (
        f"evals/a.yaml:7:47: error: the script 'check.py' reads 'candidate_answer' ('output'), 'question' (no longer "
        f"sent) {tail}\n"
        f"evals/a.yaml:8:47: error: the script 'sdk.ts' reads 'expected_outcome' ('criteria') {tail}\n"),
        "evallint: 1 file upgraded; 2 errors, 0 warnings\n")


def test_rubrics_in_flow_style_and_in_a_dataset_move_as_written(repo):
    """A case's rubrics written as a flow list (a JSON line's always are) become its first grader the same way;
    a dataset line with evaluators of its own gets 'skip_defaults', since 4.42.4 also adds the evaluators of the
    line's 'execution' (else the sidecar's) after a line's own, and 2.2 ran them once."""
    (repo / "evals" / "a.yaml").write_text(
        "execution:\n  evaluators:\n    - {name: s, type: latency, threshold: 1}\n"
        "evalcases:\n  - id: a\n    expected_outcome: x\n    input_messages: hi\n"
        "    rubrics: [Is short, {id: k, description: Is kind}]\n"
        "  - id: b\n    expected_outcome: x\n    input_messages: hi\n    rubrics: [Is short]\n"
        "    execution:\n      evaluators:\n        - {name: c, type: latency, threshold: 2}\n")
    (repo / "evals" / "d.yaml").write_text("dataset: d\n")
    (repo / "evals" / "d.jsonl").write_text(
        '{"id": "a", "expected_outcome": "x", "input_messages": "hi", "rubrics": ["Is short"]}\n'
        '{"id": "b", "expected_outcome": "x", "rubrics": ["Is short"], "input_messages": "hi", '
        '"execution": {"evaluators": [{"name": "c", "type": "latency", "threshold": 2}]}}\n'
        '{"id": "c", "expected_outcome": "x", "input_messages": "hi", '
        '"evaluators": [{"name": "c", "type": "latency", "threshold": 2}]}\n')
    assert upgrade(repo, "evals") == (0, "", "evallint: 3 files upgraded; 0 errors, 0 warnings\n")
    assert (repo / "evals" / "a.yaml").read_text() == (
        "execution:\n  evaluators:\n    - {name: s, type: latency, threshold: 1}\n"
        "tests:\n  - id: a\n    criteria: x\n    input: hi\n"
        "    assertions: [{name: rubric, type: rubrics, criteria: [Is short, {id: k, outcome: Is kind}]}]\n"
        "  - id: b\n    criteria: x\n    input: hi\n"
        "    execution:\n      skip_defaults: true\n      evaluators:\n"
        "        - {name: rubric, type: rubrics, criteria: [Is short]}\n"
        "        - {name: c, type: latency, threshold: 2}\n")
    assert (repo / "evals" / "d.jsonl").read_text() == (
        '{"id": "a", "criteria": "x", "input": "hi", "assertions": [{"name": "rubric", "type": "rubrics", '
        '"criteria": ["Is short"]}]}\n'
        '{"id": "b", "criteria": "x", "input": "hi", "execution": {"skip_defaults": true, "evaluators": '
        '[{"name": "rubric", "type": "rubrics", "criteria": ["Is short"]}, {"name": "c", "type": "latency", '
        '"threshold": 2}]}}\n'
        '{"id": "c", "criteria": "x", "input": "hi", "execution": {"skip_defaults": true}, '
        '"evaluators": [{"name": "c", "type": "latency", "threshold": 2}]}\n')


def test_a_dataset_named_alone_is_upgraded_with_its_sidecar(repo):
    """AgentV 4.42.4 rejects a dataset whose sidecar names 2.2's judge: the two are upgraded together."""
    (repo / "evals" / "d.yaml").write_text("dataset: d\nevaluator: llm_judge\n")
    (repo / "evals" / "d.jsonl").write_text('{"id": "a", "expected_outcome": "x", "input_messages": "hi"}\n')
    assert upgrade(repo, "evals/d.jsonl") == (0, "", "evallint: 2 files upgraded; 0 errors, 0 warnings\n")
    assert (repo / "evals" / "d.yaml").read_text() == "name: d\nevaluator: llm-grader\n"


def test_every_evaluator_kind_of_agentv_2_2_has_its_agentv_4_kind():
    """The upgrade's table of kinds covers AgentV 2.2's kinds (as evallint declares them) and names only kinds
    that AgentV 4.42.4 has (as evallint declares them)."""
    import importlib

    from evallint.format.agentv2.evaluators import EVALUATOR_KINDS
    from evallint.format.agentv4.assertions import AssertionSchema
    from evallint.upgrade.spellings import AGGREGATOR_KINDS, KINDS, MEMBER_KINDS

    importlib.import_module("evallint.format.agentv4.graders")  # defining its schemas registers their kinds
    assert sorted(KINDS) == sorted(EVALUATOR_KINDS)
    assert set(KINDS.values()) | set(MEMBER_KINDS.values()) <= set(AssertionSchema.kinds)
    assert {v for v in AGGREGATOR_KINDS.values() if v != "weighted_average"} <= set(AssertionSchema.kinds)


def test_of_two_spellings_the_one_2_2_read_is_renamed_and_a_lone_dropped_evaluator_is_left(repo):
    (repo / "evals" / "a.yaml").write_text(
        "evalcases:\n  - id: a\n    outcome: ignored\n    expected_outcome: x\n    input_messages: hi\n"
        "    execution:\n      evaluators:\n        - {type: latency, threshold: 5}\n")
    assert upgrade(repo, "evals") == (1, (
        "evals/a.yaml:3:5: warning: AgentV 2.2 read 'expected_outcome' instead of this 'outcome', and 4.42.4 ignores "
        "it too (it reads 'expected_outcome' as 'criteria')\n"
        "evals/a.yaml:8:11: error: AgentV 2.2 dropped this evaluator (it has no name), and 4.42.4 would run it: it is "
        "its list's only item, so write the list empty ([]) by hand\n"), "evallint: 1 file upgraded; 1 error, 1 warning\n")
    assert (repo / "evals" / "a.yaml").read_text() == (
        "tests:\n  - id: a\n    outcome: ignored\n    criteria: x\n    input: hi\n"
        "    execution:\n      evaluators:\n        - {type: latency, threshold: 5}\n")


def test_a_diff_stars_the_secrets_of_its_lines(repo):
    """A diff shows each line as written but for its secret values, starred as in every output (such a diff
    no longer applies)."""
    (repo / "evals" / "a.yaml").write_text("evalcases:\n  - id: a\n    expected_outcome: x\n"
                                           "    input_messages: 'my key is sk-proj-4f9a8b7c6d5e4f3a2b1c'\n")
    assert upgrade(repo, "--diff", "evals/a.yaml") == (1, (
        "--- a/evals/a.yaml\n+++ b/evals/a.yaml\n@@ -1,4 +1,4 @@\n-evalcases:\n+tests:\n   - id: a\n"
        "-    expected_outcome: x\n-    input_messages: 'my key is " + "*" * len("sk-proj-4f9a8b7c6d5e4f3a2b1c") + "'\n"
        "+    criteria: x\n+    input: 'my key is " + "*" * len("sk-proj-4f9a8b7c6d5e4f3a2b1c") + "'\n"),
        "evallint: 1 file would be upgraded; 0 errors, 0 warnings\n")
