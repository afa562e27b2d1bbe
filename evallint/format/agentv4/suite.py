"""The AgentV 4.42 eval suite and its tests: where the loader's choices between grader lists and its suite
defaults (input in front, assertions after, unless a test sets ``execution.skip_defaults``) are applied."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator, Optional

from marshmallow import ValidationError, fields, validates_schema

from evallint.diagnostics import KEY
from evallint.format.agentv4.assertion_parts import ArgvField, PreprocessorSchema, preprocessors, rubric_list
from evallint.format.agentv4.graders import assertion_list, pooled
from evallint.format.agentv4.messages import ExpectedOutputField, InputField, built_message, read_messages
from evallint.format.agentv4.score_ranges import check_inline_bands
from evallint.format.agentv4.execution import DatasetTestExecutionSchema, ExecutionSchema, TestExecutionSchema, kind_name
from evallint.format.agentv4.filled import check_suite_input, said_filled
from evallint.format.agentv4.suite_defaults import said_of_suite_defaults
from evallint.format.agentv4.suite_fields import SuiteFiles, SuiteName, strings
from evallint.format.agentv4.conversations import (check_conversation_graders, check_suite_conversation_graders,
                                                   check_tests_file_conversation_graders)
from evallint.format.agentv4.turns import turns_field
from evallint.format.agentv4.workspace import workspace_field
from evallint.format.base import DatasetLinePart, LintSchema, builds
from evallint.load.case_files import FILE_PREFIX
from evallint.format.fields import (
    CaseId, Checked, Mapping, MappingOr, Number, Record, Text, choice, held, missing, problem_at,
)
from evallint.rules import agentv4 as rules
from evallint.rules import grader_lists as lists
from evallint.rules import (
    asked, dataset_lines, dependencies, input_files, kept_tests, messages, template_vars, test_vars, trial_passes, workspaces)
from evallint.rules.conversation_limits import check_conversation_limits
from evallint.rules.common import js_truthy
from evallint.rules.evaluators import check_field_expectations, check_total_weight
from evallint.rules.expected_fields import check_field_paths
from evallint.rules.input_files import suite_files_given

INPUT, EXPECTED = InputField(), ExpectedOutputField()  # how the loader reads a value that vars are filled into


class SuitePreprocessorSchema(PreprocessorSchema):
    """A suite's preprocessor: the loader rejects the whole file for a command that is no argv list."""

    command = ArgvField("preprocessor 'command'", then="rejects the file", required=True, error_messages=missing(
        "EV320", "preprocessor has no 'command' (an argv list)"), metadata={"description": "The converter, an argv list."})


# names people give 'input_files'
FILES_NAMES = ("files", "attachments", "input_file", "inputfiles", "attached_files")


