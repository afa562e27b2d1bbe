"""Messages and tool calls."""
from __future__ import annotations

from marshmallow import fields, post_load, pre_load

from ..model import Message, ToolCall
from ..rules.messages import check_message, check_tool_call
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


class MessageSchema(LintSchema):
    role = fields.String(metadata={"description": "system, user, assistant or tool."})
    content = fields.Raw(allow_none=True, metadata={"description": "A string, a mapping, or a list of content blocks."})
    tool_calls = fields.List(fields.Nested(ToolCallSchema), metadata={"description": "Tool calls (assistant only)."})

    @pre_load
    def check(self, data, **kwargs):
        return check_message(data, data.get(AT, ()), data.get(CONTENT_AT))

    @post_load
    def build(self, data, **kwargs):
        return Message(role=data.get("role", ""), content=data.get("content"),
                       tool_calls=tuple(data.get("tool_calls", ())))
