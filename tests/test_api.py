"""The seed requirements, each through the public API (docs/format.md#aliases-and-shorthands, #python-api)."""
from __future__ import annotations

import math

import pytest
from marshmallow import ValidationError

import evallint
from evallint import (
    CodeJudgeEvaluator,
    CompositeEvaluator,
    CostEvaluator,
    EvalFileError,
    FieldAccuracyEvaluator,
    LatencyEvaluator,
    LlmJudgeEvaluator,
    Message,
    RubricEvaluator,
    Severity,
    TokenUsageEvaluator,
    ToolCall,
    ToolTrajectoryEvaluator,
    load_eval_text,
)
from evallint.format.agentv2.evaluators import shell_argv
from evallint.format.score import EvaluationScoreSchema


def one_case(body: str, suite: str = "", allow: tuple = ()):
    text = suite + "evalcases:\n  - id: c1\n" + "".join("    " + line + "\n" for line in body.strip("\n").split("\n"))
    return load_eval_text(text, allow=allow).cases[0]


def errors_of(text: str):
    with pytest.raises(EvalFileError) as info:
        load_eval_text(text)
    return [(d.code, d.line, d.column) for d in info.value.diagnostics]


def the_error(text: str):
    """The one diagnostic loading ``text`` raises."""
    with pytest.raises(EvalFileError) as info:
        load_eval_text(text)
    (d,) = info.value.diagnostics
    return d


# --- aliases and shorthands -------------------------------------------------

def test_outcome_alias():
    assert one_case("outcome: Goal\ninput: hi").expected_outcome == "Goal"


def test_canonical_outcome_wins_over_alias():
    text = "outcome: Alias\nexpected_outcome: Canonical\ninput: hi"
    assert errors_of("evalcases:\n  - id: c1\n" + "".join("    " + line + "\n" for line in text.split("\n"))) == [
        ("EV108", 3, 5)]  # the alias the runner ignores is an error
    assert one_case(text, allow=("EV108",)).expected_outcome == "Canonical"


def test_input_string_shorthand():
    case = one_case("expected_outcome: g\ninput: What is 2+2?")
    assert case.input_messages == (Message(role="user", content="What is 2+2?"),)


def test_input_list_alias():
    case = one_case("expected_outcome: g\ninput:\n  - role: system\n    content: Be brief.\n  - role: user\n    content: Hi")
    assert [m.role for m in case.input_messages] == ["system", "user"]


def test_input_messages_wins_over_input():
    case = one_case("expected_outcome: g\ninput: ignored\ninput_messages:\n  - role: user\n    content: used",
                    allow=("EV108",))
    assert case.input_messages == (Message(role="user", content="used"),)


def test_expected_output_string():
    case = one_case("expected_outcome: g\ninput: q\nexpected_output: The answer is 4")
    assert case.expected_messages == (Message(role="assistant", content="The answer is 4"),)


def test_expected_output_mapping_without_role_is_structured_content():
    case = one_case("expected_outcome: g\ninput: q\nexpected_output: {riskLevel: High, reasoning: Explanation}")
    assert case.expected_messages == (Message(role="assistant", content={"riskLevel": "High", "reasoning": "Explanation"}),)


def test_expected_output_mapping_with_role_is_one_message():
    case = one_case("expected_outcome: g\ninput: q\nexpected_output: {role: assistant, content: done}")
    assert case.expected_messages == (Message(role="assistant", content="done"),)


def test_expected_output_message_list_keeps_tool_calls():
    case = one_case("""
expected_outcome: g
input: q
expected_output:
  - role: assistant
    tool_calls:
      - tool: search
        input: { query: "weather Paris", num: 5 }
        output:
          results: [a, b]
  - role: assistant
    content: It is sunny.
""")
    first, second = case.expected_messages
    assert first.tool_calls == (ToolCall(tool="search", input={"query": "weather Paris", "num": 5},
                                         output={"results": ["a", "b"]}),)
    assert second == Message(role="assistant", content="It is sunny.")


def test_expected_output_list_of_strings_is_a_content_list_whose_message_the_runner_drops():
    text = "evalcases:\n  - id: c1\n    expected_outcome: g\n    input: q\n    expected_output: [one, two]\n"
    assert errors_of(text) == [("EV203", 5, 23), ("EV203", 5, 28)]


