"""An AgentV 4.42 suite's ``execution`` (target, targets, workers, trials, budget, default graders), a
test's (skip_defaults, threshold, targets) and the legacy default grader kind."""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Optional

from marshmallow import ValidationError

from evallint.diagnostics import KEY
from evallint.format.agentv4.assertion_parts import Bounded, CommandField
from evallint.format.agentv4.assertions import DEPRECATED
from evallint.format.agentv4.config_execution import ConfigExecutionSchema
from evallint.rules.grader_lists import normal_type
from evallint.format.agentv4.graders import KINDS, assertion_list
from evallint.format.base import DatasetLinePart, LintSchema, read_first
from evallint.format.fields import ABSENT, Checked, Flag, Items, MappingOr, Number, Problem, Record, Text, choice
from evallint.format.keys import NAMING_KEYS, known_keys
from evallint.rules import agentv4 as rules
from evallint.rules import grader_lists as lists
from evallint.rules import dataset_lines, target_hooks
from evallint.rules.common import Misplaced, Site, finding, is_text
from evallint.rules.evaluators import check_keys
from evallint.rules.targets4 import added_targets
from evallint.rules.trial_passes import repeats
from evallint.rules.grading_targets import targets_given
from evallint.rules.workspace_kept import runs_on
from evallint.suggest import all_of, did_you_mean, one_of, quote


class KindName(Checked):
    """The legacy default grader kind (``evaluator``): 'llm-grader', else EV114 (the loader falls back to it for an
    unknown kind, and the run for any other: a deprecated judge makes the loader reject the file)."""

    scalar = True  # a kind may be given by an environment reference

    def check(self, value):
        if not isinstance(value, str):
            raise self.reject(value)
        if normal_type(value) in DEPRECATED:
            raise ValidationError(Problem("EV114", f"grader kind '{value}' is deprecated and the runner rejects the "
                                                   f"file; use '{DEPRECATED[normal_type(value)]}'"))
        if normal_type(value) not in KINDS:
            raise ValidationError(Problem("EV114", f"unknown grader kind '{value}'{did_you_mean(value, KINDS)}; the "
                                                   f"runner falls back to 'llm-grader' (kinds: {one_of(KINDS)})"))
        if value != "llm-grader" and normal_type(value) != "llm-grader":  # the run's registry (orchestrator.ts)
            raise ValidationError(Problem("EV114", f"grader kind '{value}' is no default the runner grades by: its "
                                                   "registry holds 'llm-grader' alone, so it falls back to that; give "
                                                   f"the test an assertion of type '{normal_type(value)}' instead"))
        return value


def kind_name() -> KindName:
    return KindName("EV110", "'evaluator' must be the name of a grader kind, {found}; the runner ignores it",
                    metadata={"description": "Legacy default grader kind (llm-grader when absent).",
                              "deprecated": True})


TARGET_HOOKS = ("before_all", "before_each", "after_each", "after_all")


class TargetHookSchema(LintSchema):
    """A command run around a target's tests: the loader reads 'command' (else 'script'), 'timeout_ms' (else
    'timeoutMs') and 'cwd', and drops a hook without a command."""

    checks = (target_hooks.check_target_hook,)
    command = CommandField("target hook 'command'", code="EV110", metadata={
        "description": "The command: a string run by the shell, or an argv list."})
    script = CommandField("target hook 'script'", code="EV110", metadata={"description": "Alias of command."})
    timeout_ms = Number("EV110", "target hook 'timeout_ms' must be a number, {found}; the runner ignores it",
                        metadata={"description": "Longest the hook may run, in milliseconds."})
    timeout_ms_camel = Number("EV110", "target hook 'timeoutMs' must be a number, {found}; the runner ignores it",
                              data_key="timeoutMs", metadata={"description": "Alias of timeout_ms."})
    cwd = Text("EV110", "target hook 'cwd' must be a string, {found}; the runner ignores it",
               metadata={"description": "Working folder."})

    def reads(self, data):
        read = read_first(data, (("script", "command"),))
        return {k: v for k, v in read.items() if k != "timeoutMs"} if "timeout_ms" in read else read


