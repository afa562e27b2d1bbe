"""Secret-looking values: which keys hold secrets, and where in a file's text the values under them are,
so that no snippet, message or cache row ever shows one, whatever finding sits on its line and whichever
rules are selected (EV512 reports them; masking does not depend on it).

A key holds a secret when its name, read as the parser reads it (escapes decoded, an alias taken for the
scalar it names) and normalised (camelCase split into words, casefolded, ``-``, ``.`` and blanks read as
``_``), contains one of ``SECRET_WORDS``, has one of ``SECRET_NAME_WORDS`` as a word of its own, or ends
in ``_key``. Every scalar under such a key is starred, however deep (lists, nested mappings, the anchored
node an alias stands for): the parse of the file gives their index ranges (``secret_walk``), and
``secret_spans`` adds the user-info of a URL (``postgres://user:PASS@host``) anywhere, comments included,
and cuts the ranges into the pieces of each line."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
_SEPARATORS = re.compile(r"[-.\s]+")

# a key holds a secret when its normalised name contains one of these ('token', not in 'tokens': a count) ...
SECRET_WORDS = ("secret", "password", "passwd", "passphrase", "credential", "cookie", "authorization",
                "authorisation", "apikey", "api_key", "privatekey", "token")
# ... or has one of these as a word of its own (not 'author'), or ends in '_key'
SECRET_NAME_WORDS = ("auth", "oauth", "bearer", "pwd", "creds")


@lru_cache(maxsize=1024)  # the same few keys in every target
def snake(key: str) -> str:
    """`commandTemplate` -> `command_template`, as a target's settings are read (snake_case or camelCase); other
    spellings (`COMMAND_TEMPLATE`) stay as they are."""
    return _CAMEL.sub(lambda m: "_" + m.group(1).lower(), key)


def normalised(key: str) -> str:
    """A key's name as the secret words are looked up in: camelCase split into words, casefolded,
    ``-``, ``.`` and blanks read as ``_``."""
    return _SEPARATORS.sub("_", snake(key).lower()).casefold()


_SECRET_WORD = re.compile("|".join(word for word in SECRET_WORDS if word != "token"))


@lru_cache(maxsize=4096)  # a file's keys repeat (each case has the same few)
def holds_secret(key: Any) -> bool:
    """Whether the values under ``key`` (a mapping key as the parser reads it) are starred out."""
    if not isinstance(key, str):
        return False
    name = normalised(key)
    if _SECRET_WORD.search(name) or ("token" in name and "tokens" not in name):
        return True
    words = name.split("_")
    return (len(words) > 1 and words[-1] == "key") or any(word in SECRET_NAME_WORDS for word in words)


# a URL's '://' ('\/\/' in JSON too), and its authority after it: the user-info is what comes before the
# authority's last '@'
_SCHEME_END = re.compile(r":(?:\\?/){2}")
_AUTHORITY = re.compile(r"[^\s/?#\"<>\[\]{}]*")
# a secret by its shape, wherever it is written (under a key of another name, in a command line, in a URL): the
# key formats of the model providers and code hosts people put in targets files (an Azure key is 32 hex digits)
_SHAPED = re.compile(r"\b(?:sk-[A-Za-z0-9_-]{16,}|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
                     r"|AKIA[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|hf_[A-Za-z0-9]{20,}"
                     r"|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}|[0-9a-fA-F]{32})\b")
# a URL's query parameter, whose value is a secret when its name holds one ('?api_key=...')
_PARAMETER = re.compile(r"[?&]([A-Za-z0-9_.-]+)=([^&#\s\"'<>]+)")
# a word of a line that the parser did not reach
_WORD = re.compile(r"[A-Za-z0-9_.-]+")


def secret_spans(text: str, ranges: list) -> list:
    """(line index, start, end) of each secret value in ``text``, in the order of the text, lines counted at
    '\\n': the index ranges that the file's parse found (``Parsed.secrets``, ``Dataset.secrets``), and, wherever
    they are, a comment included (no parser keeps comments), each URL's user-info, each URL query parameter
    whose name holds a secret and each value shaped like a provider's key. A multi-line value gives a span on
    each of its lines (the indentation left out). The work is linear in the text."""
    ranges = list(ranges)
    for scheme in _SCHEME_END.finditer(text):
        at = text.rfind("@", scheme.end(), _AUTHORITY.match(text, scheme.end()).end())
        if at > scheme.end():
            ranges.append((scheme.end(), at))
    ranges += [match.span(2) for match in _PARAMETER.finditer(text) if holds_secret(match.group(1))]
    ranges += [match.span() for match in _SHAPED.finditer(text)]
    return _line_spans(text, ranges)


def unread(text: str, start: int, end: int, due: bool, offset: int = 0) -> list:
    """The ranges of ``text[start:end]``, a part the parser did not reach: all of it when ``due`` (a secret
    value was due there), else each of its lines that holds a word that ``holds_secret``, counting the words of
    the first line before ``start`` (a key the parser read as part of a scalar before it stopped)."""
    if due:  # the value starts past the ':' after its key
        colon = text.find(":", start, end)
        if colon >= 0 and not text[start:colon].strip():
            start = colon + 1
        return [(offset + start, offset + end)]
    out, words_from = [], text.rfind("\n", 0, start) + 1
    while start < end:
        line_end = text.find("\n", start, end)
        line_end = end if line_end < 0 else line_end
        if any(holds_secret(word.group(0)) for word in _WORD.finditer(text, words_from, line_end)):
            out.append((offset + start, offset + line_end))
        start = words_from = line_end + 1
    return out


def _line_spans(text: str, ranges: list) -> list:
    """The (line index, start, end) pieces of index ranges, merged where they overlap, in the text's order;
    a piece starts past the blanks at its start (a line's indentation) and, when it reaches its line's end,
    stops before the blanks there; blank pieces are left out."""
    spans: list = []
    line, line_start = 0, 0
    last = -1
    for start, end in sorted(ranges):
        start = max(start, last)
        if start >= end:
            continue
        last = end
        while True:
            newline = text.find("\n", line_start)
            if newline < 0 or newline >= start:
                break
            line, line_start = line + 1, newline + 1
        while start < end:
            newline = text.find("\n", start)
            line_end = len(text) if newline < 0 else newline
            piece_start, piece_end = start, min(end, line_end)
            while piece_start < piece_end and text[piece_start] in " \t":
                piece_start += 1
            if piece_end == line_end:
                while piece_end > piece_start and text[piece_end - 1] in " \t\r":
                    piece_end -= 1
            if piece_end > piece_start:
                spans.append((line, piece_start - line_start, piece_end - line_start))
            if end <= line_end or newline < 0:
                break
            start, line, line_start = newline + 1, line + 1, newline + 1
    return spans
