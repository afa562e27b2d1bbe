"""Beyond one file: a fixture repository with references, targets, config and
a JSONL dataset, created in a temp dir with ``git init`` (docs/format.md: targets file, config file,
JSONL datasets, references to other files)."""
from __future__ import annotations

import io
import json
import os
import subprocess
import textwrap

import pytest
from agentv_runner import read_targets
from clirun import run_concise

from evallint import Severity, lint_paths
from evallint.cli import main
from evallint.config import Config

FILES = {
    ".agentv/config.yaml": """\
        $schema: agentv-config-v2
        guideline_patterns: []
        guidelines: "**/*.md"
    """,
    "other/config-copy.yaml": """\
        $schema: agentv-config-v2
        guideline_patterns: "**/*.md"
    """,
    ".agentv/targets.yaml": """\
        $schema: agentv-targets-v2.2
        targets:
          - name: default
            provider: mock
          - name: judge
            provider: cli
            command_template: run-agent {PROMT} --out {OUTPUT_FILE}
            healthcheck:
              type: ftp
          - name: azure_main
            provider: azure
            api_key: sk-EXAMPLE-not-a-real-key
            endpoint: ${{ AZURE_ENDPOINT }}
            deploymnt: gpt-4o
            judge_target: judgee
            workers: 0
          - name: default
            provider: anthropic
          - just a string
          - provider: mock
          - name: nameless-provider
          - name: exotic
            provider: antropic
          - name: bare_cli
            provider: cli
    """,
    "other/targets.yaml": """\
        $schema: agentv-targets-v2.2
        description: no targets here
    """,
    "evals/prompts/empty.md": "",
    "evals/prompts/no-vars.md": "Judge the answer.\n",
    "evals/prompts/odd-var.md": "Compare {{ candidate_answer }} with {{ answer_key }}.\n",
    "evals/scripts/ok.py": "print('ok')\n",
    "evals/suite.yaml": """\
        $schema: agentv-eval-v2
        execution:
          target: staging
        evalcases:
          - id: refs
            expected_outcome: Uses the attached files.
            input:
              - role: user
                content:
                  - type: file
                    value: docs/missing.md
                  - type: file
                    value: prompts/empty.md
                  - type: file
                    value: ../../../../../../etc/passwd
            evaluators:
              - name: judge_missing
                type: llm_judge
                prompt: prompts/judge-missing.md
              - name: judge_no_vars
                type: llm_judge
                prompt: prompts/no-vars.md
              - name: judge_odd
                type: llm_judge
                prompt: prompts/odd-var.md
              - name: checker
                type: code_judge
                cwd: tools
                script: [python, check.py]
              - name: runner
                type: code_judge
                script: [uv, run, scripts/gone.py]
              - name: fine
                type: code_judge
                script: [python, scripts/ok.py]
    """,
    "data/dataset.jsonl": (
        '{"id": "a", "expected_outcome": "Greets.", "input": "Hi"}\n'
        '{"id": "b", "expected_outcome": "Reads.", "input_messages": [{"role": "user", "content": '
        '[{"type": "file", "value": "nowhere.txt"}]}]}\n'
        "\n"
        "{not json}\n"
        "[1, 2]\n"
        '{"id": "a", "input": "again"}\n'
    ),
    "data/dataset.yaml": """\
        description: A small dataset
        execution:
          target: default
        evalcases: []
    """,
}

