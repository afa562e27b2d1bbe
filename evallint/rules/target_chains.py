"""The use_target chains of an AgentV 4.42.4 targets file (EV511): where the chain of each target that stands for
another leads, each target followed once, so that a file of thousands of targets standing for one another is read
in time proportional to its size."""
from __future__ import annotations

from typing import Iterator, NamedTuple

from evallint.load.environment import RESOLVED_REFERENCE
from evallint.rules.common import finding, is_text
from evallint.rules.targets import check_target_reference
from evallint.suggest import quote

# how many use_target steps the command line follows from an eval's target (apps/cli eval/targets.ts
# resolveUseTarget): a target still standing for another after them has no provider, and the run fails
MAX_USE_TARGET_STEPS = 5
SHOWN_STEPS = 12  # the steps of a longer chain a message shows, before its end
# of a value holding '${{' that is no whole reference the resolver fills in (RESOLVED_REFERENCE)
NAME_ONLY = "the runner fills in only a whole '${{ NAME }}' whose NAME is letters, digits and '_'"


def delegates(target: dict) -> bool:
    """A target with a use_target is replaced by the target it names: its other settings are not read."""
    return is_text(target.get("use_target"))


def check_use_target(target: dict, at: tuple, names: dict) -> Iterator:
    """EV511 for the use_target of the target at ``at`` naming no target of the file (``names``), or itself; one
    that is a whole environment reference is named when the run starts (the resolver trims it)."""
    used = target.get("use_target")
    if isinstance(used, str) and "${{" in used and not RESOLVED_REFERENCE.match(used.strip()):
        yield finding("EV511", f"use_target {quote(used)} is read as written: {NAME_ONLY}, so it names no target of this "
                      "file", at + ("use_target",))
    elif not RESOLVED_REFERENCE.match(str(used or "").strip()):
        yield from check_target_reference({**target, "use_target": used.strip() if isinstance(used, str) else used},
                                          "use_target", at, names, "a target cannot stand for itself")


def use_target_chains(targets: list) -> Iterator:
    """EV511 for a use_target that closes a cycle of two or more targets (naming itself is ``check_use_target``'s),
    and for one whose chain takes more steps than the runner follows."""
    stands = {}  # a target's name -> (its index, the name it stands for), of the first target of each name
    for i, target in enumerate(targets):
        if isinstance(target, dict) and is_text(target.get("name")) and delegates(target) \
                and not RESOLVED_REFERENCE.match(target["use_target"].strip()):
            stands.setdefault(target["name"], (i, target["use_target"].strip()))
    yield from chain_findings(stands)


class Reach(NamedTuple):
    """A chain that ends: its steps, and the name it ends at (of a target that stands for none, or of none)."""

    steps: int
    end: str


class Cycle(NamedTuple):
    """The cycle of two or more targets a chain runs into: its members, in the order they stand for one another."""

    members: tuple


def chain_findings(stands: dict) -> Iterator:
    """EV511 for a use_target that closes a cycle of two or more targets, once a cycle, and for each target whose
    chain takes more steps than the runner follows; ``stands``: a target's name -> (its index, the name it stands
    for). The runner resolves neither to a provider, so a run with such a target fails before any test."""
    cycles: set = set()
    ends = _chain_ends(stands)
    for name, (i, _) in stands.items():
        fate = ends[name]
        if isinstance(fate, Reach) and fate.steps > MAX_USE_TARGET_STEPS:
            yield finding("EV511", f"target {quote(name)} reaches {quote(fate.end)} in {fate.steps} use_target steps "
                          f"({_shown_chain(name, stands, fate)}), but the runner follows at most {MAX_USE_TARGET_STEPS} "
                          "from an eval's target, so a run on it fails before any test (a grader_target may take 9)",
                          ("targets", i, "use_target"))
        elif isinstance(fate, Cycle) and fate not in cycles:
            cycles.add(fate)
            members = fate.members
            last = max(members, key=lambda member: stands[member][0])
            shown = " → ".join(members[members.index(last):] + members[:members.index(last)] + (last,))
            yield finding("EV511", f"use_target {quote(stands[last][1])} closes a cycle, {shown}; the runner "
                          "resolves none of these targets, so a run with one fails before any test",
                          ("targets", stands[last][0], "use_target"))


def _chain_ends(stands: dict) -> dict:
    """Where the chain of each target of ``stands`` leads: a ``Reach``, a ``Cycle``, or None for a chain ending at a
    target that stands for itself."""
    fate: dict = {}
    for start in stands:
        path, where, name = [], {}, start
        while name in stands and name not in fate and name not in where:
            where[name] = len(path)
            path.append(name)
            name = stands[name][1]
        if name in where:  # the path runs into itself: a cycle, or a target standing for itself
            cycle = tuple(path[where[name]:])
            after = Cycle(cycle) if len(cycle) > 1 else None
            fate.update((member, after) for member in cycle)
            path = path[:where[name]]
        else:
            after = fate.get(name, Reach(0, name))
        for member in reversed(path):
            after = Reach(after.steps + 1, after.end) if isinstance(after, Reach) else after
            fate[member] = after
    return fate


def _shown_chain(name: str, stands: dict, reach: Reach) -> str:
    """The chain from ``name`` as a message shows it: whole, or its first ``SHOWN_STEPS`` names and its end."""
    chain = [name]
    while len(chain) <= min(reach.steps, SHOWN_STEPS):
        chain.append(stands[chain[-1]][1])
    return " → ".join(chain if reach.steps <= SHOWN_STEPS else chain[:SHOWN_STEPS] + ["…", reach.end])