class TestSchema(LintSchema):
    definition = "Test"
    checks = (rules.check_test, rules.check_conversation, check_conversation_graders, test_vars.check_vars,
              check_field_expectations, check_field_paths, check_total_weight, messages.check_system_first,
              asked.check_question,
              messages.check_expected_answer, messages.check_expected_graded, check_inline_bands,
              dependencies.check_failure_setting)
    dataset = False  # a line of a JSONL dataset, whose loader counts other keys as something to grade by
    id = CaseId(required=True, error_messages=missing("EV103", "test has no 'id'; the runner skips it"),
                metadata={"description": "Unique id of the test (a string)."})
    criteria = Text("EV107", "'criteria' must be a string describing the goal, {found}; the runner ignores it",
                    metadata={"description": "What the answer must do.", "confusable": ("expected_outcome", "outcome")})
    expected_outcome = Text("EV107", "'expected_outcome' must be a string, {found}",
                            metadata={"description": "Deprecated alias of criteria.", "deprecated": True})
    input = InputField(metadata={"description": "What is sent: a string, a mapping or messages.",
                                 "confusable": ("input_messages", "inputs", "prompt")})
    input_files = strings("input_files", "EV112", "the runner skips the test", allow_none=True,  # null: the suite's
                          metadata={"description": "Files sent with a string input.", "confusable": FILES_NAMES})
    expected_output = ExpectedOutputField(metadata={"description": "The expected answer: a string, a mapping or "
                                                                  "messages.", "confusable": ("expected_messages",)})
    assertions = assertion_list("assertions", metadata={"description": "The test's graders."})
    assert_ = assertion_list("assert", data_key="assert", metadata={"description": "Alias of assertions."})
    evaluators = assertion_list("evaluators", metadata={"description": "Deprecated list of graders.", "deprecated": True})
    evaluator = kind_name()
    rubrics = rubric_list(inline=True, metadata={"description": "Deprecated inline rubrics: an llm-grader in front.",
                                                               "deprecated": True})
    execution = Record(TestExecutionSchema, "EV110", "'execution' must be a mapping, {found}; the runner ignores it",
                       allow_none=True, metadata={"description": "skip_defaults, threshold, targets."})
    vars = fields.Dict(metadata={"description": "Values filled into {{ name }} in criteria, input and expected_output.",
                                 "yaml_only": True, "confusable": ("variables", "var", "params", "parameters")})
    conversation_id = Text("EV110", "'conversation_id' must be a string, {found}",
                           metadata={"description": "Groups tests of one conversation."})
    metadata = Mapping("EV110", "'metadata' must be a mapping, {found}; the runner drops it", allow_none=True,
                       metadata={"description": "Free-form data, merged over the suite's.", "yaml_only": True})
    workspace = workspace_field(of_test=True, yaml_only=True)
    depends_on = strings("depends_on", then="the runner ignores it and runs the test without waiting",
                         metadata={"description": "Ids of tests that run first.", "yaml_only": True,
                                   "confusable": ("dependencies", "depends", "dependson", "needs", "after")})
    on_dependency_failure = choice(dependencies.FAILURE_SETTINGS, "EV110", "invalid on_dependency_failure {shown}{hint}; "
                                   "the runner ignores it; expected one of {choices}", default="skip",
                                   metadata={"description": "What happens when a dependency fails.", "yaml_only": True})
    mode = choice(("conversation",), "EV110", "invalid mode {shown}{hint}; the runner ignores it; expected {choices}",
                  metadata={"description": "conversation: the test is a sequence of turns.", "yaml_only": True})
    turns = turns_field()
    aggregation = choice(("mean", "min", "max"), "EV110", "invalid aggregation {shown}{hint}; the runner ignores it; "
                         "expected one of {choices}", default="mean",
                         metadata={"description": "How turn scores combine.", "yaml_only": True})
    on_turn_failure = choice(("continue", "stop"), "EV110", "invalid on_turn_failure {shown}{hint}; the runner ignores it; "
                             "expected one of {choices}", default="continue",
                             metadata={"description": "continue or stop.", "yaml_only": True})
    # .nan and .inf give the whole conversation, as no window does
    window_size = Number("EV110", "'window_size' must be a number >= 1, {found}; the runner ignores it", minimum=1,
                         finite=False, metadata={"description": "Turns of context given to graders.", "yaml_only": True})

    def reads(self, data):
        """Its vars filled in, as the loader fills them before it reads the test (a dataset line's are not read);
        without the grader lists it does not read (``grader_lists.not_read``; not a dataset line's
        'execution.evaluators' that it reads as the line's default graders)."""
        data = data if self.dataset else template_vars.filled(data)
        unread = lists.not_read(data, lists.TEST_LISTS)
        return lists.without(data, [path for path in unread if not (self.dataset and path == lists.line_defaults(data))])

    def handle_error(self, error, data, **kwargs):
        """A problem of a value that the test's vars change says so: the value it quotes is the filled one."""
        filled = data if self.dataset or not isinstance(data, dict) else template_vars.filled(data)
        if filled is not data and isinstance(error.messages, dict):
            raise ValidationError(said_filled(error.messages, data, filled), valid_data=error.valid_data)

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        from evallint.format.agentv4 import model  # imported by the loads that build a model only

        # what the runner reads of it, its vars filled in (once): a dataset line has no metadata or turns
        read = self.reads(original)
        values = template_vars.variables(read)
        criteria = next((read[key] for key in ("criteria", "expected_outcome") if isinstance(read.get(key), str)
                         and read[key]), "")
        execution = data.get("execution") or {}
        own = _own_graders(data, execution)
        rubric = None
        if data.get("rubrics"):
            rubric = model.Assertion(type="llm-grader", name="rubrics", settings={"rubrics": tuple(data["rubrics"])})
        own_files = read.get("input_files")
        test = model.Test(
            id=data["id"], criteria=criteria,
            input=_messages(INPUT, read.get("input"), data.get("input"), values),
            expected_output=_messages(EXPECTED, read.get("expected_output"), data.get("expected_output"), values),
            assertions=pooled(own),
            input_files=tuple(f for f in own_files if isinstance(f, str)) if isinstance(own_files, list) else (),
            conversation_id=data.get("conversation_id"),
            metadata=read["metadata"] if isinstance(read.get("metadata"), dict) else {},
            workspace=data.get("workspace"),
            execution=model.TestExecution(skip_defaults=execution.get("skip_defaults") is True,
                                          threshold=execution.get("threshold"),
                                          targets=tuple(execution.get("targets", ()))),
            vars=values or {}, mode=data.get("mode"), turns=tuple(read.get("turns") or ()),
            depends_on=tuple(data.get("depends_on", ())), on_dependency_failure=data.get("on_dependency_failure"),
            aggregation=data.get("aggregation"), on_turn_failure=data.get("on_turn_failure"),
            window_size=data.get("window_size"))
        defaults = None
        if self.dataset and isinstance(read.get("execution"), dict):
            defaults = pooled(next((execution[key] for key in ("assertions", "assert_", "evaluators") if key in execution),
                                   None))
        # a null 'assertions' or 'assert' holds no grader but still makes the test complete (the loader asks
        # whether the key is undefined)
        keys = {key: None for key in ("assertions", "assert") if key in original}
        complete = kept_tests.gradable({**keys, **read}, self.dataset)
        return model.TestDraft(test, rubric, test.execution.skip_defaults, complete, defaults, read.get("input"),
                               own_files)


