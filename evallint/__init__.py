"""evallint: a fast, exact linter for AgentV eval files."""
from __future__ import annotations

__version__ = "0.1.0"

from .api import lint_paths, load_eval_file, load_eval_text
from .diagnostics import Diagnostic, EvalFileError, Fix, Severity
from .model import (
    CodeJudgeEvaluator,
    CompositeEvaluator,
    CostEvaluator,
    EvalCase,
    EvalSuite,
    EvaluationScore,
    EvaluatorConfig,
    FieldAccuracyEvaluator,
    LatencyEvaluator,
    LlmJudgeEvaluator,
    Message,
    RubricEvaluator,
    TokenUsageEvaluator,
    ToolCall,
    ToolTrajectoryEvaluator,
)

__all__ = [
    "__version__",
    "load_eval_file", "load_eval_text", "lint_paths",
    "EvalSuite", "EvalCase", "Message", "ToolCall",
    "EvaluatorConfig", "RubricEvaluator", "LlmJudgeEvaluator", "CodeJudgeEvaluator",
    "ToolTrajectoryEvaluator", "CompositeEvaluator", "FieldAccuracyEvaluator",
    "LatencyEvaluator", "CostEvaluator", "TokenUsageEvaluator",
    "EvaluationScore", "Diagnostic", "Severity", "EvalFileError", "Fix",
]
