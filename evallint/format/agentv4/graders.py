"""AgentV 4.42's graders that read more than one value (a script, an LLM, rubrics, a composite of
other assertions), custom graders, and the registry of every kind: how an item of an assertion list
chooses its schema, and how the loader keeps a list: its includes expanded (``includes.py``), then its strings
pooled into one rubrics grader."""
from __future__ import annotations

from typing import Any, Iterator

from marshmallow import ValidationError, fields, validates_schema

from evallint.diagnostics import FIRST_KEY, KEY
from evallint.format.agentv4.assertion_parts import (
    GRADER_TARGETS, WORKDIR_NAMES, AggregatorSchema, Bounded, CommandField, keeps_a_rubric, preprocessors, prompt_field,
    rubric_list,
)
from evallint.format.agentv4.assertions import DEPRECATED, WEIGHT_SKIPS, AssertionSchema, check_criterion_kind, is_misspelt
from evallint.format.agentv4 import tools_and_fields  # noqa: F401 - defining its kinds registers them, before these
from evallint.format.agentv4.includes import expanded, include_entry
from evallint.format.agentv4.target_access import TargetAccessField
from evallint.format.base import builds, load, read_first
from evallint.format.fields import Checked, Items, Mapping, Problem, Record, Text, missing, problem_at
from evallint.load.environment import is_whole_reference, refers
from evallint.rules import agentv4 as rules
from evallint.rules import assertion_settings, grader_files
from evallint.rules import grader_lists as lists
from evallint.rules.common import finding, is_finite_number
from evallint.suggest import did_you_mean, one_of


class _Preprocessed(AssertionSchema):
    """A kind that converts attached files with its preprocessors (graders/llm-grader.ts)."""

    applies_preprocessors = True
    preprocessors = preprocessors("of an assertion", "the runner skips the test",
                                  metadata={"description": "Converters of attached files."})


class CodeGraderSchema(AssertionSchema):
    checks = AssertionSchema.checks + (grader_files.check_grader_command, grader_files.check_config_keys)
    kind = "code-grader"
    reads_turn_expected = True
    summary = "A script grades the answer."
    open_keys = True
    # a command that is no argv skips the test; a null 'command' is absent ('command ?? script'), a null 'script' not
    command = CommandField("code-grader 'command'", then=WEIGHT_SKIPS, allow_none=True, metadata={
        "description": "The command: an argv list, or a string run by the shell.", "confusable": ("cmd", "run")})
    script = CommandField("code-grader 'script'", then=WEIGHT_SKIPS, metadata={"description": "Deprecated alias of command.",
                                                                                "deprecated": True})
    cwd = Text("EV110", "'cwd' in code-grader must be a string, {found}",
               metadata={"description": "Working folder of the script.",
                         "confusable": WORKDIR_NAMES})
    target = TargetAccessField(metadata={"description": "true, or {max_calls: N}: lets the script call the target."})
    config = Mapping("EV110", "'config' in code-grader must be a mapping, {found}; the runner drops it",
                     allow_none=True, metadata={"description": "Configuration given to the script, merged over the "
                                                              "grader's other keys."})

    def reads(self, data):
        return read_first(data, (("script", "command"),))

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_command(self, data, original, **kwargs):
        if original.get("command") is None and "script" not in original:
            raise problem_at("EV320", "code-grader assertion has no 'command' (an argv list such as [\"python\", "
                             "\"check.py\"]); the runner drops it", target=FIRST_KEY)


