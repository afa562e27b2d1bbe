"""The evaluator kinds of eval v2, in the order the model defines their classes (``model.EVALUATOR_CLASSES``):
the rules, which sit below the model, name them."""
from __future__ import annotations

EVALUATOR_KINDS = ("llm_judge", "rubric", "code_judge", "tool_trajectory", "composite", "field_accuracy", "latency",
                   "cost", "token_usage")
