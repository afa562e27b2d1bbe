"""AgentV 4.42's assertions: the keys every one has, and the built-in kinds that check the answer or the
run against values (texts, patterns, limits), one schema per kind chosen by ``type``, registered as 2.2's
evaluator kinds are (defining the class registers it); ``tools_and_fields.py`` holds the kinds that check
the agent's skills, tool calls and structured output, ``graders.py`` those that grade by a script, an LLM or
other assertions, and the registry.

The loader replaces every ``_`` of a type by ``-`` before choosing (``tool_trajectory`` is
``tool-trajectory``), keeps any other type as a custom grader found at run time, and drops a grader
whose type is no string or a deprecated judge. A type that is a near miss of a built-in kind is taken
for a misspelling (EV301): as a custom type it fails at run time."""
from __future__ import annotations

import re
from typing import Any, Iterator, Optional

from marshmallow import ValidationError, fields, validates_schema

from evallint.diagnostics import FIRST_KEY, KEY
from evallint.format.agentv4.assertion_parts import Strings, preprocessors
from evallint.format.base import KindSchema, builds
from evallint.format.fields import Flag, Number, Problem, Text, missing, problem_at
from evallint.load.environment import is_whole_reference
from evallint.rules import agentv4 as rules, js_regex
from evallint.rules.common import finding, is_finite_number
from evallint.rules.constant_graders import check_constant
from evallint.rules.assertion_settings import check_required_score
from evallint.rules.evaluators import check_exploration
from evallint.rules.grader_lists import normal_type
from evallint.rules.literal_values import check_literal
from evallint.suggest import near_misses, one_of, quote

TRAJECTORY_MODES = ("any_order", "in_order", "exact", "subset", "superset")
DEPRECATED = {"code-judge": "code-grader", "llm-judge": "llm-grader"}
COMMON = ("type", "name", "weight", "required", "min_score", "negate")  # the keys of every assertion
SKIPS = "skips the test"  # how a problem for which the loader skips the test ends
WEIGHT_SKIPS = "; the runner " + SKIPS  # what a bad weight does, when the loader reads it
# a problem for which the loader drops the grader: it does so before it reads the weight (grader-parser.ts)
DROPPED = re.compile(r"\bthe runner drops (?:it|the assertion|the composite)\b")


class RequiredField(Flag):
    """``true``, or (deprecated) the lowest passing score, a number in (0, 1]; ``false`` or 0, which the runner
    reads as not required, as it reads null."""

    def check(self, value):
        if value is True or value is False or (is_finite_number(value) and 0 <= value <= 1):
            return value
        raise self.reject(value)

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "boolean"}, {"type": "number", "minimum": 0, "maximum": 1}]}


class GraderName(Text):
    """An assertion's name: a string the loader takes as written, but the empty one, for which it drops the
    assertion; it names an assertion after its type in place of any other value (``auto_name``)."""

    def check(self, value):
        if value == "":
            raise ValidationError(Problem("EV110", "assertion 'name' is empty; the runner drops the assertion; write a "
                                                   "name"))
        return super().check(value)

    def json_schema(self) -> dict:
        return {"type": "string", "minLength": 1}


def check_preprocessors_applied(ev: dict, place) -> Iterator:
    """EV115 for the preprocessors of a built-in kind that does not apply them: the loader checks them (and skips the
    test on one it cannot run), but only an llm-grader (rubrics are one) converts attached files with them
    (graders/llm-grader.ts)."""
    kind = place.schema.kind
    if kind and not place.schema.applies_preprocessors and isinstance(ev.get("preprocessors"), list) \
            and ev["preprocessors"]:
        yield finding("EV115", f"'preprocessors' in {kind} assertion are not applied: the runner converts attached "
                      "files only for an llm-grader or rubrics (and the suite's default grader), so this grader gets "
                      "them unconverted (it still skips the test on a preprocessor it cannot run)",
                      place.at + ("preprocessors",), KEY)


