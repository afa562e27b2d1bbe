"""evallint: a fast, exact linter for AgentV eval files.

The public names are imported on first use, so that the command line pays
only for what a run needs (a run served from the cache never loads the
parser or the schemas)."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

_EXPORTS = {
    "load_eval_file": "api", "load_eval_text": "api", "lint_paths": "api",
    "Diagnostic": "diagnostics", "EvalFileError": "diagnostics", "Fix": "diagnostics", "Severity": "diagnostics",
    "EvalSuite": "format.agentv2.model", "EvalCase": "format.agentv2.model", "Message": "format.agentv2.model", "ToolCall": "format.agentv2.model",
    "EvaluatorConfig": "format.agentv2.model", "RubricEvaluator": "format.agentv2.model", "LlmJudgeEvaluator": "format.agentv2.model",
    "CodeJudgeEvaluator": "format.agentv2.model", "ToolTrajectoryEvaluator": "format.agentv2.model", "CompositeEvaluator": "format.agentv2.model",
    "FieldAccuracyEvaluator": "format.agentv2.model", "LatencyEvaluator": "format.agentv2.model", "CostEvaluator": "format.agentv2.model",
    "TokenUsageEvaluator": "format.agentv2.model", "EvaluationScore": "format.score",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'evallint' has no attribute '{name}'")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(__all__)


if TYPE_CHECKING:  # pragma: no cover
    from evallint.api import lint_paths, load_eval_file, load_eval_text  # noqa: F401
    from evallint.diagnostics import Diagnostic, EvalFileError, Fix, Severity  # noqa: F401
    from evallint.format.agentv2.model import (  # noqa: F401
        CodeJudgeEvaluator,
        CompositeEvaluator,
        CostEvaluator,
        EvalCase,
        EvalSuite,
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
    from evallint.format.score import EvaluationScore  # noqa: F401
