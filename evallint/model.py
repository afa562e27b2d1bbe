"""The canonical, typed, frozen model that the schemas build."""
from __future__ import annotations

from dataclasses import field
from typing import Any, Literal, Optional, Union

from .frozen import frozen
from .kinds import EVALUATOR_KINDS

Content = Union[str, dict, list, None]


@frozen
class ToolCall:
    tool: str
    input: Any = None
    output: Any = None


@frozen
class Message:
    role: str
    content: Content = None
    tool_calls: tuple[ToolCall, ...] = ()


@frozen
class RubricItem:
    id: str
    description: str
    weight: float = 1.0
    required: bool = True


@frozen
class EvaluatorConfig:
    type: str
    name: str
    weight: float = 1.0


@frozen
class LlmJudgeEvaluator(EvaluatorConfig):
    prompt: Optional[str] = None
    rubrics: tuple[RubricItem, ...] = ()
    model: Optional[str] = None


@frozen
class RubricEvaluator(EvaluatorConfig):
    rubrics: tuple[RubricItem, ...] = ()
    model: Optional[str] = None


@frozen
class CodeJudgeEvaluator(EvaluatorConfig):
    script: tuple[str, ...] = ()
    cwd: Optional[str] = None
    target: Union[bool, dict, None] = None
    config: dict = field(default_factory=dict)


@frozen
class ExpectedTool:
    tool: str
    args: Any = None  # "any", a mapping, or None
    input: Any = None
    output: Any = None


@frozen
class ToolTrajectoryEvaluator(EvaluatorConfig):
    mode: str = ""
    minimums: dict = field(default_factory=dict)
    expected: tuple[ExpectedTool, ...] = ()


@frozen
class Aggregator:
    type: str
    weights: dict = field(default_factory=dict)
    path: Optional[str] = None
    prompt: Optional[str] = None
    model: Optional[str] = None


@frozen
class CompositeEvaluator(EvaluatorConfig):
    evaluators: tuple[EvaluatorConfig, ...] = ()
    aggregator: Optional[Aggregator] = None


@frozen
class FieldSpec:
    path: str
    match: str = "exact"
    required: bool = False
    weight: float = 1.0
    tolerance: Optional[float] = None
    relative: bool = False
    formats: tuple[str, ...] = ()


@frozen
class FieldAccuracyEvaluator(EvaluatorConfig):
    fields: tuple[FieldSpec, ...] = ()
    aggregation: Optional[str] = None


@frozen
class LatencyEvaluator(EvaluatorConfig):
    threshold: float = 0.0


@frozen
class CostEvaluator(EvaluatorConfig):
    budget: float = 0.0


@frozen
class TokenUsageEvaluator(EvaluatorConfig):
    max_total: Optional[float] = None
    max_input: Optional[float] = None
    max_output: Optional[float] = None


@frozen
class EvalCase:
    id: str
    expected_outcome: str
    input_messages: tuple[Message, ...]
    expected_messages: tuple[Message, ...] = ()
    evaluators: tuple[EvaluatorConfig, ...] = ()
    conversation_id: Optional[str] = None
    description: Optional[str] = None
    target: Optional[str] = None
    evaluator: Optional[str] = None


@frozen
class EvalSuite:
    path: str
    cases: tuple[EvalCase, ...]
    description: Optional[str] = None
    dataset: Optional[str] = None
    target: Optional[str] = None
    evaluator: Optional[str] = None


@frozen
class EvaluationScore:
    score: float
    verdict: Optional[Literal["pass", "fail", "borderline"]] = None
    hits: tuple[str, ...] = ()
    misses: tuple[str, ...] = ()
    reasoning: Optional[str] = None


EVALUATOR_CLASSES: dict[str, type] = {
    "llm_judge": LlmJudgeEvaluator,
    "rubric": RubricEvaluator,
    "code_judge": CodeJudgeEvaluator,
    "tool_trajectory": ToolTrajectoryEvaluator,
    "composite": CompositeEvaluator,
    "field_accuracy": FieldAccuracyEvaluator,
    "latency": LatencyEvaluator,
    "cost": CostEvaluator,
    "token_usage": TokenUsageEvaluator,
}
if tuple(EVALUATOR_CLASSES) != EVALUATOR_KINDS:  # pragma: no cover - kinds.py lists these names for the rules
    raise ImportError("evallint.kinds.EVALUATOR_KINDS does not match model.EVALUATOR_CLASSES")


@frozen
class Target:
    name: str
    provider: str
    judge_target: Optional[str] = None
    workers: Optional[int] = None
    settings: dict = field(default_factory=dict)


@frozen
class TargetsFile:
    path: str
    targets: tuple[Target, ...] = ()


@frozen
class ProjectConfig:
    path: str
    guideline_patterns: tuple[str, ...] = ()