def test_expected_output_list_of_blocks_is_content():
    case = one_case("expected_outcome: g\ninput: q\nexpected_output: [{type: text, value: one}]")
    assert case.expected_messages == (Message(role="assistant", content=[{"type": "text", "value": "one"}]),)


def test_expected_messages_wins_over_expected_output():
    case = one_case("expected_outcome: g\ninput: q\nexpected_output: no\n"
                    "expected_messages:\n  - role: assistant\n    content: yes", allow=("EV108",))
    assert case.expected_messages == (Message(role="assistant", content="yes"),)


def test_alias_shadowing_is_an_error_that_allow_lets_through(tmp_path):
    text = "evalcases:\n  - id: a\n    outcome: x\n    expected_outcome: y\n    input: q\n"
    with pytest.raises(EvalFileError):
        load_eval_text(text)
    assert load_eval_text(text, allow=["EV108"]).cases[0].expected_outcome == "y"
    path = tmp_path / "s.yaml"
    path.write_text(text)
    (d,) = evallint.lint_paths([path])
    assert (d.code, d.severity, d.line, d.column) == ("EV108", Severity.ERROR, 3, 5)


def test_allow_never_hands_back_a_suite_that_could_not_be_built():
    with pytest.raises(EvalFileError) as info:
        load_eval_text("evalcases: 3\n", allow=["EV101"])
    assert [d.code for d in info.value.diagnostics] == ["EV101"]


def test_yaml_12_values_stay_strings():
    case = one_case("expected_outcome: g\ninput:\n  - role: user\n    content: {answer: no, date: 2026-01-01, on: on}")
    assert case.input_messages[0].content == {"answer": "no", "date": "2026-01-01", "on": "on"}


# --- tool calls ---------------------------------------------------------------

def test_tool_call_block_style_input_kept_exactly():
    case = one_case("""
expected_outcome: g
input: q
expected_messages:
  - role: assistant
    tool_calls:
      - tool: fetch
        input:
          url: https://example.com
          headers:
            accept: json
""")
    assert case.expected_messages[0].tool_calls[0].input == {"url": "https://example.com", "headers": {"accept": "json"}}


def test_tool_call_args_key_is_an_error():
    text = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    expected_messages:\n"
            "      - role: assistant\n        tool_calls:\n          - tool: t\n            args: {x: 1}\n")
    assert errors_of(text) == [("EV205", 9, 13)]


# --- evaluators ---------------------------------------------------------------

@pytest.mark.parametrize("mode,extra", [
    ("any_order", "minimums: {search: 2}"),
    ("in_order", "expected: [{tool: search}, {tool: fetch, args: any}]"),
    ("exact", "expected: [{tool: search, args: {q: x}}]"),
])
def test_trajectory_modes(mode, extra):
    case = one_case(f"expected_outcome: g\ninput: q\nevaluators:\n  - name: t\n    type: tool_trajectory\n"
                    f"    mode: {mode}\n    {extra}")
    (ev,) = case.evaluators
    assert isinstance(ev, ToolTrajectoryEvaluator) and ev.mode == mode


def test_trajectory_expected_args():
    case = one_case("expected_outcome: g\ninput: q\nevaluators:\n  - name: t\n    type: tool_trajectory\n    mode: exact\n"
                    "    expected: [{tool: search, args: {q: x}}, {tool: save, args: any}]")
    assert [(e.tool, e.args) for e in case.evaluators[0].expected] == [("search", {"q": "x"}), ("save", "any")]


def test_invalid_trajectory_mode():
    text = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
            "      - name: t\n        type: tool_trajectory\n        mode: sometimes\n")
    d = the_error(text)
    assert (d.code, d.line, d.column) == ("EV310", 8, 15)
    assert all(m in d.message for m in ("'any_order'", "'in_order'", "'exact'", "'sometimes'"))


@pytest.mark.parametrize("weight,expected", [("", 1.0), ("weight: 0", 0.0), ("weight: 2", 2.0), ("weight: 0.5", 0.5)])
def test_weights(weight, expected):
    case = one_case(f"expected_outcome: g\ninput: q\nevaluators:\n  - name: j\n    type: llm_judge\n    {weight}")
    assert case.evaluators[0].weight == expected and isinstance(case.evaluators[0].weight, float)


@pytest.mark.parametrize("weight,code", [("-1", "EV305"), ("true", "EV304"), ("heavy", "EV304"), (".nan", "EV304"),
                                         (".inf", "EV304"), ("null", "EV304")])
