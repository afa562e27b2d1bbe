"""JSON Schemas (draft-07) for editors, generated from the rule data that the
checks themselves use: the known keys (so `additionalProperties` is false
exactly where EV109/EV507/EV603/EV703 warn), the closed sets (kinds, modes,
roles, providers, match types) and the shapes the loader accepts (aliases and
shorthands). Descriptions come from the marshmallow fields' metadata where a
field declares one, else from the table below."""
from __future__ import annotations

from typing import Any

from . import __version__
from .kinds import EVALUATOR_KINDS
from .schemas import evaluators as ev
from .schemas import messages as msg
from .rules import structure as st
from .rules import targets as tg
from .rules.config_file import CONFIG_KEYS
from .rules.references import TEMPLATE_VARIABLES

DRAFT = "http://json-schema.org/draft-07/schema#"
BASE_URI = f"https://raw.githubusercontent.com/your-org/evallint/v{__version__}/evallint/jsonschemas"

DOCS = {
    "$schema": "The AgentV schema id of this file.",
    "description": "What this suite checks, for people reading it.",
    "dataset": "Dataset name; defaults to the file name without its extension.",
    "execution": "Defaults for every case: the target and the evaluators.",
    "target": "Name of a target in the nearest targets.yaml (legacy spelling of execution.target).",
    "evaluator": "Default evaluator kind (the runner falls back to llm_judge).",
    "evalcases": "The eval cases.",
    "id": "Unique id of the case (a string).",
    "conversation_id": "Groups cases that belong to one conversation.",
    "expected_outcome": "The goal the answer must meet; a case without it is skipped by the runner.",
    "outcome": "Alias of expected_outcome (ignored when both are present).",
    "input_messages": "The conversation sent to the agent.",
    "input": "Alias of input_messages: a string is one user message, a list is the messages.",
    "expected_messages": "The expected answer, as messages (tool calls included).",
    "expected_output": "Alias of expected_messages: a string, a mapping (structured output, or one message with "
                       "'role'), or a list.",
    "evaluators": "The case's evaluators (ignored when execution.evaluators is set on the case).",
    "rubrics": "Inline rubrics: a rubric evaluator in front of the case's evaluators.",
    "role": f"Who speaks: one of {', '.join(msg.ROLES)}.",
    "content": "A string, a mapping (structured output) or a list of content blocks.",
    "tool_calls": "Tool calls made by an assistant message.",
    "name": "Name of the evaluator; results and weights refer to it.",
    "type": "The kind.",
    "weight": "Weight in the case score, a number >= 0 (default 1.0).",
    "tool": "The tool name.",
    "args": "Tool arguments to match: 'any', or a mapping compared exactly.",
    "output": "The expected tool result.",
    "prompt": "Inline prompt text, or a path to a prompt template file.",
    "model": "Model override for the judge.",
    "script": "The command, as an argv list (a string runs through the platform shell).",
    "cwd": "Working folder of the script.",
    "mode": f"How tool calls are compared: {', '.join(ev.TRAJECTORY_MODES)}.",
    "minimums": "Tool name -> minimum number of calls (mode any_order).",
    "expected": "The expected tool calls (modes in_order and exact).",
    "aggregator": "How member scores combine.",
    "fields": "Fields of structured output to compare.",
    "aggregation": f"How field scores combine: {', '.join(ev.AGGREGATIONS)}.",
    "threshold": "Latency threshold in milliseconds, >= 0.",
    "budget": "Cost budget, >= 0.",
    "max_total": "Maximum total tokens.", "max_input": "Maximum input tokens.", "max_output": "Maximum output tokens.",
    "path": "Path of the field (for example invoice.total or items[0].name).",
    "match": f"How the field is compared: {', '.join(ev.FIELD_MATCHES)}.",
    "required": "Whether the item must pass.",
    "tolerance": "Allowed difference for numeric_tolerance, >= 0.",
    "relative": "Whether the tolerance is relative.",
    "formats": "Accepted date formats.",
    "weights": "Member name -> weight (weighted_average).",
    "value": "The text, or the path of the file.",
    "targets": "The targets an eval can run against.",
    "provider": "The provider of the target.",
    "judge_target": "Another target in this file that judges this one's answers.",
    "workers": "Parallel workers, a positive integer.",
    "guideline_patterns": "Globs of files that are guidelines.",
}


def _doc(key: str, **schema: Any) -> dict:
    return {"title": key, "description": DOCS.get(key, key.replace("_", " ")), **schema}


