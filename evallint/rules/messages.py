"""EV2xx rules that are more than one value's own type: tool calls on a message
that is no assistant's, role markers in text, arguments under 'args', unknown
keys and references to files. A single value's type, accepted values and
requiredness are declared on the message schemas (``format/agentv2/messages.py``)."""
from __future__ import annotations

import re
from typing import Any, Iterator

from evallint.diagnostics import E, FIRST_KEY, KEY, VALUE, W, Rule
from evallint.rules.common import Site, check_unknown_keys, finding
from evallint.rules.grader_lists import (
    MODEL_GRADERS, in_turn, listed, normal_type, plays_turns, skips_defaults, test_graders, value_at,
)
from evallint.rules.input_files import suite_files_for
from evallint.rules.template_vars import FILLED_IN, render, variables

ROLES = ("assistant", "system", "tool", "user")  # a message's roles, as the runner spells them

# the rules this module finds, explained in messages.md beside it
EV201 = Rule("EV201", "invalid-role", E, "a message 'role' is missing or not system/user/assistant/tool")
EV202 = Rule("EV202", "invalid-content", E, "a message 'content' is missing or of the wrong type")
EV203 = Rule("EV203", "invalid-content-block", E, "a content block is malformed")
EV204 = Rule("EV204", "invalid-tool-call", E, "'tool_calls' or a tool call is malformed")
EV205 = Rule("EV205", "tool-call-args-key", E, "a tool call uses 'args' instead of 'input'", fixable=True,
             generations=("2.2",))
EV206 = Rule("EV206", "tool-calls-role", W, "'tool_calls' on a message whose role is not 'assistant'")
EV207 = Rule("EV207", "message-not-mapping", E, "a messages-list item is not a mapping")
EV208 = Rule("EV208", "role-marker-in-content", W, "text content holds a role marker such as '@[System]:'")
EV209 = Rule("EV209", "invalid-messages-list", E, "'input_messages'/'expected_messages' is not a list, or is empty",
             generations=("2.2",))
EV210 = Rule("EV210", "system-message-not-first", E, "a system message after another message of the input, which the "
             "runner sends as an assistant's turn", generations=("4.42",))
EV211 = Rule("EV211", "image-not-sent", E, "an image block in an input, which the runner never sends to the target",
             generations=("4.42",))
EV212 = Rule("EV212", "no-question", W, "an input whose user messages ask nothing (empty), or with no user message but "
             "system ones, which the runner sends as the question too", generations=("4.42",))
EV213 = Rule("EV213", "reference-answer-not-text", W, "an expected output whose last message is no assistant's, or "
             "holds a list of text, which the graders get as the reference answer as written or as JSON",
             generations=("4.42",))
EV214 = Rule("EV214", "expected-output-not-graded", W, "expected messages before the last, or the last one's tool calls "
             "beside its content, in a test whose every grader is an llm-grader, which gets the last content alone; a "
             "conversation test's expected output, which an early turn's llm-grader gets as its reference",
             generations=("4.42",))

NOT_A_LIST = "'{key}' must be a list of messages, {found}"
_ROLE_MARKER = re.compile(r"@\[(system|user|assistant|tool)\]:", re.IGNORECASE)


def check_message(msg: dict, place) -> Iterator:
    """Unknown keys; EV206 for tool calls on a message that is no assistant's."""
    yield from check_unknown_keys(msg, place.keys, place.at, "message")
    calls, role = msg.get("tool_calls"), msg.get("role")
    roles = place.schema.roles
    if isinstance(calls, list) and role in roles and role != "assistant" and any(isinstance(c, dict) for c in calls):
        yield finding("EV206", f"'tool_calls' on a message with role '{role}'; only assistant messages make tool "
                      "calls", place.at + ("tool_calls",), KEY)


def check_content_text(content: Any, place) -> Iterator:
    """EV208 in a message's text content (a string, or the strings of a content list)."""
    if isinstance(content, str):
        yield from _role_marker(content, place.at)
    elif isinstance(content, list):
        for i, block in enumerate(content):
            if isinstance(block, str):
                yield from _role_marker(block, place.at + (i,))


def check_content_block(block: dict, place) -> Iterator:
    """EV208 in a text block's value; a file block's value as a reference (in an AgentV 4.42 turn, EV203)."""
    kind, value = block.get("type"), block.get("value")
    if kind == "text" and isinstance(value, str):
        yield from _role_marker(value, place.at + ("value",))
    elif kind == "file" and isinstance(value, str):
        yield _sent_as_text(kind, place) if in_turn(place) else \
            Site("file", value, place.at + ("value",), _test_vars(place))


def _test_vars(place) -> dict:
    """{'vars': the names of the vars of the AgentV 4.42 test a file block is in}, which the runner does not fill
    into the file (EV406 when it holds one); {} outside a test, or for a test without vars."""
    test = _test_of(place)
    values = test.get("vars") if isinstance(test, dict) else None
    return {"vars": tuple(name for name in values if isinstance(name, str))} if isinstance(values, dict) else {}