def _target_hook(name: str) -> Record:
    return Record(TargetHookSchema, "EV110", f"target hook '{name}' must be a mapping with 'command', {{found}}; the "
                  "runner ignores it", metadata={"description": f"Runs {name.replace('_', ' ')} test(s) of this target."})


TargetHooksSchema = type("TargetHooksSchema", (LintSchema,), {
    "__module__": __name__, "__doc__": "A target's hooks: the loader reads these four and ignores other keys.",
    "checks": (check_keys("target hooks"),), **{name: _target_hook(name) for name in TARGET_HOOKS}})


class TargetRefSchema(LintSchema):
    checks = (check_keys("target"),)
    name = Text("EV110", "target 'name' must be a non-empty string, {found}; the runner drops the target",
                non_empty=True, required=True, error_messages={"required": Problem(
                    "EV110", "target has no 'name'; the runner drops it", ABSENT)},
                metadata={"description": "The name results are reported under."})
    use_target = Text("EV110", "'use_target' must be a string, {found}; the runner ignores it",
                      metadata={"description": "The target of targets.yaml it runs."})
    hooks = Record(TargetHooksSchema, "EV110", "target 'hooks' must be a mapping of " + one_of(TARGET_HOOKS) + ", "
                   "{found}; the runner ignores it", metadata={"description": "Commands run around this target's tests: "
                                                                           + ", ".join(TARGET_HOOKS) + "."})


class TargetRefField(MappingOr):
    """An item of 'targets': a target's name, or a mapping naming one."""

    accepted_shape = {"type": "string"}

    def __init__(self, **kwargs):
        super().__init__(TargetRefSchema(), "EV110", "an item of 'targets' must be a target name or a mapping with "
                         "'name', {found}", accepts=lambda value: isinstance(value, str), **kwargs)


def _trials_without_count(trials: dict, place) -> Iterator:
    """EV110 for trials settings without a 'count': the loader then reads no trials at all (config-loader.ts
    extractTrialsConfig), so each test runs once and the settings are never read."""
    set_ = [key for key in ("strategy", "cost_limit_usd", "costLimitUsd") if trials.get(key) is not None]
    if set_ and trials.get("count") is None:
        yield finding("EV110", f"trials without a 'count': the runner ignores the trials, {all_of(set_)} with "
                      "them, and runs each test once; add a 'count' above 1", place.at, KEY)


class TrialsSchema(LintSchema):
    checks = (check_keys("trials"), _trials_without_count)
    count = Bounded("EV110", "trials 'count' must be a positive integer, {found}; the runner ignores the trials",
                    1, 10**9, integer=True, metadata={"description": "How often each test runs.", "confusable": (
                        "runs", "times", "repeat", "repeats", "iterations", "trials")})
    strategy = choice(("pass_at_k", "mean", "confidence_interval"), "EV110", "invalid trials strategy {shown}{hint}; "
                      "the runner uses 'pass_at_k'; expected one of {choices}", default="pass_at_k", allow_none=True,
                      metadata={"description": "How the trials' scores combine."})
    cost_limit_usd = Number("EV110", "trials 'cost_limit_usd' must be a number > 0, {found}; the runner ignores it",
                            minimum=0, exclusive=True, allow_none=True,
                            metadata={"description": "Stop the trials past this cost."})
    cost_limit_camel = Number("EV110", "trials 'costLimitUsd' must be a number > 0, {found}; the runner ignores it",
                              minimum=0, exclusive=True, allow_none=True, data_key="costLimitUsd",
                              metadata={"alias_of": "cost_limit_usd"})


