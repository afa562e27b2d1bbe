"""Messages, their content blocks and tool calls."""
from __future__ import annotations

from marshmallow import fields, post_load, pre_load

from ..model import Message, ToolCall
from ..rules.messages import check_content_block, check_message, check_tool_call
from .base import LintSchema
from .context import AT, CONTENT_AT


class ToolCallSchema(LintSchema):
    tool = fields.String(metadata={"description": "The tool name."})
    input = fields.Raw(allow_none=True, metadata={"description": "The tool arguments, kept exactly as written."})
    output = fields.Raw(allow_none=True, metadata={"description": "The expected tool result."})

    @pre_load
    def check(self, data, **kwargs):
        return check_tool_call(data, data.get(AT, ()))

    @post_load
    def build(self, data, **kwargs):
        return ToolCall(tool=data.get("tool", ""), input=data.get("input"), output=data.get("output"))


class ContentBlockSchema(LintSchema):
    """A mapping in a content list; the model keeps it exactly as written."""

    type = fields.String(metadata={"description": "text, file, or another block type passed through."})
    value = fields.Raw(metadata={"description": "The text, or the path of the file."})

    @pre_load
    def check(self, data, **kwargs):
        check_content_block(data, data.get(AT, ()))
        return {key: data[key] for key in ("type", "value") if isinstance(data.get(key), str)}

    @post_load(pass_original=True)
    def build(self, data, original, **kwargs):
        return {key: value for key, value in original.items() if key is not AT}


class ContentField(fields.Field):
    """A string, a mapping (structured output) or a list of blocks."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list) and any(isinstance(block, dict) for block in value):
            blocks = iter(CONTENT_BLOCKS.load([block for block in value if isinstance(block, dict)]))
            return [next(blocks) if isinstance(block, dict) else block for block in value]
        return value


class MessageSchema(LintSchema):
    role = fields.String(metadata={"description": "system, user, assistant or tool."})
    content = ContentField(allow_none=True, metadata={"description": "A string, a mapping, or content blocks."})
    tool_calls = fields.Nested(ToolCallSchema, many=True, metadata={"description": "Tool calls (assistant only)."})

    @pre_load
    def check(self, data, **kwargs):
        return check_message(data, data.get(AT, ()), data.get(CONTENT_AT))

    @post_load
    def build(self, data, **kwargs):
        return Message(role=data.get("role", ""), content=data.get("content"),
                       tool_calls=tuple(data.get("tool_calls", ())))


CONTENT_BLOCKS = ContentBlockSchema(many=True)


def MessageList(**kwargs) -> fields.Nested:
    return fields.Nested(MessageSchema, many=True, **kwargs)
