"""Messages, their content blocks and tool calls, and the case's shorthands
for them (``input``, ``expected_output``).

Each field states its type, accepted values and whether it is required, with
the rule code of each (``fields.py``); what needs two fields of one mapping is
a ``validates_schema`` check. The warnings, references to files and unknown
keys are rule functions in ``rules/messages.py``, the schemas' ``checks``."""
from __future__ import annotations

from typing import Any, Iterator

from marshmallow import ValidationError, fields, validates_schema

from evallint.diagnostics import FIRST_KEY, KEY
from evallint.format.base import LintSchema, builds, load, made
from evallint.format.fields import Checked, Items, Problem, Record, Text, choice, missing, problem_at
from evallint.rules import messages as rules
from evallint.rules.messages import ROLES
from evallint.suggest import found, one_of

BLOCK_TYPES = ("text", "file")  # each with a string 'value', the text or the path; the runner drops other types
NOTHING_SAID = "message has no 'content' (a string, a mapping or a list of content blocks) and no non-empty 'tool_calls'"


class ToolCallSchema(LintSchema):
    definition = "ToolCall"
    checks = (rules.check_tool_call,)
    tool = Text("EV204", "tool call 'tool' must be a non-empty string, {found}", non_empty=True, required=True,
                error_messages=missing("EV204", "tool call has no 'tool' (the tool name)"),
                metadata={"description": "The tool name.", "confusable": ("name", "tool_name", "function")})
    input = fields.Raw(allow_none=True, metadata={"description": "The tool arguments, kept exactly as written."})
    output = fields.Raw(allow_none=True, metadata={"description": "The expected tool result.",
                                                   "confusable": ("result", "response")})

    @builds
    def build(self, data, **kwargs):
        from evallint.format.agentv2.model import ToolCall  # imported by the loads that build a model only

        return ToolCall(tool=data["tool"], input=data.get("input"), output=data.get("output"))


class ContentBlockSchema(LintSchema):
    """A mapping in a content list; the model keeps it exactly as written."""

    checks = (rules.check_content_block,)

    type = choice(BLOCK_TYPES, "EV203", "content block type {shown}{hint} is dropped by the runner; the block types "
                                        "it reads: {choices}", "content block has no 'type' (expected 'text' or 'file')",
                  metadata={"description": "text (the value is sent as text) or file (the value is a path whose "
                                           "file is attached)."})
    value = fields.Raw(allow_none=True, metadata={"description": "The text, or the path of the file."})

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

    @builds(pass_original=True)
    def build(self, data, original, **kwargs):
        return dict(original)


class BlockField(Checked):
    """A content block: a mapping loaded by the block schema (the runner drops the message of a content list
    holding anything else, a plain string too)."""

    def check(self, value):
        if not isinstance(value, dict):
            raise self.reject(value)
        return load(CONTENT_BLOCK, value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        if isinstance(value, dict):
            yield CONTENT_BLOCK, value, at

    def json_schema(self) -> dict:
        return {"$ref": "#/definitions/ContentBlock"}


class ContentField(Checked):
    """A message's content: a string, a mapping (structured output, kept as written) or a list of content
    blocks. Null is let through: a message may say nothing when it makes tool calls (``says_something``)."""

    def __init__(self, **kwargs: Any):
        super().__init__("EV202", "'content' must be a string, a mapping or a list of content blocks, {found}",
                         allow_none=True, checks=(rules.check_content_text,), **kwargs)
        self.blocks = fields.List(BlockField(
            "EV203", "a content block must be a mapping with 'type' and 'value', {found}; the runner drops a message "
                     "whose content list holds anything else (write {{type: text, value: ...}})"))

    def check(self, value):
        if isinstance(value, dict) and value.get("type") in BLOCK_TYPES and set(value) <= {"type", "value"}:
            raise ValidationError(Problem("EV203", f"'content' is a single '{value['type']}' block written as a "
                                          "mapping; the runner sends a mapping as JSON text, so "
                                          + ("the file is never attached" if value["type"] == "file" else
                                             "the text arrives wrapped in JSON") + ": put the block in a list"))
        if isinstance(value, (str, dict)):
            return value
        if not isinstance(value, list):
            raise self.reject(value)
        return self.blocks.deserialize(value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        for i, block in enumerate(value if isinstance(value, list) else ()):
            yield self.blocks.inner, block, at + (i,)

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "string"}, {"type": "object"}, {"type": "array", "items": self.blocks.inner.json_schema()}]}


