"""The target an AgentV 4.42.4 eval runs on: a chain of targets standing for one another (use_target), where a
cycle or more steps than the runner follows leave no provider, a provider the runner does not know, which runs
a provider script, and the targets that read what was recorded (replay, copilot-log), which fail each test without
it."""
from __future__ import annotations

import json
import subprocess

import pytest

from agentv_runner import HERE, read_targets, require_runner, run_suite
from clirun import git, run_concise

CHAINS = """\
targets:
  - {name: concrete, provider: mock}
  - {name: hop1, use_target: concrete}
  - {name: hop2, use_target: hop1}
  - {name: hop3, use_target: hop2}
  - {name: hop4, use_target: hop3}
  - {name: hop5, use_target: hop4}
  - {name: hop6, use_target: hop5}
  - {name: ring-a, use_target: ring-b}
  - {name: ring-b, use_target: ring-c}
  - {name: ring-c, use_target: ring-a}
  - {name: into-ring, use_target: ring-a}
  - {name: by-env, use_target: "${{ TARGET }}"}
"""


def _targets(tmp_path, text: str = CHAINS):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(text)
    return tmp_path


def test_a_use_target_cycle_or_a_chain_longer_than_the_runner_follows_is_an_error(tmp_path):
    """A cycle is reported once, at the use_target of its last target in the file; five steps are followed
    (apps/cli eval/targets.ts resolveUseTarget), six are not; a name the environment gives is not followed."""
    assert run_concise(_targets(tmp_path), "--no-cache", ".agentv/targets.yaml") == (1, (
        ".agentv/targets.yaml:8:30: EV511 [error] target 'hop6' reaches 'concrete' in 6 use_target steps (hop6 → hop5 "
        "→ hop4 → hop3 → hop2 → hop1 → concrete), but the runner follows at most 5 from an eval's target, so a run on "
        "it fails before any test (a grader_target may take 9)\n"
        ".agentv/targets.yaml:11:32: EV511 [error] use_target 'ring-a' closes a cycle, ring-c → ring-a → ring-b → "
        "ring-c; the runner resolves none of these targets, so a run with one fails before any test\n"), "")


def test_a_long_chain_is_shown_by_its_first_names_and_its_end(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - {name: end, provider: mock}\n" + "".join(
        f"  - {{name: h{i}, use_target: {f'h{i - 1}' if i else 'end'}}}\n" for i in range(13)))
    code, out, err = run_concise(tmp_path, "--no-cache", ".agentv/targets.yaml")
    assert (code, out.splitlines()[-2:], err) == (1, [
        ".agentv/targets.yaml:14:29: EV511 [error] target 'h11' reaches 'end' in 12 use_target steps (h11 → h10 → h9 → "
        "h8 → h7 → h6 → h5 → h4 → h3 → h2 → h1 → h0 → end), but the runner follows at most 5 from an eval's target, so a "
        "run on it fails before any test (a grader_target may take 9)",
        ".agentv/targets.yaml:15:29: EV511 [error] target 'h12' reaches 'end' in 13 use_target steps (h12 → h11 → h10 → "
        "h9 → h8 → h7 → h6 → h5 → h4 → h3 → h2 → h1 → … → end), but the runner follows at most 5 from an eval's target, "
        "so a run on it fails before any test (a grader_target may take 9)"], "")


@pytest.mark.runner
def test_the_runner_resolves_no_target_of_a_cycle(tmp_path):
    read = read_targets(_targets(tmp_path), [".agentv/targets.yaml"])[".agentv/targets.yaml"]
    errors = {target["name"]: target.get("error") for target in read["targets"]}
    assert errors["ring-c"] == "Circular use_target reference detected: ring-c -> ring-a -> ring-b -> ring-c"
    assert errors["into-ring"].startswith("Circular use_target reference detected: into-ring -> ring-a")
    assert (errors["hop5"], errors["hop6"], read["validate"]) == (None, None, [])  # the loader's own limit is 9 steps