def check_unread_settings(execution: dict, place) -> Iterator:
    """EV116 for a suite's target the command line passes over (``_passed_over_targets``); EV115 for 'cache: true'
    with trials (orchestrator.ts turns caching off) and for 'cache_path' without 'cache' (the loader reads the path
    only with a boolean 'cache', config-loader.ts extractCacheConfig)."""
    yield from _passed_over_targets(execution, place)
    if execution.get("cache") is True and repeats(execution):
        yield finding("EV115", "'cache: true' is ignored with 'trials.count' above 1: the runner turns caching off, as "
                      "cached answers would make the trials alike (it warns so)", place.at + ("cache",))
    if execution.get("cache_path") is not None and execution.get("cache") is None:
        yield finding("EV115", "'cache_path' is read only with 'cache': without it the runner ignores the path (and "
                      "caches as its command line says); add 'cache: true'", place.at + ("cache_path",), KEY)


def _passed_over_targets(execution: dict, place) -> Iterator:
    """EV116 for 'execution.target' beside 'targets' (the command line runs on 'targets' when it is set,
    run-eval.ts) and for a root 'target' beside either, naming another target."""
    targets = execution.get("targets")
    many = targets_given(execution)
    used = {_name(item) for item in targets} if isinstance(targets, list) and many else {_name(execution.get("target"))}
    if many and execution.get("target") is not None and _name(execution["target"]) not in used:
        yield finding("EV116", f"'execution.target' {quote(execution['target'])} is ignored: the runner runs the suite "
                      "on 'execution.targets', which is also set; remove one of them", place.at + ("target",), KEY)
    root = place.document.get("target") if isinstance(place.document, dict) else None
    if root is not None and (many or execution.get("target") is not None) and _name(root) not in used:
        given = "execution.targets" if many else "execution.target"
        yield finding("EV116", f"root 'target' {quote(root)} is ignored: the runner runs the suite on '{given}', which "
                      "is also set; remove one of them", ("target",), KEY)


def _name(target) -> Optional[str]:
    """The name of a target as an item of 'targets' or a 'target' gives it (trimmed); None for no string."""
    name = target.get("name") if isinstance(target, dict) else target
    return name.strip() if isinstance(name, str) else None


def check_target_names(execution: dict, place) -> Iterator:
    """The names of 'targets', each looked up in the targets file the runner uses (EV409): with two targets or
    more, an item with a 'use_target' whose name the file does not define stands for the target it names, which is
    looked up instead (the runner adds it to the file's targets); with one, the runner looks up its name alone."""
    items = execution.get("targets")
    refs = [(i, item) for i, item in enumerate(items if isinstance(items, list) else ())
            if is_text(item) or isinstance(item, dict) and is_text(item.get("name"))]
    many = len(refs) > 1
    standing = {i: item["use_target"].strip() for i, item in refs
                if isinstance(item, dict) and is_text(item.get("use_target"))}  # stands for another target
    runs = runs_on(place.document, "targets")
    for i, item in refs:
        yield from _target_sites(item, place.at + ("targets", i), standing.get(i), many,
                                 {"aliases": added_targets(execution)}, runs)


def _target_sites(item, at: tuple, stands_for, many: bool, extra: dict, runs: dict) -> Iterator:
    """The target an item of 'targets' names, and the one it stands for (``stands_for``) beside another target."""
    name = item.strip() if isinstance(item, str) else item["name"].strip()
    alone = {"note": " (a 'use_target' here counts only beside another target)"} if stands_for and not many else {}
    standing = {"use_target": at + ("use_target",)} if many and stands_for else {}  # unless the file defines the name
    yield Site("target", name, at if isinstance(item, str) else at + ("name",),
               {**extra, **alone, **standing, **({} if many and stands_for else runs)})
    if many and stands_for:
        yield Site("target", stands_for, at + ("use_target",), {**extra, **runs})


