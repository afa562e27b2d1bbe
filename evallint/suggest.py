"""Message helpers shared by every rule: quoting values, naming types,
"did you mean" suggestions."""
from __future__ import annotations

import json
import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Optional

# "did you mean" suggestions worked out per file: a file of a million unknown keys costs what its size does
SUGGESTIONS_PER_FILE = 100
# and the options they are compared with, all told: so does a file of thousands of tests naming unknown ones
OPTIONS_PER_FILE = 50_000


@dataclass
class _FileSuggestions:
    """The suggestions made while one file is linted, and how many comparisons they cost."""

    guesses: dict = field(default_factory=dict)  # (word, options) -> the suggestion, or None
    words: set = field(default_factory=set)  # the words of ``guesses``: another one is not looked up once all is spent
    compared: int = 0  # the options the words were compared with


_file_suggestions: ContextVar[Optional[_FileSuggestions]] = ContextVar("evallint_file_suggestions", default=None)


def closest(word: str, options: Iterable[str]) -> Optional[str]:
    return _remembered(word, tuple(options))


def _closest(word: str, options: tuple) -> Optional[str]:
    lowered = {o.lower(): o for o in options}
    if word.lower() in lowered:
        return lowered[word.lower()]
    normalized = word.replace("-", "_").lower()
    for o in options:
        if o.replace("-", "_").lower() == normalized or o.replace("_", "").lower() == normalized.replace("_", ""):
            return o
    import difflib  # only when a typo needs a suggestion

    match = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return match[0] if match else None


_remembered = lru_cache(maxsize=1024)(_closest)  # the same typo with the same options is often in many files


def edit_distance(a: str, b: str, limit: int) -> int:
    """Edits from ``a`` to ``b``: insertions, deletions, substitutions and swaps of two adjacent letters
    (``nmae`` for ``name`` is one edit: the most common slip of the fingers), no letter edited twice.
    Any distance above ``limit`` is given as ``limit + 1``, found as soon as a row's smallest distance is
    above it (the smallest distance of a row never decreases down the rows)."""
    before, previous = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if before is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb and ca != cb:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return min(previous[-1], limit + 1)


def compact(word: str) -> str:
    """``word`` in lower case without '_' and '-': two spellings of one key compare equal."""
    return word.replace("_", "").replace("-", "").lower()


def misspells(word: str, key: str) -> bool:
    """``word`` is a near miss of ``key``: equal when '_', '-' and case are ignored, within edit distance 2
    (1 for keys of four letters or fewer; a swap of two adjacent letters is one edit), or one is the other
    with a part added or cut (``exec`` for ``execution``, ``prompt_file`` for ``prompt``), or with a word put in
    front (``test_assertions`` for ``assertions``)."""
    return bool(near_misses(word, (key,)))


@lru_cache(maxsize=256)
def _forms(keys: tuple) -> tuple:
    """Each key with what ``near_misses`` compares: lower case, compact, its letters, the distance allowed."""
    return tuple((key, key.lower(), compact(key), frozenset(key.lower()), 2 if len(key) > 4 else 1) for key in keys)


@lru_cache(maxsize=4096)  # a file repeats its unknown keys (one per case), and every file has the same ones
def near_misses(word: str, keys: tuple) -> tuple:
    """The ``keys`` that ``word`` is a near miss of (``misspells``), in their order. The edit distance is
    computed only when two bounds below it allow: the difference in length, and the count of letters of one
    word that the other lacks (each needs an edit of its own)."""
    lower, squeezed = word.lower(), compact(word)
    letters = frozenset(lower)
    out = []
    for key, key_lower, key_compact, key_letters, limit in _forms(keys):
        if (squeezed == key_compact
                or (min(len(squeezed), len(key_compact)) >= 4
                    and (squeezed.startswith(key_compact) or key_compact.startswith(squeezed)
                         or _word_in_front(lower, key_lower)))
                or (abs(len(lower) - len(key_lower)) <= limit and len(letters - key_letters) <= limit
                    and len(key_letters - letters) <= limit and edit_distance(lower, key_lower, limit) <= limit)):
            out.append(key)
    return tuple(out)


