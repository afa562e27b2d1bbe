"""What JavaScript's RegExp refuses of a regex grader's flags and pattern, which the grader meets when it builds its
expression as it grades (graders/assertions.ts: new RegExp(pattern, flags)), and then fails and scores 0: the
syntax errors of ECMAScript's regular expressions (ECMA-262 22.2.1), under the web-compatible grammar of its Annex
B.1.2 without the 'u' and 'v' flags.

Only what every engine the runner runs on refuses is reported: modifiers such as '(?i:...)' (read by later
engines), a group name written twice, a property escape's name and the set operations of a 'v' class are taken
as they are written."""
from __future__ import annotations

import re
from typing import Iterator, Optional

from evallint.rules.common import finding
from evallint.suggest import all_of, quote

REGEX_FLAGS = "dgimsuvy"  # the flags of a JavaScript regular expression, each written once, not both 'u' and 'v'

_BRACED = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")  # a braced quantifier: {n}, {n,} or {n,m}
_MODIFIERS = re.compile(r"\(\?[ims]*(-[ims]*)?:")
_REFERENCE = re.compile("<")
_ASCII_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_MAX_BOUND = 2 ** 31 - 1
_PROPERTY = re.compile(r"\{[A-Za-z0-9_=]+\}")
_HEX = "0123456789abcdefABCDEF"
_DIGITS = "0123456789"
_SYNTAX = "^$\\.*+?()[]{}|/"  # what a 'u' pattern may escape as itself
_SETS = "dDsSwWpP"  # escapes of a set of characters, which end no range
_INVALID_GROUPS = {"(?P": "an invalid group ('(?P<name>...)' is Python's: write '(?<name>...)')"}
_CONTROLS = {"f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "b": 8}  # 'b' in a class alone




def check_regex(grader: dict, place) -> Iterator:
    """EV110 for a regex grader's 'flags' that RegExp refuses, else for its pattern ('value') that RegExp refuses
    with those flags (flags that are no text are ignored)."""
    flags = grader.get("flags")
    refused = list(refused_flags(flags, f"regex 'flags' {quote(flags)}", grader, place.at + ("flags",))) \
        if isinstance(flags, str) else []
    yield from refused
    pattern = grader.get("value")
    why = regex_error(pattern, flags if isinstance(flags, str) else "") if isinstance(pattern, str) and not refused \
        else None
    if why is not None:
        yield finding("EV110", f"regex {quote(pattern)} is no JavaScript regular expression: {why}; the grader fails "
                      f"when it grades ('Invalid regular expression') and scores {_score(grader)}", place.at + ("value",))


def refused_flags(flags: str, said: str, grader: dict, at: tuple) -> Iterator:
    """EV110 at ``at`` when RegExp refuses ``flags`` (the text ``said`` of ``grader``'s 'flags')."""
    unknown = sorted({flag for flag in flags if flag not in REGEX_FLAGS})
    twice = sorted({flag for flag in flags if flags.count(flag) > 1})
    why = (f"{all_of(unknown)} {'is' if len(unknown) == 1 else 'are'} no flag of a JavaScript regular expression"
           if unknown else f"{all_of(twice)} written twice" if twice else "'u' and 'v' do not go together"
           if "u" in flags and "v" in flags else None)
    if why is not None:
        yield finding("EV110", f"{said}: {why}; the grader fails when it grades ('Invalid flags supplied to RegExp "
                      f"constructor') and scores {_score(grader)}; flags: {', '.join(REGEX_FLAGS)}, each once", at)


def _score(grader: dict) -> str:
    return "1 (negated)" if grader.get("negate") is True else "0"


class _Refused(Exception):
    pass


def regex_error(pattern: str, flags: str = "") -> Optional[str]:
    """Why RegExp refuses ``pattern`` with ``flags`` (valid flags), as a short phrase; None when it takes it."""
    unicode = "u" in flags or "v" in flags
    text = pattern if unicode else _code_units(pattern)  # without 'u' the pattern is read by UTF-16 code units
    try:
        _Parser(text, unicode, "v" in flags).parse()
    except _Refused as refused:
        return str(refused)
    except RecursionError:  # nested deeper than this reader follows: taken as valid, as JavaScript may take it
        return None
    return None


def _code_units(text: str) -> str:
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(int.from_bytes(data[i:i + 2], "little")) for i in range(0, len(data), 2))