class MessageSchema(LintSchema):
    definition = "Message"
    checks = (rules.check_message,)
    roles = ROLES
    role = choice(ROLES, "EV201", "invalid role {shown}{hint}; expected one of {choices}",
                  f"message has no 'role' (expected one of {one_of(ROLES)})",
                  metadata={"description": "system, user, assistant or tool."})
    content = ContentField(metadata={"description": "A string, a mapping, or content blocks."})
    tool_calls = Items(Record(ToolCallSchema, "EV204", "a tool call must be a mapping with 'tool', {found}"),
                       "EV204", "'tool_calls' must be a list of tool calls, {found}",
                       metadata={"description": "Tool calls (assistant only)."})
    name = fields.Raw(allow_none=True, metadata={"description": "The speaker's name: accepted, not kept in the model."})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def says_something(self, data, original, **kwargs):
        """EV202: no content (or a null one) and no non-empty list of tool calls."""
        calls = original.get("tool_calls")
        if original.get("content") is None and not (isinstance(calls, list) and calls):
            if "content" in original:
                raise problem_at("EV202", NOTHING_SAID, field="content")
            raise problem_at("EV202", NOTHING_SAID, target=FIRST_KEY)

    @builds
    def build(self, data, **kwargs):
        return _message(data["role"], data.get("content"), tuple(data.get("tool_calls", ())))


def _message(role: str, content: Any, tool_calls: tuple = ()) -> Any:
    """The model's message (``base.made``)."""
    return made("evallint.format.agentv2.model", "Message", role=role, content=content, tool_calls=tool_calls)


def _message_item() -> Record:
    return Record(MessageSchema, "EV207", "a message must be a mapping with 'role' and 'content', {found}")


class MessageList(Items):
    """A list of messages (``input_messages``, ``expected_messages``), each item a mapping loaded by the
    message schema."""

    def __init__(self, key: str, **kwargs: Any):
        super().__init__(_message_item(), "EV209", rules.NOT_A_LIST.replace("{key}", key), non_empty=True,
                         empty=f"'{key}' is an empty list; it needs at least one message", **kwargs)

    def json_schema(self) -> dict:
        return {"type": "array", "minItems": 1, "items": {"$ref": "#/definitions/Message"}}


class InputField(Checked):
    """A case's ``input``, read in place of ``input_messages``: a string is one user message, a list is the
    messages."""

    def __init__(self, **kwargs: Any):
        super().__init__("EV112", "'input' must be a string or a list of messages, {found}", **kwargs)
        self.error_messages = {**self.error_messages,
                               "null": Problem("EV105", "'input' has no value; there is nothing to send")}
        self.messages = fields.List(_message_item())

    def check(self, value):
        if value == [] or (isinstance(value, str) and not value.strip()):
            what = "list" if value == [] else "string"
            raise ValidationError(Problem("EV105", f"'input' is an empty {what}; there is nothing to send"))
        if isinstance(value, str):
            return [_message("user", value)]
        if isinstance(value, list):
            return self.messages.deserialize(value)
        raise self.reject(value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        if isinstance(value, str):
            yield CONTENT, value, at
        elif isinstance(value, list):
            yield from ((self.messages.inner, item, at + (i,)) for i, item in enumerate(value))

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "string", "minLength": 1},
                          {"type": "array", "minItems": 1, "items": {"$ref": "#/definitions/Message"}}]}


class ExpectedOutputField(Checked):
    """A case's ``expected_output``, read in place of ``expected_messages``: one message when it is a
    mapping with 'role', the messages when it is a list of such, else the content of one assistant
    message."""

    def __init__(self, **kwargs: Any):
        super().__init__("EV112", "'expected_output' must be a string, a mapping or a list, {found}", **kwargs)
        self.message, self.messages = _message_item(), fields.List(_message_item())

    @staticmethod
    def _shape(value: Any) -> str:
        if isinstance(value, dict) and "role" in value:
            return "message"
        if isinstance(value, list) and value and isinstance(value[0], dict) and "role" in value[0]:
            return "messages"
        return "content" if isinstance(value, (str, dict, list)) else ""

    def check(self, value):
        shape = self._shape(value)
        if shape == "message":
            return [self.message.deserialize(value)]
        if shape == "messages":
            return self.messages.deserialize(value)
        if shape == "content":
            return [_message("assistant", CONTENT.deserialize(value))]
        raise self.reject(value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        shape = self._shape(value)
        if shape == "message":
            yield self.message, value, at
        elif shape == "messages":
            yield from ((self.messages.inner, item, at + (i,)) for i, item in enumerate(value))
        elif shape == "content":
            yield CONTENT, value, at

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "string"}, {"type": "object"}, {"type": "array"}]}


CONTENT_BLOCK = ContentBlockSchema()
CONTENT = ContentField()
