"""Messages of AgentV 4.42 and the shorthands a test writes them in (``input``, ``expected_output``).

A message is read as in 2.2 (a role, content or tool calls, unknown keys and tool calls on another role
reported by the same rule functions), but its content list may hold plain strings (text) and ``image``
blocks, its tool calls are carried unchecked and it may have a ``name``. The loader drops an item of a
message list that is no valid message, and skips a test left without input: each such item is an error."""
from __future__ import annotations

from typing import Any, Iterator

from marshmallow import ValidationError, fields, validates_schema

from evallint.diagnostics import FIRST_KEY
from evallint.format.agentv2.messages import NOTHING_SAID
from evallint.format.agentv2.messages import ContentBlockSchema as BlockSchema2
from evallint.format.base import LintSchema, builds, load, made
from evallint.format.fields import Checked, Items, Problem, choice, invalid, problem_at
from evallint.rules import messages as rules
from evallint.rules.messages import ROLES
from evallint.suggest import found, one_of

BLOCK_TYPES = ("text", "file", "image")  # file and image: 'value' is the path of a file the loader reads


class ContentBlockSchema(BlockSchema2):
    """A mapping in a content list: as in 2.2, with ``image`` blocks too (a block of another type is passed on
    as written, which no provider reads as text or a file)."""

    checks = (rules.check_content_block, rules.check_image_block)

    type = choice(BLOCK_TYPES, "EV203", "content block type {shown}{hint} is passed on as written, as neither text "
                                        "nor a file; the block types the runner reads: {choices}",
                  f"content block has no 'type' (expected one of {one_of(BLOCK_TYPES)})",
                  metadata={"description": "text (the value is sent as text), file or image (the value is a path "
                                           "whose file the runner reads; an input's image reaches code graders alone)."})


CONTENT_BLOCK = ContentBlockSchema()


class ContentField(Checked):
    """A message's content: a string, a mapping (structured content, as written) or a list of strings (text)
    and content blocks, given back as a tuple of blocks. Null is let through: a message may say nothing
    when it makes tool calls (``says_something``)."""

    def __init__(self, **kwargs: Any):
        super().__init__("EV202", "'content' must be a string, a mapping or a list of strings and content blocks, "
                         "{found}", allow_none=True, checks=(rules.check_content_text,), **kwargs)

    def check(self, value):
        if value is None or isinstance(value, (str, dict)):
            return value
        if not isinstance(value, list):
            raise self.reject(value)
        errors, blocks = {}, []
        for i, item in enumerate(value):
            if isinstance(item, str):
                if item:  # the loader drops an empty string
                    blocks.append({"type": "text", "value": item})
            elif isinstance(item, dict):
                try:
                    blocks.append(load(CONTENT_BLOCK, item))
                except ValidationError as exc:
                    errors[i] = exc.messages
            else:
                errors[i] = [Problem("EV203", f"a content item must be a string or a block mapping with 'type' and "
                                              f"'value', {found(item)}; the runner drops it")]
        if errors:
            raise ValidationError(errors)
        return tuple(blocks)

    def parts(self, value: Any, at: tuple) -> Iterator:
        for i, block in enumerate(value if isinstance(value, list) else ()):
            if isinstance(block, dict):
                yield CONTENT_BLOCK, block, at + (i,)

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "string"}, {"type": "object"},
                          {"type": "array", "items": {"oneOf": [{"type": "string"},
                                                                {"$ref": "#/definitions/ContentBlock"}]}}]}


CONTENT = ContentField()


class MessageSchema(LintSchema):
    definition = "Message"
    checks = (rules.check_message,)
    roles = ROLES
    role = choice(ROLES, "EV201", "invalid role {shown}{hint}; the runner drops this message; expected one of "
                                  "{choices} (in lower case)",
                  f"message has no 'role' (expected one of {one_of(ROLES)}); the runner drops this message",
                  metadata={"description": "system, user, assistant or tool."})
    content = ContentField(metadata={"description": "A string, a mapping, or a list of strings and content blocks."})
    tool_calls = Items(fields.Raw(allow_none=True), "EV204", "'tool_calls' must be a list of tool calls, {found}",
                       metadata={"description": "Tool calls (assistant only), carried as written."})
    name = fields.Raw(allow_none=True, metadata={"description": "The speaker's name."})

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def says_something(self, data, original, **kwargs):
        """EV202: no content (or a null one) and no non-empty list of tool calls: the runner drops it."""
        calls = original.get("tool_calls")
        if "tool_calls" in original and not isinstance(calls, list):  # EV204 of the field says so
            return
        if original.get("content") is None and not (isinstance(calls, list) and calls):
            raise problem_at("EV202", NOTHING_SAID, **({"field": "content"} if "content" in original
                                                      else {"target": FIRST_KEY}))

    @builds
    def build(self, data, **kwargs):
        name = data.get("name")
        return built_message(data["role"], data.get("content"), tuple(data.get("tool_calls", ())),
                             name if isinstance(name, str) else None)


def built_message(role: str, content: Any = None, tool_calls: tuple = (), name: Any = None) -> Any:
    """The model's message (``base.made``)."""
    return made("evallint.format.agentv4.model", "Message", role=role, content=content, tool_calls=tool_calls, name=name)


class InputMessageSchema(MessageSchema):
    """A message of an input (a test's, the suite's, a dataset line's): the loader sends only what its content
    says, so it drops a message without content, tool calls and all (an expected output's message may be tool
    calls alone)."""

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def says_something(self, data, original, **kwargs):
        calls = original.get("tool_calls")
        if original.get("content") is None and isinstance(calls, list) and calls:
            raise problem_at("EV202", "an input message without 'content' is dropped by the runner, its 'tool_calls' "
                             "with it (only an expected output's message may be tool calls alone); give it content",
                             **({"field": "content"} if "content" in original else {"target": FIRST_KEY}))
        super().says_something(data, original, **kwargs)