class _Parser:
    def __init__(self, text: str, unicode: bool, sets: bool):
        self.text, self.unicode, self.sets, self.pos = text, unicode, sets, 0
        self.groups, self.names = _groups(text)
        self.references: list = []  # the names '\k<name>' refers to

    def parse(self) -> None:
        self._disjunction()
        if self.pos < len(self.text):  # only a ')' stops the top level's alternatives
            raise _Refused("unmatched ')'")
        missing = next((name for name in self.references if name not in self.names), None)
        if missing is not None and not any("\\" in name for name in self.names | {missing}):  # escapes not read
            raise _Refused(f"no group is named '{missing}'")

    def _peek(self, ahead: int = 0) -> str:
        at = self.pos + ahead
        return self.text[at] if at < len(self.text) else ""

    def _disjunction(self) -> None:
        self._alternative()
        while self._peek() == "|":
            self.pos += 1
            self._alternative()

    def _alternative(self) -> None:
        while self._peek() not in ("", "|", ")"):
            if self._atom():
                self._quantifier()
            elif self._at_quantifier():
                raise _Refused("nothing to repeat")

    def _at_quantifier(self) -> bool:
        return self._peek() in ("*", "+", "?") or bool(self._braced())

    def _braced(self) -> Optional[re.Match]:
        match = _BRACED.match(self.text, self.pos)
        if match and match.group(3) and _bound(match.group(3)) < _bound(match.group(1)):
            raise _Refused("numbers out of order in a {} quantifier")
        return match

    def _quantifier(self) -> None:
        braced = self._braced() if self._peek() == "{" else None
        if braced:
            self.pos = braced.end()
        elif self._peek() in ("*", "+", "?"):
            self.pos += 1
        else:
            return
        if self._peek() == "?":
            self.pos += 1

    def _atom(self) -> bool:
        """Reads a term; whether a quantifier may follow it (an assertion takes none, nor a lookbehind, nor, with
        'u' or 'v', a lookahead); False without reading when a quantifier stands where a term belongs."""
        char = self._peek()
        if char in "^$":
            self.pos += 1
            return self._unquantified()
        if char == "\\" and self._peek(1) in ("b", "B"):
            self.pos += 2
            return self._unquantified()
        if char == "(":
            return self._group()
        if self._at_quantifier():
            return False
        if char in "{}]" and self.unicode:
            raise _Refused("a lone quantifier bracket")
        if char == "[":
            self._class()
        elif char == "\\":
            self._escape(in_class=False)
        else:
            self.pos += 1
        return True

    def _unquantified(self) -> bool:
        if self._at_quantifier():
            raise _Refused("nothing to repeat")
        return False

    def _group(self) -> bool:
        text, start = self.text, self.pos
        if text.startswith(("(?=", "(?!"), start):
            self.pos += 3
            quantifiable = not self.unicode
        elif text.startswith(("(?<=", "(?<!"), start):
            self.pos += 4
            quantifiable = False
        elif text.startswith("(?<", start):
            self.pos += 3
            self._group_name()
            quantifiable = True
        elif text.startswith("(?", start):
            modifiers = _MODIFIERS.match(text, start)
            if modifiers is None or modifiers.group(0) == "(?-:":
                raise _Refused(_INVALID_GROUPS.get(text[start:start + 3], "an invalid group") if not
                               re.match(r"\(\?[A-Za-z]+\)", text[start:]) else "an invalid group (JavaScript has no inline "
                               "flags such as '(?i)': give them as 'flags')")
            self.pos = modifiers.end()
            quantifiable = True
        else:
            self.pos += 1
            quantifiable = True
        self._disjunction()
        if self._peek() != ")":
            raise _Refused("an unterminated group")
        self.pos += 1
        return quantifiable or self._unquantified()

    def _group_name(self) -> str:
        end = self.text.find(">", self.pos)
        name = self.text[self.pos:end] if end >= 0 else ""
        if not _is_name(name):
            raise _Refused("an invalid group name")
        self.pos = end + 1
        return name

    def _escape(self, in_class: bool) -> Optional[int]:
        """Reads an escape; the character it stands for (None: a set of characters, or a back reference)."""
        kind = self._peek(1)
        if not kind:
            raise _Refused("'\\' at the end of the pattern")
        self.pos += 2
        if kind in _SETS:
            if kind in "pP" and self.unicode:
                self._read(_PROPERTY, "an invalid property name")
            return None
        if kind in "0123456789":
            return self._decimal(kind, in_class)
        if kind == "k" and (self.unicode or self.names) and not in_class:
            self._read(_REFERENCE, "an invalid named reference")
            self.references.append(self._group_name())
            return None
        if kind == "c":
            return self._control(in_class)
        return self._code(kind) if kind in "xu" else self._character(kind, in_class)

    def _character(self, kind: str, in_class: bool) -> int:
        """A control character's escape, or a character standing for itself (with 'u' or 'v', one of syntax)."""
        if kind in _CONTROLS and (kind != "b" or in_class):
            return _CONTROLS[kind]
        if self.unicode and kind not in _SYNTAX and not (in_class and kind == "-"):
            raise _Refused("an invalid escape")
        return ord(kind)

    def _read(self, pattern: re.Pattern, refused: str) -> None:
        match = pattern.match(self.text, self.pos)
        if match is None:
            raise _Refused(refused)
        self.pos = match.end()

    def _decimal(self, first: str, in_class: bool) -> Optional[int]:
        """'\\0' (without 'u' and 'v' an octal escape), or a back reference, or without 'u' and 'v' one to no group
        (or any in a class): an octal escape, or the digit itself."""
        if first == "0":
            if self.unicode and self._peek() in _DIGITS and self._peek():
                raise _Refused("an invalid decimal escape")
            return 0 if self.unicode else self._octal(0)
        digits = first + re.match(r"[0-9]*", self.text[self.pos:]).group(0)
        group = _bound(digits)  # no pattern has that many groups
        if self.unicode:
            if in_class or group > self.groups:
                raise _Refused("an invalid escape")
            self.pos += len(digits) - 1
            return None
        if not in_class and group <= self.groups:
            self.pos += len(digits) - 1
            return None
        return self._octal(int(first)) if first in "1234567" else ord(first)

    def _octal(self, value: int) -> int:
        """An octal escape of up to three digits, below 256, its first digit read."""
        for _ in range(2):
            digit = self._peek()
            if not digit or digit not in "01234567" or value * 8 + int(digit) > 255:
                break
            value, self.pos = value * 8 + int(digit), self.pos + 1
        return value

    def _control(self, in_class: bool) -> int:
        letter = self._peek()
        if letter and (letter.isascii() and letter.isalpha() or in_class and not self.unicode and letter in "0123456789_"):
            self.pos += 1
            return ord(letter) % 32
        if self.unicode:
            raise _Refused("an invalid control escape")
        self.pos -= 1  # '\' stands for itself, and 'c' is read next
        return ord("\\")

    def _code(self, kind: str) -> int:
        text, at = self.text, self.pos
        if kind == "u" and self.unicode and self._peek() == "{":
            end = text.find("}", at)
            digits = text[at + 1:end] if end > at else ""
            if not digits or any(d not in _HEX for d in digits) or int(digits, 16) > 0x10FFFF:
                raise _Refused("an invalid Unicode escape")
            self.pos = end + 1
            return int(digits, 16)
        size = 2 if kind == "x" else 4
        digits = text[at:at + size]
        if len(digits) == size and all(d in _HEX for d in digits):
            self.pos += size
            return self._pair(int(digits, 16)) if kind == "u" and self.unicode else int(digits, 16)
        if self.unicode:
            raise _Refused("an invalid escape")
        return ord(kind)

    def _pair(self, lead: int) -> int:
        """With 'u' or 'v', a lead surrogate's escape followed by a trail surrogate's is one code point."""
        trail = re.match(r"\\u([dD][c-fC-F][0-9a-fA-F]{2})", self.text[self.pos:self.pos + 6])
        if 0xD800 <= lead <= 0xDBFF and trail:
            self.pos += 6
            return 0x10000 + (lead - 0xD800) * 0x400 + int(trail.group(1), 16) - 0xDC00
        return lead

    def _class(self) -> None:
        self.pos += 1
        if self.sets:
            return self._set_class()
        if self._peek() == "^":
            self.pos += 1
        while self._peek() != "]":
            low = self._class_atom()
            if self._peek() == "-" and self._peek(1) not in ("]", ""):
                self.pos += 1
                high = self._class_atom()
                if low is None or high is None:
                    if self.unicode:
                        raise _Refused("a range of a set of characters in a character class")
                elif low > high:
                    raise _Refused("a range out of order in a character class")
        self.pos += 1

    def _class_atom(self) -> Optional[int]:
        char = self._peek()
        if not char:
            raise _Refused("an unterminated character class")
        if char == "\\":
            return self._escape(in_class=True)
        self.pos += 1
        return ord(char)

    def _set_class(self) -> None:
        """A 'v' class, nested classes and escapes read to its end alone."""
        depth = 1
        while depth:
            char = self._peek()
            if not char:
                raise _Refused("an unterminated character class")
            self.pos += 2 if char == "\\" else 1
            depth += 1 if char == "[" else -1 if char == "]" else 0


def _groups(text: str) -> tuple:
    """The number of capturing groups of a pattern, and their names (a back reference may come before its group)."""
    count, names, at, in_class = 0, set(), 0, False
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == "[" or char == "]":
            in_class = char == "["
        elif char == "(" and not in_class and (not text.startswith("(?", at) or text.startswith("(?<", at)
                                               and not text.startswith(("(?<=", "(?<!"), at)):
            count += 1
            end = text.find(">", at)
            if text.startswith("(?<", at) and end > 0:
                names.add(text[at + 3:end])
        at += 1
    return count, names


def _is_name(name: str) -> bool:
    """A group's name: an identifier, '$' counting as a letter. A name with escapes or other than ASCII characters
    is taken as valid: JavaScript's identifiers are not quite Python's."""
    return not name.isascii() or "\\" in name or bool(_ASCII_NAME.fullmatch(name))


def _bound(digits: str) -> int:
    """A quantifier's bound as V8 reads it, at most 2**31 - 1."""
    return _MAX_BOUND if len(digits) > 10 else min(int(digits), _MAX_BOUND)
