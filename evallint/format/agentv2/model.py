"""The canonical, typed, frozen model that the schemas build; each evaluator schema names the class it builds
(``evaluators.EvaluatorSchema.model_class``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Union


Content = Union[str, dict, list, None]


@dataclass(frozen=True)
class ToolCall:
    tool: str
    input: Any = None
    output: Any = None


@dataclass(frozen=True)
class Message:
    role: str
    content: Content = None
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class RubricItem:
    id: str
    description: str
    weight: float = 1.0
    required: bool = True


@dataclass(frozen=True)
class EvaluatorConfig:
    type: str
    name: str
    weight: float = 1.0


@dataclass(frozen=True)
class LlmJudgeEvaluator(EvaluatorConfig):
    prompt: Optional[str] = None
    rubrics: tuple[RubricItem, ...] = ()
    model: Optional[str] = None


@dataclass(frozen=True)
class RubricEvaluator(EvaluatorConfig):
    rubrics: tuple[RubricItem, ...] = ()
    model: Optional[str] = None


@dataclass(frozen=True)
class CodeJudgeEvaluator(EvaluatorConfig):
    script: tuple[str, ...] = ()
    cwd: Optional[str] = None
    target: Union[bool, dict, None] = None
    config: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ExpectedTool:
    tool: str
    args: Any = None  # "any", a mapping, or None
    output: Any = None


@dataclass(frozen=True)
class ToolTrajectoryEvaluator(EvaluatorConfig):
    mode: str = ""
    minimums: dict = field(default_factory=dict)
    expected: tuple[ExpectedTool, ...] = ()


@dataclass(frozen=True)
class Aggregator:
    type: str
    weights: dict = field(default_factory=dict)
    path: Optional[str] = None
    prompt: Optional[str] = None
    model: Optional[str] = None


@dataclass(frozen=True)
class CompositeEvaluator(EvaluatorConfig):
    evaluators: tuple[EvaluatorConfig, ...] = ()
    aggregator: Optional[Aggregator] = None


@dataclass(frozen=True)
class FieldSpec:
    path: str
    match: str = "exact"
    required: bool = True  # the runner requires a field unless it says required: false
    weight: float = 1.0
    tolerance: Optional[float] = None
    relative: bool = False
    formats: tuple[str, ...] = ()


@dataclass(frozen=True)
class FieldAccuracyEvaluator(EvaluatorConfig):
    fields: tuple[FieldSpec, ...] = ()
    aggregation: Optional[str] = None


@dataclass(frozen=True)
class LatencyEvaluator(EvaluatorConfig):
    threshold: float = 0.0


@dataclass(frozen=True)
class CostEvaluator(EvaluatorConfig):
    budget: float = 0.0


@dataclass(frozen=True)
class TokenUsageEvaluator(EvaluatorConfig):
    max_total: Optional[float] = None
    max_input: Optional[float] = None
    max_output: Optional[float] = None


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class EvalSuite:
    path: str
    cases: tuple[EvalCase, ...]
    description: Optional[str] = None
    dataset: Optional[str] = None
    target: Optional[str] = None
    evaluator: Optional[str] = None


@dataclass(frozen=True)
class Target:
    name: str
    provider: str
    judge_target: Optional[str] = None
    workers: Optional[int] = None
    settings: dict = field(default_factory=dict)


@dataclass(frozen=True)
class TargetsFile:
    path: str
    targets: tuple[Target, ...] = ()


@dataclass(frozen=True)
class ProjectConfig:
    path: str
    guideline_patterns: tuple[str, ...] = ()