UNFILLED = """\
targets:
  - {name: concrete, provider: mock}
  - {name: by-env, use_target: "${{ TARGET }}"}
  - {name: by-dash, use_target: "${{ MY-TARGET }}"}
  - {name: by-dot, use_target: "${{ target.name }}"}
  - {name: by-provider, provider: "${{ MY-PROVIDER }}"}
  - {name: by-env-provider, provider: " ${{ provider }}"}
"""


def test_a_use_target_or_provider_reference_the_resolver_does_not_fill_in_is_read_as_written(tmp_path):
    """The resolver fills in a use_target or provider that is one whole '${{ NAME }}' of letters, digits and '_'
    (targets.ts USE_TARGET_ENV_PATTERN, resolveString), in any case; another is a target's or provider's name."""
    code, out, err = run_concise(_targets(tmp_path, UNFILLED), "--no-cache", "--agentv-version", "4.42",
                                 ".agentv/targets.yaml")
    unfilled = "is read as written: the runner fills in only a whole '${{ NAME }}' whose NAME is letters, digits and '_'"
    assert (code, out.splitlines(), err) == (1, [
        f".agentv/targets.yaml:4:33: EV511 [error] use_target '${{{{ MY-TARGET }}}}' {unfilled}, so it names no target "
        "of this file",
        f".agentv/targets.yaml:5:32: EV511 [error] use_target '${{{{ target.name }}}}' {unfilled}, so it names no "
        "target of this file",
        f".agentv/targets.yaml:6:35: EV506 [warning] unknown provider '${{{{ MY-PROVIDER }}}}'; it {unfilled}; the runner "
        "runs it as a provider script '.agentv/providers/${{ my-provider }}.ts'; known: "
        + out.splitlines()[-1].split("; known: ")[-1]],
        "")


@pytest.mark.runner
def test_the_resolver_fills_in_only_a_reference_of_letters_digits_and_underscores(tmp_path):
    read = read_targets(_targets(tmp_path, UNFILLED), [".agentv/targets.yaml"])[".agentv/targets.yaml"]
    errors = {target["name"]: target.get("error") or target["kind"] for target in read["targets"]}
    assert errors == {
        "concrete": "mock",
        "by-env": 'Target "by-env" uses use_target: ${{ TARGET }}, which resolved to "set", but no target named "set" '
                  "exists.",
        "by-dash": 'Target "by-dash" uses use_target: "${{ MY-TARGET }}", but no target named "${{ MY-TARGET }}" exists.',
        "by-dot": 'Target "by-dot" uses use_target: "${{ target.name }}", but no target named "${{ target.name }}" '
                  "exists.",
        "by-provider": "cli",  # a provider script's
        "by-env-provider": "cli",
    }


PROVIDERS = """\
targets:
  - {name: default, provider: opeani}
  - {name: scripted, provider: my-agent}
  - {name: commanded, provider: opeani, command: "python3 run.py {PROMPT}"}
  - {name: alias, use_target: default}
"""


