"""The targets an eval file names, checked against the targets file the runner uses (EV409, explained in
references.md): a target a suite runs on or a grader grades with must be defined there, and the one a suite runs on
must be able to run; and which kind of target grades a test's llm-graders (``graded_by_an_agent``)."""
from __future__ import annotations

import os

from evallint.diagnostics import Finding
from evallint.load.environment import refers
from evallint.load.reach import resolve
from evallint.rules import grading_targets, targets4, targets_file
from evallint.rules.common import is_text
from evallint.rules.reference_words import elsewhere, shown
from evallint.suggest import did_you_mean, one_of, quote


class TargetReferences:
    """The checks of ``references.ReferenceChecker`` for the targets an eval file names."""

    def _target(self, site) -> None:
        found = targets_file.nearest(self.folder, self.root, self.max_bytes)
        if found is None:
            return
        path, names = found
        name = site.value if site.extra.get("exact") else site.value.strip() or "default"  # as the runner reads it
        if names is not None and name in names and site.extra.get("used"):
            self._runs_on(site, name, targets_file.definitions_in(path, self.root, self.max_bytes))
        if names is not None and name in names and site.extra.get("use_target"):
            self.out.append(Finding("EV116", f"this 'use_target' is ignored: {shown(path, self.root)} defines "
                                    f"{quote(name)}, and the runner makes a target of an item's use_target only for a "
                                    "name the targets file lacks, so the suite runs on the file's target; give the item "
                                    "another name", site.extra["use_target"]))
        why = targets_file.unusable(path, self.root, self.max_bytes) if names is None else None
        if why is not None:
            self.out.append(Finding("EV409", f"target {quote(name)} cannot be looked up: the runner takes "
                                    f"{shown(path, self.root)}, the targets file nearest the eval file, which {why}, "
                                    "so the run fails before any test; fix it, or move it away", site.path,
                                    extra=elsewhere(path, "the targets file the runner uses")))
        if names is None or name in names or name in site.extra.get("aliases", ()):  # an alias the suite adds
            return
        self.out.append(Finding("EV409", f"target {quote(name)} is not defined in {shown(path, self.root)}"
                                f"{site.extra.get('note', '')}"
                                f"{did_you_mean(name, names)}; its targets: {one_of(sorted(set(names)))}", site.path,
                                extra=elsewhere(path, "the targets file the runner uses")))

    def _default_target(self, site) -> None:
        """EV416 for a suite that names no target, when the targets file the runner uses defines none named
        'default', the one the agentv command then runs it on (apps/cli targets.ts pickTargetName)."""
        found = targets_file.nearest(self.folder, self.root, self.max_bytes)
        names = found[1] if found is not None else None
        if names and "default" not in names:
            self.out.append(Finding("EV416", f"the suite names no target, and {shown(found[0], self.root)} defines no "
                                    "'default', the target the agentv command runs a suite on when neither names one: "
                                    "the run fails before any test unless the command line gives --target; name one in "
                                    f"'execution.target' (its targets: {one_of(sorted(set(names)))})", site.path,
                                    extra=elsewhere(found[0], "the targets file the runner uses")))

    def _runs_on(self, site, name: str, definitions: dict) -> None:
        """EV409 for the target an eval runs on when the run stops before any test on an agent that names no
        grader (``grading_targets.ungraded_agent``), or when its provider is one AgentV 4.42.4 does not know and it has no
        'command': the runner runs the provider script '.agentv/providers/<provider>.ts' from the target's cwd, else
        the eval file's folder (providers/targets.ts), and every test fails without it."""
        target = targets4.standing_for(name, definitions)
        provider = target.get("provider") if target is not None else None
        why = grading_targets.ungraded_agent(target) if target is not None else None
        itself = grading_targets.grades_itself(target) if target is not None and site.extra.get("grades") else None
        if why is not None:
            self.out.append(Finding("EV409", f"target {quote(name)} cannot run: {why}", site.path))
        elif itself is not None:
            self.out.append(Finding("EV409", f"target {quote(name)} grades the suite's tests itself: {itself}", site.path))
        resolver = targets4.resolver_of(provider)
        if target is not None and resolver == "replay":
            self._replays(site, name, target)
        if resolver == "cli" and site.extra.get("runs") and is_text(target.get("cwd")) and not refers(target["cwd"]):
            self._cli_folder(site, name, target["cwd"].strip())
        if not site.extra.get("runs") or resolver != targets4.DISCOVERED or target.get("command") \
                or refers(target.get("cwd")):
            return  # a command of its own runs instead; a folder the environment names is not known here
        base = self._folder(target["cwd"] if is_text(target.get("cwd")) else None, True, self.folder)
        script = f".agentv/providers/{provider.strip().lower()}.ts"
        if base is not None and resolve(script, base, self.root, ancestors=False).path is None:
            self.out.append(Finding("EV409", f"target {quote(name)} cannot run: its provider {quote(provider)} is no "
                                    f"provider the runner knows, so it runs the provider script '{script}' from "
                                    f"{shown(base, self.root)}, which is not there, and every test fails",
                                    site.path))

    def _cli_folder(self, site, name: str, cwd: str) -> None:
        """EV407 for a cli target the eval runs on whose relative 'cwd' names no folder from the eval file's folder,
        where the runner looks it up when it runs the target's command (providers/targets.ts): every test fails."""
        resolved = resolve(cwd, self.folder, self.root, want_dir=True, ancestors=False)
        if os.path.isabs(cwd) or resolved.path is not None or resolved.escapes:
            return  # a folder of this machine, or one outside the repository, is not known here
        self.out.append(Finding("EV407", f"target {quote(name)} runs its command in 'cwd' {quote(cwd)}, which the runner "
                                f"looks up from the eval file's folder ({shown(self.folder, self.root)}): there is no "
                                "such folder there, so every test fails", site.path))

    def _replays(self, site, name: str, target: dict) -> None:
        """EV409 for a replay target the eval runs on whose recorded outputs are not there: the runner reads its one
        source ('fixtures' or 'execution_traces') from the eval file's folder for each test, which fails without it
        (providers/targets.ts resolveReplaySourcePath, providers/replay.ts)."""
        sources = targets4.replay_sources(target)
        if len(sources) != 1 or refers(target[sources[0]]) or os.path.isabs(target[sources[0]].strip()):
            return  # the targets file says why; the environment's, or a path of this machine's, is not known here
        value = target[sources[0]].strip()
        resolved = resolve(value, self.folder, self.root, ancestors=False)
        if resolved.path is None and not resolved.escapes:  # a file outside the repository is not known here
            self.out.append(Finding("EV409", f"target {quote(name)} cannot run: its replay {sources[0]!r} "
                                    f"{quote(value)} names no file (the runner looks it up from the eval file's folder, "
                                    f"{shown(self.folder, self.root)}), so every test fails; record it first ('agentv "
                                    "eval --record-replay' on the source target) or correct the path", site.path))

    def _graded_by_an_agent(self, site) -> bool:
        """Whether the llm-grader of ``site`` (``grading_targets.graded_by``) may work as an agent, in the test's
        workspace, whose files show it what the agent did (graders/llm-grader.ts): its own target is one, or the
        grader target of a target the suite runs on is (the command line's --grader-target is not known here). A
        target the environment names may be one; with no targets file the run's grader is no agent."""
        if "grader" in site.extra and site.extra["grader"] is None:
            return True
        found = targets_file.nearest(self.folder, self.root, self.max_bytes)
        definitions = targets_file.definitions_in(found[0], self.root, self.max_bytes) if found else None
        if not definitions:
            return False
        names = [site.extra["grader"]] if "grader" in site.extra else [
            grading_targets.grader_target_of(target) for target in
            (targets4.standing_for(name, definitions) for name in site.extra.get("runs_on", ())) if target is not None]
        graders = [targets4.standing_for(name, definitions) for name in names if name is not None]
        return any(grader is not None and grading_targets.grades_as_an_agent(grader) for grader in graders)