STRING = {"type": "string"}
TEXT = {"type": "string", "minLength": 1}
NUMBER = {"type": "number", "minimum": 0}
ANY: dict = {}


def _object(properties: dict, *, closed: bool = True, required=()) -> dict:
    out: dict = {"type": "object", "properties": {k: _doc(k, **v) for k, v in properties.items()}}
    if required:
        out["required"] = list(required)
    if closed:
        out["additionalProperties"] = False
    return out


def _ref(name: str) -> dict:
    return {"$ref": f"#/definitions/{name}"}


def _evaluator(kind: str, own: dict, required=()) -> dict:
    props = {"type": {"const": kind}, "name": TEXT, "weight": NUMBER, **own}
    schema = _object(props, closed=kind != "code_judge", required=("type", *required))
    schema["title"] = f"{kind} evaluator"
    return schema


def _definitions() -> dict:
    rubric_item = {"oneOf": [TEXT, _object({"id": STRING, "description": TEXT, "expected_outcome": TEXT,
                                            "weight": NUMBER, "required": {"type": "boolean"}})]}
    expected_tool = _object({"tool": TEXT, "args": {"oneOf": [{"const": "any"}, {"type": "object"}]},
                             "input": ANY, "output": ANY}, required=("tool",))
    field = _object({"path": TEXT, "match": {"enum": list(ev.FIELD_MATCHES)}, "required": {"type": "boolean"},
                     "weight": NUMBER, "tolerance": NUMBER, "relative": {"type": "boolean"},
                     "formats": {"type": "array", "items": STRING}}, required=("path", "match"))
    aggregator = _object({"type": {"enum": list(ev.AGGREGATOR_TYPES)}, "weights": {
        "type": "object", "additionalProperties": NUMBER}, "path": TEXT, "prompt": STRING, "model": STRING},
        required=("type",))
    kinds = {
        "llm_judge": _evaluator("llm_judge", {"prompt": STRING, "model": STRING,
                                              "rubrics": {"type": "array", "items": _ref("RubricItem")}}),
        "rubric": _evaluator("rubric", {"model": STRING, "rubrics": {"type": "array", "minItems": 1,
                                                                     "items": _ref("RubricItem")}}, ("rubrics",)),
        "code_judge": _evaluator("code_judge", {
            "script": {"oneOf": [{"type": "array", "minItems": 1, "items": TEXT}, TEXT]}, "cwd": STRING,
            "target": {"oneOf": [{"const": True}, _object({"max_calls": NUMBER})]}}, ("script",)),
        "tool_trajectory": _evaluator("tool_trajectory", {
            "mode": {"enum": list(ev.TRAJECTORY_MODES)},
            "minimums": {"type": "object", "additionalProperties": NUMBER},
            "expected": {"type": "array", "items": _ref("ExpectedTool")}}, ("mode",)),
        "composite": _evaluator("composite", {"evaluators": {"type": "array", "minItems": 1,
                                                             "items": _ref("Evaluator")},
                                              "aggregator": _ref("Aggregator")}, ("evaluators", "aggregator")),
        "field_accuracy": _evaluator("field_accuracy", {"fields": {"type": "array", "minItems": 1,
                                                                   "items": _ref("Field")},
                                                        "aggregation": {"enum": list(ev.AGGREGATIONS)}}, ("fields",)),
        "latency": _evaluator("latency", {"threshold": NUMBER}, ("threshold",)),
        "cost": _evaluator("cost", {"budget": NUMBER}, ("budget",)),
        "token_usage": _evaluator("token_usage", {"max_total": NUMBER, "max_input": NUMBER, "max_output": NUMBER}),
    }
    assert set(kinds) == set(EVALUATOR_KINDS) and all(
        set(kinds[k]["properties"]) == set(ev.known_keys(ev.SCHEMAS[k])) for k in kinds)
    block = {"oneOf": [STRING, {"type": "object", "required": ["type"], "properties": {
        "type": _doc("type", type="string"), "value": _doc("value", type="string")}}]}
    message = _object({"role": {"enum": list(msg.ROLES)},
                       "content": {"oneOf": [STRING, {"type": "object"}, {"type": "array", "items": block}]},
                       "tool_calls": {"type": "array", "items": _ref("ToolCall")}, "name": STRING},
                      required=("role",))
    assert set(message["properties"]) == set(msg.MESSAGE_KEYS)
    tool_call = _object({"tool": TEXT, "input": ANY, "output": ANY}, required=("tool",))
    messages = {"type": "array", "minItems": 1, "items": _ref("Message")}
    case = _object({
        "id": TEXT, "conversation_id": STRING, "description": STRING,
        "expected_outcome": TEXT, "outcome": TEXT,
        "input_messages": messages, "input": {"oneOf": [TEXT, messages]},
        "expected_messages": messages,
        "expected_output": {"oneOf": [STRING, {"type": "object"}, {"type": "array"}]},
        "execution": _ref("Execution"), "evaluators": {"type": "array", "items": _ref("Evaluator")},
        "rubrics": {"type": "array", "items": _ref("RubricItem")},
        "evaluator": {"enum": list(EVALUATOR_KINDS)},
    }, required=("id",))
    case["allOf"] = [{"anyOf": [{"required": ["expected_outcome"]}, {"required": ["outcome"]}]},
                     {"anyOf": [{"required": ["input_messages"]}, {"required": ["input"]}]}]
    assert set(case["properties"]) == set(st.CASE_KEYS)
    return {
        "Case": case, "Message": message, "ToolCall": tool_call, "RubricItem": rubric_item,
        "ExpectedTool": expected_tool, "Field": field, "Aggregator": aggregator,
        "Execution": _object({"target": TEXT, "evaluators": {"type": "array", "items": _ref("Evaluator")}}),
        "Evaluator": {
            "title": "evaluator", "description": f"One of: {', '.join(EVALUATOR_KINDS)} (chosen by 'type').",
            "type": "object", "required": ["type"],
            "properties": {"type": _doc("type", enum=list(EVALUATOR_KINDS))},
            "allOf": [{"if": {"properties": {"type": {"const": k}}}, "then": _ref(f"Evaluator_{k}")} for k in kinds],
        },
        **{f"Evaluator_{k}": schema for k, schema in kinds.items()},
    }


