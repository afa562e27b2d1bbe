"""AgentV 4.42.4's targets and config schemas (format/agentv4/project.py, their checks in rules/targets4.py
and rules/config_file.py): AgentV's own example files, single mistakes with their exact code, place and
message, and agreement with the runner, which is asked what it makes of the same files."""
from __future__ import annotations

import pytest
import yaml

from agentv_runner import read_configs, read_targets
from clirun import run_concise
from conftest import FIXTURES
from evallint.format.agentv4.project import CONFIG_SCHEMA, TARGETS_SCHEMA, Target
from evallint.format.walk import load_checked
from evallint.load.yaml12 import parse_yaml
from evallint.rules.registry import declared

EXAMPLES = FIXTURES / "agentv-4.42.4-examples"
TARGETS_FILES = sorted(str(path.relative_to(EXAMPLES)) for path in EXAMPLES.rglob(".agentv/targets.yaml"))
CONFIG_FILES = sorted(str(path.relative_to(EXAMPLES)) for path in EXAMPLES.rglob(".agentv/config.yaml"))
# the examples whose first target names a grader_target 'grader' that their targets file does not define: the
# runner, which reads that one file, finds no grader for it (grader: null below)
DANGLING_GRADER = ("features/code-grader-sdk", "features/file-changes-graders", "features/latency-assertions",
                   "features/local-cli", "features/tool-trajectory-advanced", "features/tool-trajectory-simple",
                   "showcase/offline-grader-benchmark")


def lint(schema, text: str) -> tuple:
    """(the model, or None, and each finding as (code, data path, target, message))."""
    model, found = load_checked(schema, parse_yaml(text).data)
    return model, [(f.code, f.path, f.target, f.message) for f in found.findings]


def errors(findings: list) -> list:
    return [f for f in findings if declared()[f[0]][0].level == "E"]


def test_agentvs_example_targets_files_load_with_no_error_but_a_grader_target_naming_no_target():
    assert len(TARGETS_FILES) == 22
    for name in TARGETS_FILES:
        model, findings = lint(TARGETS_SCHEMA, (EXAMPLES / name).read_text())
        assert model is not None and model.targets, name
        dangling = name.split("/.agentv")[0].removeprefix("examples/") in DANGLING_GRADER
        assert [(code, path) for code, path, _, _ in errors(findings)] == (
            [("EV511", ("targets", 0, "grader_target"))] if dangling else []), name
    _, findings = lint(TARGETS_SCHEMA, (EXAMPLES / "examples/features/local-cli/.agentv/targets.yaml").read_text())
    assert findings == [("EV511", ("targets", 0, "grader_target"), "value",
                         "grader_target 'grader' names no target in this file; targets: 'local_cli'")]


def test_a_provider_script_of_agentvs_examples_is_a_warning():
    _, findings = lint(TARGETS_SCHEMA, (EXAMPLES / "examples/features/preprocessors/.agentv/targets.yaml").read_text())
    assert [(code, path) for code, path, _, _ in findings] == [("EV506", ("targets", 0, "provider")),
                                                                ("EV506", ("targets", 1, "provider"))]
    assert findings[0][3].startswith("unknown provider 'file-output'; the runner runs it as a provider script "
                                     "'.agentv/providers/file-output.ts'; known: 'openai', 'openrouter', ")


def test_agentvs_example_config_file_loads_with_no_finding():
    assert CONFIG_FILES == ["examples/features/langfuse-export/.agentv/config.yaml"]
    model, findings = lint(CONFIG_SCHEMA, (EXAMPLES / CONFIG_FILES[0]).read_text())
    assert findings == []
    assert model.execution == {"export_otel": True, "otel_backend": "langfuse", "otel_group_turns": True,
                               "otel_file": ".agentv/results/otel-{timestamp}.json"}