class DatasetTestSchema(DatasetLinePart, TestSchema):
    """A line of a JSONL dataset: a test that its loader keeps only with a criteria, an expected output or an
    'assert' key ('assertions' and turns do not count), and whose keys a YAML suite's test alone has
    (``yaml_only``) it does not read."""

    checks = (rules.check_test, dataset_lines.check_line, asked.check_question, messages.check_expected_answer,
              messages.check_expected_graded, check_field_expectations, check_field_paths, check_total_weight)
    execution = Record(DatasetTestExecutionSchema, "EV110", "'execution' must be a mapping, {found}; the runner "
                       "ignores it", allow_none=True, metadata={"description": "skip_defaults, and the line's graders "
                                                                               "in place of the sidecar's."})


def _own_graders(data: dict, execution: dict) -> Any:
    """A test's own grader list as loaded: 'assertions', else 'assert', else 'execution.evaluators', else
    'evaluators'."""
    own = next((data[key] for key in ("assertions", "assert_") if key in data), None)
    return execution.get("evaluators", data.get("evaluators")) if own is None else own


def _messages(field, value: Any, loaded: Any, values: Optional[dict]) -> tuple:
    """The messages ``loaded``, or, when ``values`` (vars) are filled into ``value`` first, those the loader
    reads in the filled value: none when it has no shape the loader reads."""
    return read_messages(field, value) if values is not None else tuple(loaded or ())