class LlmGraderSchema(_Preprocessed):
    checks = _Preprocessed.checks + (grader_files.check_grader_prompt, grader_files.check_grader_target,
                                     assertion_settings.check_prompt_config)
    kind = "llm-grader"
    summary = "An LLM grades the answer against the criteria, a prompt or rubrics."
    open_keys = True
    prompt = prompt_field(metadata={"description": "Inline prompt text, file://PATH, or {command: [...]}."})
    # the loader skips a string among an llm-grader's rubrics (a 'rubrics' assertion's criteria may be strings)
    rubrics = rubric_list(strings=False, metadata={"description": "Rubric items: {id, outcome, weight, required}."})
    target = Text("EV110", "'target' in llm-grader must be a non-empty string, {found}; the runner ignores it",
                  non_empty=True, metadata={"description": "The target that grades.", "confusable": GRADER_TARGETS})
    model = fields.Raw(allow_none=True, metadata={"description": "Not read: the grader's target decides the model.",
                                                  "unread": True, "deprecated": True})
    config = fields.Raw(allow_none=True, metadata={"description": "Configuration given to the prompt."})
    max_steps = Bounded("EV110", "'max_steps' in llm-grader must be an integer from 1 to 50, {found}; the runner "
                        "ignores it", 1, 50, integer=True,
                        metadata={"description": "Most tool-using steps the grader takes, 1-50."})
    max_steps_camel = Bounded("EV110", "'maxSteps' in llm-grader must be an integer from 1 to 50, {found}; the runner "
                              "ignores it", 1, 50, integer=True, data_key="maxSteps",
                              metadata={"alias_of": "max_steps"})
    temperature = Bounded("EV110", "'temperature' in llm-grader must be a number from 0 to 2, {found}; the runner "
                          "ignores it", 0, 2, metadata={"description": "Sampling temperature, 0-2."})


class RubricsSchema(_Preprocessed):
    checks = _Preprocessed.checks + (grader_files.check_grader_target,)
    kind = "rubrics"
    stored_as = "llm-grader"
    summary = "An LLM grades the answer item by item."
    criteria = rubric_list("criteria", required=True, non_empty=True, error_messages=missing(
        "EV360", "rubrics assertion has no 'criteria' list; the runner drops it"),
        empty="'criteria' is an empty list; the runner drops the assertion",
        metadata={"description": "Rubric items: strings or {id, outcome, weight, required, score_ranges}."})
    target = Text("EV110", "'target' in rubrics must be a non-empty string, {found}", non_empty=True,
                  metadata={"description": "The target that grades.", "confusable": GRADER_TARGETS})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def keeps_an_item(self, data, original, **kwargs):
        _keeps_an_item(original, "criteria", strings=True)


class RubricSchema(_Preprocessed):
    kind = "rubric"
    stored_as = "llm-grader"
    summary = "Deprecated: rubrics given as mappings under 'rubrics'."
    rubrics = rubric_list(strings=False, required=True, non_empty=True, error_messages=missing(
        "EV360", "rubric assertion has no 'rubrics' list; the runner drops it"),
        metadata={"description": "Rubric items: {id, outcome, weight, required}."})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def keeps_an_item(self, data, original, **kwargs):
        _keeps_an_item(original, "rubrics", strings=False)


def _keeps_an_item(original: dict, key: str, strings: bool) -> None:
    if not keeps_a_rubric(original.get(key), strings):
        raise problem_at("EV360", f"the loader drops every item of '{key}'; the runner drops the assertion",
                         field=key, target=KEY)


class InlineAssertSchema(AssertionSchema):
    checks = AssertionSchema.checks + (assertion_settings.check_inline_assert,)
    kind = "inline-assert"
    stored_as = "llm-grader"
    summary = "A function of a TypeScript eval; in YAML the loader makes it an llm-grader."


class _ChosenByType(Checked):
    """An item of a grader list: a mapping loaded by the schema its type chooses (``chosen``: as a top-level
    assertion's), or an ``include`` of a template's graders."""

    def chosen(self, value: dict) -> AssertionSchema:
        return schema_for(value)

    def check(self, value):
        if lists.is_include(value):
            return include_entry(value)
        if not isinstance(value, dict):
            raise self.reject(value)
        return load(self.chosen(value), value)

    def holds(self) -> tuple:
        return tuple(SCHEMAS.values())

    def parts(self, value: Any, at: tuple) -> Iterator:
        if isinstance(value, dict):
            yield self.chosen(value), value, at