def test_a_targets_file_builds_each_target_with_its_grader_and_settings():
    model, findings = lint(TARGETS_SCHEMA, """\
targets:
  - name: grader
    provider: openai
    api_key: ${{ OPENAI_API_KEY }}
    model: ${{ OPENAI_MODEL }}
  - name: agent
    provider: codex
    grader_target: grader
    workers: 2
    timeout_seconds: 300
  - name: old
    provider: Mock
    judge_target: grader
  - name: default
    use_target: ${{ AGENT_TARGET }}
""")
    assert findings == [("EV506", ("targets", 2, "provider"), "value",
                         "unknown provider 'Mock' (did you mean 'mock'?); the runner reads it as 'mock', but its "
                         "validator warns about it; known: 'openai', 'openrouter', 'azure', 'anthropic', 'gemini', "
                         "'codex', 'copilot-sdk', 'copilot-cli', 'copilot-log', 'pi-coding-agent', 'pi-cli', 'claude', "
                         "'claude-cli', 'claude-sdk', 'cli', 'mock', 'vscode', 'vscode-insiders', 'agentv', 'transcript', "
                         "'replay' and aliases 'azure-openai', 'google', 'google-gemini', 'codex-cli', 'copilot', "
                         "'copilot_sdk', 'pi', 'claude-code', 'cc-mirror', 'bedrock', 'vertex'")]
    grader, agent, old, default = model.targets
    assert agent == Target(name="agent", provider="codex", grader_target="grader", workers=2,
                           settings={"timeout_seconds": 300})
    assert grader.settings == {"api_key": "${{ OPENAI_API_KEY }}", "model": "${{ OPENAI_MODEL }}"}
    assert old.grader_target == "grader"
    assert default == Target(name="default", use_target="${{ AGENT_TARGET }}")


def _file(target: str) -> str:
    """A targets file: a mock target 'judge', then ``target`` (indented as an item of 'targets')."""
    return "targets:\n  - name: judge\n    provider: mock\n" + target