def _evals(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(PROVIDERS)
    (tmp_path / "evals" / ".agentv" / "providers").mkdir(parents=True)
    (tmp_path / "evals" / ".agentv" / "providers" / "my-agent.ts").write_text("\n")
    for target in ("default", "scripted", "commanded", "alias"):
        (tmp_path / "evals" / f"{target}.eval.yaml").write_text(
            f"execution:\n  target: {target}\ntests:\n  - {{id: t, input: hi, criteria: c}}\n")
    return tmp_path


def test_an_evals_target_whose_provider_runs_a_missing_provider_script_is_an_error(tmp_path):
    """A provider the runner does not know runs '.agentv/providers/<provider>.ts' from the eval file's folder,
    unless the target has a command (providers/targets.ts resolveDiscoveredProviderConfig, below). The targets file
    says EV506 whether or not an eval uses the target."""
    assert run_concise(_evals(tmp_path), "--no-cache", "evals") == (1, "".join(
        f"evals/{target}.eval.yaml:2:11: EV409 [error] target '{target}' cannot run: its provider 'opeani' is no "
        "provider the runner knows, so it runs the provider script '.agentv/providers/opeani.ts' from evals/, which "
        "is not there, and every test fails\n" for target in ("alias", "default")), "")


# what AgentV 4.42.4 makes of a target with a provider it does not know, for an eval file in the folder given
RESOLVED = """
import { resolveTargetDefinition } from "@agentv/core";
for (const target of [{name: "a", provider: "opeani"}, {name: "b", provider: "opeani", command: "python3 run.py"}]) {
  const resolved = resolveTargetDefinition(target, {}, process.argv[1] + "/a.eval.yaml");
  console.log(JSON.stringify([resolved.kind, resolved.config.command, resolved.config.cwd === process.argv[1]]));
}
"""


@pytest.mark.runner
def test_the_runner_runs_a_provider_it_does_not_know_as_a_script_from_the_eval_files_folder(tmp_path):
    done = subprocess.run([require_runner(), "--input-type=module", "-e", RESOLVED, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, cwd=HERE, check=True)
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        ["cli", "bun run .agentv/providers/opeani.ts {PROMPT}", True], ["cli", "python3 run.py", True]]


CONTEXT_TARGETS = """\
targets:
  - {name: default, provider: myprov}
  - {name: good, provider: mock}
  - {name: envcwd, provider: myprov, cwd: "${{ WORKDIR }}"}
  - {name: blank, provider: myprov, command: ""}
"""
CONTEXTS = {
    "workspace.eval.yaml": "execution: {target: default}\nworkspace: {template: ws}\n",  # started in the workspace
    "envcwd.eval.yaml": "execution: {target: envcwd}\n",  # in a folder the environment names
    "overridden.eval.yaml": "execution: {target: default, targets: [good]}\n",  # 'targets' decide
    "legacy.eval.yaml": "target: blank\n",  # the suite's 'target', a blank command: the provider script runs
}


def test_the_provider_script_is_looked_up_only_where_the_run_starts_the_target_as_known_here(tmp_path):
    """The run starts a target in the workspace's folder when there is a workspace (orchestrator.ts passes it as the
    provider's cwd); a target's cwd the environment names is not known here; 'execution.targets' replace
    'execution.target' (apps/cli run-eval.ts); a blank command is none (providers/targets.ts: 'command ? ...')."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / "ws").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(CONTEXT_TARGETS)
    for name, text in CONTEXTS.items():
        (tmp_path / name).write_text(text + "tests:\n  - {id: t, input: hi, criteria: c}\n")
    assert run_concise(tmp_path, "--no-cache", *CONTEXTS) == (1, (
        "legacy.eval.yaml:1:9: EV409 [error] target 'blank' cannot run: its provider 'myprov' is no provider the "
        "runner knows, so it runs the provider script '.agentv/providers/myprov.ts' from ./, which is not there, and "
        "every test fails\n"
        "overridden.eval.yaml:1:13: EV116 [error] 'execution.target' 'default' is ignored: the runner runs the suite on "
        "'execution.targets', which is also set; remove one of them\n"), "")


TEST, SECOND = "{id: t, input: hi, criteria: c", "{id: u, input: hi, criteria: c"
FOLDERS = {  # where the run starts each suite's target 'default' (an unknown provider, whose script is missing)
    "isolation.eval.yaml": f"workspace: {{isolation: shared}}\ntests:\n  - {TEST}}}\n",  # no folder: ./
    "later.eval.yaml": f"tests:\n  - {TEST}}}\n  - {SECOND}, workspace: {{hooks: {{before_each: {{command: [./x.sh]}}}}}}}}\n",
    "shared.eval.yaml": f"workspace: {{template: ws}}\ntests:\n  - {TEST}}}\n",  # one shared folder
    # a folder for each test
    "per-test.eval.yaml": f"workspace: {{template: ws, isolation: per_test}}\ntests:\n  - {TEST}}}\n  - {SECOND}}}\n",
    # the first test's merged workspace shares one
    "first-shares.eval.yaml": f"workspace: {{isolation: per_test}}\ntests:\n  - {TEST}, workspace: {{template: ws, "
                              f"isolation: shared}}}}\n  - {SECOND}}}\n",
    "file.eval.yaml": f"workspace: ./ws.yaml\ntests:\n  - {TEST}}}\n",  # a workspace file: not read here
}


def test_the_provider_script_is_looked_up_from_the_eval_files_folder_when_a_test_runs_without_a_workspace_folder(
        tmp_path):
    """The run makes a workspace folder only of a template, hooks or repos (or a static path): one shared folder when
    the first test's workspace, merged with the suite's, gives one without 'isolation: per_test', else one for each
    test whose merged workspace gives one (workspace/setup.ts); another test's target starts in the eval file's
    folder."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws.yaml").write_text("isolation: shared\n")
    (tmp_path / "x.sh").write_text("#!/bin/sh\n")
    (tmp_path / "x.sh").chmod(0o755)
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - {name: default, provider: myprov}\n")
    for name, text in FOLDERS.items():
        (tmp_path / name).write_text("execution: {target: default}\n" + text)
    cannot = ("EV409 [error] target 'default' cannot run: its provider 'myprov' is no provider the runner knows, so it "
              "runs the provider script '.agentv/providers/myprov.ts' from ./, which is not there, and every test fails")
    assert run_concise(tmp_path, "--no-cache", *FOLDERS) == (1, (
        f"isolation.eval.yaml:1:21: {cannot}\n"
        f"later.eval.yaml:1:21: {cannot}\n"), "")