EXPECTED = """\
.agentv/config.yaml:2:21: EV602 [warning] 'guideline_patterns' is an empty list; no file is treated as a guideline
.agentv/config.yaml:3:1: EV603 [warning] unknown key 'guidelines' in config.yaml (did you mean 'guideline_patterns'?)
.agentv/targets.yaml:7:33: EV509 [error] unknown placeholder '{PROMT}' in command template (did you mean 'PROMPT'?); \
known: {PROMPT}, {GUIDELINES}, {EVAL_ID}, {ATTEMPT}, {FILES}, {OUTPUT_FILE}
.agentv/targets.yaml:9:13: EV510 [error] invalid healthcheck type 'ftp'; expected one of 'http', 'command'
.agentv/targets.yaml:12:14: EV512 [error] 'api_key' holds a literal value; a committed secret leaks to everyone who \
can read the repository: use an environment reference such as '${{ API_KEY }}' instead (value not shown)
.agentv/targets.yaml:14:5: EV115 [error] unknown setting 'deploymnt' for provider 'azure' (did you mean \
'deployment'?); the runner does not read it, so the target runs without it
.agentv/targets.yaml:15:19: EV511 [error] judge_target 'judgee' names no target in this file (did you mean 'judge'?); \
targets: 'azure_main', 'bare_cli', 'default', 'exotic', 'judge', 'nameless-provider'
.agentv/targets.yaml:16:14: EV513 [error] 'workers' must be a positive integer, found 0 (a number)
.agentv/targets.yaml:17:11: EV504 [error] duplicate target name 'default' (first defined on line 3); the runner \
cannot tell them apart
.agentv/targets.yaml:19:5: EV502 [error] a target must be a mapping with 'name' and 'provider', found 'just a string'
.agentv/targets.yaml:20:5: EV503 [error] target has no 'name'
.agentv/targets.yaml:21:5: EV505 [error] target has no 'provider' (known: 'azure', 'anthropic', 'gemini', 'codex', \
'pi-coding-agent', 'pi-agent-sdk', 'claude-code', 'cli', 'mock', 'vscode', 'vscode-insiders')
.agentv/targets.yaml:23:15: EV506 [warning] unknown provider 'antropic' (did you mean 'anthropic'?); known: 'azure', \
'anthropic', 'gemini', 'codex', 'pi-coding-agent', 'pi-agent-sdk', 'claude-code', 'cli', 'mock', 'vscode', \
'vscode-insiders' and aliases 'azure-openai', 'google', 'google-gemini', 'codex-cli', 'pi', 'openai', 'bedrock', \
'vertex'
.agentv/targets.yaml:24:5: EV508 [error] provider 'cli' needs a 'command_template' (the command that runs the agent)
data/dataset.jsonl:2:117: EV401 [error] file 'nowhere.txt' not found (looked in: data/, ./)
data/dataset.jsonl:4:2: EV701 [error] Line 4: invalid JSON: Expecting property name enclosed in double quotes at \
column 2
data/dataset.jsonl:5:1: EV702 [error] Line 5: each line must be a JSON object (an eval case), found a list
data/dataset.jsonl:6:2: EV106 [error] eval case has no 'expected_outcome' (or 'outcome'); the runner skips such a case
data/dataset.jsonl:6:8: EV104 [error] duplicate case id 'a' (first used on line 1); results of the two cases \
overwrite each other
data/dataset.yaml:4:1: EV703 [error] unknown key 'evalcases' in dataset sidecar (known keys: $schema, dataset, \
description, evaluator, execution); cases belong in the .jsonl file, one JSON object per line
evals/suite.yaml:3:11: EV409 [error] target 'staging' is not defined in .agentv/targets.yaml; its targets: \
'azure_main', 'bare_cli', 'default', 'exotic', 'judge', 'nameless-provider'
evals/suite.yaml:11:20: EV401 [error] file 'docs/missing.md' not found (looked in: evals/, ./)
evals/suite.yaml:13:20: EV402 [warning] file 'prompts/empty.md' is empty
evals/suite.yaml:15:20: EV403 [error] '../../../../../../etc/passwd' resolves outside the repository root; evallint \
does not follow it and the runner may read a file you did not mean to ship
evals/suite.yaml:19:17: EV404 [error] prompt 'prompts/judge-missing.md' looks like a path but names no file (looked \
in: evals/, ./); it will be sent as inline prompt text
evals/suite.yaml:22:17: EV405 [error] prompt template 'prompts/no-vars.md' uses neither '{{ candidate_answer }}' nor \
'{{ expected_messages }}'; the runner skips cases judged by it
evals/suite.yaml:25:17: EV406 [warning] prompt template 'prompts/odd-var.md' uses unknown variable '{{ answer_key \
}}'; known: 'candidate_answer', 'expected_messages', 'question', 'expected_outcome', 'reference_answer', \
'input_messages', 'output_messages'
evals/suite.yaml:28:14: EV407 [error] code_judge cwd 'tools' names no folder (looked in: evals/, ./)
evals/suite.yaml:32:27: EV408 [error] script file 'scripts/gone.py' not found in evals/ (the script's working \
folder)
other/config-copy.yaml:2:21: EV601 [error] 'guideline_patterns' must be a list of glob strings, found '**/*.md'
other/targets.yaml:1:1: EV501 [error] no 'targets' list; the runner finds no targets in this file
other/targets.yaml:2:1: EV109 [warning] unknown key 'description' in targets file (known keys: $schema, targets)
"""


