"""The targets a suite runs on when the command line names none, and whether they can grade its tests when it names
no grader target either (EV409, explained in references.md): an agent cannot, and the run stops before any test; a
command's output or a transcript cannot either, yet the run asks it (orchestrator.ts ``resolveGraderProvider``); and
whether a grader works as an agent, which reads the test's workspace (EV405)."""
from __future__ import annotations

from typing import Optional

from evallint.load.environment import refers
from evallint.rules.common import execution_of, is_text
from evallint.rules.targets4 import AGENT_RESOLVERS, UNGRADING_RESOLVERS, resolver_of
from evallint.suggest import quote



def grades_as_an_agent(target: dict) -> bool:
    """Whether an llm-grader that ``target`` grades for works as an agent (graders/llm-grader.ts): it is sent the
    filled template in the test's workspace folder, whose files it can read (an agent provider, or agentv)."""
    return resolver_of(target.get("provider")) in AGENT_RESOLVERS + ("agentv",)


def graded_by(grader: dict, document) -> dict:
    """What says whether ``grader`` (an llm-grader or rubrics of the suite ``document``) works as an agent, once the
    targets file is known (``target_references``): its own 'target' (None when the environment names it), else the
    targets the suite runs on, whose grader target grades it."""
    target = grader.get("target")
    if is_text(target):
        return {"grader": None if refers(target) else target}
    return {"runs_on": run_target_names(document)}


def grader_target_of(target: dict):
    """The name a target gives the run's grader target ('grader_target', or its older name 'judge_target'), or
    None."""
    grader = target.get("grader_target") if target.get("grader_target") is not None else target.get("judge_target")
    return grader.strip() if is_text(grader) else None


def ungraded_agent(target: dict) -> Optional[str]:
    """Why a run on ``target`` (the one an eval's target stands for) stops before any test when the command line
    gives no grader target: its provider is an agent, which cannot grade, and it names no grader_target
    (orchestrator.ts); None otherwise."""
    if resolver_of(target.get("provider")) not in AGENT_RESOLVERS or grader_target_of(target) is not None:
        return None
    return (f"its provider {quote(target['provider'].strip())} is an agent and it names no grader_target, so the run "
            "stops before any test ('agent providers cannot return structured JSON for grading'); give the target a "
            "grader_target naming an LLM target (or run with --grader-target)")


def grades_itself(target: dict) -> Optional[str]:
    """Why the llm-graders of a run on ``target`` fail when the command line gives no grader target: its provider
    can answer no grader (``UNGRADING_RESOLVERS``: the runner means not to ask it, but ``resolveGraderProvider`` of
    orchestrator.ts finds the target by its own name first) and it names no grader_target; None otherwise (a
    provider discovered in .agentv/providers/ may be a model)."""
    if resolver_of(target.get("provider")) not in UNGRADING_RESOLVERS or grader_target_of(target) is not None:
        return None
    return (f"its provider {quote(target['provider'].strip())} cannot answer a grader and it names no grader_target, "
            "so the runner sends the prompt of each llm-grader (a test's default one too) to the target itself, whose "
            "answer is no verdict: the runner leaves each such grader out of the score (a test graded by them alone "
            "scores 0); give the target a grader_target naming an LLM target (or run with --grader-target)")


def run_targets_key(document) -> Optional[str]:
    """Where the suite (``document``) names the targets it runs on when the command line names none, the first of
    them that is set (apps/cli run-eval.ts): 'targets' (its 'execution.targets', when the command line takes them:
    ``targets_given``), 'execution.target', or the legacy 'target'; None when it names none (then 'default')."""
    execution = execution_of(document)
    order = (("targets", targets_given(execution)),
             ("execution.target", execution.get("target") is not None),
             ("target", isinstance(document, dict) and document.get("target") is not None))
    return next((key for key, given in order if given), None)


def run_target_names(document) -> tuple:
    """The names of the targets the suite (``document``) runs on when the command line names none
    (``run_targets_key``); a name that is no text is left out."""
    key, execution = run_targets_key(document), execution_of(document)
    items = [item.get("name") if isinstance(item, dict) else item for item in execution["targets"]] \
        if key == "targets" else [execution["target"]] if key == "execution.target" \
        else [document["target"]] if key == "target" else ["default"]
    return tuple(item.strip() for item in items if is_text(item))


def suite_target_names(document) -> list:
    """The names of the suite's 'execution.targets' (an item is a name, or a mapping with one), trimmed: with two or
    more, the command line runs a matrix, each target on the tests whose own 'execution.targets' name it."""
    items = execution_of(document).get("targets")
    names = [item.get("name") if isinstance(item, dict) else item for item in (items if isinstance(items, list) else ())]
    return [name.strip() for name in names if isinstance(name, str) and name.strip()]


def test_target_names(test) -> list:
    """The names of a test's own 'execution.targets' as the loader reads them (config-loader.ts
    extractTargetsFromTestCase): its non-blank strings, trimmed."""
    items = execution_of(test).get("targets")
    return [name.strip() for name in (items if isinstance(items, list) else ()) if is_text(name)]


def targets_given(execution: dict) -> bool:
    """Whether the command line runs a suite on its 'execution.targets' rather than on its 'execution.target' (or
    root 'target'): a list of two names or more, or of one name but 'default', which the command line takes for no
    name (apps/cli eval/targets.ts pickTargetName)."""
    targets = execution.get("targets")
    if not isinstance(targets, list) or not targets:
        return False
    name = targets[0].get("name") if isinstance(targets[0], dict) else targets[0]
    return len(targets) > 1 or not (isinstance(name, str) and name.strip() == "default")