class TestsField(Checked):
    """'tests': tests and ``file://`` items, or a path; a file of tests' (``of_file``) holds tests only (case-file-loader.ts)."""

    many = True  # a list of what it holds

    def __init__(self, key: str, test: Optional[TestSchema] = None, of_file: bool = False, **kwargs):
        super().__init__("EV101", f"'{key}' must be a list of tests or the path of a file of tests, {{found}}; the "
                         "runner rejects the file", **kwargs)
        item = ", {found}; the runner rejects each suite that names this file" if of_file else \
            " (or a 'file://' reference), {found}; the runner skips it"
        self.items = fields.List(MappingOr(test or TestSchema(), "EV102", "a test must be a mapping with 'id', 'input' and "
                                           f"'criteria'{item}", accepts=lambda value: not of_file and isinstance(value, str)
                                           and value.startswith(FILE_PREFIX)))

    def check(self, value):
        if isinstance(value, str):
            return value
        if not isinstance(value, list):
            raise self.reject(value)
        return self.items.deserialize(value)

    def holds(self) -> tuple:
        return held(self.items)

    def parts(self, value: Any, at: tuple) -> Iterator:
        for i, item in enumerate(value if isinstance(value, list) else ()):
            yield self.items.inner, item, at + (i,)


class SuiteSchema(LintSchema):
    checks = (rules.check_suite, input_files.check_suite_input_files, check_suite_input, dependencies.check_dependencies,
              workspaces.check_workspace_mode, workspaces.check_workspace_env, workspaces.check_later_workspaces,
              check_suite_conversation_graders, test_vars.check_suite_graders, messages.check_suite_system_first,
              trial_passes.check_trial_threshold, check_conversation_limits)
    interpolated = True
    schema_id = fields.Raw(data_key="$schema", metadata={"description": "Not read by the runner."})
    tests = TestsField("tests", metadata={"description": "The tests, or the path of a file or folder of tests.",
                                          "required": True})
    eval_cases = TestsField("eval_cases", metadata={"description": "Deprecated alias of tests.", "deprecated": True})
    evalcases = TestsField("evalcases", metadata={"description": "Deprecated alias of tests.", "deprecated": True})
    name = SuiteName("EV110", "suite 'name' must be a string, {found}; the runner ignores it",
                     metadata={"description": "The suite's name: lower-case letters, digits and hyphens."})
    description = fields.Raw(allow_none=True, metadata={"description": "What the suite checks (1-1024 characters).",
                                                        "unread": True})
    version = fields.Raw(allow_none=True, metadata={"description": "The suite's version.", "unread": True})
    author = fields.Raw(allow_none=True, metadata={"description": "The suite's author.", "unread": True})
    license = fields.Raw(allow_none=True, metadata={"description": "The suite's license.", "unread": True})
    tags = fields.Raw(allow_none=True, metadata={"description": "Tags, a list of strings.", "unread": True})
    requires = fields.Raw(allow_none=True, metadata={"description": "{agentv: version range}.", "unread": True})
    category = fields.Raw(allow_none=True, metadata={"description": "Copied to every test."})
    execution = Record(ExecutionSchema, "EV110", "'execution' must be a mapping, {found}; the runner ignores it",
                       allow_none=True, metadata={"description": "Target, workers, trials and defaults of the run."})
    target = Text("EV110", "'target' in eval suite must be a string, {found}",
                  metadata={"description": "Legacy: the target when execution.target is absent."})
    assertions = assertion_list("assertions", metadata={"description": "Graders added to every test."})
    assert_ = assertion_list("assert", data_key="assert",
                             metadata={"description": "Deprecated alias of assertions.", "deprecated": True})
    evaluator = kind_name()
    preprocessors = preprocessors("of the suite", "the runner rejects the file", SuitePreprocessorSchema, metadata={
        "description": "Converters of attached files, for every grader."})
    input = InputField(metadata={"description": "Messages put in front of every test's input.",
                                 "confusable": ("system_prompt", "system_message", "system", "input_messages")})
    input_files = SuiteFiles(Text("EV112", "an item of 'input_files' must be a string, {found}"), "EV112",
                             "'input_files' must be a list of strings or one '{{{{ name }}}}', {found}",
                             allow_none=True,  # null: no input files, as the loader reads it (a falsy value)
                             metadata={"description": "Files sent with every string input.", "confusable": FILES_NAMES})
    workspace = workspace_field()
    metadata = Mapping("EV110", "'metadata' must be a mapping, {found}; the runner drops it", allow_none=True,
                       metadata={"description": "Free-form data merged into every test's."})
    governance = Mapping("EV110", "'governance' must be a mapping, {found}; the runner drops it", allow_none=True,
                         metadata={"description": "Governance data given to every test."})

    def reads(self, data):
        """The tests are read from 'tests', else 'eval_cases', else 'evalcases'; 'assert' only without
        'assertions' (a null grader list counts as absent); an input that each test's vars fill in is read as
        each test gets it (``check_suite_input``)."""
        key = next((k for k in ("tests", "eval_cases", "evalcases") if k in data), None)
        ignored = {k for k in ("tests", "eval_cases", "evalcases") if k != key}
        if template_vars.mentions(data.get("input")):
            ignored.add("input")
        chain = lists.suite_lists(data)
        if lists.first_list(data, chain) == ("assertions",):
            ignored.add("assert")
        data = lists.as_read(data, chain)
        if chain is lists.SUITE_LISTS_ERASED:
            data = lists.without(data, [lists.ERASED])
        return {k: v for k, v in data.items() if k not in ignored}

    def handle_error(self, error, data, **kwargs):
        if isinstance(error.messages, dict):
            raise ValidationError(said_of_suite_defaults(error.messages), valid_data=error.valid_data)

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_tests(self, data, original, **kwargs):
        if not any(key in original for key in ("tests", "eval_cases", "evalcases")):
            near = rules.near_tests(original)
            if near:
                raise problem_at("EV101", f"no 'tests': found '{near[0]}' (did you mean 'tests'?); the runner rejects "
                                 "the file", field=near[0], target=KEY)
            raise problem_at("EV101", "no 'tests' list; the runner rejects the file", target="first_key")

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        from evallint.format.agentv4 import model  # imported by the loads that build a model only

        execution = data.get("execution") or {}
        path = lists.first_list(data, tuple(tuple("assert_" if key == "assert" else key for key in list_path)
                                            for list_path in lists.suite_lists(original)))
        defaults = pooled(lists.value_at(data, path)) if path else ()
        items = next((data[k] for k in ("tests", "eval_cases", "evalcases") if k in data), [])
        items = [items] if isinstance(items, str) else items
        external = tuple(item[len(FILE_PREFIX):] if item.startswith(FILE_PREFIX) else item
                         for item in items if isinstance(item, str))
        tests = tuple(test for test in (_built(item, data, original, defaults) for item in items
                                        if not isinstance(item, str)) if test is not None)
        return model.Suite(
            path="", tests=tests, name=data.get("name"),
            description=data.get("description") if isinstance(data.get("description"), str) else None,
            execution=_execution(execution), target=data.get("target"), workspace=data.get("workspace"),
            input=read_messages(INPUT, original.get("input")) if js_truthy(original.get("input")) else (),
            input_files=tuple(data["input_files"]) if isinstance(data.get("input_files"), list) else (),
            assertions=defaults,
            metadata=data.get("metadata") if isinstance(data.get("metadata"), dict) else {}, external=external)