MISTAKES = [  # (the second target, as written; the finding it gives)
    ("  - name: a\n    provider: anthropic\n    api_key: ${{ K }}\n    model: ${{ M }}\n    temprature: 0\n",
     ("EV115", ("targets", 1, "temprature"), "key", "unknown key 'temprature' in target of provider 'anthropic' (did you "
      "mean 'temperature'?); the runner does not read it, so what it holds is dropped")),
    ("  - name: a\n    provider: mokc\n",
     ("EV506", ("targets", 1, "provider"), "value", "unknown provider 'mokc' (did you mean 'mock'?); the runner runs it "
      "as a provider script '.agentv/providers/mokc.ts'; known: 'openai', 'openrouter', 'azure', 'anthropic', 'gemini', "
      "'codex', 'copilot-sdk', 'copilot-cli', 'copilot-log', 'pi-coding-agent', 'pi-cli', 'claude', 'claude-cli', "
      "'claude-sdk', 'cli', 'mock', 'vscode', 'vscode-insiders', 'agentv', 'transcript', 'replay' and aliases "
      "'azure-openai', 'google', 'google-gemini', 'codex-cli', 'copilot', 'copilot_sdk', 'pi', 'claude-code', "
      "'cc-mirror', 'bedrock', 'vertex'")),
    ("  - name: a\n    provider: claude\n    grader_target: jduge\n",
     ("EV511", ("targets", 1, "grader_target"), "value", "grader_target 'jduge' names no target in this file (did you "
      "mean 'judge'?); targets: 'a', 'judge'")),
    ("  - name: a\n    provider: azure\n    endpoint: ${{ E }}\n    resource: ${{ R }}\n    api_key: ${{ K }}\n"
     "    model: ${{ M }}\n",
     ("EV108", ("targets", 1, "resource"), "key", "'resource' is ignored because 'endpoint' is also set: the runner reads "
      "the first of 'endpoint', 'resource' that is set; remove one of them")),
    ("  - name: a\n    provider: claude\n    args: [--verbose]\n",
     ("EV507", ("targets", 1, "args"), "key", "unknown key 'args' in target of provider 'claude' (known keys: "
      "binary, bypass_permissions, command, cwd, executable, fallback_targets, grader_target, judge_target, log_dir, "
      "log_directory, log_format, log_output_format, max_budget_usd, max_turns, model, name, provider, "
      "provider_batching, stream_log, subagent_mode_allowed, system_prompt, timeout_seconds, use_target, workers)")),
    ("  - name: ' a'\n    provider: mock\n",
     ("EV503", ("targets", 1, "name"), "value", "target name ' a' has white space around it: the runner looks up the "
      "target of an eval (or of the command line) by its trimmed name, so no eval runs on this one; write 'a'")),
    ("  - name: a\n    use_target: b\n",
     ("EV511", ("targets", 1, "use_target"), "value", "use_target 'b' names no target in this file; targets: 'a', "
      "'judge'")),
    ("  - name: a\n    provider: openai\n    api_key: sk-EXAMPLE\n    model: ${{ M }}\n",
     ("EV512", ("targets", 1, "api_key"), "value", "'api_key' holds a literal value; a committed secret leaks to "
      "everyone who can read the repository: use an environment reference such as '${{ API_KEY }}' instead (value "
      "not shown)")),
    ("  - name: a\n    provider: openai\n    api_key: ${{ K }}\n    model: gpt-4o\n",
     ("EV110", ("targets", 1, "model"), "value", "'model' must be an environment reference such as '${{ NAME }}' (the "
      "runner reads it only from the environment), found 'gpt-4o'; the runner rejects the target")),
    ("  - name: a\n    provider: cli\n    command: agent {QUESTION} {OUTPUT_FILE}\n",
     ("EV509", ("targets", 1, "command"), "value", "unknown placeholder '{QUESTION}' in command template; known: "
      "{PROMPT}, {PROMPT_FILE}, {EVAL_ID}, {ATTEMPT}, {FILES}, {OUTPUT_FILE}")),
    ("  - name: a\n    provider: cli\n    command: agent {prompt_file}\n",
     ("EV509", ("targets", 1, "command"), "value", "unknown placeholder '{prompt_file}' in command template (did you "
      "mean 'PROMPT_FILE'?); known: {PROMPT}, {PROMPT_FILE}, {EVAL_ID}, {ATTEMPT}, {FILES}, {OUTPUT_FILE}")),
    ("  - name: a\n    provider: cli\n    command_template: agent {PROMPT}\n",
     ("EV115", ("targets", 1, "command_template"), "key", "unknown key 'command_template' in target of provider 'cli' "
      "(did you mean 'command'?); the runner does not read it, so what it holds is dropped")),
    ("  - name: a\n    provider: cli\n    cwd: ..\n",
     ("EV508", ("targets", 1), "first_key", "provider 'cli' needs a 'command' (the command that runs the agent); the "
      "runner rejects the target without it")),
    ("  - name: a\n    provider: cli\n    command: agent {PROMPT}\n    healthcheck:\n      url: http://localhost:8080\n",
     ("EV510", ("targets", 1, "healthcheck", "url"), "value", "healthcheck 'url' 'http://localhost:8080' must be an "
      "environment reference such as '${{ HEALTHCHECK_URL }}'; the runner rejects a literal url")),
    ("  - name: a\n    provider: cli\n    command: agent {PROMPT}\n    env: {DEBUG: '1'}\n",
     ("EV507", ("targets", 1, "env"), "key", "unknown key 'env' in target of provider 'cli' (known keys: "
      "attachments_format, cli_verbose, command, cwd, fallback_targets, files_format, grader_target, healthcheck, "
      "judge_target, keep_output_files, keep_temp_files, name, provider, provider_batching, subagent_mode_allowed, "
      "timeout_seconds, use_target, verbose, workers)")),
    ("  - name: a\n    provider: mock\n    providerBatching: true\n",
     ("EV115", ("targets", 1, "providerBatching"), "key", "camelCase key 'providerBatching' (did you mean "
      "'provider_batching'?); the runner no longer reads camelCase keys in a targets file and rejects the target")),
    ("  - name: a\n    provider: azure\n    endpoint: ${{ E }}\n    api_key: ${{ K }}\n    model: ${{ M }}\n"
     "    api_format: chat\n",
     ("EV110", ("targets", 1, "api_format"), "key", "'api_format' is not accepted on a target of provider 'azure': "
      "azure targets always use the Responses API; for a chat-completions-only deployment use provider 'openai' with "
      "a deployment-scoped 'base_url'; the runner rejects the target")),
    ("  - name: a\n    provider: gemini\n",
     ("EV110", ("targets", 1), "first_key", "a target of provider 'gemini' needs 'api_key'; the runner rejects the "
      "target without it")),
    ("  - name: a\n    provider: codex\n    stream_log: yes\n",
     ("EV110", ("targets", 1, "stream_log"), "value", "'stream_log' must be false, 'raw' or 'summary', found 'yes'; the "
      "runner rejects the target")),
    ("  - name: a\n    provider: mock\n    workers: 0\n",
     ("EV513", ("targets", 1, "workers"), "value", "'workers' must be a positive integer, found 0 (a number)")),
    ("  - name: a\n    provider: codex\n    model_reasoning_effort: hgih\n",
     ("EV110", ("targets", 1, "model_reasoning_effort"), "value", "'model_reasoning_effort' must be 'minimal', 'low', "
      "'medium', 'high' or 'xhigh', found 'hgih' (did you mean 'high'?); the runner rejects the target")),
    ("  - name: a\n    provider: agentv\n    model: opneai:gpt-5\n",
     ("EV110", ("targets", 1, "model"), "value", "'model' must be 'provider:model' of a provider 'openai', 'anthropic', "
      "'azure' or 'google' (such as 'openai:gpt-5-mini'), read as written, found 'opneai:gpt-5' (did you mean "
      "'openai:gpt-5'?); the runner cannot make the target's provider, so a run on it, and a grader it is the target "
      "of, fails")),
    ("  - name: a\n    provider: copilot-log\n    session_dir: ' '\n",
     ("EV110", ("targets", 1), "first_key", "a target of provider 'copilot-log' needs 'session_dir', 'session_id' or 'discover: "
      "latest' (the session it reads); without one the runner fails every test run on it")),
    ("  - name: a\n    provider: openai\n    api_key: ${{ K }}\n    model: ${{ M }}\n    base_url: https://${{ H }}/v1\n",
     ("EV110", ("targets", 1, "base_url"), "value", "'base_url' holds a '${{ NAME }}' within other text: the runner fills "
      "in only a value that is one whole reference, so 'https://${{ H }}/v1' is the text it uses; put the whole value "
      "in the environment variable")),
    ("  - name: a\n    provider: cli\n    command: agent {PROMPT}\n    cwd: ${{ ROOT }}/agent\n",
     ("EV110", ("targets", 1, "cwd"), "value", "'cwd' holds a '${{ NAME }}' within other text: the runner fills in only "
      "a value that is one whole reference, so '${{ ROOT }}/agent' is the text it uses; put the whole value in the "
      "environment variable")),
    ("  - name: a\n    provider: openai\n    api_key: 'sk-${{ K }}'\n    model: ${{ M }}\n",  # a secret's text is never shown
     ("EV512", ("targets", 1, "api_key"), "value", "'api_key' holds a literal value; a committed secret leaks to everyone "
      "who can read the repository: use an environment reference such as '${{ API_KEY }}' instead (value not shown)")),
    ("  - name: a\n    provider: agentv\n    model: 'openai:${{ M }}'\n",
     ("EV110", ("targets", 1, "model"), "value", "'model' is read as written: the runner fills no '${{ NAME }}' here, so "
      "'openai:${{ M }}' is the text it uses; write the value itself")),
    ("  - name: a\n    provider: cli\n    command: 'agent --token ${{ T }} {PROMPT}'\n",
     ("EV110", ("targets", 1, "command"), "value", "'command' holds a '${{ NAME }}' within other text: the runner fills in "
      "only a value that is one whole reference, so 'agent --token ${{ T }} {PROMPT}' is the text it uses; the shell "
      "that runs it cannot expand '${{ NAME }}'; write '$NAME' for the shell to fill it in")),
    ("  - name: a\n    provider: mock\n    hooks: {before_all: {command: [sh, setup.sh]}}\n",
     ("EV115", ("targets", 1, "hooks"), "key", "unknown key 'hooks' in target of provider 'mock': the runner reads it only "
      "in an item of an eval file's 'execution.targets', so what it holds is dropped here; move it there")),
    ("  - name: a\n    response: hi\n",
     ("EV505", ("targets", 1), "first_key", "target has no 'provider' nor 'use_target' (known providers: 'openai', "
      "'openrouter', 'azure', 'anthropic', 'gemini', 'codex', 'copilot-sdk', 'copilot-cli', 'copilot-log', "
      "'pi-coding-agent', 'pi-cli', 'claude', 'claude-cli', 'claude-sdk', 'cli', 'mock', 'vscode', 'vscode-insiders', "
      "'agentv', 'transcript', 'replay')")),
]


