"""The parts inside an AgentV 4.42 assertion, declared like the assertions themselves: commands, prompts,
lists of strings, rubric items, expected tool calls, composite aggregators and preprocessors."""
from __future__ import annotations

from functools import partial
from typing import Any, Iterator

from marshmallow import ValidationError, validates_schema
from marshmallow import fields as ma

from evallint.diagnostics import FIRST_KEY
from evallint.format.agentv2.evaluator_parts import ExpectedToolSchema as ExpectedToolSchema2
from evallint.format.agentv2.evaluator_parts import ScriptField
from evallint.format.base import LintSchema, read_first
from evallint.format.agentv4.score_ranges import ScoreRanges
from evallint.format.fields import (
    Checked, Flag, Items, MappingOr, Number, NumberMap, Problem, Record, Text, choice, missing, problem_at,
)
from evallint.load.environment import is_whole_reference
from evallint.rules.agentv4 import check_rubric_item_keys, required_by_default
from evallint.rules.grader_files import (aggregator_kind, check_aggregator_keys, check_aggregator_prompt,
                                         check_aggregator_script, check_preprocessor_command, check_preprocessor_types)
from evallint.rules.evaluators import check_keys
from evallint.rules.rubric_items import banded_scores, checklist_scores, outcome_of, rubric_ids
from evallint.rules.common import finding, is_finite_number, is_number, is_text
from evallint.suggest import did_you_mean, found, one_of, quote

ARGS_MATCHES = ("exact", "superset", "subset", "ignore")
OPERATORS = ("correctness", "contradiction")
# 'weighted_average' and 'threshold' as written; the graders also in snake case
AGGREGATOR_TYPES = ("weighted_average", "threshold", "code-grader", "llm-grader")


# names people give a script's working folder, 'cwd'
WORKDIR_NAMES = ("workdir", "working_dir", "working_directory", "dir", "directory")
# a target's keys naming the target that grades it, which a grader may hold for its own 'target'
GRADER_TARGETS = ("grader_target", "judge_target")


class CommandField(ScriptField):
    """A command: a non-blank string (run by the shell) or a list of non-blank strings (an argv), read as a
    2.2 code_judge's script is."""

    def __init__(self, what: str, code: str = "EV321", then: str = "", **kwargs: Any):
        super().__init__(code, f"{what} must be a command string or an argv list of strings, {{found}}{then}",
                         what=what, then=then, **kwargs)


class ArgvField(CommandField):
    """A command that is only an argv list (a preprocessor's, an executable prompt's): the loader splits no
    command string there, and skips the test (``then``: what it does otherwise)."""

    def __init__(self, what: str, code: str = "EV321", then: str = "skips the test", **kwargs: Any):
        super().__init__(what, code, **kwargs)
        self.template = f"{what} must be an argv list of strings, {{found}}; the runner splits no command string here " \
                        f"and {then}"

    def check(self, value):
        if isinstance(value, str):
            raise self.reject(value)
        return super().check(value)


class Bounded(Checked):
    """A finite number from ``low`` to ``high`` (``integer``: a whole one)."""

    scalar = True

    def __init__(self, code: str, template: str, low: float, high: float, *, integer: bool = False, **kwargs):
        super().__init__(code, template, **kwargs)
        self.low, self.high, self.integer = low, high, integer

    def check(self, value):
        if not (is_finite_number(value) and self.low <= value <= self.high and (not self.integer or value == int(value))):
            raise self.reject(value)
        return value

    def json_schema(self) -> dict:
        return {"type": "integer" if self.integer else "number", "minimum": self.low, "maximum": self.high}


class Strings(Checked):
    """A list with at least one string; an item that is no string is dropped by the loader, which keeps the
    strings only (EV110 at the item)."""

    def check(self, value):
        if not (isinstance(value, list) and any(isinstance(item, str) for item in value)):
            raise self.reject(value)
        dropped = {i: [Problem(self.code, f"an item of '{self.data_key or self.name}' must be a string, {found(item)}; "
                               "the runner drops it")] for i, item in enumerate(value) if not isinstance(item, str)}
        if dropped:
            raise ValidationError(dropped)
        return value

    def json_schema(self) -> dict:
        return {"type": "array", "minItems": 1, "items": {"type": "string"}}