def make_repo(base) -> str:
    repo = base / "repo"
    for name, text in FILES.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if not name.endswith(".jsonl") else text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return str(repo)


def concise(argv, cwd) -> tuple:
    return run_concise(cwd, *argv)


def test_every_cross_file_rule_in_one_repository(tmp_path):
    repo = make_repo(tmp_path)
    assert concise(["."], repo) == (1, EXPECTED, "")


def test_results_do_not_depend_on_the_working_directory(tmp_path):
    repo = make_repo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, out, _ = concise([repo], elsewhere)
    prefix = os.path.relpath(repo, elsewhere) if not os.path.isabs(repo) else repo
    assert code == 1
    assert out == "".join(f"{prefix}/{line}\n" for line in EXPECTED.splitlines())


def test_no_references_turns_off_every_ev4xx(tmp_path):
    repo = make_repo(tmp_path)
    code, out, _ = concise(["--no-references", "."], repo)
    assert " EV4" not in out
    assert out == "".join(line + "\n" for line in EXPECTED.splitlines() if " EV4" not in line)


def test_secret_never_appears_in_any_format(tmp_path):
    repo = make_repo(tmp_path)
    secret = "sk-EXAMPLE-not-a-real-key"
    targets = os.path.join(repo, ".agentv", "targets.yaml")
    for fmt in ("text", "concise", "json", "github", "sarif"):
        out, err = io.StringIO(), io.StringIO()
        main(["--format", fmt, "--no-color", targets], stdout=out, stderr=err)
        assert "EV512" in out.getvalue()
        assert secret not in out.getvalue() and secret not in err.getvalue(), fmt
    out = io.StringIO()
    main(["--no-color", targets], stdout=out, stderr=io.StringIO())
    assert "    api_key: " + "*" * len(secret) in out.getvalue()


def test_dataset_model_uses_the_sidecar(tmp_path):
    from evallint.lint import lint_file

    repo = make_repo(tmp_path)
    dataset = os.path.join(repo, "data", "dataset.jsonl")
    result = lint_file(dataset, Config())
    assert result.suite is None  # a dataset with errors in its cases has no model
    with open(dataset, "w", encoding="utf-8") as fh:  # its two valid cases, and one more
        fh.write('{"id": "a", "expected_outcome": "Greets.", "input": "Hi"}\n'
                 '{"id": "b", "expected_outcome": "Reads.", "input": "Read"}\n'
                 '{"id": "c", "expected_outcome": "Again.", "input": "again"}\n')
    suite = lint_file(dataset, Config()).suite
    assert [c.id for c in suite.cases] == ["a", "b", "c"]
    assert suite.description == "A small dataset" and suite.target == "default"
    assert suite.cases[0].input_messages[0].content == "Hi"


@pytest.fixture
def opened(monkeypatch):
    """Every path evallint opens."""
    import evallint.load.source as source

    seen = []
    real = os.open

    def spy(path, *args, **kwargs):
        seen.append(os.path.realpath(os.fspath(path)))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(source.os, "open", spy)
    return seen


