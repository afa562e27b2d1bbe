"""The canonical, typed, frozen model that the schemas build; each evaluator schema names the class it builds
(``evaluators.EvaluatorSchema.model_class``). Also the draft of a case its schema loads before the suite's
defaults complete it. Only a load that builds the model imports it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Union


Content = Union[str, dict, list, None]


@dataclass(frozen=True)
class ToolCall:
    """A tool call of an assistant message: the tool's name, its input and output."""

    tool: str
    input: Any = None
    output: Any = None


@dataclass(frozen=True)
class Message:
    """A message of a case's input or expected messages."""

    role: str
    content: Content = None
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class RubricItem:
    """One item of a rubric: what it checks, its weight, whether the case fails without it."""

    id: str
    description: str
    weight: float = 1.0
    required: bool = True


@dataclass(frozen=True)
class EvaluatorConfig:
    """What every evaluator has: its kind, its name and its weight in the case's score."""

    type: str
    name: str
    weight: float = 1.0


@dataclass(frozen=True)
class LlmJudgeEvaluator(EvaluatorConfig):
    """An ``llm_judge`` evaluator: a model grades the answer, with a prompt or a rubric."""

    prompt: Optional[str] = None
    rubrics: tuple[RubricItem, ...] = ()
    model: Optional[str] = None


@dataclass(frozen=True)
class RubricEvaluator(EvaluatorConfig):
    """A ``rubric`` evaluator: a model grades the answer against rubric items."""

    rubrics: tuple[RubricItem, ...] = ()
    model: Optional[str] = None


@dataclass(frozen=True)
class CodeJudgeEvaluator(EvaluatorConfig):
    """A ``code_judge`` evaluator: a script grades the answer."""

    script: tuple[str, ...] = ()
    cwd: Optional[str] = None
    target: Union[bool, dict, None] = None
    config: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ExpectedTool:
    """A tool call a ``tool_trajectory`` evaluator expects, with the arguments it must have."""

    tool: str
    args: Any = None  # "any", a mapping, or None
    output: Any = None


@dataclass(frozen=True)
class ToolTrajectoryEvaluator(EvaluatorConfig):
    """A ``tool_trajectory`` evaluator: the tool calls the agent makes, checked in a mode."""

    mode: str = ""
    minimums: dict = field(default_factory=dict)
    expected: tuple[ExpectedTool, ...] = ()


@dataclass(frozen=True)
class Aggregator:
    """How a ``composite`` evaluator combines the scores of its evaluators."""

    type: str
    weights: dict = field(default_factory=dict)
    path: Optional[str] = None
    prompt: Optional[str] = None
    model: Optional[str] = None


@dataclass(frozen=True)
class CompositeEvaluator(EvaluatorConfig):
    """A ``composite`` evaluator: evaluators whose scores an aggregator combines."""

    evaluators: tuple[EvaluatorConfig, ...] = ()
    aggregator: Optional[Aggregator] = None


@dataclass(frozen=True)
class FieldSpec:
    """A field a ``field_accuracy`` evaluator compares, and how."""

    path: str
    match: str = "exact"
    required: bool = True  # the runner requires a field unless it says required: false
    weight: float = 1.0
    tolerance: Optional[float] = None
    relative: bool = False
    formats: tuple[str, ...] = ()


@dataclass(frozen=True)
class FieldAccuracyEvaluator(EvaluatorConfig):
    """A ``field_accuracy`` evaluator: fields of the answer compared with the expected ones."""

    fields: tuple[FieldSpec, ...] = ()
    aggregation: Optional[str] = None


@dataclass(frozen=True)
class LatencyEvaluator(EvaluatorConfig):
    """A ``latency`` evaluator: the run's duration against a threshold."""

    threshold: float = 0.0


@dataclass(frozen=True)
class CostEvaluator(EvaluatorConfig):
    """A ``cost`` evaluator: the run's cost against a budget."""

    budget: float = 0.0


@dataclass(frozen=True)
class TokenUsageEvaluator(EvaluatorConfig):
    """A ``token_usage`` evaluator: the tokens the run used against limits."""

    max_total: Optional[float] = None
    max_input: Optional[float] = None
    max_output: Optional[float] = None


@dataclass(frozen=True)
class EvalCase:
    """A case of a suite as the runner runs it: the suite's defaults applied."""

    id: str
    expected_outcome: str
    input_messages: tuple[Message, ...]
    expected_messages: tuple[Message, ...] = ()
    evaluators: tuple[EvaluatorConfig, ...] = ()
    conversation_id: Optional[str] = None
    description: Optional[str] = None
    target: Optional[str] = None
    evaluator: Optional[str] = None


@dataclass
class CaseDraft:
    """A case as its schema loads it, before its suite's defaults complete it (``suite.py``)."""

    fields: dict  # the EvalCase's fields but its evaluators and target, which the suite may supply
    evaluators: tuple  # its own
    inherits: bool  # no evaluators of its own: the suite's apply
    rubric: object  # the inline rubric evaluator, or None
    execution: bool = False  # it has an 'execution' mapping (a dataset line's replaces its sidecar's)


@dataclass(frozen=True)
class EvalSuite:
    """An eval suite (or a dataset with its sidecar) as the runner loads it."""

    path: str
    cases: tuple[EvalCase, ...]
    description: Optional[str] = None
    dataset: Optional[str] = None
    target: Optional[str] = None
    evaluator: Optional[str] = None