def _built(item, data: dict, original: dict, defaults: tuple) -> Any:
    """A loaded test as the runner keeps it, with the suite's input files, input and assertions (unless it
    skips the defaults), its vars filled into them, and its inline rubric first; None for a test the runner
    skips."""
    if not item.complete:
        return None
    test, values = item.test, item.test.vars
    use_suite = not item.skip_defaults
    files, suite_files = item.input_files, suite_files_given(item.input_files, item.skip_defaults, original)
    if suite_files is not None:
        files = template_vars.render(suite_files, values)
    if files is not None:
        test = _with_files(test, files, item.input)
    if test is None or not test.input:  # the loader finds no input: rules.check_test says so
        return None
    changes: dict = {}  # made at once: most tests get nothing from the suite
    if use_suite:
        own = item.defaults if item.defaults is not None else defaults
        before = read_messages(INPUT, template_vars.render(original.get("input"), values)) \
            if js_truthy(original.get("input")) else ()
        if before:
            changes["input"] = before + test.input
        if own:
            changes["assertions"] = test.assertions + own
    if item.rubric is not None:
        changes["assertions"] = (item.rubric,) + changes.get("assertions", test.assertions)
    return replace(test, **changes) if changes else test


def _execution(execution: dict) -> Any:
    from evallint.format.agentv4.model import Execution, Trials  # imported by the loads that build a model only

    trials = execution.get("trials")
    return Execution(
        target=execution.get("target"), targets=tuple(execution.get("targets", ())),
        workers=execution.get("workers"), threshold=execution.get("threshold"),
        budget_usd=execution.get("budget_usd", execution.get("budget_camel")),
        fail_on_error=execution.get("fail_on_error", execution.get("fail_on_error_camel")),
        cache=execution.get("cache"), cache_path=execution.get("cache_path"),
        trials=Trials(**{k: v for k, v in trials.items() if k in ("count", "strategy", "cost_limit_usd")})
        if trials else None)