class ArgsMatchField(Checked):
    """How tool arguments are matched: a mode, or a list of field paths to compare. A mode's name in the list
    is the mode written in brackets: the runner reads it as the path of an argument of that name, compares
    only that argument, and so leaves the arguments unchecked when they have none of that name."""

    scalar = True  # a mode may be given by an environment reference

    def check(self, value):
        if value in ARGS_MATCHES:
            return value
        # the loader keeps the non-empty strings of a list (and ignores a list without one)
        if not (isinstance(value, list) and any(isinstance(p, str) and p for p in value)):
            raise self.reject(value)
        key = self.data_key or "args_match"
        wrong = {i: [Problem(self.code, f"'{key}' lists {quote(path)}, a mode, as a field path: the runner compares "
                             f"only an argument named {quote(path)}; a mode is written alone, without brackets "
                             f"({key}: {path}); modes: {one_of(ARGS_MATCHES)}, or a list of field paths")]
                 for i, path in enumerate(value) if path in ARGS_MATCHES}
        wrong.update({i: [Problem(self.code, f"an item of '{key}' must be a field path, {found(path)}; the runner drops "
                                             "it")] for i, path in enumerate(value) if not (isinstance(path, str) and path)})
        if wrong:
            raise ValidationError(wrong)
        return value

    def json_schema(self) -> dict:
        return {"oneOf": [{"enum": list(ARGS_MATCHES)}, {"type": "array", "items": {"type": "string"}}]}


def args_match_field(**kwargs) -> ArgsMatchField:
    return ArgsMatchField("EV314", "'args_match' must be one of " + one_of(ARGS_MATCHES) + " or a list of field paths, "
                          "{found}; the runner ignores it", **kwargs)


# the file types the runner names a media type by (a preprocessor's 'type', in any case, or the media type itself)
FILE_TYPES = ("csv", "docx", "htm", "html", "json", "markdown", "md", "pdf", "sql", "txt", "xhtml", "xls", "xlsx",
              "xml", "yaml", "yml")


class PreprocessorType(Text):
    """The file type a preprocessor converts: a file type of ``FILE_TYPES`` or a media type (as AgentV documents
    it). The runner compares it, trimmed and in lower case (a file type made its media type), with the media
    type of each file of the answer; any other word matches no media type, so the preprocessor never runs."""

    scalar = True  # a type may be given by an environment reference

    def check(self, value):
        value = super().check(value)
        normal = value.strip().lower()
        if normal not in FILE_TYPES and "/" not in normal:
            raise ValidationError(Problem(self.code, f"unknown preprocessor type {quote(value)}"
                                          f"{did_you_mean(normal, FILE_TYPES)}: the runner compares it with the media "
                                          "type of each file of the answer, so it converts no file; file types: "
                                          f"{one_of(FILE_TYPES)} (in any case), or a media type such as "
                                          "'application/pdf'"))
        return value


class PreprocessorSchema(LintSchema):
    checks = (check_keys("preprocessor"), check_preprocessor_command)
    type = PreprocessorType("EV110", "preprocessor 'type' must be a non-empty string, {found}", non_empty=True,
                            required=True, error_messages=missing(
                                "EV110", "preprocessor has no 'type' (the file type it converts)"),
                            metadata={"description": "The file type it converts (xlsx, pdf, ...), or its media type."})
    command = ArgvField("preprocessor 'command'", required=True, error_messages=missing(
        "EV320", "preprocessor has no 'command' (an argv list)"), metadata={"description": "The converter, an argv list."})


def preprocessors(where: str, then: str, schema: type = PreprocessorSchema, **kwargs) -> Items:
    """A 'preprocessors' list of ``schema``, which the loader reads whatever reads it after (``then``: what it does
    with one that is no list, null included)."""
    return Items(Record(schema, "EV110", "a preprocessor must be a mapping with 'type' and 'command', "
                        "{found}"), "EV110", f"'preprocessors' {where} must be a list of mappings with "
                 f"'type' and 'command', {{found}}; {then}", checks=(check_preprocessor_types,), **kwargs)


class PromptSchema(LintSchema):
    """An executable prompt: a command whose output is the prompt."""

    checks = (check_keys("prompt"),)
    command = ArgvField("prompt 'command'", metadata={"description": "The command that prints the prompt, an argv."})
    script = ArgvField("prompt 'script'", metadata={"description": "Deprecated alias of command.", "deprecated": True})
    config = ma.Raw(allow_none=True, metadata={"description": "Configuration given to the command."})

    def reads(self, data):
        return read_first(data, (("script", "command"),))

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_command(self, data, original, **kwargs):
        if "command" not in original and "script" not in original:
            raise problem_at("EV320", "prompt mapping has no 'command' (an argv list); the runner skips the test",
                             target=FIRST_KEY)


def prompt_field(**kwargs) -> MappingOr:
    """An llm-grader prompt: text (``file://PATH`` names a file), or an executable prompt mapping."""
    return MappingOr(PromptSchema(), "EV110", "'prompt' in llm-grader must be a string or a mapping with 'command', "
                     "{found}; the runner ignores it", accepts=lambda value: isinstance(value, str), **kwargs)


