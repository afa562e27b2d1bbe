"""The character classes of a pattern with the 'v' flag (ECMA-262 22.2.1, ClassSetExpression): nested classes, the
set operations '&&' and '--', the strings of '\\q{...}', and the characters such a class takes only escaped. Outside
its classes a 'v' pattern is read as a 'u' one (``js_regex_parser``)."""
from __future__ import annotations

from evallint.rules.js_regex_parser import SETS, STRING_PROPERTIES, Parser, Refused

OPERATORS = ("&&", "--")
# two characters a 'v' class reserves (ClassSetReservedDoublePunctuator): never read as two characters of a set
RESERVED_DOUBLES = frozenset(("&&", "!!", "##", "$$", "%%", "**", "++", ",,", "..", "::", ";;", "<<", "==", ">>", "??",
                              "@@", "^^", "``", "~~"))
CLASS_SYNTAX = "()[]{}/-\\|"  # what a 'v' class takes only escaped (ClassSetSyntaxCharacter)
PUNCTUATORS = "&-!#%,:;<=>@`~"  # what a 'v' class may escape beside a 'u' pattern's escapes


class SetsParser(Parser):
    """Reads a pattern by the grammar of the 'v' flag."""

    def __init__(self, text: str):
        super().__init__(text, unicode=True)

    def _property(self, kind: str, name: str) -> None:
        """Any property escape's name is read as written, but a property of strings cannot be negated."""
        if kind == "P" and name in STRING_PROPERTIES:
            raise Refused(f"an invalid property name ('\\P' negates no property of strings such as '{name}')")

    def _class(self) -> None:
        self.pos += 1
        self._nested()

    def _nested(self) -> bool:
        """Reads a class, its '[' read, to its ']'; whether it may match a string of other than one character (a
        negated one may not)."""
        negated = self._peek() == "^"
        self.pos += negated
        strings = self._contents()
        if negated and strings:
            raise Refused("a negated character class that may match strings")
        self.pos += 1
        return strings and not negated

    def _contents(self) -> bool:
        """A union of operands and ranges, or operands joined by one set operation alone."""
        if self._peek() == "]":
            return False
        strings, char = self._operand()
        operator = self.text[self.pos:self.pos + 2]
        if operator in OPERATORS:
            return self._operation(operator, strings)
        while True:
            if char is not None and self._peek() == "-" and self._peek(1) not in ("-", "]"):
                self.pos += 1
                _, high = self._operand()
                if high is None:
                    raise Refused("a range of a set of characters in a character class")
                if char > high:
                    raise Refused("a range out of order in a character class")
            if self._peek() == "]":
                return strings
            if self.text[self.pos:self.pos + 2] in OPERATORS:
                raise Refused("a set operation beside a union in a character class (nest one of them: '[[ab]&&c]')")
            more, char = self._operand()
            strings = strings or more

    def _operation(self, operator: str, strings: bool) -> bool:
        """Operands joined by ``operator``, the first one read (whether it may match strings): an intersection may
        match strings only when each operand may, a difference when its first operand may."""
        every = strings
        while self.text.startswith(operator, self.pos):
            self.pos += 2
            if operator == "&&" and self._peek() == "&":
                raise Refused("'&&&' in a character class")
            more, _ = self._operand()
            every = every and more
        if self._peek() != "]":
            raise Refused(f"a set operation other than '{operator}', or none, in a character class")
        return every if operator == "&&" else strings

    def _operand(self) -> tuple:
        """Reads a nested class, a class escape, a string disjunction or a character: (whether it may match strings,
        the character, or None)."""
        char, pair = self._peek(), self.text[self.pos:self.pos + 2]
        if not char:
            raise Refused("an unterminated character class")
        if pair in RESERVED_DOUBLES:
            raise Refused(f"an invalid set operation in a character class ('{pair}')")
        if char == "]":
            raise Refused("a set operation without its second operand in a character class")
        if char == "[":
            self.pos += 1
            return self._nested(), None
        if char == "\\":
            return self._class_escape()
        if char in CLASS_SYNTAX:
            raise Refused(f"'{char}' unescaped in a character class (write '\\{char}')")
        self.pos += 1
        return False, ord(char)

    def _class_escape(self) -> tuple:
        kind, start = self._peek(1), self.pos
        if kind in PUNCTUATORS:
            self.pos += 2
            return False, ord(kind)
        if kind == "q":
            if self._peek(2) != "{":
                raise Refused("an invalid escape")
            self.pos += 3
            return self._strings(), None
        value = self._escape(in_class=True)
        return kind == "p" and self.text[start + 3:self.pos - 1] in STRING_PROPERTIES, value

    def _strings(self) -> bool:
        """Reads the strings of '\\q{...}', its '{' read, to its '}'; whether one of them is not one character."""
        strings, length = False, 0
        while True:
            char, pair = self._peek(), self.text[self.pos:self.pos + 2]
            if not char:
                raise Refused("an unterminated character class")
            if char in "|}":
                strings, length, self.pos = strings or length != 1, 0, self.pos + 1
                if char == "}":
                    return strings
                continue
            if pair in RESERVED_DOUBLES:
                raise Refused(f"an invalid set operation in a character class ('{pair}')")
            if char == "\\" and self._peek(1) in PUNCTUATORS:
                self.pos += 2
            elif char == "\\":
                if self._peek(1) in SETS or self._escape(in_class=True) is None:
                    raise Refused("an invalid escape")
            elif char in CLASS_SYNTAX:
                raise Refused(f"'{char}' unescaped in a character class (write '\\{char}')")
            else:
                self.pos += 1
            length += 1
