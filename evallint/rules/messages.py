"""EV2xx rules that are more than one value's own type: a list of messages as a
whole, tool calls on a message that is no assistant's, role markers in text,
arguments under 'args', unknown keys and references to files. A single value's
type, accepted values and requiredness are declared on the message schemas
(``format/messages.py``)."""
from __future__ import annotations

import re
from typing import Any, Optional

from evallint.diagnostics import E, KEY, W, Rule
from evallint.rules.collect import annotate_list, reference, report
from evallint.rules.common import Keys, check_unknown_keys
from evallint.suggest import found

# the rules this module finds, explained in messages.md beside it
EV201 = Rule("EV201", "invalid-role", E, "a message 'role' is missing or not system/user/assistant/tool")
EV202 = Rule("EV202", "invalid-content", E, "a message 'content' is missing or of the wrong type")
EV203 = Rule("EV203", "invalid-content-block", E, "a content block is malformed")
EV204 = Rule("EV204", "invalid-tool-call", E, "'tool_calls' or a tool call is malformed")
EV205 = Rule("EV205", "tool-call-args-key", E, "a tool call uses 'args' instead of 'input'", fixable=True)
EV206 = Rule("EV206", "tool-calls-role", W, "'tool_calls' on a message whose role is not 'assistant'")
EV207 = Rule("EV207", "message-not-mapping", E, "a messages-list item is not a mapping")
EV208 = Rule("EV208", "role-marker-in-content", W, "text content holds a role marker such as '@[System]:'")
EV209 = Rule("EV209", "invalid-messages-list", E, "'input_messages'/'expected_messages' is not a list, or is empty")

NOT_A_LIST = "'{key}' must be a list of messages, {found}"
_ROLE_MARKER = re.compile(r"@\[(system|user|assistant|tool)\]:", re.IGNORECASE)


def check_messages_list(value: Any, at: tuple, key: str) -> Optional[list]:
    """EV209 for the list under ``key`` as a whole (the case hands its schema an empty list when
    'expected_messages' is absent, and leaves out what this returns as None); the items, or None."""
    if not isinstance(value, list):
        report("EV209", NOT_A_LIST.format(key=key, found=found(value)), at)
        return None
    if not value:
        report("EV209", f"'{key}' is an empty list; it needs at least one message", at)
        return None
    return check_message_items(value, at)


def check_message_items(value: list, at: tuple) -> list:
    """The items of a list of messages, every one in its place, each mapping knowing its path; an item
    that is no mapping is rejected by the schema's item field (EV207)."""
    return annotate_list(value, at)


def check_message(msg: dict, at: tuple, content_at: Optional[tuple], known: Keys, roles: tuple) -> dict:
    """Unknown keys, EV206, EV208 in text content; ``msg`` with its content blocks and tool calls knowing
    their paths. ``content_at`` is the path of the content when the case's loader built the message."""
    check_unknown_keys(msg, known, at, "message")
    content_at = content_at if content_at is not None else at + ("content",)
    out = dict(msg)
    calls = msg.get("tool_calls")
    if isinstance(calls, list):
        role = msg.get("role")
        if role in roles and role != "assistant" and any(isinstance(call, dict) for call in calls):
            report("EV206", f"'tool_calls' on a message with role '{role}'; only assistant messages make tool calls",
                   at + ("tool_calls",), KEY)
        out["tool_calls"] = annotate_list(calls, at + ("tool_calls",))
    content = msg.get("content")
    if isinstance(content, str):
        _check_role_marker(content, content_at)
    elif isinstance(content, list):
        for i, block in enumerate(content):
            if isinstance(block, str):
                _check_role_marker(block, content_at + (i,))
        out["content"] = annotate_list(content, content_at)
    return out


def check_content_block(block: dict, at: tuple) -> None:
    """EV208 in a text block's value; a file block's value as a reference."""
    kind, value = block.get("type"), block.get("value")
    if kind == "text" and isinstance(value, str):
        _check_role_marker(value, at + ("value",))
    elif kind == "file" and isinstance(value, str):
        reference("file", value, at + ("value",))


def _check_role_marker(text: str, at: tuple) -> None:
    match = _ROLE_MARKER.search(text)
    if match:
        report("EV208", f"text content holds the role marker '{match.group(0)}', which agent providers may read as a "
               "turn boundary (prompt injection); rephrase it or split the text into messages", at, needle=match.group(0))


def check_tool_call(call: dict, at: tuple, known: Keys) -> None:
    """Unknown keys; EV205 for arguments under 'args'."""
    check_unknown_keys(call, known, at, "tool call", skip=("args",))
    if "args" in call:
        hint = "rename it to 'input'" if "input" not in call else "merge it into 'input'"
        report("EV205", f"tool call arguments go under 'input', not 'args'; the runner ignores 'args' ({hint})",
               at + ("args",), KEY, fix=("rename_key", "input") if "input" not in call else None)
