"""A suite's or a test's ``workspace`` (AgentV 4.42): the path of a workspace file, or the settings
themselves: a template folder, repositories, lifecycle hooks, a docker image, an isolation mode."""
from __future__ import annotations

from evallint.format.agentv4.assertion_parts import WORKDIR_NAMES, CommandField
from evallint.format.base import LintSchema, read_first
from evallint.format.fields import ABSENT, Flag, Items, MappingOr, MergedFlag, Number, Problem, Record, Text, choice
from evallint.rules import workspaces as rules
from evallint.rules.workspace_env import check_env
from evallint.rules.workspace_repos import check_repo
from evallint.rules.evaluators import check_keys


class HookSchema(LintSchema):
    checks = (rules.check_hook,)
    command = CommandField("hook 'command'", code="EV110",
                           metadata={"description": "The command: a string split on white space, or an argv list."})
    script = CommandField("hook 'script'", code="EV110",
                          metadata={"description": "Deprecated alias of command.", "deprecated": True})
    # one of 0 or less is the hook's check: a hook with no command runs nothing to time out
    timeout_ms = Number("EV110", "hook 'timeout_ms' must be a finite number > 0, {found}",
                        metadata={"description": "Longest the hook may run, in milliseconds (> 0).", "confusable": (
                            "timeout", "timeout_seconds", "timeout_s", "timeout_sec", "timeoutms")})
    cwd = Text("EV110", "hook 'cwd' must be a string, {found}", metadata={"description": "Working folder.",
                                                                           "confusable": WORKDIR_NAMES})
    reset = choice(rules.HOOK_RESETS, "EV110", "invalid hook reset {shown}{hint}; expected one of {choices}",
                   allow_none=True, metadata={"description": "How the workspace is reset after the hook."})

    def reads(self, data):
        return read_first(data, (("script", "command"),))  # the runner reads 'command ?? script'


# names people give the hooks (a 'setup' may mean either hook that runs before)
HOOK_NAMES = {"before_all": ("setup", "before", "setup_all"), "before_each": ("setup", "before", "setup_each"),
              "after_all": ("teardown", "cleanup", "after", "teardown_all"),
              "after_each": ("teardown", "cleanup", "after", "teardown_each")}


def _hook(name: str, then: str) -> Record:
    return Record(HookSchema, "EV110", f"hook '{name}' must be a mapping with 'command', {{found}}{then}",
                  metadata={"description": f"Runs {name.replace('_', ' ')} test(s).", "confusable": HOOK_NAMES[name]})


def _hooks(enabled: Flag, checks: tuple = (), then: str = "") -> type:
    """The hooks of a workspace, whose ``enabled`` the runner reads as absent when it is no boolean; ``then`` ends the
    message of a hook that is no mapping."""
    return type("HooksSchema", (LintSchema,), {
        "__module__": __name__, "checks": (check_keys("workspace hooks"), rules.check_hooks) + checks,
        "enabled": enabled, **{name: _hook(name, then.format(name=name)) for name in rules.HOOKS}})


def _hooks_field(schema: type) -> Record:
    return Record(schema, "EV110", "workspace 'hooks' must be a mapping, {found}",
                  metadata={"description": "Commands run around the tests."})


ENABLED, META = "hooks 'enabled' must be true or false, {found}", {"description": "Whether the hooks run."}
# a suite's hooks run unless 'enabled' is false; a test's 'enabled' that is no boolean gives way to the suite's
HooksSchema = _hooks(Flag("EV110", ENABLED, otherwise=True, metadata=META))
# a test's hook that the loader drops leaves the suite's to run (yaml-parser.ts mergeWorkspaceConfigs)
TestHooksSchema = _hooks(MergedFlag("EV110", ENABLED + "; the runner reads it as absent, so the suite's 'enabled' "
                                    "applies", metadata=META), (rules.check_test_enabled,),
                         "; the runner ignores it, so the suite's '{name}' hook, if it has one, runs for this test")


