"""The frozen model of an AgentV 4.42 suite as its loader makes it: the tests with their suite defaults
applied (the suite's input in front of each test's, its assertions after each test's own), each
assertion with the name, type and weight the loader gives it and its settings as written; and the draft of a
test its schema loads before the suite's defaults complete it. Only a load that builds the model imports it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Union


@dataclass(frozen=True)
class Message:
    """A message: ``content`` is a string, a mapping (structured content, as written) or a tuple of content
    blocks, each a mapping (a string item becomes a ``text`` block)."""

    role: str
    content: Any = None
    tool_calls: tuple = ()  # as written: the loader carries them unchecked
    name: Optional[str] = None


@dataclass(frozen=True)
class Assertion:
    """A grader. ``type`` is what the loader stores: a built-in kind in kebab case (``rubrics``, ``rubric`` and
    ``inline-assert`` are stored as ``llm-grader``), a custom type as written. ``settings``: the keys of its
    kind as written (``value``, ``command``, ``mode``, ...); for ``code-grader``, ``llm-grader`` and custom
    types, also the other keys, which the loader carries to the grader. ``members``: a composite's."""

    type: str
    name: str
    weight: Optional[float] = None  # absent: the runner weighs it 1
    required: Union[bool, float, None] = None
    min_score: Optional[float] = None
    negate: bool = False
    settings: Mapping[str, Any] = field(default_factory=dict)
    members: tuple = ()


@dataclass(frozen=True)
class Include:
    """An ``include`` entry of an assertion list, kept as written: the loader puts the assertions of the
    template it names (``.agentv/templates/<name>.yaml`` for a bare name, else a path) in its place, and pools
    the template's criterion strings with the list's."""

    include: str  # the template's name or path, as written


@dataclass(frozen=True)
class Template:
    """An assertion template file: its 'assertions' as loaded, each a criterion string, an ``Assertion`` or an
    ``Include`` (its strings are pooled with those of the list that includes it)."""

    path: str
    assertions: tuple = ()


@dataclass(frozen=True)
class TestExecution:
    """A test's own ``execution``: whether it skips the default graders, its threshold, its targets."""

    skip_defaults: bool = False
    threshold: Optional[float] = None
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Test:
    """A test as AgentV 4.42.4's loader gives it: the suite's input, input files and assertions applied."""

    id: str
    criteria: str = ""
    input: tuple[Message, ...] = ()
    expected_output: tuple[Message, ...] = ()
    assertions: tuple[Assertion, ...] = ()
    input_files: tuple[str, ...] = ()
    conversation_id: Optional[str] = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    workspace: Any = None  # a mapping, or the path of a workspace file
    execution: TestExecution = TestExecution()
    vars: Mapping[str, Any] = field(default_factory=dict)
    mode: Optional[str] = None
    turns: tuple = ()  # as written: the loader copies them unchecked
    depends_on: tuple[str, ...] = ()
    on_dependency_failure: Optional[str] = None
    aggregation: Optional[str] = None
    on_turn_failure: Optional[str] = None
    window_size: Optional[float] = None


@dataclass(frozen=True)
class Trials:
    """How often each test runs (``execution.trials``) and how its runs count."""

    count: int = 1
    strategy: str = "pass_at_k"
    cost_limit_usd: Optional[float] = None


@dataclass(frozen=True)
class Execution:
    """A suite's ``execution``: its targets, workers, thresholds, budget, cache and trials."""

    target: Optional[str] = None
    targets: tuple = ()  # names, or mappings {name, use_target, hooks} as written
    workers: Optional[int] = None
    threshold: Optional[float] = None
    budget_usd: Optional[float] = None
    fail_on_error: Optional[bool] = None
    cache: Optional[bool] = None
    cache_path: Optional[str] = None
    trials: Optional[Trials] = None


@dataclass
class TestDraft:
    """A test as its schema loads it, before its suite's defaults complete it (``suite.py``)."""

    test: Test  # with its own assertions only
    rubric: Optional[Assertion]
    skip_defaults: bool
    complete: bool
    defaults: Optional[tuple] = None  # a dataset line's own default graders, when its 'execution' replaces the sidecar's
    input: Any = None  # the test's input as written, its vars filled in
    input_files: Any = None  # the test's own input files likewise (None: it has none)


@dataclass(frozen=True)
class Suite:
    """An AgentV 4.42.4 eval suite (or a file of tests, as a naming suite reads it)."""

    path: str
    tests: tuple[Test, ...]
    name: Optional[str] = None
    description: Optional[str] = None
    execution: Execution = Execution()
    target: Optional[str] = None  # the legacy top-level target, used without execution.target
    workspace: Any = None
    input: tuple[Message, ...] = ()  # put in front of every test's input
    input_files: tuple[str, ...] = ()
    assertions: tuple[Assertion, ...] = ()  # put after every test's own assertions
    metadata: Mapping[str, Any] = field(default_factory=dict)
    external: tuple[str, ...] = ()  # files of tests the loader reads besides the inline ones: a path, file:// items