def test_a_tests_targets_are_followed_only_among_the_suites_several(tmp_path):
    """apps/cli run-eval.ts: with several targets, the run gives each the tests whose 'execution.targets' name it (or
    that list none); with one, it runs every test on it and reads no test's list."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(
        "targets:\n  - {name: default, provider: mock}\n  - {name: other, provider: mock}\n")
    (tmp_path / "several.eval.yaml").write_text(
        "execution: {targets: [default, other]}\ntests:\n"
        "  - {id: a, input: hi, criteria: c, execution: {targets: [default, nope]}}\n"
        "  - {id: b, input: hi, criteria: c, execution: {targets: [nope]}}\n"
        "  - {id: c, input: hi, criteria: c, execution: {targets: [other]}}\n")
    (tmp_path / "one.eval.yaml").write_text(
        "execution: {target: default}\ntests:\n"
        "  - {id: a, input: hi, criteria: c, execution: {targets: [other]}}\n"
        "  - {id: b, input: hi, criteria: c, execution: {targets: [default]}}\n")
    assert run_concise(tmp_path, "--no-cache", "several.eval.yaml", "one.eval.yaml") == (1, (
        "one.eval.yaml:3:49: EV116 [error] a test's 'execution.targets' is ignored: the runner reads it only when the "
        "suite runs on several targets ('execution.targets'), and runs this test on the suite's target 'default'\n"
        "several.eval.yaml:3:68: EV116 [error] target 'nope' is none of the suite's targets ('default' and 'other'): "
        "the runner runs a test only on the suite's targets its 'targets' names\n"
        "several.eval.yaml:4:59: EV116 [error] target 'nope' is none of the suite's targets ('default' and 'other'): "
        "the runner runs a test only on the suite's targets its 'targets' names; it never runs this test\n"), "")


# agents (claude, through a use_target; codex) with no grader_target, one with a grader, and an LLM target
AGENTS = ("targets:\n"
          "  - {name: judge, provider: mock}\n"
          "  - {name: claude_agent, provider: claude}\n"
          "  - {name: agent, use_target: claude_agent}\n"
          "  - {name: graded, provider: codex, grader_target: judge}\n"
          "  - {name: blank, provider: codex, judge_target: ''}\n")


def _agent_suites(tmp_path):
    (tmp_path / ".git").mkdir(parents=True)
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(AGENTS)
    for target in ("agent", "graded", "blank", "judge"):
        (tmp_path / f"{target}.eval.yaml").write_text(f"execution: {{target: {target}}}\n"
                                                      "tests: [{id: t, input: hi, assertions: [{type: contains, "
                                                      "value: answer}]}]\n")
    return tmp_path


def test_an_evals_target_that_is_an_agent_with_no_grader_target_is_an_error(tmp_path):
    why = ("is an agent and it names no grader_target, so the run stops before any test ('agent providers cannot "
           "return structured JSON for grading'); give the target a grader_target naming an LLM target (or run with "
           "--grader-target)")
    assert run_concise(_agent_suites(tmp_path), "--no-cache", ".") == (1, (
        ".agentv/targets.yaml:6:50: EV511 [error] judge_target '' names no target in this file; targets: 'agent', "
        "'blank', 'claude_agent', 'graded', 'judge'\n"
        f"agent.eval.yaml:1:21: EV409 [error] target 'agent' cannot run: its provider 'claude' {why}\n"
        f"blank.eval.yaml:1:21: EV409 [error] target 'blank' cannot run: its provider 'codex' {why}\n"), "")


@pytest.mark.runner
@pytest.mark.parametrize(("target", "stops"), (("claude_agent", True), ("graded", False), ("blank", True),
                                                ("judge", False)))
def test_the_runner_stops_before_any_test_on_an_agent_with_no_grader(tmp_path, target, stops):
    root = _agent_suites(tmp_path / "repo")
    (tmp_path / "home").mkdir()
    ran = run_suite(root, "judge.eval.yaml", tmp_path / "home", target)
    assert ("agent provider" in (ran["error"] or "")) == stops, ran["error"]


# an LLM target and an agent that each name themselves as their grader_target
NAMING_THEMSELVES = ("targets:\n"
               "  - {name: judge, provider: mock, grader_target: judge}\n"
               "  - {name: solo, provider: codex, grader_target: solo}\n")


def test_a_grader_target_naming_its_own_target_is_an_error_only_where_the_target_cannot_grade(tmp_path):
    """The run grades with the target itself when it names no grader_target (orchestrator.ts), so an LLM target
    naming itself changes nothing; an agent naming itself is asked to grade, and its answer is no verdict."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(NAMING_THEMSELVES)
    (tmp_path / "a.eval.yaml").write_text("execution: {target: judge}\ntests: [{id: t, input: hi, criteria: ok}]\n")
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        ".agentv/targets.yaml:3:50: EV511 [error] grader_target 'solo' names the target itself; its provider cannot "
        "grade, so the runner asks it to and its answer is no verdict: the llm-graders are left out of the score (a "
        "test graded by them alone scores 0); name an LLM target\n"), "")