class MemberField(_ChosenByType):
    """A composite member: a mapping, chosen by its type as a top-level assertion is, or an ``include`` of a
    template's members."""

    def __init__(self, code: str, template: str, **kwargs):
        super().__init__(code, template, checks=(lists.check_member_include,), **kwargs)

    def chosen(self, value: dict) -> AssertionSchema:
        return _member_schema(value)


def _member_schema(value: dict) -> AssertionSchema:
    """The schema that loads a composite member ``value``: an assertion's, but that the loader drops a member of a
    type that is no built-in kind."""
    schema = schema_for(value)
    return _MEMBER.get(schema, schema)


# a composite member's settings the runner applies only to a test's own graders: unset value, what it does instead
MEMBER_ONLY_AT_TOP = {"negate": (False, "the member is scored as it is, not negated"),
                      "weight": (1, "a member's weight is its entry in a 'weighted_average' aggregator's 'weights'"),
                      "required": (False, "no member's score gates the composite"),
                      "min_score": (None, "no member's score gates the composite")}


def check_composite(ev: dict, place) -> Iterator:
    """EV333 for a member's setting the runner does not apply; EV332 for a 'weighted_average' weight naming no
    member (the runner looks each member's weight up by its name: a member without one weighs 1)."""
    key, members = lists.members_of(ev)
    for i, member in enumerate(members):
        for setting, (unset, instead) in MEMBER_ONLY_AT_TOP.items():  # a weight the loader rejects is EV304's
            value = member.get(setting, unset) if isinstance(member, dict) else unset
            if value not in (unset, None) and (setting != "weight" or is_finite_number(value) and value >= 0):
                yield finding("EV333", f"'{setting}' of a composite member is not applied (the runner applies it only "
                              f"to a test's own graders): {instead}", place.at + (key, i, setting), KEY)
    aggregator = ev.get("aggregator")
    weights = aggregator.get("weights") if isinstance(aggregator, dict) and \
        aggregator.get("type") == "weighted_average" else None
    if not isinstance(weights, dict) or not all(isinstance(m, dict) and not lists.is_include(m)
                                                and not refers(m.get("name")) for m in members):
        return  # a member that an include or the environment names
    names = sorted({m["name"] for m in members if isinstance(m.get("name"), str)})
    for name in weights:
        if isinstance(name, str) and name not in names:
            yield finding("EV332", f"weight for '{name}' names no member{did_you_mean(name, names)}; the runner "
                          f"gives each member it does not name a weight of 1; members: {one_of(names)}",
                          place.at + ("aggregator", "weights", name), KEY)


def _member_list(key: str, description: str) -> Items:
    return Items(MemberField("EV330", "a composite member must be a mapping with 'name' and 'type', {found}; the "
                             "runner drops it"),
                 "EV330", f"composite '{key}' must be a list of assertions, {{found}}", data_key=key, non_empty=True,
                 empty=f"composite '{key}' is empty; the runner drops the composite, which has no member",
                 metadata={"description": description})


class CompositeSchema(AssertionSchema):
    kind = "composite"
    reads_turn_expected = True  # through its members
    summary = "Member assertions' scores combined by an aggregator."
    checks = AssertionSchema.checks + (rules.check_members, check_composite)
    members = _member_list("assertions", "Member assertions, each with a 'name' and a built-in 'type'.")
    assert_ = _member_list("assert", "Alias of assertions.")
    evaluators = _member_list("evaluators", "Alias of assertions.")
    aggregator = Record(AggregatorSchema, "EV331", "composite 'aggregator' must be a mapping with 'type', {found}",
                        required=True, error_messages=missing(
                            "EV331", "composite assertion has no 'aggregator'; the runner drops it"),
                        metadata={"description": "How member scores combine."})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_members(self, data, original, **kwargs):
        if not any(key in original for key in ("assertions", "assert", "evaluators")):
            raise problem_at("EV330", "composite assertion has no 'assertions' list of members; the runner drops it",
                             target=FIRST_KEY)
        key, members = lists.members_of(original)
        if members and not any(kept_members(members)) and not any(  # the run's environment gives a type
                isinstance(m, dict) and is_whole_reference(m.get("type")) for m in members):
            raise problem_at("EV330", f"the loader drops every member of '{key}'; the runner drops the composite",
                             field=key, target=KEY)

    def reads(self, data):
        """Of 'assertions', 'assert' and 'evaluators', the members list the runner reads (``members_of``), else the
        first written (a null list, reported as no list)."""
        key = lists.members_of(data)[0] or next((path[0] for path in lists.MEMBER_LISTS if path[0] in data), None)
        return lists.without(data, [path for path in lists.MEMBER_LISTS if path[0] != key])

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        loaded = next((data.pop(name) for name in ("members", "assert_", "evaluators") if name in data), ())
        kept = kept_members(lists.members_of(original)[1])
        members = [member for member, keep in zip(loaded, kept) if keep]
        data["members"] = expanded(members, _kept_member)
        return super().build(data, original)


