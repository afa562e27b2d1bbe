"""What to do about a YAML syntax error: a short hint after the parser's own words, for the shapes people
write by mistake (a misindented key or list item, a tab, ': ' in a plain value, an unclosed bracket or
quote). The parser's problem and position stay as they are; the hint reads the lines around them.

Both of PyYAML's parsers are covered: libyaml's words (``did not find expected key``) and the pure-Python
parser's (``expected <block end>, but found '-'``)."""
from __future__ import annotations

import re
from typing import Optional

from evallint.suggest import did_you_mean

_LIST_ITEM = re.compile(r" *-(?:[ \t]|$)")
_ITEM_MARKERS = re.compile(r" *(?:-[ \t]+)*")
_KEY_WITH_VALUE = re.compile(r"""[^\s#'"][^#]*?:[ \t]+[^\s#]""")


def syntax_message(exc, text: str) -> str:
    """The message of a syntax error (a ``yaml.MarkedYAMLError`` in ``text``): the parser's problem, its
    context, and a hint when one helps."""
    message = exc.problem or "invalid YAML"
    if exc.context and exc.context not in message:
        message = f"{message} ({exc.context})"
    hint = syntax_hint(exc.problem, exc.context, exc.problem_mark, exc.context_mark, text) if exc.problem else None
    return f"{message}; {hint}" if hint else message


def syntax_hint(problem: str, context: Optional[str], problem_mark, context_mark, text: str) -> Optional[str]:
    """A hint for the syntax error the parser reported (its ``problem`` and ``context`` with their marks),
    or None when none helps."""
    if problem_mark is None:
        return None
    lines = [line.rstrip("\r") for line in text.split("\n")]
    if not 0 <= problem_mark.line < len(lines):
        return None
    at = _At(lines, problem_mark.line, problem_mark.column)
    context = context or ""
    if problem.startswith("mapping values are not allowed"):
        return _colon_in_value(at)
    if "cannot start any token" in problem or "tab character" in problem:
        return _bad_start(at)
    if problem.startswith(("block sequence entries are not allowed", "sequence entries are not allowed")):
        return ("a list cannot start on its key's line: put the '- ' item on the next line, indented under the "
                "key (or quote the value, if it is text)")
    if "unknown escape character" in problem:
        return ("in double quotes a backslash starts an escape (\\n, \\t, \\\", \\\\): write '\\\\' for a "
                "backslash, or single-quote the value")
    if context_mark is None:
        return None
    opened = f"line {context_mark.line + 1} column {context_mark.column + 1}"
    if context == "while scanning a quoted scalar" and "end of stream" in problem:
        return f"the quote opened at {opened} is never closed"
    if context in ("while parsing a flow sequence", "while parsing a flow mapping"):
        bracket = "[" if context == "while parsing a flow sequence" else "{"
        return (f"the '{bracket}' opened at {opened} is not closed before this point, or a ',' is missing between "
                "two of its entries")
    if context in ("while scanning an alias", "while scanning an anchor"):
        return "'*' starts an alias and '&' an anchor: quote a value that starts with one"
    if context == "while scanning a simple key" and "':'" in problem:
        return (f"line {context_mark.line + 1} is read as a key but has no ':'; if it goes on with the value above, "
                "indent it deeper than that value's key, or quote the value")
    if context in ("while parsing a block collection", "while parsing a block mapping"):
        return _misindented(at, context_mark, is_list=context == "while parsing a block collection")
    return None


class _At:
    """The line and column a problem is at, with what is around it."""

    def __init__(self, lines: list, line: int, column: int):
        self.lines, self.line, self.column = lines, line, column
        self.text = lines[line]
        self.indent = _indent(self.text)

    @property
    def number(self) -> int:
        return self.line + 1

    def starts_line(self) -> bool:
        return not self.text[:self.column].strip()

    def previous(self, test=lambda line: True) -> Optional[int]:
        """The nearest line above with content (not blank, not only a comment) that passes ``test``."""
        for n in range(self.line - 1, -1, -1):
            stripped = self.lines[n].strip()
            if stripped and not stripped.startswith("#") and test(self.lines[n]):
                return n
        return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _spaces(n: int) -> str:
    return f"{n} space" + ("" if n == 1 else "s")


def _key_column(line: str) -> int:
    """Where the keys of the mapping on ``line`` are: after its indentation and any '- ' markers."""
    return _ITEM_MARKERS.match(line).end()