class AssertionSchema(KindSchema):
    """The keys every assertion has. A subclass that sets ``kind`` declares that built-in kind."""

    kinds: dict = {}  # kind -> its schema class: this family of kinds (base.KindSchema)
    kind = ""  # the 'type' value (in kebab case) that chooses this schema
    noun = "assertion"  # what a message calls one
    stored_as = ""  # the type the loader stores, when not the kind
    summary = ""
    open_keys = False  # its other keys are carried to the grader, not unknown
    checks = (rules.check_assertion, check_required_score, check_preprocessors_applied)
    applies_preprocessors = False  # the grader converts attached files with its 'preprocessors'
    reads_turn_expected = False  # the grader reads the expected output of the turn it grades (graders/*.ts)
    grades_criteria = True  # the grader is given the test's criteria (graders/*.ts): all but those that say False
    minds_case = None  # a text grader's comparison: True minds case, False ignores it (None: it compares no text)
    type = fields.Raw(required=True, metadata={"description": "The grader kind."})  # it chose the schema
    name = GraderName("EV110", "assertion 'name' must be a string, {found}; the runner names it after its type",
                      allow_none=True, metadata={"description": "Name of the assertion (default: made from its type and "
                                                               "value)."})
    weight = Number("EV304", "assertion 'weight' must be a finite number >= 0, {found}" + WEIGHT_SKIPS,
                    minimum=0, below=("EV305", "assertion 'weight' must be >= 0, found {value}" + WEIGHT_SKIPS),
                    metadata={"description": "Weight in the test score, a number >= 0 (default 1)."})
    required = RequiredField("EV110", "assertion 'required' must be true, {found}; the runner ignores it", otherwise=False,
                             allow_none=True, metadata={"description": "true: the test fails when this assertion fails."})
    min_score = Number("EV110", "assertion 'min_score' must be a number in (0, 1], {found}; the runner ignores it",
                       metadata={"description": "Lowest passing score, in (0, 1]."})
    negate = Flag("EV110", "assertion 'negate' must be true or false, {found}; the runner ignores it", otherwise=False,
                  allow_none=True, metadata={"description": "true: the assertion passes when its check fails.",
                                             "default": False, "confusable": ("not", "invert", "inverse", "inverted")})
    # the loader reads every grader's preprocessors (one it cannot run skips the test); only some apply them, so
    # a 'command' beside them is about the grader, not a preprocessor's (``not_below``)
    preprocessors = preprocessors("of an assertion", "the runner skips the test", metadata={
        "description": "Converters of attached files (an llm-grader's and rubrics' only).", "not_below": True})

    @staticmethod
    def misspelt(kind: str) -> bool:
        """Whether ``kind`` is a near miss of a built-in kind (``is_misspelt``)."""
        return is_misspelt(kind)

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def score_range(self, data, original, **kwargs):
        score = original.get("min_score")
        if is_finite_number(score) and not 0 < score <= 1:
            raise problem_at("EV110", f"assertion 'min_score' must be in (0, 1], found {score}; the runner ignores it",
                             field="min_score")

    def handle_error(self, error, data, **kwargs):
        """A bad weight of a grader the loader drops for another problem skips no test: the loader drops the
        grader before it reads the weight."""
        problems = error.messages if isinstance(error.messages, dict) else {}
        weight = problems.get("weight")
        if weight and (self.no_valid_limit(data) or any(
                DROPPED.search(str(p)) for key, said in problems.items() if key != "weight"
                for p in (said.get("_schema", ()) if isinstance(said, dict) else said))):
            unread = "; the runner drops the assertion before it reads its weight (and skips the test once it keeps it)"
            said = [Problem(p.code, p.replace(WEIGHT_SKIPS, unread), p.target, p.fix) for p in weight]
            raise ValidationError({**problems, "weight": said}, valid_data=error.valid_data)

    def no_valid_limit(self, data: Any) -> bool:
        """Whether the loader drops the grader for the limits it reads: a kind with limits it needs one of."""
        return False

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        from evallint.format.agentv4.model import Assertion  # imported by the loads that build a model only

        settings = {key: data[key] for key in data if key not in COMMON + ("members",)}
        if self.open_keys:  # the keys of no field are carried as written
            settings.update({k: v for k, v in original.items() if isinstance(k, str) and k not in self.load_fields})
        stored = self.stored_as or self.kind or original["type"]
        name = data.get("name") or auto_name(self.kind or original["type"], original)
        return Assertion(type=stored, name=name, weight=data.get("weight"), required=data.get("required"),
                         min_score=data.get("min_score"), negate=_flag(data.get("negate")), settings=settings,
                         members=tuple(data.get("members", ())))


def _flag(value: Any) -> Any:
    """A flag the runner reads only when it is true: a whole environment reference stays as written (the run
    decides)."""
    return value if is_whole_reference(value) else value is True