def _kept_member(raw: Any) -> Any:
    """A composite's member that a template gives, loaded; None when the loader drops it (``kept_members``)."""
    return load(schema_for(raw), raw) if kept_members([raw]) == [True] and isinstance(raw, dict) else None


def kept_members(members: Any) -> list:
    """For each member of a composite, whether the loader keeps it: a mapping with a non-empty string 'name' and a
    built-in kind as 'type', as written (no '_' for '-', no custom type); an include, which it expands."""
    return [lists.is_include(m) or (isinstance(m, dict) and isinstance(m.get("name"), str) and m["name"] != ""
                                     and isinstance(m.get("type"), str) and m["type"] in AssertionSchema.kinds)
            for m in (members if isinstance(members, list) else ())]


class CustomSchema(AssertionSchema):
    """A type that is no built-in kind: a grader the runner looks for at run time (``.agentv/assertions/``);
    the loader stores its other keys as its configuration, which the runner does not give the grader (EV317)."""

    summary = "A custom grader, found at run time."
    open_keys = True
    checks = AssertionSchema.checks + (grader_files.check_custom_type,)


class CustomMemberSchema(CustomSchema):
    """A composite member of a custom type, which the loader drops (``check_members`` says so): no grader file
    is looked for."""

    checks = AssertionSchema.checks


SCHEMAS = AssertionSchema.schemas()

KINDS = tuple(SCHEMAS)


class TypeName(Checked):
    """The type of an assertion that names no kind: a string, no deprecated judge, no near miss of a kind;
    ``then``: what the runner does with an assertion of a near miss's type."""

    def __init__(self, *args, then: str = "the runner looks for a custom grader of that name and fails", **kwargs):
        super().__init__(*args, **kwargs)
        self.then = then

    def check(self, value):
        if not isinstance(value, str):
            raise self.reject(value)
        normal = lists.normal_type(value)
        if normal in DEPRECATED:
            raise ValidationError(Problem("EV301", f"assertion type '{value}' is deprecated and the runner drops the "
                                                   f"assertion; use '{DEPRECATED[normal]}'"))
        raise ValidationError(Problem("EV301", f"unknown assertion type '{value}'{did_you_mean(normal, KINDS)}; "
                                               f"{self.then}; built-in types: {one_of(KINDS)}"))


class _UnknownSchema(AssertionSchema):
    # the loader drops a deprecated or non-string type before it reads the preprocessors (grader-parser.ts)
    preprocessors = fields.Raw(allow_none=True, metadata={"unread": True, "not_below": True})
    type = TypeName("EV301", "assertion 'type' must be a string, {found}; the runner drops the assertion",
                    required=True, error_messages=missing(
                        "EV301", f"assertion has no 'type' (expected one of {one_of(KINDS)}, or a custom grader's "
                                 "name); the runner drops it"))


class _UnknownMemberSchema(_UnknownSchema):
    type = TypeName("EV301", "assertion 'type' must be a string, {found}; the runner drops the member", required=True,
                    then="the runner drops a member whose type is no built-in kind", error_messages=missing(
                        "EV301", f"composite member has no 'type' (expected one of {one_of(KINDS)}); the runner drops "
                                 "the member"))