@pytest.mark.parametrize("target, expected", MISTAKES, ids=[f"{code}-{path[-1]}" for _, (code, path, _, _) in MISTAKES])
def test_a_single_mistake_in_a_targets_file_gives_its_code_place_and_message(target, expected):
    _, findings = lint(TARGETS_SCHEMA, _file(target))
    assert findings == [expected]


CONFIG_MISTAKES = [
    ("guideline_patterns: ['*.md']\n",
     ("EV603", ("guideline_patterns",), "key", "unknown key 'guideline_patterns' in config.yaml (did you mean "
      "'eval_patterns'?); AgentV 4.42.4 no longer reads guideline patterns")),
    ("eval_pattern: ['evals/**/*.yaml']\n",
     ("EV115", ("eval_pattern",), "key", "unknown key 'eval_pattern' in config.yaml (did you mean 'eval_patterns'?); "
      "the runner does not read it, so what it holds is dropped")),
    ("eval_patterns: 'evals/**/*.yaml'\n",
     ("EV110", ("eval_patterns",), "value", "'eval_patterns' must be a list of glob strings, found 'evals/**/*.yaml'; "
      "the runner ignores the whole config file")),
    ("execution:\n  verbose: yes\n",
     ("EV110", ("execution", "verbose"), "value", "'verbose' must be true or false, found 'yes'; the runner ignores it "
      "(the runner reads YAML 1.2, where 'yes' is text, not a boolean; write true or false)")),
    ("execution:\n  pool_slots: 80\n",
     ("EV110", ("execution", "pool_slots"), "value", "'pool_slots' must be a whole number from 1 to 50, found 80 (a "
      "number); the runner ignores it")),
    ("results:\n  repo_url: https://example.com/r.git\n  repo_path: .\n",
     ("EV110", ("results", "repo_path"), "key", "'results' sets both 'repo_url' and 'repo_path'; the runner ignores "
      "'results' unless only one is set")),
    ("results:\n  repo_path: .\n  path: results\n",
     ("EV110", ("results", "path"), "value", "results 'path' must be an absolute or '~/' path (the folder of the "
      "results clone), found 'results'; the runner ignores it (and all of 'results')")),
    ("hooks:\n  before_sesion: ./env.sh\n",
     ("EV115", ("hooks", "before_sesion"), "key", "unknown key 'before_sesion' in 'hooks' of config.yaml (did you mean "
      "'before_session'?); the runner does not read it, so what it holds is dropped")),
    ("execution:\n  workers: 4\n",
     ("EV115", ("execution", "workers"), "key", "'workers' is not read in 'execution' of config.yaml: it is a setting of "
      "an eval file's 'execution', where the runner reads it; move it there")),
    ("projects: []\n",
     ("EV603", ("projects",), "key", "unknown key 'projects' in config.yaml (known keys: $schema, dashboard, "
      "eval_patterns, execution, hooks, required_version, results, studio); 'projects' is read only from the home "
      "config ($AGENTV_HOME/config.yaml), not from a project's")),
    ("required_version: latest\n",
     ("EV110", ("required_version",), "value", "'required_version' 'latest' is no version range, such as '>=4.42.0', "
      "'^4' or '4.x'; the agentv command stops before it runs an eval ('Invalid required_version')")),
]


