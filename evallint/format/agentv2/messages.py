"""Messages, their content blocks and tool calls.

Each field states its type, accepted values and whether it is required, with
the rule code of each (``fields.py``); what needs two fields of one mapping is
a ``validates_schema`` check. The warnings, references to files, unknown keys
and the checks of a messages list as a whole are rule functions in
``rules/messages.py``, called from ``pre_load`` (and from the case's checks)."""
from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, pre_load, validates_schema
from marshmallow.exceptions import SCHEMA

from evallint.diagnostics import FIRST_KEY, KEY
from evallint.format.base import LintSchema
from evallint.format.fields import Checked, Items, Problem, Record, Text, choice, keys_of, missing, problem_at
from evallint.format.agentv2.model import Message, ToolCall
from evallint.rules import messages as rules
from evallint.rules.collect import AT, CONTENT_AT
from evallint.suggest import found, one_of

ROLES = ("assistant", "system", "tool", "user")
BLOCK_TYPES = ("text", "file")  # each with a string 'value', the text or the path; the runner drops other types
NOTHING_SAID = "message has no 'content' (a string, a mapping or a list of content blocks) and no non-empty 'tool_calls'"


class ToolCallSchema(LintSchema):
    definition = "ToolCall"
    tool = Text("EV204", "tool call 'tool' must be a non-empty string, {found}", non_empty=True, required=True,
                error_messages=missing("EV204", "tool call has no 'tool' (the tool name)"),
                metadata={"description": "The tool name.", "confusable": ("name", "tool_name", "function")})
    input = fields.Raw(allow_none=True, metadata={"description": "The tool arguments, kept exactly as written."})
    output = fields.Raw(allow_none=True, metadata={"description": "The expected tool result.",
                                                   "confusable": ("result", "response")})

    @pre_load
    def check(self, data, **kwargs):
        rules.check_tool_call(data, data.get(AT, ()), TOOL_CALL_KEYS)
        return data

    @post_load
    def build(self, data, **kwargs):
        return ToolCall(tool=data["tool"], input=data.get("input"), output=data.get("output"))


class ContentBlockSchema(LintSchema):
    """A mapping in a content list; the model keeps it exactly as written."""

    type = choice(BLOCK_TYPES, "EV203", "content block type {shown}{hint} is dropped by the runner; the block types "
                                        "it reads: {choices}", "content block has no 'type' (expected 'text' or 'file')",
                  metadata={"description": "text (the value is sent as text) or file (the value is a path whose "
                                           "file is attached)."})
    value = fields.Raw(allow_none=True, metadata={"description": "The text, or the path of the file."})

    @pre_load
    def check(self, data, **kwargs):
        rules.check_content_block(data, data.get(AT, ()))
        return data

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def string_value(self, data, original, **kwargs):
        kind = original.get("type")
        if kind not in BLOCK_TYPES:  # reported by the 'type' field
            return
        if "value" not in original:
            other = [key for key in original if isinstance(key, str) and key != "type"]
            if other:  # its value written under another key, which the runner does not read
                what = "the file's path" if kind == "file" else "the text"
                raise problem_at("EV203", f"content block of type '{kind}' has no 'value': {what} is under "
                                 f"'{other[0]}', which the runner does not read; write it under 'value'",
                                 field=other[0], target=KEY)
            raise problem_at("EV203", f"content block of type '{kind}' has no 'value'", target=FIRST_KEY)
        if not isinstance(original["value"], str):
            raise problem_at("EV203", f"content block of type '{kind}' needs a string 'value', "
                           f"{found(original['value'])}", field="value")

    @post_load(pass_original=True)
    def build(self, data, original, **kwargs):
        return {key: value for key, value in original.items() if key is not AT}


class BlockField(Checked):
    """A content block: a mapping loaded by the block schema (the runner drops the message of a content list
    holding anything else, a plain string too)."""

    def check(self, value):
        if not isinstance(value, dict):
            raise self.reject(value)
        return CONTENT_BLOCK.load(value)

    def json_schema(self) -> dict:
        return {"$ref": "#/definitions/ContentBlock"}