def test_traversal_and_symlinks_out_of_the_root_are_never_opened(tmp_path, opened):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("{{ candidate_answer }}\n")
    os.chmod(outside / "secret.md", 0)
    repo = tmp_path / "repo"
    (repo / "evals").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "evals" / "etc").symlink_to("/etc")
    (repo / "evals" / "leak.md").symlink_to(outside / "secret.md")
    (repo / "evals" / "s.yaml").write_text(textwrap.dedent("""\
        evalcases:
          - id: a
            expected_outcome: g
            input:
              - role: user
                content:
                  - {type: file, value: ../../../../etc/passwd}
                  - {type: file, value: etc/passwd}
                  - {type: file, value: leak.md}
                  - {type: file, value: OUTSIDE}
            evaluators:
              - {name: j, type: llm_judge, prompt: leak.md}
    """).replace("OUTSIDE", str(outside / "secret.md")))
    diagnostics = lint_paths([repo / "evals" / "s.yaml"])
    assert [(d.code, d.line, d.column) for d in diagnostics] == [
        ("EV403", 7, 33), ("EV403", 8, 33), ("EV403", 9, 33), ("EV403", 10, 33), ("EV403", 12, 44)]
    root = os.path.realpath(repo)
    assert opened and all(p.startswith(root + os.sep) for p in opened), opened


def test_a_linked_folder_is_followed_to_where_it_leads(tmp_path, monkeypatch):
    """A reference through a folder that links out of the root is EV403; one into a plain folder resolves."""
    from evallint.rules import references

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("{{ candidate_answer }}\n")
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "evals").mkdir()
    (repo / "prompts").mkdir()
    (repo / "prompts" / "judge.md").write_text("Grade {{ candidate_answer }}.\n")
    (repo / "evals" / "linked").symlink_to(outside, target_is_directory=True)
    (repo / "evals" / "s.yaml").write_text(textwrap.dedent("""\
        evalcases:
          - id: a
            expected_outcome: g
            input: hi
            evaluators:
              - {name: j, type: llm_judge, prompt: ../prompts/judge.md}
              - {name: k, type: llm_judge, prompt: linked/secret.md}
    """))
    looked = []
    real = os.lstat
    monkeypatch.setattr(references.os, "lstat", lambda path, *a, **k: looked.append(path) or real(path, *a, **k))
    code, out, _ = run_concise(str(repo), "--no-cache", "-j1")
    assert (code, [line.split(" [")[0] for line in out.splitlines()]) == (1, ["evals/s.yaml:7:44: EV403"])
    assert str(repo / "evals" / "linked") in looked


def test_stdin_like_text_has_no_references():
    from evallint import load_eval_text

    suite = load_eval_text("evalcases:\n  - id: a\n    expected_outcome: g\n    input:\n      - role: user\n"
                           "        content: [{type: file, value: missing.md}]\n")
    assert suite.cases[0].input_messages[0].content == [{"type": "file", "value": "missing.md"}]


def test_json_output_of_a_dataset_points_into_the_line(tmp_path):
    repo = make_repo(tmp_path)
    out = io.StringIO()
    main(["--format", "json", os.path.join(repo, "data", "dataset.jsonl")], stdout=out, stderr=io.StringIO())
    records = json.loads(out.getvalue())
    ev401 = next(r for r in records if r["code"] == "EV401")
    assert (ev401["line"], ev401["column"], ev401["yaml_path"], ev401["case_id"]) == (
        2, 117, "evalcases[1].input_messages[0].content[0].value", "b")
    assert all(r["severity"] in (Severity.ERROR.value, Severity.WARNING.value) for r in records)


def test_targets_named_by_an_eval_file_follow_the_file_as_it_changes(tmp_path):
    """The names of a targets file linted in the run are reused, but never once the file changed."""
    from evallint import lint_paths
    from evallint.config import Config

    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    targets = tmp_path / ".agentv" / "targets.yaml"
    targets.write_text("targets:\n  - name: alpha\n    provider: mock\n")
    suite = tmp_path / "suite.yaml"
    suite.write_text("execution:\n  target: beta\nevalcases:\n  - id: a\n    expected_outcome: o\n    input: hi\n")
    config = Config(root=str(tmp_path))
    first = [(d.code, d.line, d.column) for d in lint_paths([tmp_path], config=config) if d.code == "EV409"]
    assert first == [("EV409", 2, 11)]
    targets.write_text("targets:\n  - name: beta\n    provider: mock\n")
    assert [d for d in lint_paths([suite], config=config) if d.code == "EV409"] == []
    targets.write_text("targets:\n  - name: gamma\n    provider: mock\n")
    assert [d.message for d in lint_paths([tmp_path], config=config) if d.code == "EV409"] == [
        "target 'beta' is not defined in .agentv/targets.yaml; its targets: 'gamma'"]