@pytest.mark.parametrize("wanted", ["'>=4.42.0 <5'", "'^4 || ^5'", "'4.x'", "''", "'${{ AGENTV_RANGE }}'"])
def test_a_required_version_the_agentv_command_takes_gives_no_finding(wanted):
    assert lint(CONFIG_SCHEMA, f"required_version: {wanted}\n")[1] == []


@pytest.mark.parametrize("text, expected", CONFIG_MISTAKES, ids=[path[-1] for _, (_, path, _, _) in CONFIG_MISTAKES])
def test_a_single_mistake_in_a_config_file_gives_its_code_place_and_message(text, expected):
    _, findings = lint(CONFIG_SCHEMA, text)
    assert findings == [expected]


@pytest.mark.runner
def test_the_runner_resolves_agentvs_example_targets_and_finds_no_grader_where_evallint_says_so():
    read = read_targets(EXAMPLES, TARGETS_FILES)
    for name in TARGETS_FILES:
        assert read[name]["error"] is None and [v for v in read[name]["validate"] if v["severity"] == "error"] == []
        assert all("kind" in target for target in read[name]["targets"]), name
        dangling = name.split("/.agentv")[0].removeprefix("examples/") in DANGLING_GRADER
        assert (read[name]["targets"][0].get("grader", "") is None) == dangling, name