def eval_schema() -> dict:
    suite = _object({"$schema": {"type": "string", "enum": [st.EVAL_SCHEMA]}, "description": STRING,
                     "dataset": STRING, "execution": _ref("Execution"), "target": TEXT,
                     "evaluator": {"enum": list(EVALUATOR_KINDS)},
                     "evalcases": {"type": "array", "items": _ref("Case")}}, required=("evalcases",))
    assert set(suite["properties"]) == set(st.SUITE_KEYS)
    return {"$schema": DRAFT, "$id": f"{BASE_URI}/eval.schema.json",
            "title": "AgentV eval suite (agentv-eval-v2)",
            "description": f"Generated by evallint {__version__}. Template variables of prompt files: "
                           f"{', '.join(TEMPLATE_VARIABLES)}.",
            **suite, "definitions": _definitions()}


def targets_schema() -> dict:
    setting_names = sorted({name for names in tg.SETTINGS.values() for name in names})
    target = {"type": "object", "required": ["name", "provider"], "properties": {
        "name": _doc("name", **TEXT), "provider": _doc("provider", enum=list(tg.PROVIDERS) + list(tg.ALIASES)),
        "judge_target": _doc("judge_target", **STRING),
        "workers": _doc("workers", type="integer", minimum=1),
        "provider_batching": _doc("provider_batching", type="boolean"),
        **{name: _doc(name) for name in setting_names}}}
    checked = []
    for provider, names in tg.SETTINGS.items():
        allowed = set(names) | set(tg.COMMON_SETTINGS)
        camel = {_camel(n) for n in allowed}
        providers = [provider] + [a for a, p in tg.ALIASES.items() if p == provider and a != provider]
        checked.append({"if": {"properties": {"provider": {"enum": providers}}},
                        "then": {"propertyNames": {"enum": sorted(allowed | camel)}}})
    target["allOf"] = checked
    return {"$schema": DRAFT, "$id": f"{BASE_URI}/targets.schema.json",
            "title": "AgentV targets (.agentv/targets.yaml)", "type": "object", "required": ["targets"],
            "additionalProperties": False,
            "properties": {"$schema": _doc("$schema", type="string", pattern="^agentv-targets-v2"),
                           "targets": _doc("targets", type="array", items=target)}}


def config_schema() -> dict:
    schema = _object({"$schema": {"type": "string", "enum": ["agentv-config-v2"]},
                      "guideline_patterns": {"type": "array", "items": STRING}})
    assert set(schema["properties"]) == set(CONFIG_KEYS)
    return {"$schema": DRAFT, "$id": f"{BASE_URI}/config.schema.json",
            "title": "AgentV project config (.agentv/config.yaml)", **schema}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


SCHEMAS = {"eval": eval_schema, "targets": targets_schema, "config": config_schema}