def auto_name(kind: str, original: dict) -> str:
    """The name the loader gives an assertion without one."""
    value = original.get("value")
    if kind in ("contains", "icontains", "starts-with", "ends-with", "equals") and isinstance(value, str):
        return f"{kind}-{value}"
    if kind == "regex" and isinstance(value, str):
        return f"regex-{value[:30]}"
    if kind in ("contains-any", "contains-all", "icontains-any", "icontains-all") and isinstance(value, list):
        return f"{kind}-{len(value)}"
    if kind == "skill-trigger" and isinstance(original.get("skill"), str):
        return f"skill-trigger-{original['skill']}"
    return kind


def _value(kind: str, confusable: tuple = (), **kwargs) -> Text:
    return Text("EV110", f"{kind} 'value' must be a non-empty string, {{found}}; the runner drops the assertion",
                non_empty=True, blank=True, required=True, error_messages=missing(
                    "EV110", f"{kind} assertion has no 'value'; the runner drops it"),
                metadata={"description": "The text to look for.", "confusable": confusable}, **kwargs)


def _values(kind: str) -> Strings:
    return Strings("EV110", f"{kind} 'value' must be a non-empty list of strings, {{found}}; the runner drops the "
                   "assertion", required=True, error_messages=missing(
                       "EV110", f"{kind} assertion has no 'value' list; the runner drops it"),
                   metadata={"description": "The texts to look for."})


CONSTANT_CHECKS = AssertionSchema.checks + (check_constant, check_literal)


def _declare_text_kinds() -> None:
    for kind, summary in (("contains", "The answer contains the value."),
                          ("icontains", "The answer contains the value, in any case."),
                          ("starts-with", "The answer starts with the value."),
                          ("ends-with", "The answer ends with the value."),
                          ("equals", "The answer is the value.")):
        type(f"Text{kind.title().replace('-', '')}Schema", (AssertionSchema,),
             {"kind": kind, "summary": summary, "value": _value(kind), "checks": CONSTANT_CHECKS, "__module__": __name__,
              "minds_case": not kind.startswith("i"), "grades_criteria": False})
    for kind, summary in (("contains-any", "The answer contains one of the values."),
                          ("contains-all", "The answer contains every value."),
                          ("icontains-any", "The answer contains one of the values, in any case."),
                          ("icontains-all", "The answer contains every value, in any case.")):
        type(f"Texts{kind.title().replace('-', '')}Schema", (AssertionSchema,),
             {"kind": kind, "summary": summary, "value": _values(kind), "checks": CONSTANT_CHECKS, "__module__": __name__,
              "minds_case": not kind.startswith("i"), "grades_criteria": False})


_declare_text_kinds()


class RegexSchema(AssertionSchema):
    checks = AssertionSchema.checks + (js_regex.check_regex, check_literal)
    kind = "regex"
    grades_criteria = False
    summary = "The answer matches the regular expression."
    minds_case = True  # but for the flag 'i', which the flags' check reads
    value = _value("regex", confusable=("pattern", "regexp", "expression"))
    flags = Text("EV110", "regex 'flags' must be a string, {found}; the runner ignores them and matches without flags",
                 allow_none=True, metadata={"description": "Flags such as 'i'."})


class IsJsonSchema(AssertionSchema):
    kind = "is-json"
    grades_criteria = False
    summary = "The answer is JSON."


def _limit(code: str, kind: str, key: str, data_key: Optional[str] = None, drops: str = "it", finite: bool = True,
           **kwargs) -> Number:
    """A limit; one not ``finite`` is any number >= 0, .nan among them (EV309 says what such a limit does)."""
    return Number(code, f"{kind} '{data_key or key}' must be a {'finite ' if finite else ''}number >= 0, {{found}}; "
                  f"the runner drops {drops}", minimum=0, data_key=data_key, allow_none=True, finite=finite, **kwargs)


class LatencySchema(AssertionSchema):
    kind = "latency"
    grades_criteria = False
    summary = "The answer's latency against a threshold."
    checks = CONSTANT_CHECKS
    threshold = _limit("EV350", "latency", "threshold", finite=False, required=True, error_messages=missing(
        "EV350", "latency assertion has no 'threshold' (milliseconds, a number >= 0); the runner drops it"),
        metadata={"description": "Latency threshold in milliseconds, >= 0."})


class CostSchema(AssertionSchema):
    kind = "cost"
    grades_criteria = False
    summary = "The run's cost against a budget."
    checks = CONSTANT_CHECKS
    budget = _limit("EV351", "cost", "budget", finite=False, required=True, error_messages=missing(
        "EV351", "cost assertion has no 'budget' (a number >= 0); the runner drops it"),
        metadata={"description": "Cost budget, >= 0."})