def _colon_in_value(at: _At) -> str:
    plain = "a plain (unquoted) value cannot hold ': '"
    if _KEY_WITH_VALUE.match(at.text[_key_column(at.text):at.column]):  # 'key: value: more' on one line
        return f"{plain}; quote the value"
    above = at.previous()
    if above is not None and _indent(at.lines[above]) < at.indent and _KEY_WITH_VALUE.match(
            at.lines[above][_key_column(at.lines[above]):]):
        return (f"line {at.number} is indented deeper than the key on line {above + 1}, so it goes on with that "
                f"key's value, and {plain}: to make it a key beside that one, indent it "
                f"{_spaces(_key_column(at.lines[above]))}; if it is text, quote the value")
    return f"{plain}; quote the value"


def _bad_start(at: _At) -> str:
    char = at.text[at.column:at.column + 1]
    if char == "\t" or "\t" in at.text[:at.indent + 1]:
        return f"YAML indents with spaces, never tabs: replace the tab on line {at.number} with spaces"
    if char in ("@", "`", "%"):
        return f"a plain value cannot start with '{char}': quote the value"
    return None


def _misindented(at: _At, context_mark, *, is_list: bool) -> Optional[str]:
    if not at.starts_line():
        return f"line {at.number} goes on after a complete value; only a comment may follow it: quote the whole value"
    opened = context_mark.line + 1
    expected = context_mark.column
    item = _LIST_ITEM.match(at.text) is not None
    if is_list:
        if item:
            return (f"line {at.number}'s '-' is indented {_spaces(at.indent)}, but the items of the list that starts on "
                    f"line {opened} are indented {expected}")
        if at.indent == expected:
            return (f"line {at.number} is at the indentation of the list that starts on line {opened} "
                    f"({_spaces(expected)}) but is no '- ' item")
        owner = at.previous(lambda line: _indent(line) == expected and _LIST_ITEM.match(line) is not None)
        if owner is not None and at.indent > expected and _key_column(at.lines[owner]) > expected + 1:
            return (f"line {at.number} is indented {_spaces(at.indent)}, but the keys of the list item on line "
                    f"{owner + 1} are indented {_key_column(at.lines[owner])}")
        return (f"line {at.number} is indented {_spaces(at.indent)}, but the items of the list that starts on line "
                f"{opened} are indented {expected}")
    if item:
        # the list the item was probably meant for: the nearest one above inside this mapping
        meant = at.previous(lambda line: _LIST_ITEM.match(line) is not None and _indent(line) != at.indent)
        if at.indent == expected:
            hint = (f"line {at.number}'s '-' is at the indentation of the keys of the mapping that starts on line "
                    f"{opened} ({_spaces(expected)}), where no list item can be")
            if meant is not None and _indent(at.lines[meant]) < expected:
                hint += f"; to add an item to the list on line {meant + 1}, indent it {_spaces(_indent(at.lines[meant]))}"
            return hint
        if meant is not None and _indent(at.lines[meant]) > expected:
            return (f"line {at.number}'s '-' is indented {_spaces(at.indent)}, but the items of the list that starts "
                    f"on line {meant + 1} are indented {_indent(at.lines[meant])}")
    if at.indent == expected:
        return None
    hint = (f"line {at.number} is indented {_spaces(at.indent)}, but the keys of the mapping that starts on line "
            f"{opened} are indented {expected}")
    above = at.previous()
    if above is not None and above + 1 != opened and _key_column(at.lines[above]) not in (expected, at.indent):
        hint += f" and the key on line {above + 1} is indented {_key_column(at.lines[above])}"
    return hint


def undefined_alias(name: str, anchors, text: str, mark) -> str:
    """The message for an alias (``*name`` at ``mark``) whose anchor is not among ``anchors``, those defined
    before it: where the anchor is when it comes later, else the closest anchor's name."""
    message = f"alias '*{name}' refers to no anchor '&{name}' defined before it"
    anchor = re.compile(r"(?:^|(?<=[\s\[{,:-]))&" + re.escape(name) + r"(?=[\s,\]}]|\Z)", re.M)
    for match in anchor.finditer(text):
        line = text.count("\n", 0, match.start())
        column = match.start() - (text.rfind("\n", 0, match.start()) + 1)
        if (line, column) > (mark.line, mark.column):
            return f"{message}; it is defined later, on line {line + 1}, and an alias repeats only a node anchored above it"
    return message + did_you_mean(name, anchors)