@pytest.mark.runner
@pytest.mark.parametrize(("target", "score"), (("judge", 1), ("solo", 0)))
def test_the_runner_grades_with_a_target_that_names_itself(tmp_path, target, score):
    root = tmp_path / "repo"
    (root / ".agentv").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / ".agentv" / "targets.yaml").write_text(NAMING_THEMSELVES)
    (root / "a.eval.yaml").write_text("tests: [{id: t, input: hi, criteria: ok}]\n")
    (tmp_path / "home").mkdir()
    ran = run_suite(root, "a.eval.yaml", tmp_path / "home", target)
    assert (ran["error"], ran["scores"]) == (None, {"t": score})


# a cli target with no grader_target, one with a grader, and an LLM target; suites graded by an llm-grader (the
# default one), by a contains grader alone, by an llm-grader with a target of its own, by a rubric written as a
# string, by a composite's llm-grader aggregator, and a conversation whose turns a contains grader grades (a turn
# without graders or expected output is scored ungraded, and without graders of its own the transcript is not graded)
SELF_GRADED = ("targets:\n"
               "  - {name: mycli, provider: cli, command: 'sh agent.sh {PROMPT} {OUTPUT_FILE}'}\n"
               "  - {name: graded, provider: cli, command: 'sh agent.sh {PROMPT} {OUTPUT_FILE}', grader_target: judge}\n"
               "  - {name: judge, provider: mock}\n")