@pytest.mark.parametrize("target", ['" default "', '""', "default"])
def test_a_target_is_read_trimmed_and_an_empty_one_is_default(tmp_path, target):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - name: default\n    provider: mock\n")
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "s.yaml").write_text(f"execution:\n  target: {target}\nevalcases:\n  - id: a\n"
                                                "    expected_outcome: g\n    input: q\n")
    assert run_concise(tmp_path, "--no-cache", "evals/s.yaml") == (0, "", "")


def test_a_padded_unknown_target_is_named_as_the_runner_looks_it_up(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - name: default\n    provider: mock\n")
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "s.yaml").write_text('execution:\n  target: " fast "\nevalcases:\n  - id: a\n'
                                                "    expected_outcome: g\n    input: q\n")
    assert run_concise(tmp_path, "--no-cache", "evals/s.yaml") == (1, (
        "evals/s.yaml:2:11: EV409 [error] target 'fast' is not defined in .agentv/targets.yaml; its targets: "
        "'default'\n"), "")


@pytest.mark.parametrize("targets, expected", [
    # each name of a matrix, trimmed; an inline alias stands for the target it names, an alias of an alias too
    ('[nope, real, " judge "]', "2:13: EV409 [error] target 'nope' is not defined in .agentv/targets.yaml; its "
                                "targets: 'judge', 'real'\n"),
    ("[{name: a, use_target: real}, {name: b, use_target: missing}, {name: c, use_target: a}]",
     "2:64: EV409 [error] target 'missing' is not defined in .agentv/targets.yaml; its targets: 'judge', 'real'\n"),
    # alone, an inline alias is not added: its name is looked up
    ("[{name: a, use_target: real}]", "2:20: EV409 [error] target 'a' is not defined in .agentv/targets.yaml (a "
                                      "'use_target' here counts only beside another target); its targets: 'judge', "
                                      "'real'\n"),
    ("[real, {name: a, use_target: real}]", ""),
    # beside another target, a name the targets file defines runs as the file defines it (apps/cli eval/targets.ts
    # adds an item's use_target only for a name the file lacks)
    ("[{name: judge, use_target: real}, real]", "2:39: EV116 [error] this 'use_target' is ignored: .agentv/targets.yaml "
                                                "defines 'judge', and the runner makes a target of an item's use_target "
                                                "only for a name the targets file lacks, so the suite runs on the file's "
                                                "target; give the item another name\n"),
])
def test_the_targets_a_suite_runs_against_are_looked_up(tmp_path, targets, expected):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - {name: real, provider: mock}\n"
                                                       "  - {name: judge, provider: mock}\n")
    (tmp_path / "s.yaml").write_text(f"execution:\n  targets: {targets}\ntests:\n  - {{id: t, input: q, criteria: c}}\n")
    assert run_concise(tmp_path, "--no-cache", "s.yaml") == (1 if expected else 0, expected and "s.yaml:" + expected, "")