@lru_cache(maxsize=None)
def _only_in(schema: type, other: type) -> tuple:
    """The keys ``schema`` declares and ``other`` does not."""
    return tuple(key for key in known_keys(schema()) if key not in known_keys(other()))


# names people give 'threshold'
THRESHOLD_NAMES = ("pass_threshold", "passing_threshold", "pass_score", "passing_score")
# a test's own graders, which a test's 'execution' does not hold
GRADERS_HERE = Misplaced("in the test itself (as the test's own 'assertions')", list)


def _read_beside(place) -> dict:
    """key -> where the runner reads it, for each key that the mapping holding an 'execution' reads (the suite, a
    test) and the 'execution' does not declare: written in the 'execution', it is dropped (but the keys that name a
    mapping, and a description, which are more likely labels of the 'execution'). A JSONL dataset line reads none of
    a YAML test's keys beside its 'execution' but its graders' (EV115 says so of each there)."""
    above = None if getattr(place.schema, "dataset", False) else place.above
    return {key: Misplaced("beside 'execution', not in it", object) for key in (above.read if above else ())
            if key not in place.keys.known and key not in NAMING_KEYS and key != "description"}


@lru_cache(maxsize=None)
def config_only() -> dict:
    """key -> where the runner reads it, for each setting of config.yaml's 'execution' (the run's logs, traces and
    workspaces), which an eval file's does not read: a value of the type it has there (a flag, a text, a number);
    another (null) is an unknown key's. A flag that is false there is not what the run uses anyway: config.yaml or
    the command line may turn it on."""
    return {field.data_key or name: Misplaced("in .agentv/config.yaml's 'execution'", bool if isinstance(field, Flag)
                                              else str if isinstance(field, Text) else (int, float))
            for name, field in ConfigExecutionSchema().fields.items()}


def check_suite_execution(execution: dict, place) -> Iterator:
    """``rules.check_execution``: a key only a test's 'execution' reads is ignored in the suite's (EV115), and so is
    one the suite itself reads (its input, its workspace) or config.yaml's 'execution' reads, and a conversation's
    setting, which the runner reads of each test alone (orchestrator.ts runConversationMode)."""
    return rules.check_execution(execution, place, {**config_only(), **_read_beside(place), **{
        key: Misplaced("in each test's 'execution'", object) for key in _only_in(TestExecutionSchema, ExecutionSchema)},
        **{key: Misplaced("in each conversation test, beside its 'execution'", object)
           for key in ("mode",) + rules.CONVERSATION}})


def check_test_execution(execution: dict, place) -> Iterator:
    """``rules.check_test_execution``: a key only the suite's 'execution' reads (a run setting) is ignored in a
    test's (EV115), and so is one the test itself reads (its vars, its dependencies) or config.yaml's 'execution'
    reads; a test's graders go in the test itself."""
    return rules.check_test_execution(execution, place, {**config_only(), **_read_beside(place), **{
        key: GRADERS_HERE if key in ("assertions", "assert") else Misplaced("in the suite's 'execution'", object)
        for key in _only_in(ExecutionSchema, type(place.schema)) if key not in ("target", "targets")}})


