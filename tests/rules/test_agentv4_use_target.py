"""A chain of AgentV 4.42.4 targets standing for one another (use_target): a cycle, or more steps than the
runner follows, leaves a target it cannot resolve to a provider."""
from __future__ import annotations

import pytest

from agentv_runner import read_targets
from clirun import run_concise

CHAINS = """\
targets:
  - {name: concrete, provider: mock}
  - {name: hop1, use_target: concrete}
  - {name: hop2, use_target: hop1}
  - {name: hop3, use_target: hop2}
  - {name: hop4, use_target: hop3}
  - {name: hop5, use_target: hop4}
  - {name: hop6, use_target: hop5}
  - {name: ring-a, use_target: ring-b}
  - {name: ring-b, use_target: ring-c}
  - {name: ring-c, use_target: ring-a}
  - {name: into-ring, use_target: ring-a}
  - {name: by-env, use_target: "${{ TARGET }}"}
"""


def _targets(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(CHAINS)
    return tmp_path


def test_a_use_target_cycle_or_a_chain_longer_than_the_runner_follows_is_an_error(tmp_path):
    """A cycle is reported once, at the use_target of its last target in the file; five steps are followed
    (apps/cli eval/targets.ts resolveUseTarget), six are not; a name the environment gives is not followed."""
    assert run_concise(_targets(tmp_path), "--no-cache", ".agentv/targets.yaml") == (1, (
        ".agentv/targets.yaml:8:30: EV511 [error] target 'hop6' reaches 'concrete' in 6 use_target steps (hop6 → hop5 "
        "→ hop4 → hop3 → hop2 → hop1 → concrete), but the runner follows at most 5 from an eval's target, so a run on "
        "it fails before any test (a grader_target may take 9)\n"
        ".agentv/targets.yaml:11:32: EV511 [error] use_target 'ring-a' closes a cycle, ring-c → ring-a → ring-b → "
        "ring-c; the runner resolves none of these targets, so a run with one fails before any test\n"), "")


@pytest.mark.runner
def test_the_runner_resolves_no_target_of_a_cycle(tmp_path):
    read = read_targets(_targets(tmp_path), [".agentv/targets.yaml"])[".agentv/targets.yaml"]
    errors = {target["name"]: target.get("error") for target in read["targets"]}
    assert errors["ring-c"] == "Circular use_target reference detected: ring-c -> ring-a -> ring-b -> ring-c"
    assert errors["into-ring"].startswith("Circular use_target reference detected: into-ring -> ring-a")
    assert (errors["hop5"], errors["hop6"], read["validate"]) == (None, None, [])  # the loader's own limit is 9 steps
