"""The real AgentV examples: evallint's model matches what AgentV's own loader
made of each file, and the files give no errors but seventeen known mistakes:
three targets the targets file does not define, two case-level targets the
runner ignores, two expected tool calls whose arguments are under 'input', which
a tool_trajectory evaluator does not read, an aggregator prompt that names a
file, whose path the runner sends as the prompt, and nine prompts of composite
members, which the runner does not give a member."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES

from evallint import Severity, lint_paths, load_eval_file
from evallint.config import Config

CORPUS = FIXTURES / "corpus" / "agentv-examples"
EXPECTED = json.loads((CORPUS / "runner-normalized.json").read_text(encoding="utf-8"))
RUNNER_FILES = sorted(EXPECTED)


def _input(message):
    out = {"role": message.role}
    if message.content is not None:
        out["content"] = message.content
    return out


def _expected(message):
    out = {"role": message.role}
    if isinstance(message.content, (str, dict)):
        out["content"] = message.content
    if message.tool_calls:
        out["tools"] = [call.tool for call in message.tool_calls]
    return out


def normalized(suite):
    return [
        {
            "id": case.id,
            "expected_outcome": case.expected_outcome,
            "input_messages": [_input(m) for m in case.input_messages],
            "expected_messages": [_expected(m) for m in case.expected_messages],
            "evaluators": [e.name for e in case.evaluators],
        }
        for case in suite.cases
    ]


@pytest.mark.parametrize("name", RUNNER_FILES)
def test_model_matches_the_runner(name):
    # a case's own target, an expected call's 'input' and a composite member's prompt, which the runner ignores
    suite = load_eval_file(CORPUS / name, allow=["EV115", "EV116", "EV333"])
    assert normalized(suite) == EXPECTED[name]


def test_parity_covers_yaml_suites_and_jsonl_datasets():
    assert len(RUNNER_FILES) == 21 and any(n.endswith(".jsonl") for n in RUNNER_FILES)


IGNORED = ("a case's target 'azure_base' is ignored: the runner runs every case of the suite against the suite's "
           "target 'default'; set 'execution.target' at the top of the file, or move the case to a suite of its own")
IGNORED_IN_DATASET = ("a case's target 'azure_base' is ignored: the runner runs every case of the dataset against the "
                      "dataset's target 'default'; set 'execution.target' in its sidecar 'dataset.yaml', or move the "
                      "case to a dataset of its own")
INPUT = ("unknown key 'input' in expected tool (did you mean 'args'?); the runner does not read it, so what it holds "
         "is dropped")
CASE_TARGETS = [
    ("examples/features/basic-jsonl/evals/dataset.jsonl", 2, 693, "EV116", IGNORED_IN_DATASET),
    ("examples/features/basic/evals/dataset.yaml", 74, 7, "EV116", IGNORED),
]
TRACE = "examples/features/tool-trajectory-advanced/evals/trace-file-demo.yaml"
UNREAD_ARGS = [(TRACE, 125, 15, "EV115", INPUT), (TRACE, 128, 15, "EV115", INPUT)]
MEMBER = ("'prompt' of a composite member ('llm_judge') is not used: the runner judges a member with the default "
          "prompt and no rubrics, since it gives a member none of its settings")
MEMBER_PROMPTS = [("examples/features/composite/evals/dataset.yaml", line, column, "EV333", MEMBER) for line, column in
                  ((27, 15), (30, 15), (55, 15), (58, 15), (82, 15), (85, 15), (111, 19), (114, 19), (122, 15))]


def _errors(diagnostics):
    return [(str(Path(d.path).relative_to(CORPUS)), d.line, d.column, d.code, d.message)
            for d in diagnostics if d.severity is Severity.ERROR]


def test_corpus_without_references_gives_only_the_settings_the_runner_ignores():
    assert _errors(lint_paths([CORPUS], config=Config(references=False))) == CASE_TARGETS + MEMBER_PROMPTS + UNREAD_ARGS


def test_corpus_with_references_gives_exactly_the_seventeen_known_mistakes():
    errors = _errors(lint_paths([CORPUS], config=Config(root=str(CORPUS))))
    names = "'azure_base', 'claude-code', 'codex', 'default', 'gemini_base', 'pi', 'vscode', 'vscode_insiders_projectx', " \
            "'vscode_projectx'"
    where = "examples/features/.agentv/targets.yaml"
    assert errors == CASE_TARGETS + [
        ("examples/features/code-judge-sdk/evals/dataset.yaml", 8, 11, "EV409",
         f"target 'local_cli' is not defined in {where}; its targets: {names}"),
        *MEMBER_PROMPTS[:6],
        ("examples/features/composite/evals/dataset.yaml", 88, 21, "EV404",
         "aggregator prompt '../prompts/conflict-resolution.md' looks like a path, but the runner sends these words as "
         "the aggregator's prompt, never a file's text: write the prompt itself, with {{EVALUATOR_RESULTS_JSON}} where "
         "the members' results go"),
        *MEMBER_PROMPTS[6:],
        (TRACE, 16, 11, "EV409", f"target 'static_trace' is not defined in {where}; its targets: {names}"),
        *UNREAD_ARGS,
        ("examples/features/tool-trajectory-simple/evals/dataset.yaml", 29, 11, "EV409",
         f"target 'mock_agent' is not defined in {where}; its targets: {names}"),
    ]


def test_results_files_are_not_datasets():
    from evallint.lint import lint_file

    results = sorted(CORPUS.rglob("*.baseline.jsonl")) + sorted(CORPUS.rglob("*-results.jsonl"))
    assert len(results) == 18
    for path in results:
        assert not lint_file(str(path), Config(), explicit=False).linted, path
    dataset = lint_file(str(CORPUS / "examples/features/basic-jsonl/evals/dataset.jsonl"), Config(), explicit=False)
    assert dataset.kind == "dataset" and len(dataset.suite.cases) == 7


def test_every_kind_in_the_corpus_is_linted():
    from evallint.api import expand_paths
    from evallint.lint import lint_file

    kinds: dict = {}
    for path, explicit in expand_paths([str(CORPUS)], Config()):
        result = lint_file(path, Config(root=str(CORPUS)), explicit=explicit)
        if result.linted:
            kinds[result.kind] = kinds.get(result.kind, 0) + 1
    assert kinds == {"eval": 21, "targets": 8, "config": 2, "dataset": 1, "sidecar": 1}


@pytest.mark.parametrize("first_line,dataset", [
    ('{"id": "a", "input": "hi", "expected_outcome": "o"}', True),
    ('\ufeff  \n{"\\u0069d": "a", "input": "hi", "expected_outcome": "o"}', True),  # an escaped key is still 'id'
    ('{"eval_id": "a", "score": 1, "input": "hi"}', False),  # a results row
    ('{"id": "a", "score": 1}', False),  # an id without any sign of a case
])
def test_a_jsonl_file_found_by_the_walk_is_a_dataset_by_its_first_row(tmp_path, first_line, dataset):
    from evallint.lint import lint_file

    path = tmp_path / "rows.jsonl"
    path.write_text(first_line + "\n" + '{"id": "b", "input": "x", "expected_outcome": "y"}\n', encoding="utf-8")
    result = lint_file(str(path), Config(root=str(tmp_path)), explicit=False)
    assert result.linted is dataset