class ExecutionSchema(LintSchema):
    definition = "Execution"
    checks = (check_suite_execution, check_target_names, check_unread_settings)  # a sidecar's: sidecar.py
    target = Text("EV110", "'target' in execution must be a non-empty string, {found}", non_empty=True,
                  metadata={"description": "Name of a target in the nearest targets.yaml."})
    targets = Items(TargetRefField(), "EV110", "'targets' in execution must be a list of target names, {found}",
                    metadata={"description": "Targets to run every test against: names, or {name, use_target, "
                                             "hooks}."})
    # a null setting is one not written: the runner reads each with '=== null' or a type test as absent
    workers = Bounded("EV513", "'workers' must be an integer from 1 to 50, {found}; the runner ignores it", 1, 50,
                      integer=True, allow_none=True, metadata={"description": "Tests run at once, 1-50.", "confusable": (
                          "max_workers", "concurrency", "max_concurrency", "parallel", "parallelism", "jobs")})
    threshold = Bounded("EV110", "'threshold' must be a number from 0 to 1, {found}; the runner ignores it", 0, 1,
                        allow_none=True,
                        metadata={"description": "Score a test needs to pass, 0-1.", "confusable": THRESHOLD_NAMES})
    trials = Record(TrialsSchema, "EV110", "'trials' must be a mapping with 'count', {found}",
                    metadata={"description": "Runs of each test and how their scores combine."})
    cache = Flag("EV110", "'cache' must be true or false, {found}; the runner ignores it", allow_none=True,
                 metadata={"description": "Whether answers are cached."})
    cache_path = Text("EV110", "'cache_path' must be a non-empty string, {found}", non_empty=True,
                      metadata={"description": "Where the cache is kept.", "confusable": ("cachepath",)})
    budget_usd = Number("EV110", "'budget_usd' must be a number > 0, {found}; the runner ignores it", minimum=0,
                        exclusive=True, allow_none=True, metadata={"description": "Stop the run past this cost in USD."})
    budget_camel = Number("EV110", "'budgetUsd' must be a number > 0, {found}; the runner ignores it", minimum=0,
                          exclusive=True, allow_none=True, data_key="budgetUsd", metadata={"alias_of": "budget_usd"})
    fail_on_error = Flag("EV110", "'fail_on_error' must be true or false, {found}; the runner ignores it",
                         otherwise=False, allow_none=True, metadata={"description": "Whether an error fails the run."})
    fail_on_error_camel = Flag("EV110", "'failOnError' must be true or false, {found}", data_key="failOnError",
                               otherwise=False, allow_none=True, metadata={"alias_of": "fail_on_error"})
    assertions = assertion_list("execution.assertions", metadata={"description": "Default graders of every test."})
    assert_ = assertion_list("execution.assert", data_key="assert",
                             metadata={"description": "Deprecated alias.", "deprecated": True})
    evaluators = assertion_list("execution.evaluators", metadata={"description": "Deprecated alias.", "deprecated": True})


class TestExecutionSchema(LintSchema):
    checks = (check_test_execution,)
    dataset = False  # of a line of a JSONL dataset
    skip_defaults = Flag("EV110", "'skip_defaults' must be true or false, {found}; the runner reads only true",
                         otherwise=False, metadata={"description": "true: the suite's input, input_files and "
                                                                   "assertions do not apply.", "default": False})

    threshold = Bounded("EV110", "'threshold' must be a number from 0 to 1, {found}; the runner ignores it", 0, 1,
                        allow_none=True, metadata={"description": "Score this test needs to pass, 0-1.", "yaml_only": True,
                                  "confusable": THRESHOLD_NAMES})
    targets = Items(Text("EV110", "a target name must be a non-empty string, {found}", non_empty=True), "EV110",
                    "'targets' must be a list of target names, {found}",
                    metadata={"description": "Targets of this test.", "yaml_only": True})
    evaluators = assertion_list("execution.evaluators",
                                metadata={"description": "Deprecated list of graders.", "deprecated": True})


class DatasetTestExecutionSchema(DatasetLinePart, TestExecutionSchema):
    """A dataset line's 'execution', which replaces its sidecar's: the line's default graders come from its
    grader lists ('evaluators' is then read twice: as the line's list and as its defaults)."""

    checks = (check_test_execution, dataset_lines.check_line_execution)
    assertions = assertion_list("execution.assertions", metadata={"description": "Default graders of this line, in "
                                                                                 "place of the sidecar's."})
    assert_ = assertion_list("execution.assert", data_key="assert",
                             metadata={"description": "Deprecated alias.", "deprecated": True})

    def reads(self, data):
        return super().reads(lists.as_read(data, lists.LINE_DEFAULT_LISTS))