def test_a_datasets_sidecar_targets_are_not_read_so_not_looked_up(tmp_path):
    """The command line reads a JSONL dataset's targets from the dataset, not from its sidecar: its 'targets' is
    reported as not read, and no name of it as missing."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - {name: default, provider: mock}\n")
    (tmp_path / "data.jsonl").write_text('{"id": "a", "input": "hi", "criteria": "ok"}\n')
    (tmp_path / "data.yaml").write_text("execution: {targets: [default, nonexistent]}\n")
    assert run_concise(tmp_path, "--no-cache", "--agentv-version", "4.42", ".") == (1, (
        "data.yaml:1:13: EV703 [error] 'targets' in a sidecar's 'execution' is not read: the runner reads only the "
        "default graders there ('assertions', 'assert', 'evaluators'); a dataset's target and run settings come from "
        "the command line\n"), "")


def test_a_path_out_of_the_root_gets_one_answer_whether_or_not_it_exists(tmp_path):
    """EV403 for an absolute path with no part in the repository, existing or not: a CI log must not tell
    which files the machine has; '/refs/...' is from the repository, so a missing one is EV401."""
    repo = tmp_path / "repo"
    (repo / "evals" / "refs").mkdir(parents=True)
    (repo / ".git").mkdir()
    (tmp_path / "there.md").write_text("x\n")
    (repo / "evals" / "s.yaml").write_text(textwrap.dedent("""\
        evalcases:
          - id: a
            expected_outcome: g
            input:
              - role: user
                content:
                  - {type: file, value: EXISTING}
                  - {type: file, value: ABSENT}
                  - {type: file, value: /refs/missing.md}
    """).replace("EXISTING", str(tmp_path / "there.md")).replace("ABSENT", str(tmp_path / "not-there.md")))
    diagnostics = lint_paths([repo / "evals" / "s.yaml"])
    assert [(d.code, d.line) for d in diagnostics] == [("EV403", 7), ("EV403", 8), ("EV401", 9)]


def test_a_config_yml_is_reported_as_never_read(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "config.yml").write_text("required_version: '>=99'\n")
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        ".agentv/config.yml:1:1: EV604 [error] the runner never reads 'config.yml': it reads the project's settings "
        "only from '.agentv/config.yaml', so every eval runs without these; rename it\n"), "")


@pytest.mark.runner
def test_the_runner_reads_no_config_yml(tmp_path):
    from agentv_runner import read_configs

    for name in ("config.yml", "config.yaml"):
        (tmp_path / name / ".agentv").mkdir(parents=True)
        (tmp_path / name / ".agentv" / name).write_text("required_version: '>=99'\n")
    (tmp_path / "home").mkdir()
    read = read_configs(tmp_path, [f"{name}/.agentv/{name}" for name in ("config.yml", "config.yaml")], tmp_path / "home")
    assert [read[f"{name}/.agentv/{name}"]["config"] for name in ("config.yml", "config.yaml")] == [
        None, {"required_version": ">=99"}]


def _nearer_targets_file(tmp_path, text: str):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text("targets:\n  - {name: gpt, provider: mock}\n")
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "targets.yaml").write_text(text)
    (tmp_path / "evals" / "s.eval.yaml").write_text("execution:\n  target: gpt\ntests:\n  - {id: q, input: hi, criteria: c}\n")
    return tmp_path


@pytest.mark.parametrize("text, why", [
    ("", "holds no 'targets' list"),
    ("environments:\n  - {name: staging, url: https://staging.example.com}\n", "holds no 'targets' list"),
    ("targets: [\n", "is no YAML the runner parses"),
])
def test_a_nearer_targets_file_the_runner_cannot_read_targets_from_is_an_error(tmp_path, text, why):
    """The command line takes the first targets file that exists walking up from the eval file (apps/cli
    utils/targets.ts), so another tool's 'targets.yaml' beside a suite hides the project's."""
    assert run_concise(_nearer_targets_file(tmp_path, text), "--no-cache", "evals/s.eval.yaml") == (1, (
        f"evals/s.eval.yaml:2:11: EV409 [error] target 'gpt' cannot be looked up: the runner takes evals/targets.yaml, "
        f"the targets file nearest the eval file, which {why}, so the run fails before any test; fix it, or move it "
        "away\n"), "")


@pytest.mark.runner
def test_the_runner_reads_no_targets_from_a_file_without_a_targets_list(tmp_path):
    read = read_targets(_nearer_targets_file(tmp_path, "environments: []\n"), ["evals/targets.yaml"])
    assert read["evals/targets.yaml"]["error"] == "targets.yaml at evals/targets.yaml must have a 'targets' array"