_UNKNOWN = _UnknownSchema()
_CUSTOM = CustomSchema()
_MEMBER = {_UNKNOWN: _UnknownMemberSchema(), _CUSTOM: CustomMemberSchema()}


def schema_for(value: dict) -> AssertionSchema:
    """The schema that loads the assertion ``value``."""
    kind = value.get("type")
    if not isinstance(kind, str):
        return _UNKNOWN
    normal = lists.normal_type(kind)
    if normal in SCHEMAS:
        return SCHEMAS[normal]
    return _UNKNOWN if is_misspelt(kind) else _CUSTOM


# an 'include' entry: the assertions of a template in its place (a JSON Schema definition)
INCLUDE_SCHEMA = {"type": "object", "properties": {"include": {"type": "string", "description": "An assertion "
                  "template: a name in .agentv/templates/, or a path."}}, "required": ["include"],
                  "additionalProperties": False}


class AssertionField(_ChosenByType):
    """An item of an assertion list: a mapping chosen by its type, a string (a rubric criterion), or an
    ``include`` of a template's assertions. A ``turn``'s list reaches the run as written (yaml-parser.ts
    parseTurns): an item that is no grader fails there, a null one fails the whole test (orchestrator.ts
    runEvaluatorList reads its name), and a blank criterion is graded as written."""

    def __init__(self, turn: bool = False, **kwargs):
        then = "in a turn the runner takes it as written, so the grader fails ('Unknown grader type') and scores 0" \
            if turn else "the runner drops it"
        super().__init__("EV306", "an assertion must be a mapping with 'type', or a criterion string, {found}; " + then,
                         checks=(lists.check_include, check_criterion_kind), **kwargs)
        self.turn = turn
        if turn:
            self.error_messages["null"] = Problem("EV306", "an assertion must be a mapping with 'type', or a criterion "
                                                  "string, found null; in a turn the runner takes it as written and "
                                                  "fails the whole test on it")

    def check(self, value):
        if isinstance(value, str) and not value.strip() and self.turn:
            raise ValidationError(Problem("EV306", "a criterion string is blank; in a turn the runner takes it as "
                                                   "written and grades the answer against an empty criterion"))
        if isinstance(value, str) and not value.strip():
            raise ValidationError(Problem("EV306", "a criterion string is blank; the runner skips it (warning "
                                                   "'Skipping empty string criterion')"))
        return value if isinstance(value, str) else super().check(value)

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "string"}, {"$ref": "#/definitions/Assertion"}, {"$ref": "#/definitions/Include"}]}


def assertion_list(where: str, turn: bool = False, **kwargs) -> Items:
    """A list of assertions under ``where``; a ``turn``'s, which the runner ignores unless it is a list (the turn is
    then graded as one without assertions)."""
    then = "the runner ignores it and grades the turn as one without assertions" if turn else "the runner skips them"
    return Items(AssertionField(turn), "EV306", f"'{where}' must be a list of assertions, {{found}}; {then}", **kwargs)


def _item(raw: Any) -> Any:
    return AssertionField().deserialize(raw)


def pooled(items) -> tuple:
    """The assertions of a loaded list as the loader keeps them: its includes expanded, then its strings pooled into
    one ``rubrics`` llm-grader at the place of the first (weighed by their count), its dropped items left out."""
    from evallint.format.agentv4.model import Assertion  # imported by the loads that build a model only

    items = [item for item in expanded([item for item in items or () if item is not None], _item) if item is not None]
    texts = [item.strip() for item in items if isinstance(item, str) and item.strip()]
    out, placed = [], False
    for item in items:
        if isinstance(item, str):
            if texts and not placed:
                out.append(Assertion(type="llm-grader", name="rubrics", weight=float(len(texts)),
                                     settings={"criteria": tuple(texts)}))
                placed = True
            continue
        out.append(item)
    return tuple(out)