def test_bad_weights(weight, code):
    text = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
            f"      - name: j\n        type: llm_judge\n        weight: {weight}\n")
    d = the_error(text)
    assert (d.code, d.line, d.column) == (code, 8, 17)
    if code == "EV305":
        assert ">= 0" in d.message


def test_code_judge_argv_list_kept():
    case = one_case("expected_outcome: g\ninput: q\nevaluators:\n  - name: k\n    type: code_judge\n"
                    "    script: [uv, run, check.py]\n    threshold: 0.8")
    (ev,) = case.evaluators
    assert isinstance(ev, CodeJudgeEvaluator)
    assert ev.script == ("uv", "run", "check.py") and ev.config == {"threshold": 0.8}


def test_code_judge_string_script_becomes_shell_argv():
    case = one_case("expected_outcome: g\ninput: q\nevaluators:\n  - name: k\n    type: code_judge\n"
                    "    script: python check.py --strict")
    assert case.evaluators[0].script == shell_argv("python check.py --strict")


def test_shell_argv_per_platform(monkeypatch):
    import evallint.format.agentv2.evaluators as module

    monkeypatch.setattr(module.os, "name", "posix")
    assert shell_argv("a b") == ("sh", "-lc", "a b")
    monkeypatch.setattr(module.os, "name", "nt")
    assert shell_argv("a b") == ("cmd.exe", "/c", "a b")


@pytest.mark.parametrize("script", ['""', "[]", "[python, '']", "[python, 3]", "{a: 1}"])
def test_bad_scripts(script):
    text = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
            f"      - name: k\n        type: code_judge\n        script: {script}\n")
    with pytest.raises(EvalFileError) as info:
        load_eval_text(text)
    assert {d.code for d in info.value.diagnostics} == {"EV321"}


def test_inline_rubrics_become_a_rubric_evaluator_in_front():
    case = one_case("expected_outcome: g\ninput: q\nrubrics: [Must be polite, Must be brief]\n"
                    "evaluators:\n  - name: j\n    type: llm_judge")
    rubric, judge = case.evaluators
    assert isinstance(rubric, RubricEvaluator) and isinstance(judge, LlmJudgeEvaluator)
    assert [(r.id, r.description, r.weight, r.required) for r in rubric.rubrics] == [
        ("rubric-1", "Must be polite", 1.0, True), ("rubric-2", "Must be brief", 1.0, True)]


def test_rubric_mapping_items():
    case = one_case("expected_outcome: g\ninput: q\nrubrics:\n  - {id: s, description: Structured, weight: 2, required: false}")
    (item,) = case.evaluators[0].rubrics
    assert (item.id, item.description, item.weight, item.required) == ("s", "Structured", 2.0, False)


def test_explicit_rubric_evaluator_with_model():
    case = one_case("expected_outcome: g\ninput: q\nevaluators:\n  - name: r\n    type: rubric\n    model: gpt-4\n"
                    "    rubrics: [{id: polite, description: Must be polite}]")
    (ev,) = case.evaluators
    assert isinstance(ev, RubricEvaluator) and ev.model == "gpt-4" and ev.rubrics[0].description == "Must be polite"


def test_a_rubric_evaluator_drops_string_items():
    text = ("evalcases:\n  - id: c1\n    expected_outcome: g\n    input: q\n    evaluators:\n      - name: r\n"
            "        type: rubric\n        rubrics: [Must be polite, {id: brief, description: Is brief}]\n")
    assert errors_of(text) == [("EV361", 8, 19)]


SUITE = ("execution:\n  evaluators:\n    - name: suite_judge\n      type: llm_judge\n")


def test_precedence_suite_evaluators_apply_by_default():
    assert [e.name for e in one_case("expected_outcome: g\ninput: q", SUITE).evaluators] == ["suite_judge"]


def test_precedence_case_evaluators_replace_suite():
    case = one_case("expected_outcome: g\ninput: q\nevaluators:\n  - name: own\n    type: llm_judge", SUITE)
    assert [e.name for e in case.evaluators] == ["own"]


def test_precedence_case_execution_evaluators_win():
    case = one_case("expected_outcome: g\ninput: q\nevaluators:\n  - name: own\n    type: llm_judge\n"
                    "execution:\n  evaluators:\n    - name: exec\n      type: llm_judge", SUITE, allow=("EV113",))
    assert [e.name for e in case.evaluators] == ["exec"]


