"""EV2xx: messages, content blocks and tool calls."""
from __future__ import annotations

import re
from typing import Any, Optional

from ..diagnostics import FIRST_KEY, KEY
from ..schemas.context import annotate, reference, report
from ..suggest import did_you_mean, found, one_of, shown
from .common import check_unknown_keys, is_text

ROLES = ("assistant", "system", "tool", "user")
MESSAGE_KEYS = ("role", "content", "tool_calls", "name")
TOOL_CALL_KEYS = ("tool", "input", "output")
_ROLE_MARKER = re.compile(r"@\[(system|user|assistant|tool)\]:", re.IGNORECASE)


def check_messages_list(value: Any, at: tuple, key: str) -> Optional[list]:
    """EV209 / EV207 for a list of messages; the annotated mapping items, or None."""
    if not isinstance(value, list):
        report("EV209", f"'{key}' must be a list of messages, {found(value)}", at)
        return None
    if not value:
        report("EV209", f"'{key}' is an empty list; it needs at least one message", at)
        return None
    return check_message_items(value, at)


def check_message_items(value: list, at: tuple) -> list:
    items = []
    for i, item in enumerate(value):
        if isinstance(item, dict):
            items.append(annotate(item, at + (i,)))
        else:
            report("EV207", f"a message must be a mapping with 'role' and 'content', {found(item)}", at + (i,))
    return items


def check_message(msg: dict, at: tuple, content_at: Optional[tuple] = None) -> dict:
    clean: dict = {}
    content_at = content_at if content_at is not None else at + ("content",)
    check_unknown_keys(msg, MESSAGE_KEYS, at, "message")
    role = msg.get("role")
    if "role" not in msg:
        report("EV201", f"message has no 'role' (expected one of {one_of(ROLES)})", at, FIRST_KEY)
    elif role not in ROLES:
        report("EV201", f"invalid role {shown(role)}{did_you_mean(role, ROLES)}; expected one of {one_of(ROLES)}",
               at + ("role",))
    else:
        clean["role"] = role

    calls = None
    if "tool_calls" in msg:
        calls = check_tool_calls(msg["tool_calls"], at + ("tool_calls",))
        if calls is not None:
            clean["tool_calls"] = calls
            if calls and role in ROLES and role != "assistant":
                report("EV206", f"'tool_calls' on a message with role '{role}'; only assistant messages make tool calls",
                       at + ("tool_calls",), KEY)

    has_calls = bool(calls) or (isinstance(msg.get("tool_calls"), list) and bool(msg["tool_calls"]))
    if "content" not in msg or msg["content"] is None:
        if not has_calls:
            where = at if "content" not in msg else content_at
            report("EV202", "message has no 'content' (a string, a mapping or a list of content blocks) "
                   "and no non-empty 'tool_calls'", where, FIRST_KEY if "content" not in msg else "value")
    else:
        content = check_content(msg["content"], content_at)
        if content is not None:
            clean["content"] = content
    return clean


def check_content(content: Any, at: tuple) -> Any:
    """The content, with the mapping blocks of a list annotated for their own checks; None when unusable."""
    if isinstance(content, str):
        _check_role_marker(content, at)
        return content
    if isinstance(content, dict):
        return content
    if isinstance(content, list):
        blocks = []
        for i, block in enumerate(content):
            if isinstance(block, str):
                _check_role_marker(block, at + (i,))
                blocks.append(block)
            elif isinstance(block, dict):
                blocks.append(annotate(block, at + (i,)))
            else:
                report("EV203", f"a content block must be a string or a mapping with 'type', {found(block)}", at + (i,))
        return blocks
    report("EV202", f"'content' must be a string, a mapping or a list of content blocks, {found(content)}", at)
    return None


def check_content_block(block: dict, at: tuple) -> None:
    """A mapping content block: `type`, and a string `value` for text and file blocks."""
    if "type" not in block:
        report("EV203", "content block has no 'type' (for example 'text' or 'file')", at, FIRST_KEY)
        return
    kind = block["type"]
    if not isinstance(kind, str):
        report("EV203", f"content block 'type' must be a string, {found(kind)}", at + ("type",))
        return
    if kind in ("text", "file"):
        if "value" not in block:
            report("EV203", f"content block of type '{kind}' has no 'value'", at, FIRST_KEY)
        elif not isinstance(block["value"], str):
            report("EV203", f"content block of type '{kind}' needs a string 'value', {found(block['value'])}",
                   at + ("value",))
        elif kind == "text":
            _check_role_marker(block["value"], at + ("value",))
        else:
            reference("file", block["value"], at + ("value",))


def _check_role_marker(text: str, at: tuple) -> None:
    match = _ROLE_MARKER.search(text)
    if match:
        report("EV208", f"text content holds the role marker '{match.group(0)}', which agent providers may read as a "
               "turn boundary (prompt injection); rephrase it or split the text into messages", at, needle=match.group(0))


def check_tool_calls(value: Any, at: tuple) -> Optional[list]:
    if not isinstance(value, list):
        report("EV204", f"'tool_calls' must be a list of tool calls, {found(value)}", at)
        return None
    calls = []
    for i, item in enumerate(value):
        if isinstance(item, dict):
            calls.append(annotate(item, at + (i,)))
        else:
            report("EV204", f"a tool call must be a mapping with 'tool', {found(item)}", at + (i,))
    return calls


def check_tool_call(call: dict, at: tuple, locate_key=None) -> dict:
    clean = {}
    check_unknown_keys(call, TOOL_CALL_KEYS, at, "tool call", skip=("args",))
    if "tool" not in call:
        report("EV204", "tool call has no 'tool' (the tool name)", at, FIRST_KEY)
    elif not is_text(call["tool"]):
        report("EV204", f"tool call 'tool' must be a non-empty string, {found(call['tool'])}", at + ("tool",))
    else:
        clean["tool"] = call["tool"]
    if "args" in call:
        hint = "rename it to 'input'" if "input" not in call else "merge it into 'input'"
        report("EV205", f"tool call arguments go under 'input', not 'args'; the runner ignores 'args' ({hint})",
               at + ("args",), KEY, fix=("rename_key", "input") if "input" not in call else None)
    for key in ("input", "output"):
        if key in call:
            clean[key] = call[key]
    return clean

