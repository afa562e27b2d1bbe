"""The evaluator kinds of eval v2, in the order the model defines their classes (``model.EVALUATOR_CLASSES``).

The rules need the names alone; keeping them here lets the command, which builds no model, lint without
importing the model (22 dataclasses: about 14 ms of every run's start)."""
from __future__ import annotations

EVALUATOR_KINDS = ("llm_judge", "rubric", "code_judge", "tool_trajectory", "composite", "field_accuracy", "latency",
                   "cost", "token_usage")