def test_inline_rubrics_go_in_front_of_suite_evaluators():
    case = one_case("expected_outcome: g\ninput: q\nrubrics: [Polite]", SUITE)
    assert [e.name for e in case.evaluators] == ["rubric", "suite_judge"]


def test_every_evaluator_kind_and_recursive_composite():
    case = one_case("""
expected_outcome: g
input: q
evaluators:
  - {name: a, type: latency, threshold: 100}
  - {name: b, type: cost, budget: 0.5}
  - {name: c, type: token_usage, max_total: 1000}
  - name: d
    type: field_accuracy
    aggregation: all_or_nothing
    fields: [{path: total, match: numeric_tolerance, tolerance: 1}]
  - name: e
    type: composite
    evaluators:
      - name: inner
        type: composite
        evaluators: [{name: x, type: llm_judge}, {name: y, type: llm_judge}]
        aggregator: {type: weighted_average, weights: {x: 0.5, y: 0.5}}
      - {name: z, type: llm_judge}
    aggregator: {type: code_judge, path: node agg.js}
""")
    kinds = [type(e) for e in case.evaluators]
    assert kinds == [LatencyEvaluator, CostEvaluator, TokenUsageEvaluator, FieldAccuracyEvaluator, CompositeEvaluator]
    composite = case.evaluators[-1]
    assert isinstance(composite.evaluators[0], CompositeEvaluator)
    assert composite.evaluators[0].aggregator.weights == {"x": 0.5, "y": 0.5}
    assert composite.aggregator.path == "node agg.js"
    assert case.evaluators[3].fields[0].tolerance == 1


# --- errors -------------------------------------------------------------------

def test_eval_file_error_carries_every_error():
    text = ("evalcases:\n  - id: a\n    input: q\n  - expected_outcome: g\n    input: q\n"
            "  - id: c\n    expected_outcome: g\n    input: 5\n")
    assert errors_of(text) == [("EV106", 2, 5), ("EV103", 4, 5), ("EV112", 8, 12)]


def test_warnings_do_not_stop_loading():
    suite = load_eval_text("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    colour: red\n")
    assert suite.cases[0].id == "a"


def test_load_eval_file_and_dataset_name(tmp_path):
    path = tmp_path / "my-suite.yaml"
    path.write_text("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n", encoding="utf-8")
    suite = evallint.load_eval_file(path)
    assert suite.path == str(path) and suite.dataset == "my-suite"


def test_severity_values():
    assert Severity.ERROR.value == "error" and Severity.WARNING.value == "warning"


# --- EvaluationScore ------------------------------------------------------------

@pytest.mark.parametrize("verdict", ["pass", "fail", "borderline", None])
def test_score_verdicts(verdict):
    score = EvaluationScoreSchema().load({"score": 0.5, "verdict": verdict, "hits": ["h"]})
    assert score.verdict == verdict and score.hits == ("h",) and score.misses == ()


@pytest.mark.parametrize("verdict", ["PASS", "maybe", ""])
def test_score_rejects_other_verdicts(verdict):
    with pytest.raises(ValidationError):
        EvaluationScoreSchema().load({"score": 1, "verdict": verdict})


def test_score_rejects_nan():
    with pytest.raises(ValidationError):
        EvaluationScoreSchema().load({"score": math.nan})


def test_invalid_execution_evaluators_still_shadow_the_case_evaluators(tmp_path):
    text = ("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    execution:\n      evaluators: nope\n"
            "    evaluators:\n      - {name: own, type: llm_judge}\n")
    assert errors_of(text) == [("EV306", 6, 19), ("EV113", 7, 5)]
    path = tmp_path / "s.yaml"
    path.write_text(text)
    assert [d.code for d in evallint.lint_paths([path])] == ["EV306", "EV113"]


def test_a_key_of_another_evaluator_kind_is_an_error_that_names_the_kind():
    text = ("evalcases:\n  - id: c1\n    expected_outcome: g\n    input: q\n    evaluators:\n      - name: gate\n"
            "        type: llm_judge\n        evaluators: [{name: a, type: latency, threshold: 5}]\n")
    d = the_error(text)
    assert (d.code, d.line, d.column, d.message) == (
        "EV115", 8, 9, "unknown key 'evaluators' in llm_judge evaluator: it belongs to 'composite' evaluators (is "
        "'type' right?); the runner does not read it here, so what it holds is dropped")