GOOD = {  # a target of each kind the runner resolves as written
    "openai": {"provider": "openai", "api_key": "${{ K }}", "model": "${{ M }}"},
    "azure": {"provider": "azure", "endpoint": "${{ E }}", "api_key": "${{ K }}", "model": "${{ M }}"},
    "anthropic": {"provider": "anthropic", "api_key": "${{ K }}", "model": "${{ M }}"},
    "gemini": {"provider": "gemini", "api_key": "${{ K }}"},
    "codex": {"provider": "codex", "model": "gpt-5"},
    "claude": {"provider": "claude"},
    "copilot": {"provider": "copilot-cli", "model": "claude-haiku-4.5"},
    "copilot-log": {"provider": "copilot-log", "discover": "latest"},
    "pi": {"provider": "pi", "model": "m"},
    "mock": {"provider": "mock", "response": "ok", "grader_target": "judge"},
    "vscode": {"provider": "vscode"},
    "agentv": {"provider": "agentv", "model": "openai:gpt-5-mini"},
    "cli": {"provider": "cli", "command": "run {PROMPT} {OUTPUT_FILE}", "healthcheck": {"command": "run --health"}},
    "replay": {"provider": "replay", "fixtures": "f.jsonl", "source_target": "judge"},
    # an HTTP check reads no folder; the resolver trims the name a use_target gives
    "cli-http": {"provider": "cli", "command": "run {PROMPT}", "healthcheck": {"url": "${{ HEALTH_URL }}", "cwd": 5}},
    "delegated": {"use_target": " judge "},
    # an empty number or flag is no value to the resolver, as null is
    "blank": {"provider": "openai", "api_key": "${{ K }}", "model": "${{ M }}", "max_output_tokens": "",
              "provider_batching": ""},
    # what JavaScript's Number() makes a number of: white space alone is 0, hexadecimal and binary literals count
    "js-numbers": {"provider": "openai", "api_key": "${{ K }}", "model": "${{ M }}", "max_retries": "\t\n ",
                   "max_output_tokens": "0x10", "temperature": "\u00a00b1 "},
    # a flag or a choice as text is trimmed of JavaScript's white space, a byte order mark among it
    "js-flags": {"provider": "codex", "provider_batching": "\ufeffTRUE\u3000", "model_reasoning_effort": "\u2028High"},
}
REMOVED = object()
VARIANTS = [  # (kind, settings changed, REMOVED taking one out), each a single mistake of the target of that kind
    ("openai", {"api_key": "sk-live"}), ("openai", {"model": "gpt-4o"}), ("openai", {"api_format": "xml"}),
    ("openai", {"apiKey": "${{ K }}"}), ("openai", {"temperature": "hot"}), ("openai", {"retry_status_codes": ["429"]}),
    ("azure", {"api_format": "chat"}), ("azure", {"version": 3}), ("azure", {"deployment": "gpt"}),
    ("anthropic", {"thinking_budget": "lots"}), ("anthropic", {"model": REMOVED}), ("anthropic", {"api_key": " "}),
    ("gemini", {"model": 3}),
    ("codex", {"log_format": "json"}), ("codex", {"model_reasoning_effort": "max"}), ("codex", {"timeout_seconds": 0}),
    ("codex", {"args": "--x"}), ("codex", {"stream_log": "yes"}), ("claude", {"log_format": "text"}),
    ("claude", {"bypass_permissions": "yes"}), ("claude", {"executable": ["claude"]}),
    ("copilot-log", {"discover": "newest"}), ("pi", {"api_key": "x"}), ("pi", {"log_format": "text"}),
    ("pi", {"tools": ["a"]}), ("vscode", {"wait": "no"}), ("agentv", {"model": REMOVED}),
    ("cli", {"command": "run {QUESTION}"}), ("cli", {"command": "echo ${HOME} {PROMPT}"}), ("cli", {"command": REMOVED}),
    ("cli", {"timeout_seconds": "30"}), ("cli", {"verbose": "true"}), ("cli", {"healthcheck": {"url": "http://x"}}),
    ("cli", {"healthcheck": {"command_template": "x"}}), ("cli", {"healthcheck": {"command": "x", "timeout_seconds": 0}}),
    ("cli", {"healthcheck": {"command": "x {FOO}"}}), ("cli", {"healthcheck": {"command": "x", "timeoutSeconds": 3}}),
    ("cli", {"cwd": None}), ("cli", {"provider_batching": "true"}), ("cli", {"files_format": 3}),
    ("replay", {"execution_traces": "t.jsonl"}), ("replay", {"source_target": REMOVED}), ("mock", {"workers": 0}),
    ("mock", {"workers": "4"}), ("mock", {"grader_target": 3}), ("mock", {"provider_batching": "maybe"}),
    ("mock", {"subagent_mode_allowed": "true"}), ("mock", {"fallback_targets": "judge"}),
    ("mock", {"providerBatching": True}), ("cli", {"healthcheck": {"command": "x", "cwd": 6}}),
    ("openai", {"temperature": "-0x1"}), ("openai", {"max_retries": "\x1c5"}), ("codex", {"timeout_seconds": "  "}),
    ("openai", {"provider_batching": "true\x1c"}), ("codex", {"model_reasoning_effort": "\x85high"}),
    # an agentv target whose provider cannot be made: no provider before the model, or one it does not route
    ("agentv", {"model": "gpt-5-mini"}), ("agentv", {"model": "mistral:large"}), ("agentv", {"model": "${{ M }}"}),
    # the runner takes these as written but drops what they hold: evallint's error says so
    ("openai", {"temprature": 0}), ("claude", {"max_turns": "5"}), ("mock", {"response": 42}),
    ("cli", {"command": "run {prompt}"}), ("codex", {"grader_target": "jduge"}),
    ("cli", {"healthcheck": {"command": "x", "timeout_second": 5}}),
    # a setting beside the name the resolver reads first ('a ?? b'): EV108
    ("openai", {"deployment": "${{ D }}"}), ("azure", {"resource": "${{ R }}"}),
    ("codex", {"executable": "codex", "binary": "codex2"}),
    ("pi", {"pi_model": "m2"}), ("cli", {"cli_verbose": True, "verbose": False}), ("mock", {"judge_target": "x"}),
    # a '${{ NAME }}' where the resolver fills none: the text is used as written
    ("mock", {"response": "${{ R }}"}), ("codex", {"system_prompt": "be ${{ S }}"}), ("cli", {"files_format": "${{ F }}"}),
    ("mock", {"fallback_targets": ["${{ FB }}"]}), ("mock", {"grader_target": "${{ G }}"}),
    ("cli", {"files_format": "{path}", "attachments_format": "{url}"}),
]
DROPPED = 18  # the last variants: errors that the runner does not reject


