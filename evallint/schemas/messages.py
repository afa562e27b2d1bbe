"""Messages and tool calls, as marshmallow fields.

Messages are the most numerous objects of a suite, so each is loaded by a
field (checks of the EV2xx rules, then the frozen model) rather than by a
nested schema load per message: the same rules, a fraction of the cost."""
from __future__ import annotations

from marshmallow import fields

from ..model import Message, ToolCall
from ..rules.messages import check_message, check_tool_call
from .context import AT, CONTENT_AT


def load_tool_call(call: dict) -> ToolCall:
    clean = check_tool_call(call, call.get(AT, ()))
    return ToolCall(tool=clean.get("tool", ""), input=clean.get("input"), output=clean.get("output"))


class MessageField(fields.Field):
    """A message mapping (already annotated with its data path by the case)."""

    def _deserialize(self, value, attr, data, **kwargs):
        clean = check_message(value, value.get(AT, ()), value.get(CONTENT_AT))
        calls = tuple(load_tool_call(call) for call in clean.get("tool_calls", ()))
        return Message(role=clean.get("role", ""), content=clean.get("content"), tool_calls=calls)


def MessageList(**kwargs) -> fields.List:
    return fields.List(MessageField(), **kwargs)