SELF_GRADED_SUITES = {"criteria": "criteria: says hi", "contains": "assertions: [{type: contains, value: hi}]",
                      "own": "assertions: [{type: llm-grader, target: judge}]", "string": "assertions: [says hi]",
                      "composite": "assertions: [{name: c, type: composite, assertions: [{name: m, type: contains, "
                                   "value: hi}], aggregator: {type: llm-grader, prompt: 'Decide {{EVALUATOR_RESULTS_JSON}}'}}]",
                      "turns": "mode: conversation, turns: [{input: hi, assertions: [{type: contains, value: answer}]}, "
                               "{input: again}]"}


def _self_graded(root):
    (root / ".git").mkdir(parents=True)
    (root / ".agentv").mkdir()
    (root / ".agentv" / "targets.yaml").write_text(SELF_GRADED)
    for name, graders in SELF_GRADED_SUITES.items():
        for target in ("mycli", "graded"):
            (root / f"{name}-{target}.eval.yaml").write_text(f"execution: {{target: {target}}}\n"
                                                             f"tests: [{{id: t, input: hi, {graders}}}]\n")
    return root


def test_an_evals_target_that_grades_itself_and_cannot_is_an_error(tmp_path):
    itself = ("EV409 [error] target 'mycli' grades the suite's tests itself: its provider 'cli' cannot answer a grader "
              "and it names no grader_target, so the runner sends the prompt of each llm-grader (a test's default one "
              "too) to the target itself, whose answer is no verdict: the runner leaves each such grader out of the "
              "score (a test graded by them alone scores 0); give the target a grader_target naming an LLM target (or "
              "run with --grader-target)\n")
    assert run_concise(_self_graded(tmp_path), "--no-cache", ".") == (1, "".join(
        f"{name}-mycli.eval.yaml:1:21: {itself}" for name in ("composite", "criteria", "string")), "")


@pytest.mark.runner
def test_the_runner_asks_a_cli_target_with_no_grader_target_to_grade(tmp_path):
    root = _self_graded(tmp_path / "repo")
    asked = {(name, target): [graded["by"] for graded in run_suite(root, f"{name}-{target}.eval.yaml", tmp_path,
                                                                     target)["graded"]]
             for name in ("criteria", "own", "string", "turns") for target in ("mycli", "graded")}
    assert asked == {("criteria", "mycli"): ["mycli"], ("criteria", "graded"): ["judge"],
                     ("own", "mycli"): ["judge"], ("own", "graded"): ["judge"],
                     ("string", "mycli"): ["mycli"], ("string", "graded"): ["judge"],
                     ("turns", "mycli"): [], ("turns", "graded"): []}