class RepoSchema(LintSchema):
    checks = (check_repo,)
    path = Text("EV110", "repo 'path' must be a string, {found}", metadata={"description": "Where it is checked out."})
    repo = Text("EV110", "repo 'repo' must be a string, {found}", metadata={"description": "The repository."})
    commit = Text("EV110", "repo 'commit' must be a string, {found}", metadata={
        "description": "The commit, branch or tag checked out.", "confusable": ("ref", "branch", "tag", "revision", "rev")})
    base_commit = Text("EV110", "repo 'base_commit' must be a string, {found}",
                       metadata={"description": "The commit the changes are compared with."})
    ancestor = Number("EV110", "repo 'ancestor' must be a number, {found}",
                      metadata={"description": "How many commits back from commit."})
    sparse = Items(Text("EV110", "a sparse path must be a string, {found}"), "EV110",
                   "repo 'sparse' must be a list of paths, {found}", metadata={"description": "Paths to check out."})


class DockerSchema(LintSchema):
    checks = (check_keys("docker"),)
    image = Text("EV110", "docker 'image' must be a string, {found}; the runner ignores the docker settings",
                 required=True, error_messages={"required": Problem(
                     "EV110", "docker has no 'image'; the runner ignores the docker settings", ABSENT)},
                 metadata={"description": "The image to run in."})
    timeout = Number("EV110", "docker 'timeout' must be a number, {found}; the runner ignores it",
                     metadata={"description": "Seconds the container may run."})
    memory = Text("EV110", "docker 'memory' must be a string such as '2g', {found}; the runner ignores it",
                  metadata={"description": "Memory limit, such as 2g."})
    cpus = Number("EV110", "docker 'cpus' must be a number, {found}; the runner ignores it",
                  metadata={"description": "CPUs the container may use."})


def _names(key: str, what: str) -> Items:
    return Items(Text("EV110", f"a {what} must be a string, {{found}}; the runner leaves it out"), "EV110",
                 f"workspace env '{key}' must be a list of {what}s, {{found}}; the runner ignores it",
                 metadata={"description": f"Each {what} the run needs; it fails early without one."})


class EnvSchema(LintSchema):
    checks = (check_env,)
    required_commands = _names("required_commands", "command name")
    required_python_modules = _names("required_python_modules", "module name")


NULLABLE_TEXT = {"type": ["string", "null"]}


class WorkspaceSchema(LintSchema):
    definition = "Workspace"
    checks = (rules.check_workspace,)
    # a null 'template' or 'path' is none, as the runner reads it (and as AgentV's docs write an unset one)
    template = Text("EV110", "workspace 'template' must be a string, {found}", allow_none=True,
                    metadata={"description": "A folder copied into the workspace.", "json": NULLABLE_TEXT})
    isolation = choice(("shared", "per_test"), "EV110", "invalid workspace isolation {shown}{hint}; the runner "
                       "ignores it; expected one of {choices}", metadata={"description": "shared or per_test."})
    repos = Items(Record(RepoSchema, "EV110", "a repo must be a mapping, {found}"), "EV110",
                  "workspace 'repos' must be a list, {found}", metadata={"description": "Repositories to check out."})
    hooks = _hooks_field(HooksSchema)
    mode = choice(("pooled", "temp", "static"), "EV110", "invalid workspace mode {shown}{hint}; the runner ignores it; "
                  "expected one of {choices}", metadata={"description": "pooled, temp or static."})
    path = Text("EV110", "workspace 'path' must be a string, {found}", allow_none=True,
                metadata={"description": "An existing folder to use (mode static).", "json": NULLABLE_TEXT})
    docker = Record(DockerSchema, "EV110", "workspace 'docker' must be a mapping with 'image', {found}; the runner "
                    "ignores it", metadata={"description": "The container the agent works in."})
    env = Record(EnvSchema, "EV110", "workspace 'env' must be a mapping, {found}; the runner ignores it", allow_none=True,
                 metadata={"description": "What the run checks is installed before it starts."})


class TestWorkspaceSchema(WorkspaceSchema):
    hooks = _hooks_field(TestHooksSchema)


WORKSPACE, TEST_WORKSPACE = WorkspaceSchema(), TestWorkspaceSchema()


def workspace_field(of_test: bool = False, **metadata) -> MappingOr:
    """A workspace (``of_test``: a test's): the path of a workspace file (a reference), or its settings; ``metadata``
    adds to the field's."""
    return MappingOr(TEST_WORKSPACE if of_test else WORKSPACE, "EV110",
                     "'workspace' must be a mapping or the path of a workspace file, {found}",
                     accepts=lambda value: isinstance(value, str), allow_none=True,
                     metadata={"description": "The workspace the agent works in, or the file that sets it.", **metadata})
