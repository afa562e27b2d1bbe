"""One name's part of a glob pattern (``globs``): its tokens, as fast-glob reads them (``*`` and ``?`` within the name,
``{a,b}`` either word, ``[...]`` a character of the class: ``a-z`` a range, ``[:alpha:]`` a POSIX class), and whether a
name matches them, keeping the set of places in the name each token can reach (no backtracking)."""
from __future__ import annotations

from functools import lru_cache

from evallint.load.glob_braces import TOO_MANY, closing, list_words, range_items

# The tokens of one name's pattern, each a tuple of its kind and what it holds: STAR any characters, TEXT the
# characters written, ANY one character, CLASS one of (or with ``True``, none of) the characters, EITHER one of
# the token lists (braces' words), INTEGER an optional minus and digits (a range with too many items).
STAR, TEXT, ANY, CLASS, EITHER, INTEGER = "star", "text", "any", "class", "either", "integer"


def _braces(body: str, wild: bool, depth: int) -> tuple:
    """The token of ``{body}`` within one name (braces ``expanded`` leaves, or too many to expand), as fast-glob's
    brace expansion reads it: either word of a list (``{a,b}``, braces nested in a word), an item of a range
    (``range_items``), else the braces as written (``{1}``)."""
    words = list_words(body)
    if len(words) > 1:
        return (EITHER, tuple(tokens(word, wild, depth) for word in words))
    items = range_items(body)
    if items is None:
        return (EITHER, (((TEXT, "{"),) + tokens(body, wild, depth) + ((TEXT, "}"),),))
    if items is TOO_MANY:
        return (INTEGER,)
    return (EITHER, tuple(((TEXT, item),) for item in items))


NESTING = 64  # braces nested deeper match any characters: a pattern may then match a name the runner's does not


def tokens(part: str, wild: bool = True, depth: int = 0) -> tuple:
    """The tokens of one name's pattern (``depth``: in how many braces it lies); without ``wild``, a '?' is itself. A
    run of other characters is one TEXT token."""
    out, text, i = [], [], 0
    while i < len(part):
        c, token = part[i], None
        if c == "*":
            token = (STAR,)
        elif c == "?" and wild:
            token = (ANY,)
        elif c == "{" and closing(part, i) > 0:
            end = closing(part, i)
            token = _braces(part[i + 1:end], wild, depth + 1) if depth < NESTING else (STAR,)
            i = end
        elif c == "[" and class_end(part, i) > 0:
            end = class_end(part, i)
            token = _class(part[i + 1:end])
            i = end
        if token is None:
            text.append(c)
        else:
            out += [(TEXT, "".join(text)), token] if text else [token]
            text = []
        i += 1
    return tuple(out + [(TEXT, "".join(text))] if text else out)


def class_end(text: str, start: int) -> int:
    """Where the class that opens at ``start`` closes (-1: it does not), in its name: at the first ']' that is not the
    class's first character, escaped or a POSIX class's."""
    at = start + 1 + (text[start + 1:start + 2] in ("!", "^"))
    at += text[at:at + 1] == "]"
    return _class_ends(text)[at] if at < len(text) else -1


@lru_cache(maxsize=64)
def _class_ends(text: str) -> list:
    """For each place of ``text``, where a class's body read from there closes in its name (-1: it does not): the
    character after a backslash and a POSIX class ('[:alpha:]') are skipped. Worked out once, from the end, so that
    a name of many '[' is read once, not once for each."""
    ends, posix_close = [-1] * (len(text) + 2), [-1] * (len(text) + 2)
    for at in range(len(text) - 1, -1, -1):
        if text[at] == "/":
            continue  # a class ends within its name
        posix_close[at] = at if text.startswith(":]", at) else posix_close[at + 1]
        if text[at] == "\\":
            ends[at] = ends[at + 2] if text[at + 1:at + 2] != "/" else -1
        elif text.startswith("[:", at) and posix_close[at + 2] >= 0:
            ends[at] = ends[posix_close[at + 2] + 2]
        else:
            ends[at] = at if text[at] == "]" else ends[at + 1]
    return ends


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