def _variant(kind: str, change: dict) -> str:
    target = {"name": "agent", **GOOD[kind]}
    for key, value in change.items():
        if value is REMOVED:
            del target[key]
        else:
            target[key] = value
    return yaml.safe_dump({"targets": [{"name": "judge", "provider": "mock"}, target]}, sort_keys=False)


def test_a_choice_the_resolver_fills_from_the_environment_first_may_be_a_reference():
    """A codex target's 'model_reasoning_effort' and an openai target's 'api_format' are filled from the environment
    before they are checked (resolveOptionalString with optionalEnv): the run's environment decides. A reference
    beside other text is no reference, and the text is checked as written."""
    filled = ("targets:\n  - name: codex\n    provider: codex\n    model_reasoning_effort: ${{ EFFORT }}\n"
              "  - name: oa\n    provider: openai\n    model: ${{ M }}\n    api_key: ${{ K }}\n"
              "    api_format: ' ${{ FORMAT }} '\n")
    assert lint(TARGETS_SCHEMA, filled)[1] == []
    assert [(code, at) for code, at, *_ in lint(TARGETS_SCHEMA, filled.replace("${{ EFFORT }}", "${{ EFFORT }}-x"))[1]] \
        == [("EV110", ("targets", 0, "model_reasoning_effort"))]


@pytest.mark.runner
def test_the_resolver_ignores_a_targets_hooks_in_the_targets_file(tmp_path):
    (tmp_path / "targets.yaml").write_text("targets:\n  - name: a\n    provider: mock\n"
                                           "    hooks: {before_all: {command: [sh, setup.sh]}}\n")
    read = read_targets(tmp_path, ["targets.yaml"])["targets.yaml"]
    assert (read["error"], read["targets"], [v["message"] for v in read["validate"]]) == (
        None, [{"kind": "mock", "name": "a"}], ["Unknown setting 'hooks' for mock provider. This property will be ignored."])


@pytest.mark.runner
def test_evallint_reports_an_error_on_each_target_the_runner_rejects_and_none_on_those_it_takes(tmp_path):
    files = {f"good-{kind}.yaml": _variant(kind, {}) for kind in GOOD}
    files.update({f"variant-{i:02d}.yaml": _variant(kind, change) for i, (kind, change) in enumerate(VARIANTS)})
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    read = read_targets(tmp_path, sorted(files))
    for name, text in files.items():
        runner = read[name]
        rejected = (runner["error"] is not None or any(v["severity"] == "error" for v in runner["validate"])
                    or any("error" in target for target in runner["targets"]))
        _, findings = lint(TARGETS_SCHEMA, text)
        index = int(name[8:10]) if name.startswith("variant-") else None
        expected = index is not None and index < len(VARIANTS) - DROPPED
        assert rejected == expected, (name, runner)
        assert bool(errors(findings)) == (index is not None), (name, findings)
        assert all(f[1][:2] == ("targets", 1) for f in errors(findings)), (name, findings)


@pytest.mark.runner
def test_evallint_reports_an_error_on_each_config_file_the_runner_ignores_in_part(tmp_path):
    # AgentV's example, then the mistakes the runner warns about as it drops what they hold
    texts = [(EXAMPLES / CONFIG_FILES[0]).read_text()] + [text for text, _ in CONFIG_MISTAKES[2:7]]
    names = []
    for i, text in enumerate(texts):
        (tmp_path / f"c{i}" / ".agentv").mkdir(parents=True)
        (tmp_path / f"c{i}" / ".agentv" / "config.yaml").write_text(text)
        names.append(f"c{i}/.agentv/config.yaml")
    (tmp_path / "home").mkdir()
    read = read_configs(tmp_path, names, tmp_path / "home")
    for name, text in zip(names, texts):
        warned = [line for line in read[name]["logs"] if line.startswith("Warning: ")]
        assert bool(warned) == bool(errors(lint(CONFIG_SCHEMA, text)[1])) == (name != names[0]), (name, read[name])


ALIAS = ("targets:\n"
         "  - {name: base, provider: mock}\n"
         "  - {name: judge, provider: mock}\n"
         "  - {name: graded, provider: mock, grader_target: judge}\n"
         "  - {name: default, use_target: base, grader_target: judge, workers: 4, description: d}\n")