def check_required_min_score(item: dict, place) -> Iterator:
    """A rubric item's 'required_min_score', read when its 'min_score' is no number: the earlier form of 'min_score'
    (an integer 0-10 for 0-1), which the loader still reads so, and warns of (EV109); any other number makes it
    skip the test (EV361)."""
    score = item.get("required_min_score")
    if is_number(item.get("min_score")) or not is_number(score):
        return
    if is_finite_number(score) and score == int(score) and 0 <= score <= 10:
        then = f"write 'min_score: {int(score) / 10:g}'" if score else "remove it (a 'min_score' is above 0)"
        yield finding("EV109", f"'required_min_score: {int(score)}' is deprecated (the runner warns); {then}",
                      place.at + ("required_min_score",))
    else:
        yield finding("EV361", f"rubric item 'required_min_score' must be an integer 0-10, {found(score)}; the runner "
                      "skips the test", place.at + ("required_min_score",))


class RubricItemSchema(LintSchema):
    checks = (check_rubric_item_keys, check_required_min_score)
    id = Text("EV361", "rubric item 'id' must be a string, {found}", metadata={"description": "Id of the item."})
    outcome = Text("EV361", "rubric item 'outcome' must be a non-empty string, {found}", non_empty=True,
                   metadata={"description": "What the answer must do.", "confusable": ("description",)})
    criteria = Text("EV361", "rubric item 'criteria' must be a non-empty string, {found}", non_empty=True,
                    metadata={"description": "Alias of outcome."})
    operator = choice(OPERATORS, "EV361", "invalid rubric operator {shown}{hint}; the runner ignores it; expected one "
                                          "of {choices}", metadata={"description": "correctness or contradiction."})
    weight = Number("EV361", "rubric item 'weight' must be a finite number, {found}", minimum=0,
                    below=("EV305", "rubric item 'weight' must be >= 0, found {value}; the grader weighs the item as "
                                    "written, so meeting it lowers the score (and a grader whose items weigh 0 or "
                                    "less in all scores 0)"),
                    metadata={"description": "Weight of the item, >= 0 (default 1).", "default": 1})
    required = Flag("EV361", "rubric item 'required' must be true or false, {found}", otherwise=required_by_default,
                    metadata={"description": "Whether the item must pass (default true).", "default": True})
    min_score = Number("EV361", "rubric item 'min_score' must be a number in (0, 1], {found}",
                       metadata={"description": "Lowest passing score, in (0, 1]."})
    required_min_score = Number("EV361", "rubric item 'required_min_score' must be an integer 0-10, {found}",
                                metadata={"description": "Deprecated: min_score times 10.", "deprecated": True})
    score_ranges = ScoreRanges("EV361", "rubric item 'score_ranges' must be a list of {{score_range: [min, max], "
                               "outcome}} or a mapping of scores 0-10 to outcomes, {found}; the runner skips the test",
                               metadata={"description": "Score bands 0-10: [{score_range: [min, max], outcome}] or "
                                                        "{0: outcome, 3: outcome, ...}."})

    def reads(self, data):
        return {k: v for k, v in data.items() if k != "criteria"} if "outcome" in data else data

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_outcome(self, data, original, **kwargs):
        if not any(key in original for key in ("outcome", "criteria", "score_ranges")):
            raise problem_at("EV361", "rubric item has no 'outcome' (or 'score_ranges'); the runner drops it",
                             target=FIRST_KEY)
        score = original.get("min_score")
        if "min_score" in original and is_finite_number(score) and not 0 < score <= 1:
            raise problem_at("EV361", f"rubric item 'min_score' must be in (0, 1], found {score}; the runner skips "
                             "the test", field="min_score")


RUBRIC_ITEM = RubricItemSchema()


class InlineRubricItemSchema(RubricItemSchema):
    """An item of a test's own (deprecated) 'rubrics', which the loader reads more leniently: its 'outcome' only
    ('criteria' is not read there), its score bands and scores as written, unchecked but for a shorthand mapping
    (``score_ranges.check_inline_bands``); it drops an item with neither an outcome nor score bands."""

    class Meta(RubricItemSchema.Meta):
        exclude = ("criteria",)

    score_ranges = ma.Raw(metadata={"description": "Score bands 0-10, passed on unchecked but a mapping of scores that "
                                                   "does not start at 0 (``score_ranges.check_inline_bands``)."})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def has_outcome(self, data, original, **kwargs):
        if not is_text(original.get("outcome")) and not original.get("score_ranges"):
            unread = " (a test's own 'rubrics' read 'outcome', not 'criteria')" if "criteria" in original else ""
            raise problem_at("EV361", f"rubric item has no 'outcome' (or 'score_ranges'){unread}; the runner drops "
                             "it", target=FIRST_KEY)


