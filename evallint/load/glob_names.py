"""One name's part of a glob pattern (``globs``): its tokens, as fast-glob reads them (``*`` and ``?`` within the name,
``{a,b}`` either word, ``[...]`` a character of the class: ``a-z`` a range, ``[:alpha:]`` a POSIX class), and whether a
name matches them, keeping the set of places in the name each token can reach (no backtracking)."""
from __future__ import annotations

from evallint.load.glob_braces import TOO_MANY, closing, list_words, range_items

# The tokens of one name's pattern, each a tuple of its kind and what it holds: STAR any characters, TEXT the
# characters written, ANY one character, CLASS one of (or with ``True``, none of) the characters, EITHER one of
# the token lists (braces' words), INTEGER an optional minus and digits (a range with too many items).
STAR, TEXT, ANY, CLASS, EITHER, INTEGER = "star", "text", "any", "class", "either", "integer"


def _braces(body: str, wild: bool) -> tuple:
    """The token of ``{body}`` within one name (braces ``expanded`` leaves, or too many to expand), as fast-glob's
    brace expansion reads it: either word of a list (``{a,b}``, braces nested in a word), an item of a range
    (``range_items``), else the braces as written (``{1}``)."""
    words = list_words(body)
    if len(words) > 1:
        return (EITHER, tuple(tokens(word, wild) for word in words))
    items = range_items(body)
    if items is None:
        return (EITHER, (((TEXT, "{"),) + tokens(body, wild) + ((TEXT, "}"),),))
    if items is TOO_MANY:
        return (INTEGER,)
    return (EITHER, tuple(((TEXT, item),) for item in items))


def tokens(part: str, wild: bool = True) -> tuple:
    """The tokens of one name's pattern; without ``wild``, a '?' is itself."""
    out, i = [], 0
    while i < len(part):
        c = part[i]
        if c == "*":
            token = (STAR,)
        elif c == "?" and wild:
            token = (ANY,)
        elif c == "{" and closing(part, i) > 0:
            end = closing(part, i)
            token = _braces(part[i + 1:end], wild)
            i = end
        elif c == "[" and class_end(part, i) > 0:
            end = class_end(part, i)
            token = _class(part[i + 1:end])
            i = end
        elif out and out[-1][0] == TEXT:  # a run of characters is one token
            token = (TEXT, out.pop()[1] + c)
        else:
            token = (TEXT, c)
        out.append(token)
        i += 1
    return tuple(out)


def class_end(part: str, start: int) -> int:
    """Where the class that opens at ``start`` closes (-1: it does not): at the first ']' that is not the class's
    first character, escaped or a POSIX class's."""
    at = start + 1 + (part[start + 1:start + 2] in ("!", "^"))
    at += part[at:at + 1] == "]"
    while at < len(part):
        if part[at] == "\\":
            at += 1
        elif part.startswith("[:", at) and part.find(":]", at + 2) > 0:
            at = part.find(":]", at + 2) + 1
        elif part[at] == "]":
            return at
        at += 1
    return -1


# the POSIX classes a bracket may hold ('[[:digit:]]'), as code point ranges of ASCII
POSIX = {"alnum": ((48, 57), (65, 90), (97, 122)), "alpha": ((65, 90), (97, 122)), "ascii": ((0, 127),),
         "blank": ((9, 9), (32, 32)), "cntrl": ((0, 31), (127, 127)), "digit": ((48, 57),), "graph": ((33, 126),),
         "lower": ((97, 122),), "print": ((32, 126),), "punct": ((33, 47), (58, 64), (91, 96), (123, 126)),
         "space": ((9, 13), (32, 32)), "upper": ((65, 90),), "word": ((48, 57), (65, 90), (95, 95), (97, 122)),
         "xdigit": ((48, 57), (65, 70), (97, 102))}


def _class(body: str) -> tuple:
    """The CLASS token of a bracket's ``body``: its code point ranges (a character, ``a-z``, ``[:alpha:]``; a
    backslash makes the next character itself) and whether it is negated (``!`` or ``^`` first)."""
    negated = body.startswith(("!", "^"))
    at, ranges = int(negated), []
    while at < len(body):
        if body.startswith("[:", at) and body.find(":]", at) > 0 and body[at + 2:body.find(":]", at)] in POSIX:
            ranges.extend(POSIX[body[at + 2:body.find(":]", at)]])
            at = body.find(":]", at) + 2
            continue
        at += body[at] == "\\" and at + 1 < len(body)
        low = high = ord(body[at])
        if body[at + 1:at + 2] == "-" and at + 2 < len(body):
            at += 2
            at += body[at] == "\\" and at + 1 < len(body)
            high = ord(body[at])
        ranges.append((low, high))
        at += 1
    return (CLASS, tuple(ranges), negated)


def name_matches(tokens: tuple, name: str) -> bool:
    return len(name) in _ends(tokens, name, {0})


def _ends(tokens: tuple, name: str, starts: set) -> set:
    """The places in ``name`` where ``tokens`` can end a match that begins at one of ``starts``."""
    reached = starts
    for token in tokens:
        if not reached:
            break
        reached = _STEPS[token[0]](token, name, reached)
    return reached


def _after_star(token: tuple, name: str, reached: set) -> set:
    reached = _not_at_a_dot(name, reached)
    return set(range(min(reached), len(name) + 1)) if reached else reached


def _after_any(token: tuple, name: str, reached: set) -> set:
    return {at + 1 for at in _not_at_a_dot(name, reached) if at < len(name)}


def _not_at_a_dot(name: str, reached: set) -> set:
    """``reached`` less the start of a name that starts with a dot, where no star or '?' matches (a class or a dot
    written may)."""
    return reached - {0} if name.startswith(".") else reached


def _after_text(token: tuple, name: str, reached: set) -> set:
    return {at + len(token[1]) for at in reached if name.startswith(token[1], at)}


def _after_class(token: tuple, name: str, reached: set) -> set:
    _, ranges, negated = token
    return {at + 1 for at in reached if at < len(name) and any(low <= ord(name[at]) <= high for low, high in ranges)
            != negated}


def _after_either(token: tuple, name: str, reached: set) -> set:
    return set().union(*(_ends(word, name, reached) for word in token[1]))


def _after_integer(token: tuple, name: str, reached: set) -> set:
    return {end for at in reached for end in _integer_ends(name, at)}


_STEPS = {STAR: _after_star, ANY: _after_any, TEXT: _after_text, CLASS: _after_class, EITHER: _after_either,
          INTEGER: _after_integer}


def _integer_ends(name: str, at: int) -> range:
    """Where an optional minus and one digit or more that begin at ``at`` can end."""
    first = at + 1 if name.startswith("-", at) else at
    end = first
    while end < len(name) and name[end] in "0123456789":
        end += 1
    return range(first + 1, end + 1)