@pytest.mark.runner
def test_the_runner_reads_nothing_of_a_target_with_use_target_but_its_name(tmp_path):
    (tmp_path / "t.yaml").write_text(ALIAS)
    targets = {target["name"]: target for target in read_targets(tmp_path, ["t.yaml"])["t.yaml"]["targets"]}
    assert targets["graded"]["grader"] is not None and targets["default"] == {"kind": "mock", "name": "default"}
    assert [(code, path) for code, path, _, _ in lint(TARGETS_SCHEMA, ALIAS)[1]] == [  # no target reads 'description'
        ("EV515", ("targets", 3, "grader_target")), ("EV515", ("targets", 3, "workers")),
        ("EV507", ("targets", 3, "description"))]


def test_config_yaml_knows_the_keys_of_an_eval_files_execution():
    """config_execution.EVAL_EXECUTION_KEYS, which config.yaml's execution does not read, are an eval file's (declared in
    format/agentv4/execution.py, which a config file's check does not import)."""
    from evallint.format.agentv4.execution import ExecutionSchema
    from evallint.format.agentv4.config_execution import EVAL_EXECUTION_KEYS
    from evallint.format.keys import known_keys

    assert EVAL_EXECUTION_KEYS == known_keys(ExecutionSchema())


@pytest.mark.runner
def test_the_runner_drops_an_eval_files_execution_setting_from_config_yaml(tmp_path):
    (tmp_path / "c" / ".agentv").mkdir(parents=True)
    (tmp_path / "c" / ".agentv" / "config.yaml").write_text("execution:\n  workers: 4\n  verbose: true\n")
    (tmp_path / "home").mkdir()
    read = read_configs(tmp_path, ["c/.agentv/config.yaml"], tmp_path / "home")["c/.agentv/config.yaml"]
    assert read == {"config": {"execution": {"verbose": True}}, "logs": []}


def test_a_config_yaml_setting_in_an_eval_files_execution_says_where_it_is_read(tmp_path):
    """The command line reads the run's logs, traces and workspace settings from config.yaml's 'execution' only
    (apps/cli run-eval.ts: 'verbose', 'otel_file', 'keep_workspaces' come from the config): in an eval file's
    suite or test 'execution' they are dropped (a false flag too: the config may turn it on); a null one holds
    nothing, an unknown key."""
    (tmp_path / "a.eval.yaml").write_text(
        "execution:\n  verbose: true\n  keep_workspaces: false\n  pool_slots: 3\n  otel_backend: null\n"
        "tests:\n  - id: a\n    criteria: ok\n    input: hi\n    execution:\n      otel_file: x.json\n")
    where = "the runner reads it only in .agentv/config.yaml's 'execution'"
    assert run_concise(tmp_path, "--no-cache", "--agentv-version", "4.42", "a.eval.yaml") == (1, (
        f"a.eval.yaml:2:3: EV115 [error] unknown key 'verbose' in execution: {where}, so what it holds is dropped "
        "here; move it there\n"
        f"a.eval.yaml:3:3: EV115 [error] unknown key 'keep_workspaces' in execution: {where}, so what it holds is "
        "dropped here; move it there\n"
        f"a.eval.yaml:4:3: EV115 [error] unknown key 'pool_slots' in execution: {where}, so what it holds is dropped "
        "here; move it there\n"
        "a.eval.yaml:5:3: EV109 [warning] unknown key 'otel_backend' in execution (known keys: assert, assertions, "
        "budgetUsd, budget_usd, cache, cache_path, evaluators, failOnError, fail_on_error, target, targets, threshold, "
        "trials, workers)\n"
        f"a.eval.yaml:11:7: EV115 [error] unknown key 'otel_file' in a test's execution: {where}, so what it holds is "
        "dropped here; move it there\n"), "")


def test_a_config_yaml_setting_in_a_sidecars_execution_says_where_it_is_read(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "d.jsonl").write_text('{"id": "a", "input": "hi", "criteria": "c"}\n')
    (tmp_path / "d.yaml").write_text("execution:\n  verbose: true\n  bogus: 1\n")
    assert run_concise(tmp_path, "--no-cache", "--agentv-version", "4.42", "d.yaml") == (1, (
        "d.yaml:2:3: EV703 [error] unknown key 'verbose' in sidecar execution: the runner reads it only in "
        ".agentv/config.yaml's 'execution', so what it holds is dropped here; move it there\n"
        "d.yaml:3:3: EV703 [error] unknown key 'bogus' in sidecar execution (known keys: assert, assertions, "
        "evaluators)\n"), "")
