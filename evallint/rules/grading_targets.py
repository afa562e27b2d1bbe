"""Whether the target a suite runs on can grade its tests when the command line names no grader target (EV409,
explained in references.md): an agent cannot, and the run stops before any test; a command's output or a transcript
cannot either, yet the run asks it (orchestrator.ts ``resolveGraderProvider``)."""
from __future__ import annotations

from typing import Optional

from evallint.rules.common import is_text
from evallint.rules.targets4 import resolver_of
from evallint.suggest import quote

# the resolvers of providers that are agents (providers/types.ts AGENT_PROVIDER_KINDS), which cannot grade
AGENT_RESOLVERS = ("codex", "copilot-sdk", "copilot-cli", "pi-coding-agent", "pi-cli", "claude", "cc-mirror", "vscode")
# the resolvers of providers that are neither agents nor can answer a grader (providers/types.ts: not among
# LLM_GRADER_CAPABLE_KINDS): a command's output, a transcript replayed
UNGRADING_RESOLVERS = ("cli", "copilot-log", "replay")


def ungraded_agent(target: dict) -> Optional[str]:
    """Why a run on ``target`` (the one an eval's target stands for) stops before any test when the command line
    gives no grader target: its provider is an agent, which cannot grade, and it names no grader_target
    (orchestrator.ts); None otherwise."""
    grader = target.get("grader_target") if target.get("grader_target") is not None else target.get("judge_target")
    if resolver_of(target.get("provider")) not in AGENT_RESOLVERS or is_text(grader):
        return None
    return (f"its provider {quote(target['provider'].strip())} is an agent and it names no grader_target, so the run "
            "stops before any test ('agent providers cannot return structured JSON for grading'); give the target a "
            "grader_target naming an LLM target (or run with --grader-target)")


def grades_itself(target: dict) -> Optional[str]:
    """Why the llm-graders of a run on ``target`` fail when the command line gives no grader target: its provider
    can answer no grader (``UNGRADING_RESOLVERS``: the runner means not to ask it, but ``resolveGraderProvider`` of
    orchestrator.ts finds the target by its own name first) and it names no grader_target; None otherwise (a
    provider discovered in .agentv/providers/ may be a model)."""
    grader = target.get("grader_target") if target.get("grader_target") is not None else target.get("judge_target")
    if resolver_of(target.get("provider")) not in UNGRADING_RESOLVERS or is_text(grader):
        return None
    return (f"its provider {quote(target['provider'].strip())} cannot answer a grader and it names no grader_target, "
            "so the runner sends the prompt of each llm-grader (a test's default one too) to the target itself, whose "
            "answer is no verdict: the runner leaves each such grader out of the score (a test graded by them alone "
            "scores 0); give the target a grader_target naming an LLM target (or run with --grader-target)")
