"""The glob patterns of an AgentV 4.42.4 suite's ``file://`` items of 'tests', matched as the runner's fast-glob
matches them: a reference is a pattern when it holds ``*``, ``?`` or ``{``; fast-glob first expands its braces into
patterns read one by one (``{a,b}`` either word, slashes included; ``{1..3}`` an item of the range; ``{a}`` is
itself), in which ``*`` and ``?`` match within one name, ``**`` any number of folders, ``[...]`` a character of the
class (``a-z`` a range, ``[:alpha:]`` a POSIX class); a star or ``?`` does not match the dot that starts a name, nor
does ``**`` match a folder whose name starts with one. A backslash is read as any other character, where fast-glob
reads it as making the character after it itself."""
from __future__ import annotations

import os
import posixpath
import re
from functools import lru_cache
from typing import Optional

from evallint.load.glob_braces import TOO_MANY, closing, list_words, range_items, refused_length
from evallint.load.glob_names import STAR, class_end, name_matches, tokens

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
            reached = {at + 1 for at in reached if at < len(names) and name_matches(part, names[at])}
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
    return os.path.normpath("/".join(parts[:min(glob_at(parts), len(parts) - 1)]) or "/")


def glob_at(parts: list) -> int:
    """Where the first of a pattern's ``parts`` that holds a glob character is (after the last part: none)."""
    return next((i for i, part in enumerate(parts) if is_glob(part) or "[" in part), len(parts))


GLOBSTAR = "**"
EXPANSIONS = 1024  # the patterns a pattern's braces may expand to before they are matched within one name instead


@lru_cache(maxsize=256)
def expanded(pattern: str) -> tuple:
    """The patterns fast-glob reads for ``pattern``, each on its own, its folder included: its braces' words and
    ranges expanded (``{a/b,c}/x`` reads the folders 'a/b' and 'c'; ``{a,*b}?/x`` reads 'a?' as written), the folder
    each reads normalized as a path (the system reads it so; a '..' below a glob character matches no name); none
    for a range fast-glob refuses, or a pattern it refuses for its length (``refused_length``). Braces whose words are
    matched alike within their name (``_read_apart``) are left to ``glob_names.tokens``, so that a pattern expands to few; when
    it expands to more than ``EXPANSIONS``, or takes more steps, it is ``pattern`` itself, all of its braces then
    matched within their names."""
    if refused_length(pattern):
        return ()
    done, todo, steps = [], [(pattern, 0)], 0
    while todo:
        text, start = todo.pop()
        steps += 1
        found = _next_braces(text, start)
        if found is None:
            done.append(_folder_normalized(text))
            continue
        at, end = found
        words = _brace_words(text[at + 1:end]) if _read_apart(text, at, end) else ()
        if words == ():  # matched within its name (``glob_names.tokens``)
            todo.append((text, end + 1))
        elif words is None:  # braces as written ('{a}'), or too many: braces within them may be words
            todo.append((text, at + 1))
        else:  # none for a range fast-glob refuses
            todo.extend((text[:at] + word + text[end + 1:], at) for word in reversed(words))
        if len(done) + len(todo) > EXPANSIONS or steps > EXPANSIONS:
            return (pattern,)
    return tuple(dict.fromkeys(done))


def _brace_words(body: str) -> Optional[list]:
    """The words of the braces ``{body}``: of a list, or the items of a range (``range_items``); None for braces
    as written, or a range of too many items."""
    words = list_words(body)
    items = words if len(words) > 1 else range_items(body)
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
    fixed = glob_at(parts)
    return "/".join([posixpath.normpath("/".join(parts[:fixed]) or "/")] + parts[fixed:]) if fixed < len(parts) \
        else posixpath.normpath(pattern)


def _next_braces(text: str, start: int) -> Optional[tuple]:
    """(where, where they close) of the first braces of ``text`` from ``start`` that close, not in a character
    class (read within its name, as ``tokens`` reads it)."""
    at = start
    while at < len(text):
        if text[at] == "{" and closing(text, at) > 0:
            return at, closing(text, at)
        end = class_end(text, at) if text[at] == "[" else -1
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
        out.append(GLOBSTAR if part == "**" else tokens(part, wild=not fixed))
    return tuple(out)


_BASE_GLOB = re.compile(r"[*\[]|[\].+)]\?")  # what makes glob-parent end the folder before the part