def _word_in_front(word: str, key: str) -> bool:
    """``word`` is ``key`` (both lower case) with a word and a '_' or '-' put in front."""
    return len(word) > len(key) + 1 and word.endswith(key) and word[-len(key) - 1] in "_-"


@contextmanager
def suggestions_per_file() -> Iterator[None]:
    """Inside the block, the suggestions are one file's: worked out for its first ``SUGGESTIONS_PER_FILE``
    distinct words only, each once, while they are compared with ``OPTIONS_PER_FILE`` options at most in all."""
    token = _file_suggestions.set(_FileSuggestions())
    try:
        yield
    finally:
        _file_suggestions.reset(token)


def did_you_mean(word: Any, options: Iterable[str]) -> str:
    """" (did you mean 'x'?)", or "" when nothing is close (or, inside ``suggestions_per_file``, when the
    file's other words have had their share)."""
    if not isinstance(word, str):
        return ""
    options = tuple(options)
    file = _file_suggestions.get()
    if file is None:
        guess = closest(word, options)
    else:
        spent = len(file.guesses) >= SUGGESTIONS_PER_FILE or file.compared + len(options) > OPTIONS_PER_FILE
        if spent and word not in file.words:
            return ""
        key = (word, options)
        if key not in file.guesses and not spent:
            file.guesses[key], file.compared = closest(word, options), file.compared + len(options)
            file.words.add(word)
        guess = file.guesses.get(key)
    return f" (did you mean '{guess}'?)" if guess else ""


# letters typed for the digits they look like in a rule code ('EV4O1' for 'EV401', 'EV3l0' for 'EV310')
_DIGIT_LOOKALIKES = str.maketrans("OIL", "011")  # of the code in capitals


def code_hint(word: str, codes: Iterable[str], *, prefixes: bool = False) -> str:
    """" (did you mean 'EV401'?)" for a rule code of ``codes`` mistyped with a letter for a digit ('EV4O1')
    or without its 'V' ('E401'); with ``prefixes``, a prefix of a code ('EV4O') counts as right too."""
    up = word.strip().upper()
    number = up[2:] if up.startswith("EV") else up[1:] if up.startswith("E") else None
    if not number:
        return ""
    guess = "EV" + number.translate(_DIGIT_LOOKALIKES)
    if guess == up or not guess[2:].isdigit():
        return ""
    known = any(code.startswith(guess) for code in codes) if prefixes else guess in set(codes)
    return f" (did you mean '{guess}'?)" if known else ""


def one_of(options: Iterable[str]) -> str:
    return ", ".join(f"'{o}'" for o in options)


def all_of(options: Iterable[Any], show: Callable[[Any], str] = "'{}'".format) -> str:
    """"'a', 'b' and 'c'": each of ``options``, quoted (``show``: written otherwise)."""
    return _listed(options, show, " and ")


def any_of(options: Iterable[Any], show: Callable[[Any], str] = "'{}'".format) -> str:
    """"'a', 'b' or 'c'": each of ``options``, quoted (``show``: written otherwise)."""
    return _listed(options, show, " or ")


def _listed(options: Iterable[Any], show: Callable[[Any], str], last: str) -> str:
    quoted = [show(o) for o in options]
    return last.join(filter(None, (", ".join(quoted[:-1]), "".join(quoted[-1:]))))


def yaml_boolean(value: bool) -> str:
    """A boolean as YAML writes it: true or false."""
    return "true" if value else "false"


def quote(value: Any, limit: int = 60) -> str:
    """The value as the user wrote it, short: strings in single quotes."""
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 3] + "..."
        return "'" + text.replace("\n", "\\n") + "'"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 200 else "a very large integer"
    if isinstance(value, (dict, list)):
        return type_name(value)
    try:
        return json.dumps(value)[:limit]
    except (TypeError, ValueError):
        return type(value).__name__


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def found(value: Any) -> str:
    """'found 'x'' for strings, 'found null', 'found a list' for containers, 'found 3 (a number)' for the others."""
    if value is None or isinstance(value, (str, dict, list)):
        return f"found {quote(value)}"
    return f"found {quote(value)} ({type_name(value)})"


def shown(value: Any) -> str:
    """The value for "invalid X <value>" messages: 'text', 1 (a number), a list."""
    return found(value)[len("found "):]
