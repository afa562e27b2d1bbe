"""The glob patterns of an AgentV 4.42.4 suite's ``file://`` items of 'tests', matched as the runner's fast-glob
matches them: a reference is a pattern when it holds ``*``, ``?`` or ``{``; fast-glob first expands its braces into
patterns read one by one (``{a,b}`` either word, slashes included; ``{1..3}`` an item of the range; ``{a}`` is
itself), in which ``*`` and ``?`` match within one name, ``**`` any number of folders, ``[...]`` a character of the
class (``a-z`` a range, ``[:alpha:]`` a POSIX class); a star or ``?`` does not match the dot that starts a name, nor
does ``**`` match a folder whose name starts with one."""
from __future__ import annotations

import math
import os
import posixpath
import re
from functools import lru_cache
from typing import Optional

GLOB_CHARACTERS = ("*", "?", "{")


def is_glob(reference: str) -> bool:
    return any(c in reference for c in GLOB_CHARACTERS)


def matches(path: str, pattern: str) -> bool:
    """Whether the absolute, normalized ``path`` is matched by the absolute ``pattern``: by one of the patterns its
    braces expand to (``expanded``)."""
    names = path.replace(os.sep, "/").split("/")
    return any(_matches_names(names, parts) for parts in _compiled_all(pattern.replace(os.sep, "/")))


def _matches_names(names: list, parts: tuple) -> bool:
    """Whether the names of a path are matched by a pattern's ``parts`` (``_compiled``): name by name, keeping the set
    of places in the path (in a name) that the parts read so far can reach, so that the cost grows with the pattern's
    length times the path's, whatever the stars (a regular expression backtracks on ``*a*a*a*a*`` against a long
    name)."""
    reached = {0}
    for i, part in enumerate(parts):
        if part is GLOBSTAR and i == len(parts) - 1:
            return _ends_with_globstar(parts, names, reached)
        if part is GLOBSTAR:  # any number of folders, none of them hidden
            reached = {after for at in reached for after in _shown_run(names, at)}
        else:
            reached = {at + 1 for at in reached if at < len(names) and _name_matches(part, names[at])}
        if not reached:
            return False
    return len(names) in reached


def _ends_with_globstar(parts: tuple, names: list, reached: set) -> bool:
    """Whether the last part, '**', takes the names left from one of the ``reached`` places: none of them hidden,
    or none ('a/**' matches the file 'a' too) unless a star ends the last part before it that is not '**'."""
    before = [part for part in parts if part is not GLOBSTAR]
    least = 1 if before and before[-1] and before[-1][-1][0] == STAR else 0
    return any(len(names) - at >= least and all(map(_shown, names[at:])) for at in reached)


def _shown(name: str) -> bool:
    return name != "" and not name.startswith(".")


def _shown_run(names: list, at: int) -> range:
    """The places a '**' that starts at ``at`` can end: after any number of names that are not hidden."""
    end = at
    while end < len(names) and _shown(names[end]):
        end += 1
    return range(at, end + 1)


def static_folder(pattern: str) -> str:
    """The folder that holds every folder fast-glob reads for ``pattern`` (``read_folders``): where its matches are."""
    folders = read_folders(pattern) or [_fixed_folder(pattern.replace(os.sep, "/"))]
    return os.path.commonpath(folders) if len(folders) > 1 else folders[0]


def read_folders(pattern: str) -> list:
    """The folder fast-glob reads for each pattern the braces of ``pattern`` expand to: above its first part that
    holds a glob character (the folder of a pattern without one, whose file it looks up)."""
    return list(dict.fromkeys(_fixed_folder(one) for one in expanded(pattern.replace(os.sep, "/"))))


def _fixed_folder(pattern: str) -> str:
    parts = pattern.split("/")
    return os.path.normpath("/".join(parts[:min(_glob_at(parts), len(parts) - 1)]) or "/")


def _glob_at(parts: list) -> int:
    """Where the first of a pattern's ``parts`` that holds a glob character is (after the last part: none)."""
    return next((i for i, part in enumerate(parts) if is_glob(part) or "[" in part), len(parts))


GLOBSTAR = "**"
EXPANSIONS = 1024  # the patterns a pattern's braces may expand to before they are matched within one name instead