def _test_of(place) -> Any:
    """The AgentV 4.42 test (an item of 'tests') that ``place`` is in; None outside one."""
    return value_at(place.document, place.at[:2]) if place.at[:1] == ("tests",) else None


def _sent_as_text(kind: str, place):
    return finding("EV203", f"a block of type '{kind}' in a turn is not attached: the runner passes a turn's expected "
                   "output on as written, so the path goes as text; only a test's own input and expected output "
                   "attach files", place.at, FIRST_KEY)


# the endings of the image files AgentV 4.42.4 reads, in any case (it leaves out an image block naming another)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp")
IMAGE_FILE = {"what": "image file", "warning": "Image file not found", "suffixes": IMAGE_SUFFIXES,
              "then": "the runner leaves it out (warning 'Image file not found')"}


def check_image_block(block: dict, place) -> Iterator:
    """An AgentV 4.42 image block's value: a path whose image the loader reads, or leaves out when it finds no file
    there. EV211 for one in an input (of a type the loader reads: of another, EV411 says it is left out): the target
    is sent the input's text and files alone (formatting/segment-formatter.ts formatSegment, orchestrator.ts), so
    only a code-grader's input holds the image."""
    value = block.get("value")
    if block.get("type") != "image" or not isinstance(value, str):
        return
    if in_turn(place):
        yield _sent_as_text("image", place)
        return
    yield Site("file", value, place.at + ("value",), IMAGE_FILE)
    if not value.lower().endswith(IMAGE_SUFFIXES) or _in_conversation(place):
        return
    if "expected_output" in place.at:
        yield finding("EV211", "image block in an expected output: the graders get the expected answer as text, the "
                      "picture in it a base64 data URL, so no grader sees the image (and each grading prompt carries its "
                      "bytes); describe the expected picture in text", place.at + ("type",), VALUE)
    else:
        yield finding("EV211", "image block in an input: AgentV 4.42.4 sends the target an input's text and files, "
                      "never its images, so the agent is asked about a picture it never sees (only a code-grader's "
                      "input holds it); describe the picture in text (an agent target can open the file when the "
                      "text names its path)", place.at + ("type",), VALUE)


def _in_conversation(place) -> bool:
    """Whether ``place`` is in a test in conversation mode, which sends its input's content lists as JSON text."""
    test = _test_of(place)
    return isinstance(test, dict) and test.get("mode") == "conversation"


def _role_marker(text: str, at: tuple) -> Iterator:
    match = _ROLE_MARKER.search(text)
    if match:
        yield finding("EV208", f"text content holds the role marker '{match.group(0)}', which agent providers may "
                      "read as a turn boundary (prompt injection); rephrase it or split the text into messages", at,
                      needle=match.group(0))


def check_tool_call(call: dict, place) -> Iterator:
    """Unknown keys; EV205 for arguments under 'args'."""
    yield from check_unknown_keys(call, place.keys, place.at, "tool call", skip=("args",))
    if "args" in call:
        hint = "rename it to 'input'" if "input" not in call else "merge it into 'input'"
        yield finding("EV205", f"tool call arguments go under 'input', not 'args'; the runner ignores 'args' ({hint})",
                      place.at + ("args",), KEY, fix=("rename_key", "input") if "input" not in call else None)


def sent(value: Any) -> list:
    """(role, index in the list or None, content) of each message the loader makes of an input
    (expandInputShorthand): a string or a mapping without a role is a user's message (its content), a list keeps the
    items that are messages."""
    if isinstance(value, str) or isinstance(value, dict) and "role" not in value:
        return [("user", None, value)]
    items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
    return [(item["role"], i, item.get("content")) for i, item in items if is_message(item)]


def suite_input_for(test: dict, suite: Any) -> Any:
    """The suite's input the loader puts in front of ``test``'s; None when the test skips the suite's defaults."""
    return suite.get("input") if isinstance(suite, dict) and not skips_defaults(test) else None


def made_of_files(test: dict, suite: Any) -> bool:
    """Whether the loader makes ``test``'s input of input files, its own, else the suite's (resolveInputMessages):
    one user message."""
    return (test.get("input_files") if test.get("input_files") is not None else suite_files_for(test, suite)) is not None


def is_message(value: Any) -> bool:
    """A message the loader keeps (types.ts isTestMessage): a known role and content (a string, a mapping, a list of
    strings and mappings) or a non-empty list of tool calls."""
    if not isinstance(value, dict) or value.get("role") not in ROLES:
        return False
    content, calls = value.get("content"), value.get("tool_calls")
    return isinstance(content, (str, dict)) or (isinstance(content, list) and all(
        isinstance(item, (str, dict)) for item in content)) or (isinstance(calls, list) and bool(calls))


def _out_of_place(messages: list, at: tuple, before: str = "", filled: bool = False) -> Iterator:
    """EV210 for each system message of ``messages`` (``sent``) after one of another role (``before``: the role of
    a message that comes before them all, from the suite's input); ``filled``: the messages are those the test's
    vars make of the input written at ``at``, where each is reported."""
    earlier = before
    for role, i, _ in messages:
        if role == "system" and earlier:
            where, start = ("the suite's input", "the suite's input") if before else (f"a {earlier} message", "the input")
            yield finding("EV210", f"{FILLED_IN if filled else ''}system message after {where}: the runner sends only the "
                          "system messages that open the input as the system prompt, and this one as an assistant's "
                          f"turn starting '@[System]:'; move it to the start of {start}",
                          at if filled else at + ((i, "role") if i is not None else ("role",)), VALUE)
        earlier = earlier or (role if role != "system" else "")


