"""An integer beyond a double's range (the runner's parser makes it infinite) in any numeric field of any kind of
file is that field's range error, never an internal error."""
from __future__ import annotations

import math
import os

from evallint import lint_paths, load_eval_text
from evallint.config import Config

HUGE = "9" * 310  # beyond 1.8e308, the largest double
MUST = "must be a finite number >= 0, found a very large integer (a number)"

SUITE = f"""\
evalcases:
  - id: all-numbers
    expected_outcome: Every number is out of range.
    input: Hello
    rubrics:
      - id: inline
        description: Inline rubric.
        weight: {HUGE}
    execution:
      evaluators:
        - name: weighted
          type: llm_judge
          weight: {HUGE}
        - name: graded
          type: rubric
          rubrics:
            - id: polite
              description: Polite.
              weight: {HUGE}
        - name: overall
          type: composite
          evaluators:
            - name: inner
              type: llm_judge
          aggregator:
            type: weighted_average
            weights:
              inner: {HUGE}
        - name: tools
          type: tool_trajectory
          mode: any_order
          minimums:
            search: {HUGE}
        - name: script
          type: code_judge
          script: [python, check.py]
          target:
            max_calls: {HUGE}
        - name: fields
          type: field_accuracy
          fields:
            - path: price
              match: numeric_tolerance
              tolerance: {HUGE}
              weight: {HUGE}
        - name: slow
          type: latency
          threshold: {HUGE}
        - name: costly
          type: cost
          budget: {HUGE}
        - name: tokens
          type: token_usage
          max_total: {HUGE}
          max_input: -{HUGE}
          max_output: !!float {HUGE}
"""
DATASET = (f'{{"id": "a", "expected_outcome": "ok", "input": "hi", "evaluators": [{{"name": "w", "type": "llm_judge", '
           f'"weight": {HUGE}}}, {{"name": "t", "type": "latency", "threshold": {HUGE}}}]}}\n')
SIDECAR = f"execution:\n  evaluators:\n    - name: w\n      type: cost\n      budget: {HUGE}\n"
TARGETS = f"""\
targets:
  - name: default
    provider: cli
    command_template: agent {{PROMPT}}
    workers: {HUGE}
    healthcheck:
      type: http
      url: http://localhost:8080/health
      timeout_seconds: {HUGE}
"""


def test_an_integer_beyond_a_double_is_the_range_error_of_every_numeric_field(tmp_path):
    files = {"evals/suite.eval.yaml": SUITE, "evals/data.jsonl": DATASET, "evals/data.yaml": SIDECAR,
             ".agentv/targets.yaml": TARGETS}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = [(os.path.relpath(d.path, tmp_path), d.line, d.column, d.code, d.message)
             for d in lint_paths([tmp_path], config=Config(references=False, root=str(tmp_path)))]
    suite = "evals/suite.eval.yaml"
    assert found == [
        (".agentv/targets.yaml", 5, 14, "EV513", "'workers' must be a positive integer, found a very large integer "
                                                 "(a number)"),
        (".agentv/targets.yaml", 9, 24, "EV510", "healthcheck 'timeout_seconds' must be a finite number > 0, found a "
                                                 "very large integer (a number)"),
        ("evals/data.jsonl", 1, 114, "EV304", f"evaluator 'weight' {MUST}"),
        ("evals/data.jsonl", 1, 473, "EV350", f"latency 'threshold' {MUST}"),
        ("evals/data.yaml", 5, 15, "EV351", f"cost 'budget' {MUST}"),
        (suite, 8, 17, "EV361", f"rubric item 'weight' {MUST}"),
        (suite, 13, 19, "EV304", f"evaluator 'weight' {MUST}"),
        (suite, 19, 23, "EV361", f"rubric item 'weight' {MUST}"),
        (suite, 28, 22, "EV332", f"weight for 'inner' {MUST}"),
        (suite, 33, 21, "EV313", f"minimum count for tool 'search' {MUST}"),
        (suite, 38, 24, "EV323", f"code_judge 'target.max_calls' {MUST}"),
        (suite, 44, 26, "EV343", "'tolerance' must be a finite number >= 0 for 'match: numeric_tolerance', found a very "
                                 "large integer (a number)"),
        # a field's 'weight' has no range the runner checks: an infinite weight is read as written
        (suite, 48, 22, "EV350", f"latency 'threshold' {MUST}"),
        (suite, 51, 19, "EV351", f"cost 'budget' {MUST}"),
        (suite, 54, 22, "EV352", f"token_usage 'max_total' {MUST}"),
        (suite, 55, 22, "EV352", f"token_usage 'max_input' {MUST}"),
        (suite, 56, 23, "EV352", "token_usage 'max_output' must be a finite number >= 0, found .inf (a number)"),
    ]


def test_a_field_weight_beyond_a_double_is_infinite_in_the_model_as_the_runner_reads_it():
    suite = load_eval_text(f"""\
evalcases:
  - id: a
    expected_outcome: The price is right.
    input: What does it cost?
    evaluators:
      - name: fields
        type: field_accuracy
        fields:
          - path: price
            match: exact
            weight: {HUGE}
""")
    assert suite.cases[0].evaluators[0].fields[0].weight == math.inf