class _LimitsSchema(AssertionSchema):
    """A kind that needs at least one of its ``limits`` (snake or camel case)."""

    limits: tuple = ()
    grades_criteria = False

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def sets_one(self, data, original, **kwargs):
        keys = [field.data_key or name for name, field in self.load_fields.items() if name in self.limits]
        if not any(key in original for key in keys):
            raise problem_at("EV352", f"{self.kind} assertion sets none of {one_of(keys[::2])}; the runner drops it",
                             target=FIRST_KEY)

    def no_valid_limit(self, data: Any) -> bool:
        """The limits are read each as 'snake ?? camel'; a token-usage grader's that is no number >= 0 is skipped
        (loaders/grader-parser.ts), and without one left the grader is dropped (an execution-metrics one is dropped
        for any, which its limits' messages say)."""
        pairs = zip(self.limits[::2], self.limits[1::2])
        read = [data.get(self.fields[snake].data_key or snake, data.get(self.fields[camel].data_key)) for snake, camel
                in pairs] if isinstance(data, dict) else []
        return bool(read) and not any(is_finite_number(value) and value >= 0 for value in read)


def _limits(kind: str, pairs: tuple, drops: str = "it") -> dict:
    """The limits ``pairs`` of ``kind`` (snake and camel case); ``drops``: what the loader drops for a bad one."""
    out = {}
    for key, camel, description in pairs:
        out[key] = _limit("EV352", kind, key, drops=drops, metadata={"description": description})
        out[f"{key}_camel"] = _limit("EV352", kind, key, data_key=camel, drops=drops, metadata={"alias_of": key})
    return out


TokenUsageSchema = type("TokenUsageSchema", (_LimitsSchema,), {
    "kind": "token-usage", "summary": "Token counts against limits.", "__module__": __name__,
    "limits": ("max_total", "max_total_camel", "max_input", "max_input_camel", "max_output", "max_output_camel"),
    **_limits("token-usage", (("max_total", "maxTotal", "Maximum total tokens."),
                              ("max_input", "maxInput", "Maximum input tokens."),
                              ("max_output", "maxOutput", "Maximum output tokens.")),
                 "the limit (and the assertion without another)")})
METRICS = (("max_tool_calls", "maxToolCalls", "Maximum tool calls."),
            ("max_llm_calls", "maxLlmCalls", "Maximum LLM calls."),
            ("max_tokens", "maxTokens", "Maximum tokens."),
            ("max_cost_usd", "maxCostUsd", "Maximum cost in USD."),
            ("max_duration_ms", "maxDurationMs", "Maximum duration in milliseconds."),
            ("target_exploration_ratio", "targetExplorationRatio", "Share of exploration (reading) tool calls aimed at."),
            ("exploration_tolerance", "explorationTolerance", "Allowed distance from the exploration ratio."))
ExecutionMetricsSchema = type("ExecutionMetricsSchema", (_LimitsSchema,), {
    "checks": _LimitsSchema.checks + (check_exploration,), "kind": "execution-metrics",
    "summary": "Tool calls, LLM calls, tokens, cost and duration against limits.",
    "__module__": __name__, "limits": tuple(k for key, _, _ in METRICS[:-1] for k in (key, f"{key}_camel")),
    **_limits("execution-metrics", METRICS, "the assertion, whatever its other limits")})


def is_misspelt(kind: str) -> bool:
    """A type that is no kind, but a near miss of one (in another case, or a letter off)."""
    normal = normal_type(kind)
    return normal in DEPRECATED or bool(near_misses(normal, tuple(AssertionSchema.kinds)))


def check_criterion_kind(value: Any, place) -> Iterator:
    """EV306 for a criterion string that names a grader type (deprecated ones too): the runner has its default grader
    judge the answer against the word, and runs no grader of that type."""
    named = normal_type(value.strip().lower()) if isinstance(value, str) else ""
    kind = DEPRECATED.get(named, named)
    if kind in AssertionSchema.kinds:
        yield finding("EV306", f"criterion {quote(value)} names the grader type '{kind}', but a string in an assertion "
                      "list is a criterion: the runner has its default grader judge the answer against these words, and "
                      f"no grader of type '{kind}' runs; write '- type: {kind}' with its settings", place.at)