def _with_files(test: Any, files: Any, text: Any) -> Any:
    """``test`` with its input ``text`` sent as one user message after the string items of ``files`` (None
    when ``files`` has none or the input as written is no string: the loader then finds no input)."""
    paths = [path for path in files if isinstance(path, str)] if isinstance(files, list) else []
    if not paths or not isinstance(text, str):
        return None
    blocks = tuple({"type": "file", "value": path} for path in paths)
    return replace(test, input=(built_message("user", blocks + ({"type": "text", "value": text},)),))


# the checks of a suite that need all of its tests, as its file holds them
WHOLE_SUITE = (dependencies.check_dependencies, workspaces.check_workspace_mode, workspaces.check_workspace_env,
               workspaces.check_later_workspaces, check_suite_conversation_graders, test_vars.check_suite_graders)


class TestsFileSchema(SuiteSchema):
    """A file of tests a suite names, loaded as its tests: what needs all of the suite's tests is checked in the suite."""

    checks = tuple(check for check in SuiteSchema.checks if check not in WHOLE_SUITE) \
        + (check_tests_file_conversation_graders,)
    of_file = True  # its items are tests only: a 'file://' one names no file the runner reads (EV102)
    tests = TestsField("tests", of_file=True, metadata={"description": "The tests.", "required": True})


class CaseFileSchema(TestsFileSchema):
    """A later case file of a folder of tests, loaded after the suite's first test (``models._case_file``): its
    workspace is checked against that test's, which the run sets the shared folder up from."""

    checks = TestsFileSchema.checks + (workspaces.check_later_workspaces,)


class DatasetSchema(SuiteSchema):
    """A JSONL dataset, read as a suite whose 'tests' are its lines (and whose settings are its sidecar's): the
    JSONL loader reads neither 'depends_on' nor 'workspace'."""

    checks = TestsFileSchema.checks + (dataset_lines.check_sidecar_defaults,)

    tests = TestsField("tests", DatasetTestSchema(), metadata={"description": "The lines of the dataset.",
                                                               "required": True})


AGENTV4_SUITE_SCHEMA = SuiteSchema()
AGENTV4_DATASET_SCHEMA = DatasetSchema()
TESTS_FILE_SCHEMA = TestsFileSchema()
CASE_FILE_SCHEMA = CaseFileSchema()