def check_system_first(test: dict, place) -> Iterator:
    """EV210 in an AgentV 4.42 test's input, after the suite's input in front of it (unless the test skips the
    suite's defaults). Not of a conversation, whose chat keeps each message's role, nor of an input made from input
    files (the test's, else the suite's unless it skips them: resolveInputMessages), one user message."""
    if test.get("mode") == "conversation" or made_of_files(test, place.document):
        return
    given, written = suite_input_for(test, place.document), test.get("input")
    values = None if place.schema.dataset else variables(test)  # the JSONL loader fills in no vars
    given, read = render(given, values), render(written, values)
    before = next((role for role, _, _ in sent(given) if role != "system"), "") if given is not None else ""
    yield from _out_of_place(sent(read), place.at + ("input",), before, filled=read != written)


def check_expected_answer(test: dict, place) -> Iterator:
    """EV213 for an AgentV 4.42 test's expected output whose last message, of which the loader makes the reference
    answer the graders get (yaml-parser.ts: its content, as written when it is a string, else as JSON), is no
    assistant's, or holds a list of text alone (a list of strings is the content of one assistant message)."""
    kept = expected_messages(test.get("expected_output"), place.at + ("expected_output",))
    if not kept:
        return
    at, last = kept[-1]
    content = last.get("content")
    if last["role"] != "assistant":
        yield finding("EV213", f"the expected output ends in a {last['role']} message, which the runner gives the "
                      "graders as the final expected answer (the reference answer); end it with the assistant's "
                      "answer", at + ("role",))
    elif isinstance(content, list) and content and all(isinstance(item, str) or isinstance(item, dict) and item.get(
            "type") == "text" for item in content):
        yield finding("EV213", "the expected answer is a list of text, which the runner gives the graders as JSON "
                      "text ('[{\"type\": \"text\", ...}]'), not as the answer's text; write the answer as one string",
                      at if at[-1] == "expected_output" else at + ("content",))


def expected_messages(value: Any, at: tuple) -> list:
    """The (data path, message) of each message the loader keeps of the expected output ``value`` written at ``at``
    (a list of strings or blocks, the content of one assistant message, is at ``at``)."""
    if isinstance(value, list) and value and not (isinstance(value[0], dict) and "role" in value[0]):
        return [(at, {"role": "assistant", "content": value})]
    if isinstance(value, list):
        return [(at + (i,), item) for i, item in enumerate(value) if is_message(item)]
    return [(at, value)] if is_message(value) else []


def check_expected_graded(test: dict, place) -> Iterator:
    """EV214 for what of an AgentV 4.42 test's expected output no grader gets, when every grader of the test is an
    llm-grader with a prompt of text (or none, the default one): it gets the reference answer, the last message's
    content (yaml-parser.ts), so the messages before it, and that message's tool calls beside its content, are
    never graded. A code-grader, a prompt script or a custom type gets the whole expected output, and another
    built-in grader grades what it is told; a conversation's turns are graded each by its own."""
    if plays_turns(test):
        return
    graders = test_graders(place.document, test, place.schema.dataset)
    if not all(isinstance(g, str) or isinstance(g, dict) and isinstance(g.get("type"), str) and normal_type(
            g["type"]) in MODEL_GRADERS and not isinstance(g.get("prompt"), dict) for g in graders):
        return
    kept = expected_messages(test.get("expected_output"), place.at + ("expected_output",))
    how = "an llm-grader gets only the last message's content as the reference answer"
    then = "put what the answer must show in that message or in the criteria, or check it with another grader"
    if len(kept) > 1:
        earlier = "expected message before the last reaches" if len(kept) == 2 else \
            f"{len(kept) - 1} expected messages before the last reach"
        yield finding("EV214", f"the {earlier} no grader of this test: {how}; {then} (a code-grader gets every "
                      "message, tool-trajectory the calls)", kept[0][0])
    elif kept and kept[0][1].get("content") is not None and listed(kept[0][1].get("tool_calls")):
        yield finding("EV214", f"the expected tool calls reach no grader of this test: {how}, not its tool calls; "
                      f"{then} (tool-trajectory checks calls)", kept[0][0] + ("tool_calls",), KEY)


def check_suite_system_first(suite: dict, place) -> Iterator:
    """EV210 in an AgentV 4.42 suite's own input, unless each test it goes to is a conversation (or skips it)."""
    tests = suite.get("tests")
    getting = [test for test in tests if isinstance(test, dict) and not skips_defaults(test)] \
        if isinstance(tests, list) else [None]
    if any(test is None or test.get("mode") != "conversation" for test in getting):
        yield from _out_of_place(sent(suite.get("input")), ("input",))