def test_a_target_the_command_line_passes_over_for_another_is_an_error(tmp_path):
    """apps/cli run-eval.ts runs a suite on the first of 'execution.targets', 'execution.target' and the root 'target'
    that is set: another naming a different target is never read. A list of the one name 'default' is none (its
    pickTargetName takes 'default' for no name)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text("target: judge\nexecution:\n  target: other\n  targets: [alpha, beta]\n"
                                          "tests: [{id: t, input: hi, criteria: c}]\n")
    (tmp_path / "c.eval.yaml").write_text("execution: {targets: [' default '], target: other}\n"
                                          "tests: [{id: t, input: hi, criteria: c}]\n")
    (tmp_path / "b.eval.yaml").write_text("target: default\nexecution: {target: ' default '}\n"
                                          "tests: [{id: t, input: hi, criteria: c}]\n")
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "a.eval.yaml:1:1: EV116 [error] root 'target' 'judge' is ignored: the runner runs the suite on "
        "'execution.targets', which is also set; remove one of them\n"
        "a.eval.yaml:3:3: EV116 [error] 'execution.target' 'other' is ignored: the runner runs the suite on "
        "'execution.targets', which is also set; remove one of them\n"), "")


DISCOVERED_COMMAND = "targets:\n  - name: a\n    provider: my-agent\n    command: bun run x.ts {prompt}\n"


def test_a_provider_scripts_command_with_a_placeholder_the_runner_leaves_as_written_is_an_error(tmp_path):
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(DISCOVERED_COMMAND)
    out = run_concise(tmp_path, "--no-cache", "--agentv-version", "4.42", ".agentv/targets.yaml")
    assert out[0] == 1 and [line for line in out[1].splitlines() if "EV509" in line] == [
        ".agentv/targets.yaml:4:27: EV509 [error] unknown placeholder '{prompt}' in command template (did you mean "
        "'PROMPT'?); known: {PROMPT}, {PROMPT_FILE}, {EVAL_ID}, {ATTEMPT}, {FILES}, {OUTPUT_FILE}"]


@pytest.mark.runner
def test_the_runner_takes_a_provider_scripts_command_with_any_placeholder(tmp_path):
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(DISCOVERED_COMMAND)
    read = read_targets(tmp_path, [".agentv/targets.yaml"])[".agentv/targets.yaml"]
    assert (read["error"], read["targets"]) == (None, [{"kind": "cli", "name": "a"}])


REPLAYED = """\
targets:
  - {name: live, provider: mock}
  - {name: from-fixtures, provider: replay, source_target: live, fixtures: recordings/live.jsonl}
  - {name: from-traces, provider: replay, source_target: live, execution_traces: ./traces.jsonl}
  - {name: from-env, provider: replay, source_target: live, fixtures: "${{ FIXTURES }}"}
  - {name: from-absolute, provider: replay, source_target: live, fixtures: /recordings/live.jsonl}