INLINE_RUBRIC_ITEM = InlineRubricItemSchema()


def rubric_list(key: str = "rubrics", strings: bool = True, inline: bool = False, **kwargs) -> Items:
    """A list of rubric items: mappings with an outcome, and (``strings``) non-empty strings; ``inline``: a
    test's own, read more leniently."""
    what = "a non-empty string or a mapping with 'outcome'" if strings else "a mapping with 'outcome' (not a string)"
    item = MappingOr(INLINE_RUBRIC_ITEM if inline else RUBRIC_ITEM, "EV361", f"a rubric item must be {what}, "
                     "{found}; the runner drops it", accepts=_criterion if strings else None)
    return Items(item, "EV360", f"'{key}' must be a list of rubric items, {{found}}",
                 checks=(partial(rubric_ids, inline=inline, strings=strings), checklist_scores,
                         partial(banded_scores, inline=inline)),
                 **kwargs)


def _criterion(value: Any) -> bool:
    """A string a rubrics grader keeps as a criterion: any but the empty one (parseRubricItems)."""
    return isinstance(value, str) and value != ""


def keeps_a_rubric(items: Any, strings: bool = True) -> bool:
    """Whether the loader keeps an item of ``items`` (a grader's list): a mapping with score bands, or whose first
    string of 'outcome' and 'criteria' is not empty, or (``strings``) a string that is not empty (blank ones
    too: parseRubricItems); true of no list, which the list's own field reports."""
    def kept(item: Any) -> bool:
        if isinstance(item, dict):
            return "score_ranges" in item or outcome_of(item) != ""
        return strings and _criterion(item)
    return not isinstance(items, list) or not items or any(kept(item) for item in items)


class ExpectedToolSchema(ExpectedToolSchema2):
    """An expected tool call as in 2.2 (a tool, its arguments under 'args'), with a longest duration and its
    own way of matching arguments; the loader does not read an 'output' here."""

    class Meta(ExpectedToolSchema2.Meta):
        exclude = ("output",)

    max_duration_ms = Number("EV314", "expected tool 'max_duration_ms' must be a finite number >= 0, {found}",
                             minimum=0, metadata={"description": "Longest the call may take, in milliseconds."})
    max_duration_ms_camel = Number("EV314", "expected tool 'maxDurationMs' must be a finite number >= 0, {found}",
                                   minimum=0, data_key="maxDurationMs",
                                   metadata={"alias_of": "max_duration_ms"})
    args_match = args_match_field(metadata={"description": "How this call's arguments are matched."})
    args_match_camel = args_match_field(data_key="argsMatch", metadata={"alias_of": "args_match"})


class AggregatorSchema(LintSchema):
    definition = "Aggregator"
    checks = (check_aggregator_keys, check_aggregator_prompt, check_aggregator_script)
    type = choice(AGGREGATOR_TYPES + ("code_grader", "llm_grader"), "EV331",
                  "unknown aggregator type {shown}{hint}; the runner drops the composite; expected one of {choices}",
                  f"aggregator has no 'type' (expected one of {one_of(AGGREGATOR_TYPES)})",
                  metadata={"description": "How member scores combine."})
    weights = NumberMap("EV332", "aggregator 'weights' must be a mapping of member name to weight, {found}",
                        "weight for '{name}' must be a finite number >= 0, {found}",
                        metadata={"description": "Member name -> weight (weighted_average)."})
    threshold = Number("EV331", "aggregator 'threshold' must be a number in [0, 1], {found}; the runner drops a "
                       "threshold aggregator's composite without one",
                       metadata={"description": "Score the members must reach (threshold), in [0, 1]."})
    path = Text("EV331", "aggregator 'path' must be a non-empty string, {found}", non_empty=True,
                metadata={"description": "The script that aggregates (code-grader)."})
    prompt = Text("EV110", "aggregator 'prompt' must be a string, {found}",
                  metadata={"description": "The prompt, inline or file://PATH (llm-grader)."})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def needs(self, data, original, **kwargs):
        kind = original.get("type")
        if kind == "threshold":
            value = original.get("threshold")
            written = "threshold" in original and not is_finite_number(value)  # the field says so
            if not (is_finite_number(value) and 0 <= value <= 1 or is_whole_reference(value) or written):
                said = found(value) if "threshold" in original else "it has none"
                raise problem_at("EV331", f"threshold aggregator needs a 'threshold' in [0, 1], {said}; the runner "
                                 "drops the composite", **({"field": "threshold"} if "threshold" in original
                                                          else {"target": FIRST_KEY}))
        if aggregator_kind(original) == "code-grader" and "path" not in original:
            raise problem_at("EV331", "code-grader aggregator has no 'path' (the script that aggregates); the runner "
                             "drops the composite", target=FIRST_KEY)