@lru_cache(maxsize=256)
def expanded(pattern: str) -> tuple:
    """The patterns fast-glob reads for ``pattern``, each on its own, its folder included: its braces' words and
    ranges expanded (``{a/b,c}/x`` reads the folders 'a/b' and 'c'; ``{a,*b}?/x`` reads 'a?' as written), the folder
    each reads normalized as a path (the system reads it so; a '..' below a glob character matches no name); none
    for a range fast-glob refuses. Braces whose words are matched alike within their name (``_read_apart``) are left
    to ``_braces``, so that a pattern expands to few; when it expands to more than ``EXPANSIONS``, it is ``pattern``
    itself, all of its braces then matched within their names."""
    done, todo = [], [(pattern, 0)]
    while todo:
        text, start = todo.pop()
        found = _next_braces(text, start)
        if found is None:
            done.append(_folder_normalized(text))
            continue
        at, end = found
        words = _brace_words(text[at + 1:end]) if _read_apart(text, at, end) else ()
        if words == ():  # matched within its name (``_braces``)
            todo.append((text, end + 1))
        elif words is None:  # braces as written ('{a}'), or too many: braces within them may be words
            todo.append((text, at + 1))
        else:  # none for a range fast-glob refuses
            todo.extend((text[:at] + word + text[end + 1:], at) for word in reversed(words))
        if len(done) + len(todo) > EXPANSIONS:
            return (pattern,)
    return tuple(dict.fromkeys(done))


def _brace_words(body: str) -> Optional[list]:
    """The words of the braces ``{body}``: of a list, or the items of a range (``_range_items``); None for braces
    as written, or a range of too many items."""
    words = _words(body)
    items = words if len(words) > 1 else _range_items(body)
    return None if items is TOO_MANY else items


def _read_apart(text: str, at: int, end: int) -> bool:
    """Whether the braces of ``text`` from ``at`` to ``end`` must be expanded to match as fast-glob matches: a word
    spans names (a slash, '**'), or their name decides the folder fast-glob reads (no name before it holds a star
    or a class: ``_compiled``) or whether a last '**' matches no name (``_ends_with_globstar``). Elsewhere each word
    matches within the name alike, expanded or not."""
    if "/" in text[at + 1:end] or "**" in text[at + 1:end]:
        return True
    after = text[end + 1:].split("/")[1:]
    return not any(_BASE_GLOB.search(part) for part in text[:at].split("/")[:-1]) or \
        bool(after) and all(part == GLOBSTAR for part in after)


def _folder_normalized(pattern: str) -> str:
    """``pattern`` with the folder fast-glob reads for it normalized (all of it, without a glob character)."""
    parts = pattern.split("/")
    fixed = _glob_at(parts)
    return "/".join([posixpath.normpath("/".join(parts[:fixed]) or "/")] + parts[fixed:]) if fixed < len(parts) \
        else posixpath.normpath(pattern)


def _next_braces(text: str, start: int) -> Optional[tuple]:
    """(where, where they close) of the first braces of ``text`` from ``start`` that close, not in a character
    class (read within its name, as ``_tokens`` reads it)."""
    at = start
    while at < len(text):
        if text[at] == "{" and _closing(text, at) > 0:
            return at, _closing(text, at)
        name_end = text.find("/", at)
        end = _class_end(text[:name_end] if name_end >= 0 else text, at) if text[at] == "[" else -1
        at = end + 1 if end > 0 else at + 1
    return None


@lru_cache(maxsize=256)
def _compiled_all(pattern: str) -> tuple:
    """``_compiled`` of each pattern ``pattern`` expands to."""
    return tuple(_compiled(one) for one in expanded(pattern))


def _compiled(pattern: str) -> tuple:
    """The parts of ``pattern`` (one that ``expanded`` makes), one per name: ``GLOBSTAR``, or the part's tokens. A
    folder's '?' is itself while no part before it, nor its own, moves the folder fast-glob reads from
    ('glob-parent' counts no lone '?' as a glob character): ``cases/v?/*.yaml`` reads the folder ``cases/v?``."""
    parts, out, fixed = pattern.split("/"), [], True
    for i, part in enumerate(parts):
        fixed = fixed and i < len(parts) - 1 and not _BASE_GLOB.search(part)
        out.append(GLOBSTAR if part == "**" else _tokens(part, wild=not fixed))
    return tuple(out)


_BASE_GLOB = re.compile(r"[*\[]|[\].+)]\?")  # what makes glob-parent end the folder before the part


# The tokens of one name's pattern, each a tuple of its kind and what it holds: STAR any characters, TEXT the
# characters written, ANY one character, CLASS one of (or with ``True``, none of) the characters, EITHER one of
# the token lists (braces' words), INTEGER an optional minus and digits (a range with too many items).
STAR, TEXT, ANY, CLASS, EITHER, INTEGER = "star", "text", "any", "class", "either", "integer"