class ContentField(Checked):
    """A message's content: a string, a mapping (structured output, kept as written) or a list of content
    blocks. Null is let through: a message may say nothing when it makes tool calls (``says_something``)."""

    def __init__(self, **kwargs: Any):
        super().__init__("EV202", "'content' must be a string, a mapping or a list of content blocks, {found}",
                         allow_none=True, **kwargs)
        self.blocks = fields.List(BlockField(
            "EV203", "a content block must be a mapping with 'type' and 'value', {found}; the runner drops a message "
                     "whose content list holds anything else (write {{type: text, value: ...}})"))

    def check(self, value):
        if isinstance(value, dict) and value.get("type") in BLOCK_TYPES and set(value) <= {"type", "value", AT}:
            raise ValidationError(Problem("EV203", f"'content' is a single '{value['type']}' block written as a "
                                          "mapping; the runner sends a mapping as JSON text, so "
                                          + ("the file is never attached" if value["type"] == "file" else
                                             "the text arrives wrapped in JSON") + ": put the block in a list"))
        if isinstance(value, (str, dict)):
            return value
        if not isinstance(value, list):
            raise self.reject(value)
        return self.blocks.deserialize(value)

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "string"}, {"type": "object"}, {"type": "array", "items": self.blocks.inner.json_schema()}]}


class MessageSchema(LintSchema):
    definition = "Message"
    role = choice(ROLES, "EV201", "invalid role {shown}{hint}; expected one of {choices}",
                  f"message has no 'role' (expected one of {one_of(ROLES)})",
                  metadata={"description": "system, user, assistant or tool."})
    content = ContentField(metadata={"description": "A string, a mapping, or content blocks."})
    tool_calls = Items(Record(ToolCallSchema, "EV204", "a tool call must be a mapping with 'tool', {found}"),
                       "EV204", "'tool_calls' must be a list of tool calls, {found}",
                       metadata={"description": "Tool calls (assistant only)."})
    name = fields.Raw(allow_none=True, metadata={"description": "The speaker's name: accepted, not kept in the model."})

    @pre_load
    def check(self, data, **kwargs):
        return rules.check_message(data, data.get(AT, ()), data.get(CONTENT_AT), MESSAGE_KEYS, ROLES)

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def says_something(self, data, original, **kwargs):
        """EV202: no content (or a null one) and no non-empty list of tool calls."""
        calls = original.get("tool_calls")
        if original.get("content") is None and not (isinstance(calls, list) and calls):
            if "content" in original:
                raise problem_at("EV202", NOTHING_SAID, field="content")
            raise problem_at("EV202", NOTHING_SAID, target=FIRST_KEY)

    @post_load
    def build(self, data, **kwargs):
        return Message(role=data["role"], content=data.get("content"), tool_calls=tuple(data.get("tool_calls", ())))


class MessageList(Items):
    """A list of messages (``input_messages``, ``expected_messages``), each item a mapping loaded by the
    message schema.

    The case's loader builds a message from a shorthand (``input: text``, ``expected_output: ...``): such a
    message stands for the shorthand's own value, so its path (``AT``) does not end at its index in the
    list, and when the loader built its content too, that content is the value (``CONTENT_AT``). Its errors
    are filed at that value, the place the file holds them."""

    def __init__(self, key: str, **kwargs: Any):
        item = Record(MessageSchema, "EV207", "a message must be a mapping with 'role' and 'content', {found}")
        super().__init__(item, "EV209", _not_a_list(key), **kwargs)

    def json_schema(self) -> dict:
        return {"type": "array", "minItems": 1, "items": {"$ref": "#/definitions/Message"}}

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return super()._deserialize(value, attr, data, **kwargs)
        except ValidationError as exc:
            raise ValidationError(_as_written(exc.messages, value), valid_data=exc.valid_data) from None


def _not_a_list(key: str) -> str:
    return rules.NOT_A_LIST.replace("{key}", key)


def _expanded(message: Any, index: Any) -> bool:
    return isinstance(message, dict) and AT in message and message[AT][-1:] != (index,)


def _as_written(errors: Any, messages: list) -> Any:
    """The list's error dictionary with each expanded message's errors at the shorthand value itself."""
    if not isinstance(errors, dict):
        return errors
    out: dict = {}
    for index, problems in errors.items():
        message = messages[index] if isinstance(index, int) and 0 <= index < len(messages) else None
        if not _expanded(message, index):
            _merge(out, {index: problems})
            continue
        problems = dict(_mapping(problems))
        if CONTENT_AT in message and "content" in problems:
            _merge(problems, _mapping(problems.pop("content")))
        _merge(out, problems)
    return out


def _mapping(problems: Any) -> dict:
    return problems if isinstance(problems, dict) else {SCHEMA: problems}


def _merge(into: dict, problems: dict) -> None:
    """Add the error dictionary ``problems`` to ``into``."""
    for key, more in problems.items():
        have = into.get(key)
        if have is None:
            into[key] = more
        elif isinstance(have, list) and isinstance(more, list):
            into[key] = have + more
        else:
            into[key] = have = _mapping(have)
            _merge(have, _mapping(more))


CONTENT_BLOCK = ContentBlockSchema()
MESSAGE_KEYS = keys_of(MessageSchema())
TOOL_CALL_KEYS = keys_of(ToolCallSchema())
