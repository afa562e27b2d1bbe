"""What an AgentV 4.42 input asks the target (EV212, explained in messages.md): the question the runner makes of
the test's messages, after the suite's (formatting/prompt-builder.ts), of a test the loader keeps."""
from __future__ import annotations

from typing import Any, Iterator

from evallint.rules.common import finding
from evallint.rules.kept_tests import gradable
from evallint.rules.messages import made_of_files, sent, suite_input_for
from evallint.rules.template_vars import filled, render, variables


def check_question(test: dict, place) -> Iterator:
    """EV212 for an AgentV 4.42 test whose input (after the suite's, unless it skips the suite's defaults; both with
    the test's vars filled in) asks nothing: no message but a system one says anything, so the target is sent an empty
    question, or the text of the system messages when they say something (formatting/prompt-builder.ts). Not of a
    conversation, whose turns ask (nor of a test with turns, meant as one), nor of an input made from input files, nor
    of a test without input (EV105) or skipped as incomplete (EV106)."""
    if test.get("mode") == "conversation" or test.get("turns") or made_of_files(test, place.document) \
            or "input" not in test or not gradable(test, place.schema.dataset):
        return  # turns without the mode: EV121, whose fix makes them ask; a test skipped as incomplete: EV106
    suite_input = suite_input_for(test, place.document)
    if not place.schema.dataset:  # the JSONL loader fills no vars; the YAML one fills the suite's input a test gets
        test, suite_input = filled(test), render(suite_input, variables(test))
    messages = [(role, content) for role, _, content in sent(suite_input) + sent(test.get("input"))]
    if any(role != "system" and _asks(content) for role, content in messages):
        return  # an assistant's or a tool's turn is sent as the question's text ('@[Assistant]:')
    if any(role == "system" and _asks(content) for role, content in messages):
        yield finding("EV212", "no user message of the input asks anything: the runner sends the system messages' "
                      "text as the question too (and as the system prompt); write what the user asks",
                      place.at + ("input",))
    elif any(role in ("user", "system") for role, _ in messages):
        yield finding("EV212", "the input's user message is empty: the runner sends the target an empty question; "
                      "write what the user asks", place.at + ("input",))


def _asks(content: Any) -> bool:
    """Whether a user message's content says anything: text with more than white space (or a placeholder), a file,
    a mapping."""
    if isinstance(content, str):
        return bool(content.strip())
    if isinstance(content, list):
        return any(_asks(item) if isinstance(item, str) else isinstance(item, dict) and (
            item.get("type") != "text" or _asks(item.get("value"))) for item in content)
    return isinstance(content, dict)