RANGE_LIMIT = 1000  # fast-glob refuses a range of numbers without a step whose last is this far above its first
_RANGE = re.compile(r"(-?[0-9]{1,7}|[A-Za-z])\.\.(-?[0-9]{1,7}|[A-Za-z])(?:\.\.(-?[0-9]{1,7}))?")
_NUMBER_RANGE = re.compile(r"\{(-?[0-9]+)\.\.(-?[0-9]+)\}")
# a range of more items (reversed or with a step, which fast-glob expands) is matched as any number: the pattern
# may then match a file the runner's does not, never miss one it matches
_MANY = 1000


def refused_range(pattern: str) -> Optional[str]:
    """The first brace range of ``pattern`` that fast-glob refuses to expand, so that the runner rejects the suite
    ('expanded array length exceeds range limit'): one of numbers, without a step, whose last is ``RANGE_LIMIT`` or
    more above its first, as doubles (a reversed or stepped one is never refused, nor one of a number beyond a
    double's range). Braces after a '$' or in a character class are no range."""
    for found in _NUMBER_RANGE.finditer(pattern):
        before = pattern[:found.start()]
        if before.endswith("$") or before.rfind("[") > before.rfind("]"):
            continue
        low, high = float(found.group(1)), float(found.group(2))
        if math.isfinite(low) and math.isfinite(high) and high - low >= RANGE_LIMIT:
            return found.group(0)
    return None


def _braces(body: str, wild: bool) -> tuple:
    """The token of ``{body}`` within one name (braces ``expanded`` leaves, or too many to expand), as fast-glob's
    brace expansion reads it: either word of a list (``{a,b}``, braces nested in a word), an item of a range
    (``_range_items``), else the braces as written (``{1}``)."""
    words = _words(body)
    if len(words) > 1:
        return (EITHER, tuple(_tokens(word, wild) for word in words))
    items = _range_items(body)
    if items is None:
        return (EITHER, (((TEXT, "{"),) + _tokens(body, wild) + ((TEXT, "}"),),))
    if items is TOO_MANY:
        return (INTEGER,)
    return (EITHER, tuple(((TEXT, item),) for item in items))


TOO_MANY = "too many"  # a range of more than ``_MANY`` items


def _range_items(body: str):
    """The items of the range ``{body}`` (``{1..3}``, ``{01..10}`` padded, ``{a..c}``, with a step: ``{0..10..5}``),
    in fast-glob's order; none for one fast-glob refuses; ``TOO_MANY``; None when ``body`` is no range."""
    found = _RANGE.fullmatch(body)
    if found is None or found.group(1).isalpha() != found.group(2).isalpha():
        return None
    low, high, step = found.groups()
    if refused_range("{" + body + "}"):
        return []
    step = abs(int(step or 1)) or 1
    first, last = (ord(low), ord(high)) if low.isalpha() else (int(low), int(high))
    numbers = range(first, last + 1, step) if first <= last else range(first, last - 1, -step)  # from the first
    if len(numbers) > _MANY:
        return TOO_MANY
    # padded when a number or the step is written with a leading zero, to the longest of them
    written = (low, high, found.group(3) or "")
    width = max(map(len, written)) if any(re.match(r"-?0[0-9]", text) for text in written) else 0
    return [chr(n) for n in numbers] if low.isalpha() else [str(n).zfill(width) for n in numbers]


def _words(body: str) -> list:
    """``body`` cut at its commas outside nested braces."""
    words, depth, start = [], 0, 0
    for at, c in enumerate(body):
        depth += 1 if c == "{" else -1 if c == "}" else 0
        if c == "," and depth == 0:
            words.append(body[start:at])
            start = at + 1
    return words + [body[start:]]


def _closing(part: str, start: int) -> int:
    """Where the brace that opens at ``start`` closes (-1: it does not)."""
    depth = 0
    for at in range(start, len(part)):
        depth += 1 if part[at] == "{" else -1 if part[at] == "}" else 0
        if depth == 0:
            return at
    return -1


def _tokens(part: str, wild: bool = True) -> tuple:
    """The tokens of one name's pattern; without ``wild``, a '?' is itself."""
    out, i = [], 0
    while i < len(part):
        c = part[i]
        if c == "*":
            token = (STAR,)
        elif c == "?" and wild:
            token = (ANY,)
        elif c == "{" and _closing(part, i) > 0:
            end = _closing(part, i)
            token = _braces(part[i + 1:end], wild)
            i = end
        elif c == "[" and _class_end(part, i) > 0:
            end = _class_end(part, i)
            token = _class(part[i + 1:end])
            i = end
        elif out and out[-1][0] == TEXT:  # a run of characters is one token
            token = (TEXT, out.pop()[1] + c)
        else:
            token = (TEXT, c)
        out.append(token)
        i += 1
    return tuple(out)


def _class_end(part: str, start: int) -> int:
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


def _name_matches(tokens: tuple, name: str) -> bool:
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
