"""The grammar of ECMAScript's regular expressions (ECMA-262 22.2.1) as RegExp reads a pattern with the 'u' flag,
or without it under the web-compatible grammar of Annex B.1.2; ``js_regex_sets`` adds the classes of the 'v' flag."""
from __future__ import annotations

import re
from typing import Optional

_BRACED = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")  # a braced quantifier: {n}, {n,} or {n,m}
_MODIFIERS = re.compile(r"\(\?[ims]*(-[ims]*)?:")
_REFERENCE = re.compile("<")
_ASCII_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_MAX_BOUND = 2 ** 31 - 1
_PROPERTY = re.compile(r"\{[A-Za-z0-9_=]+\}")
_HEX = "0123456789abcdefABCDEF"
_DIGITS = "0123456789"
SYNTAX = "^$\\.*+?()[]{}|/"  # what a 'u' pattern may escape as itself
SETS = "dDsSwWpP"  # escapes of a set of characters, which end no range
_INVALID_GROUPS = {"(?P": "an invalid group ('(?P<name>...)' is Python's: write '(?<name>...)')"}
_CONTROLS = {"f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "b": 8}  # 'b' in a class alone
# the properties of strings (ECMA-262 table 'Binary Unicode properties of strings'), which only a 'v' pattern reads
STRING_PROPERTIES = frozenset({"Basic_Emoji", "Emoji_Keycap_Sequence", "RGI_Emoji_Modifier_Sequence",
                               "RGI_Emoji_Flag_Sequence", "RGI_Emoji_Tag_Sequence", "RGI_Emoji_ZWJ_Sequence", "RGI_Emoji"})


class Refused(Exception):
    """Why RegExp refuses the pattern, as a short phrase."""


class Parser:
    """Reads a pattern by the grammar of the 'u' flag (``unicode``), else of Annex B; raises ``Refused`` where RegExp
    refuses it."""

    def __init__(self, text: str, unicode: bool):
        self.text, self.unicode, self.pos = text, unicode, 0
        self.groups, self.names = _groups(text)
        self.references: list = []  # the names '\k<name>' refers to

    def parse(self) -> None:
        self._disjunction()
        if self.pos < len(self.text):  # only a ')' stops the top level's alternatives
            raise Refused("unmatched ')'")
        missing = next((name for name in self.references if name not in self.names), None)
        if missing is not None and not any("\\" in name for name in self.names | {missing}):  # escapes not read
            raise Refused(f"no group is named '{missing}'")

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
                raise Refused("nothing to repeat")

    def _at_quantifier(self) -> bool:
        return self._peek() in ("*", "+", "?") or bool(self._braced())

    def _braced(self) -> Optional[re.Match]:
        match = _BRACED.match(self.text, self.pos)
        if match and match.group(3) and _bound(match.group(3)) < _bound(match.group(1)):
            raise Refused("numbers out of order in a {} quantifier")
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
            raise Refused("a lone quantifier bracket")
        if char == "[":
            self._class()
        elif char == "\\":
            self._escape(in_class=False)
        else:
            self.pos += 1
        return True

    def _unquantified(self) -> bool:
        if self._at_quantifier():
            raise Refused("nothing to repeat")
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
                raise Refused(_INVALID_GROUPS.get(text[start:start + 3], "an invalid group") if not
                               re.match(r"\(\?[A-Za-z]+\)", text[start:]) else "an invalid group (JavaScript has no inline "
                               "flags such as '(?i)': give them as 'flags')")
            self.pos = modifiers.end()
            quantifiable = True
        else:
            self.pos += 1
            quantifiable = True
        self._disjunction()
        if self._peek() != ")":
            raise Refused("an unterminated group")
        self.pos += 1
        return quantifiable or self._unquantified()

    def _group_name(self) -> str:
        end = self.text.find(">", self.pos)
        name = self.text[self.pos:end] if end >= 0 else ""
        if not _is_name(name):
            raise Refused("an invalid group name")
        self.pos = end + 1
        return name

    def _escape(self, in_class: bool) -> Optional[int]:
        """Reads an escape; the character it stands for (None: a set of characters, or a back reference)."""
        kind = self._peek(1)
        if not kind:
            raise Refused("'\\' at the end of the pattern")
        self.pos += 2
        if kind in SETS:
            if kind in "pP" and self.unicode:
                start = self.pos
                self._read(_PROPERTY, "an invalid property name")
                self._property(kind, self.text[start + 1:self.pos - 1])
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

    def _property(self, kind: str, name: str) -> None:
        """A property escape's name, read as written but for a property of strings, which takes the 'v' flag."""
        if name in STRING_PROPERTIES:
            raise Refused(f"an invalid property name ('{name}' is a property of strings, read with the 'v' flag)")

    def _character(self, kind: str, in_class: bool) -> int:
        """A control character's escape, or a character standing for itself (with 'u' or 'v', one of syntax)."""
        if kind in _CONTROLS and (kind != "b" or in_class):
            return _CONTROLS[kind]
        if self.unicode and kind not in SYNTAX and not (in_class and kind == "-"):
            raise Refused("an invalid escape")
        return ord(kind)

    def _read(self, pattern: re.Pattern, refused: str) -> None:
        match = pattern.match(self.text, self.pos)
        if match is None:
            raise Refused(refused)
        self.pos = match.end()

    def _decimal(self, first: str, in_class: bool) -> Optional[int]:
        """'\\0' (without 'u' and 'v' an octal escape), or a back reference, or without 'u' and 'v' one to no group
        (or any in a class): an octal escape, or the digit itself."""
        if first == "0":
            if self.unicode and self._peek() in _DIGITS and self._peek():
                raise Refused("an invalid decimal escape")
            return 0 if self.unicode else self._octal(0)
        digits = first + re.match(r"[0-9]*", self.text[self.pos:]).group(0)
        group = _bound(digits)  # no pattern has that many groups
        if self.unicode:
            if in_class or group > self.groups:
                raise Refused("an invalid escape")
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
            raise Refused("an invalid control escape")
        self.pos -= 1  # '\' stands for itself, and 'c' is read next
        return ord("\\")

    def _code(self, kind: str) -> int:
        text, at = self.text, self.pos
        if kind == "u" and self.unicode and self._peek() == "{":
            end = text.find("}", at)
            digits = text[at + 1:end] if end > at else ""
            if not digits or any(d not in _HEX for d in digits) or int(digits, 16) > 0x10FFFF:
                raise Refused("an invalid Unicode escape")
            self.pos = end + 1
            return int(digits, 16)
        size = 2 if kind == "x" else 4
        digits = text[at:at + size]
        if len(digits) == size and all(d in _HEX for d in digits):
            self.pos += size
            return self._pair(int(digits, 16)) if kind == "u" and self.unicode else int(digits, 16)
        if self.unicode:
            raise Refused("an invalid escape")
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
        if self._peek() == "^":
            self.pos += 1
        while self._peek() != "]":
            low = self._class_atom()
            if self._peek() == "-" and self._peek(1) not in ("]", ""):
                self.pos += 1
                high = self._class_atom()
                if low is None or high is None:
                    if self.unicode:
                        raise Refused("a range of a set of characters in a character class")
                elif low > high:
                    raise Refused("a range out of order in a character class")
        self.pos += 1

    def _class_atom(self) -> Optional[int]:
        char = self._peek()
        if not char:
            raise Refused("an unterminated character class")
        if char == "\\":
            return self._escape(in_class=True)
        self.pos += 1
        return ord(char)


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
