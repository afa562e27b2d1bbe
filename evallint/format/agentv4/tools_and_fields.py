"""AgentV 4.42's assertions that check what the agent did: whether it used a skill (skill-trigger), its tool calls
against the expected ones (tool-trajectory), and the fields of its structured output against the expected ones
(field-accuracy); each a kind chosen by ``type`` and registered as ``assertions.py``'s are, after them."""
from __future__ import annotations

from functools import partial

from marshmallow import validates_schema

from evallint.diagnostics import FIRST_KEY
from evallint.format.agentv2.evaluator_parts import AGGREGATIONS, field_list, trajectory_fields
from evallint.format.agentv2.evaluator_parts import FieldSpecSchema as FieldSpecSchema2
from evallint.format.agentv4.assertion_parts import ARGS_MATCHES, ExpectedToolSchema, args_match_field
from evallint.format.agentv4.assertions import TRAJECTORY_MODES, AssertionSchema
from evallint.format.fields import Flag, Items, Number, Text, choice, missing, problem_at
from evallint.rules.evaluators import check_match_settings, check_trajectory
from evallint.rules.tool_args import check_args_fields


class SkillTriggerSchema(AssertionSchema):
    kind = "skill-trigger"
    grades_criteria = False
    summary = "The agent uses (or does not use) a skill."
    skill = Text("EV110", "skill-trigger 'skill' must be a non-empty string, {found}; the runner drops the assertion",
                 non_empty=True, required=True, error_messages=missing(
                     "EV110", "skill-trigger assertion has no 'skill'; the runner drops it"),
                 metadata={"description": "The skill's name."})
    should_trigger = Flag("EV110", "skill-trigger 'should_trigger' must be true or false, {found}; the runner ignores "
                          "it", otherwise=True, allow_none=True,
                          metadata={"description": "Whether the skill should be used (default true).", "default": True,
                                    "confusable": ("trigger", "triggered", "triggers", "expect_trigger", "expected_trigger"),
                                    "opposite": ("should_not_trigger", "not_trigger", "no_trigger", "skip_trigger",
                                                 "shouldnt_trigger")})


class ToolTrajectorySchema(AssertionSchema):
    checks = AssertionSchema.checks + (partial(check_trajectory, modes=TRAJECTORY_MODES,
                                                      compared=("expected", "args_match", "argsMatch")),
                                       partial(check_args_fields, modes=ARGS_MATCHES))
    kind = "tool-trajectory"
    grades_criteria = False
    summary = "The agent's tool calls are compared with the expected ones."
    mode, minimums, expected = trajectory_fields("tool-trajectory assertion", TRAJECTORY_MODES, ExpectedToolSchema,
                                                 "the other modes", drops=True)
    args_match = args_match_field(metadata={"description": "How arguments are matched: exact, superset, subset, "
                                                           "ignore, or a list of field paths."})
    args_match_camel = args_match_field(data_key="argsMatch", metadata={"alias_of": "args_match"})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def needs(self, data, original, **kwargs):
        mode = original.get("mode")
        if mode == "any_order" and "minimums" not in original:
            raise problem_at("EV311", "tool-trajectory mode 'any_order' needs 'minimums' (tool name -> minimum call "
                             "count); the runner drops the assertion", target=FIRST_KEY)
        if mode in TRAJECTORY_MODES[1:] and "expected" not in original:
            raise problem_at("EV312", f"tool-trajectory mode '{mode}' needs 'expected' (the list of tool calls); the "
                             "runner drops the assertion", target=FIRST_KEY)
        # an empty requirement checks nothing: the grader scores 1 whatever the agent calls
        if mode == "any_order" and original.get("minimums") == {}:
            raise problem_at("EV311", "'minimums' is empty: the grader requires no call and scores 1 whatever tools the "
                             "agent calls ('No tool requirements specified'); name each tool and its minimum count",
                             field="minimums")
        if mode in TRAJECTORY_MODES[1:] and original.get("expected") == []:
            raise problem_at("EV312", "'expected' is an empty list: the grader compares no call and scores 1 whatever "
                             "tools the agent calls ('No tool sequence specified'), so it does not check that none is "
                             "called; list the calls", field="expected")


class FieldSpecSchema(FieldSpecSchema2):
    """A field as in 2.2, whose weight and tolerance the loader ignores unless they are numbers, and whose
    'required' and 'relative' it leaves out unless they are booleans (the grader then takes its defaults)."""

    checks = FieldSpecSchema2.checks + (check_match_settings,)
    weight = Number("EV340", "field 'weight' must be a finite number, {found}; the runner ignores it", minimum=0,
                    below=("EV305", "field 'weight' must be >= 0, found {value}; the grader weighs the field as written, "
                                    "so matching it lowers the score (and fields whose weights add up to 0 score 0)"),
                    metadata={"description": "Weight of the field, >= 0 (default 1)."})
    tolerance = Number("EV340", "field 'tolerance' must be a finite number, {found}; the runner ignores it",
                       metadata={"description": "Allowed difference for numeric_tolerance, >= 0."})
    required = Flag("EV340", "field 'required' must be true or false, {found}; the runner drops any other value and "
                             "the field is required", otherwise=True,
                    metadata={"description": "Whether the field must be present."})
    relative = Flag("EV340", "field 'relative' must be true or false, {found}; the runner drops any other value and "
                             "the tolerance is absolute", otherwise=False,
                    metadata={"description": "Whether the tolerance is relative."})
    formats = Items(Text("EV340", "an item of field 'formats' must be a string, {found}; the runner drops it"), "EV340",
                    "field 'formats' must be a list of date formats, {found}; the runner uses its default formats",
                    metadata={"description": "Accepted date formats."})


class FieldAccuracySchema(AssertionSchema):
    kind = "field-accuracy"
    grades_criteria = False
    reads_turn_expected = True
    summary = "Fields of structured output compared with the expected ones."
    field_specs = field_list("field-accuracy assertion", FieldSpecSchema)
    aggregation = choice(AGGREGATIONS, "EV342", "invalid aggregation {value}{hint}; expected one of {choices} "
                         "(the runner ignores anything else)", metadata={"description": "How field scores combine."})