"""
RECORDED = ('{"schema_version": "agentv.replay_fixture.v1", "suite": "s", "test_id": "t", "source_target": "live", '
            '"output": [{"role": "assistant", "content": "hi there"}]}\n')


def _replayed(root):
    """Suites in evals/ on each replay target; the recordings are in the repository's root, and for
    'from-fixtures' in evals/ too."""
    (root / ".agentv").mkdir(parents=True)
    git(root, "init", "-q")
    (root / ".agentv" / "targets.yaml").write_text(REPLAYED)
    for folder in (root / "recordings", root / "evals" / "recordings"):
        folder.mkdir(parents=True)
        (folder / "live.jsonl").write_text(RECORDED)
    (root / "traces.jsonl").write_text(RECORDED)
    for target in ("from-fixtures", "from-traces", "from-env", "from-absolute"):
        (root / "evals" / f"{target}.eval.yaml").write_text(
            f"name: s\nexecution: {{target: {target}}}\ntests: [{{id: t, input: hi, assertions: [{{type: contains, "
            "value: hi}]}]\n")
    return root


def test_a_replay_target_whose_recording_is_not_beside_the_eval_file_is_an_error(tmp_path):
    """The runner looks a replay target's 'fixtures' or 'execution_traces' up from the eval file's folder, not the
    targets file's or the repository's, and every test fails without it; a path the environment gives, or an
    absolute one (this machine's), is not known here."""
    assert run_concise(_replayed(tmp_path), "--no-cache", ".") == (1, (
        "evals/from-traces.eval.yaml:2:21: EV409 [error] target 'from-traces' cannot run: its replay "
        "'execution_traces' './traces.jsonl' names no file (the runner looks it up from the eval file's folder, "
        "evals/), so every test fails; record it first ('agentv eval --record-replay' on the source target) or "
        "correct the path\n"), "")


@pytest.mark.runner
def test_the_runner_reads_a_replay_targets_recording_from_the_eval_files_folder(tmp_path):
    root = _replayed(tmp_path / "repo")
    (root / "evals" / "recordings" / "live.jsonl").unlink()
    (root / "evals" / "traces.jsonl").write_text(RECORDED)
    ran = run_suite(root, "evals/from-fixtures.eval.yaml", tmp_path, "from-fixtures")
    missing = root / "evals" / "recordings" / "live.jsonl"
    assert (ran["error"], ran["scores"]) == (None, {"t": 0})
    assert ran["failed"]["t"].startswith(f"Replay fixture file not found or unreadable: {missing}: ENOENT")
    (root / "evals" / "recordings" / "live.jsonl").write_text(RECORDED)
    ran = run_suite(root, "evals/from-fixtures.eval.yaml", tmp_path, "from-fixtures")
    assert (ran["error"], ran["scores"], ran["failed"]) == (None, {"t": 1}, {})


COPILOT_LOGS = """\
targets:
  - {name: unread, provider: copilot-log, session_dir: " "}
  - {name: latest, provider: copilot-log, discover: latest}
  - {name: by-env, provider: copilot-log, session_dir: "${{ COPILOT_SESSION }}"}
"""


def _copilot_logs(root):
    """A suite and COPILOT_LOGS: a copilot-log target without a session (a blank one is none), then two with one."""
    (root / ".agentv").mkdir(parents=True)
    git(root, "init", "-q")
    (root / ".agentv" / "targets.yaml").write_text(COPILOT_LOGS)
    (root / "a.eval.yaml").write_text("tests: [{id: t, input: hi, assertions: [{type: contains, value: hi}]}]\n")
    return root


def test_a_copilot_log_target_without_a_session_is_an_error(tmp_path):
    """A session the environment gives is not known here. The suite, which the targets file serves, runs on a target
    the command line names (EV416)."""
    assert run_concise(_copilot_logs(tmp_path), "--no-cache", ".agentv/targets.yaml") == (1, (
        ".agentv/targets.yaml:2:6: EV110 [error] a target of provider 'copilot-log' needs 'session_dir', 'session_id' or "
        "'discover: latest' (the session it reads); without one the runner fails every test run on it\n"
        "a.eval.yaml:1:1: EV416 [warning] the suite names no target, and .agentv/targets.yaml defines no 'default', the "
        "target the agentv command runs a suite on when neither names one: the run fails before any test unless the "
        "command line gives --target; name one in 'execution.target' (its targets: 'by-env', 'latest', 'unread')\n"), "")


@pytest.mark.runner
def test_the_runner_fails_each_test_of_a_copilot_log_target_without_a_session(tmp_path):
    """The runner's own copilot-log provider: without a session it fails the test, and with 'discover: latest' it
    looks for one (none in the run's home folder)."""
    root = _copilot_logs(tmp_path / "repo")
    unread, latest = (run_suite(root, "a.eval.yaml", tmp_path, target) for target in ("unread", "latest"))
    assert (unread["error"], unread["scores"], unread["failed"]) == (
        None, {"t": 0}, {"t": 'CopilotLogProvider requires one of: sessionDir, sessionId, or discover="latest"'})
    assert (latest["error"], latest["scores"]) == (None, {"t": 0})
    assert latest["failed"]["t"].startswith("No Copilot CLI sessions found")


def test_a_cli_targets_cwd_is_looked_up_from_the_eval_files_folder(tmp_path):
    """The runner runs a cli target's command in its 'cwd', a relative one taken from the eval file's folder
    (providers/targets.ts): a folder beside '.agentv' is not there for an eval file in 'evals/'."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / "agent").mkdir()
    (tmp_path / "evals" / "agent").mkdir(parents=True)
    (tmp_path / ".agentv" / "targets.yaml").write_text(
        "targets:\n  - {name: local, provider: cli, command: 'sh run.sh {PROMPT} {OUTPUT_FILE}', cwd: ./agent, "
        "grader_target: judge}\n  - {name: judge, provider: mock}\n")
    suite = "execution: {target: local}\ntests: [{id: t, input: hi, assertions: [{type: contains, value: hi}]}]\n"
    (tmp_path / "a.eval.yaml").write_text(suite)
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "b.eval.yaml").write_text(suite)
    (tmp_path / "evals" / "c.eval.yaml").write_text(suite)
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "nested/b.eval.yaml:1:21: EV407 [error] target 'local' runs its command in 'cwd' './agent', which the runner "
        "looks up from the eval file's folder (nested/): there is no such folder there, so every test fails\n"), "")