MESSAGE, INPUT_MESSAGE = MessageSchema(), InputMessageSchema()
_MESSAGE_ITEM = "a message must be a mapping with 'role' and 'content', {found}; the runner drops it"


def _messages(value: list, at_least_one: str, message: MessageSchema = MESSAGE) -> list:
    errors, out = {}, []
    for i, item in enumerate(value):
        try:
            if not isinstance(item, dict):
                raise invalid("EV207", _MESSAGE_ITEM, item)
            out.append(load(message, item))
        except ValidationError as exc:
            errors[i] = exc.messages
    if errors:
        raise ValidationError(errors)
    if not out:
        raise ValidationError(Problem("EV105", at_least_one))
    return out


def _message_parts(value: Any, at: tuple, message: MessageSchema = MESSAGE) -> Iterator:
    for i, item in enumerate(value):
        if isinstance(item, dict):
            yield message, item, at + (i,)


class InputField(Checked):
    """A test's (or the suite's) ``input``: a string is one user message, a mapping without 'role' the content
    of one, a mapping with 'role' the message, a list the messages. ``message``: the schema of a message (a
    turn's, which the run sends as written, may be tool calls alone)."""

    def __init__(self, message: MessageSchema = INPUT_MESSAGE, **kwargs: Any):
        super().__init__("EV112", "'input' must be a string, a mapping or a list of messages, {found}; the runner "
                                  "finds no input in it", **kwargs)
        self.message = message
        self.error_messages = {**self.error_messages,
                               "null": Problem("EV105", "'input' has no value; there is nothing to send")}

    def check(self, value):
        if isinstance(value, str):
            return [built_message("user", value)]
        if isinstance(value, dict):
            return [load(self.message, value)] if "role" in value else [built_message("user", value)]
        if isinstance(value, list):
            return _messages(value, "'input' is an empty list; there is nothing to send", self.message)
        raise self.reject(value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        if isinstance(value, str):
            yield CONTENT, value, at
        elif isinstance(value, dict) and "role" in value:
            yield self.message, value, at
        elif isinstance(value, list):
            yield from _message_parts(value, at, self.message)

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "string"}, {"type": "object"},
                          {"type": "array", "minItems": 1, "items": {"$ref": "#/definitions/Message"}}]}


def expected_shape(value: Any) -> str:
    """How the loader reads an ``expected_output``: as one message, as messages, or as the content of one
    assistant message ("" for a value it cannot read)."""
    if isinstance(value, dict):
        return "message" if "role" in value else "content"
    if isinstance(value, list):
        return "messages" if value and isinstance(value[0], dict) and "role" in value[0] else "content"
    return "content" if isinstance(value, str) else ""


class ExpectedOutputField(Checked):
    """A test's ``expected_output``: a string, a mapping without 'role' or a list whose first item is no
    message are the content of one assistant message; a mapping with 'role' is the message, a list
    starting with one the messages."""

    def __init__(self, **kwargs: Any):
        super().__init__("EV112", "'expected_output' must be a string, a mapping or a list, {found}", **kwargs)
        self.content = ContentField()

    def check(self, value):
        shape = expected_shape(value)
        if shape == "message":
            return [load(MESSAGE, value)]
        if shape == "messages":
            return _messages(value, "'expected_output' holds no valid message")
        if shape == "content":
            return [built_message("assistant", self.content.check(value) if isinstance(value, list) else value)]
        raise self.reject(value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        shape = expected_shape(value)
        if shape == "message":
            yield MESSAGE, value, at
        elif shape == "messages":
            yield from _message_parts(value, at)
        elif shape == "content":
            yield self.content, value, at

    def json_schema(self) -> dict:
        return {"oneOf": [{"type": "string"}, {"type": "object"}, {"type": "array"}]}


def read_messages(field: Checked, value: Any) -> tuple:
    """The messages the loader reads in ``value`` as ``field`` (an input or an expected output) has it: of a
    list of messages, those it keeps (it drops each item that is no message); none when it reads none."""
    try:
        return tuple(field.check(value)) if value is not None else ()
    except ValidationError:
        if not isinstance(value, list) or (isinstance(field, ExpectedOutputField) and expected_shape(value) != "messages"):
            return ()
        schema = getattr(field, "message", MESSAGE)
        return tuple(message for message in (_kept(item, schema) for item in value) if message is not None)


def _kept(item: Any, schema: MessageSchema) -> Any:
    """The message the loader keeps of a list's ``item`` (what it counts as a message: a role it knows, and a
    text, a mapping, a list of strings and mappings or, but in an input, a list of tool calls), as written where
    a check of evallint's rejects it; None for an item it drops."""
    if not isinstance(item, dict) or item.get("role") not in ROLES:
        return None
    try:
        return load(schema, item)
    except ValidationError:
        pass
    content, calls = item.get("content"), item.get("tool_calls")
    calls = tuple(calls) if isinstance(calls, list) else ()
    if isinstance(content, list) and all(isinstance(part, (str, dict)) for part in content):
        content = tuple({"type": "text", "value": part} if isinstance(part, str) else part for part in content)
    elif not isinstance(content, (str, dict)) and not (calls and schema is MESSAGE):
        return None
    name = item.get("name")
    return built_message(item["role"], content, calls, name if isinstance(name, str) else None)
