"""Secret-looking values: which keys hold secrets, and where in a file's text the values under them are,
so that no snippet, message or cache row ever shows one, whatever finding sits on its line and whichever
rules are selected (EV512 reports them; masking does not depend on it).

A key holds a secret when its name, read as the parser reads it (escapes decoded, an alias taken for the
scalar it names) and normalised (camelCase split into words, casefolded, ``-``, ``.`` and blanks read as
``_``), contains one of ``SECRET_WORDS``, has one of ``SECRET_NAME_WORDS`` as a word of its own, or ends
in ``_key``. Every scalar under such a key is starred, however deep (lists, nested mappings, the anchored
node an alias stands for), and so is the user-info of a URL (``postgres://user:PASS@host``) anywhere."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from evallint.rules.secret_walk import Walk

ENV_REF = re.compile(r"\$\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}\Z")
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
_SEPARATORS = re.compile(r"[-.\s]+")

# a key holds a secret when its normalised name contains one of these ('token', not in 'tokens': a count) ...
SECRET_WORDS = ("secret", "password", "passwd", "passphrase", "credential", "cookie", "authorization",
                "authorisation", "apikey", "api_key", "privatekey", "token")
# ... or has one of these as a word of its own (not 'author'), or ends in '_key'
SECRET_NAME_WORDS = ("auth", "oauth", "bearer", "pwd", "creds")


def _name(key: str) -> str:
    """A setting's name in snake_case, as a target's settings are written (snake_case or camelCase)."""
    return _CAMEL.sub(lambda m: "_" + m.group(1).lower(), key).lower()


def normalised(key: str) -> str:
    """A key's name as the secret words are looked up in: camelCase split into words, casefolded,
    ``-``, ``.`` and blanks read as ``_``."""
    return _SEPARATORS.sub("_", _name(key)).casefold()


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


def is_secret_key(key: str) -> bool:
    """The settings EV512 reports a literal in (the specification's list; each also ``holds_secret``)."""
    name = _name(key)
    return (name in ("api_key", "apikey") or name.endswith("_key") or ("token" in name and "tokens" not in name)
            or "secret" in name or "password" in name or "passwd" in name)


def is_strong_secret_key(key: str) -> bool:
    """Keys whose value is a secret even when it is written as a number."""
    name = _name(key)
    return name in ("api_key", "apikey") or name.endswith("_key") or "secret" in name or "pass" in name


def is_literal_secret(key: str, value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip()) and not ENV_REF.match(value.strip())
    return isinstance(value, (int, float)) and not isinstance(value, bool) and is_strong_secret_key(key)


# what a text holds when a secret key may be written in it (a word, or an escape spelling one, lower-cased):
# a text without any is not followed through its structure
_HINTS = ("key", "token", "secret", "passw", "passphrase", "credential", "cookie", "auth", "bearer", "pwd", "creds",
          "\\")


def _may_hold_secret(text: str) -> bool:
    lowered = text.lower()
    return any(hint in lowered for hint in _HINTS)


# a URL's '://' ('\/\/' in JSON too), and its authority after it: the user-info is what comes before the
# authority's last '@'
_SCHEME_END = re.compile(r":(?:\\?/){2}")
_AUTHORITY = re.compile(r"[^\s/?#\"<>\[\]{}]*")
# a word of a line that the parser did not reach
_WORD = re.compile(r"[A-Za-z0-9_.-]+")


def secret_spans(text: str, json_lines: bool = False) -> list:
    """(line index, start, end) of each secret value in ``text`` (a YAML file, or with ``json_lines`` a JSONL
    file read line by line), in the order of the text, lines counted at '\\n': each scalar under a key that
    ``holds_secret``, and each URL's user-info. A multi-line value gives a span on each of its lines (the
    indentation left out, a block scalar's indicator line too). The part of a file that the parser does not
    reach (after a syntax error) is starred on each line where a secret word is, and whole when the error
    falls where a secret value was due. The work is linear in the text."""
    ranges = []
    for scheme in _SCHEME_END.finditer(text):
        at = text.rfind("@", scheme.end(), _AUTHORITY.match(text, scheme.end()).end())
        if at > scheme.end():
            ranges.append((scheme.end(), at))
    if _may_hold_secret(text):
        ranges += _json_ranges(text) if json_lines else _yaml_ranges(text)
    return _line_spans(text, ranges)


def _yaml_ranges(text: str) -> list:
    """The index ranges of the secret values of a YAML text, from PyYAML's parser events."""
    import yaml
    from yaml import events as e

    from evallint.load.yaml12 import LOADER

    walk = Walk(holds_secret, ENV_REF)
    scalar, alias = e.ScalarEvent, e.AliasEvent
    starts, ends = (e.MappingStartEvent, e.SequenceStartEvent), (e.MappingEndEvent, e.SequenceEndEvent)
    event = None
    try:
        for event in yaml.parse(text, Loader=LOADER):
            kind = type(event)
            if kind is scalar or kind in starts:
                start, end = event.start_mark.index, event.end_mark.index
                if event.anchor is not None or event.tag is not None:
                    start = _past_properties(text, start, end)
                if kind is not scalar:
                    walk.open(kind is e.MappingStartEvent, event.anchor, start)
                    continue
                if event.style in ("|", ">"):  # a block scalar: its text starts on the line below the indicator
                    below = text.find("\n", start, end)
                    start = end if below < 0 else below + 1
                walk.scalar(event.value, event.anchor, start, end)
            elif kind in ends:
                walk.close(event.end_mark.index)
            elif kind is alias:
                walk.alias(event.anchor, event.start_mark.index, event.end_mark.index)
    except yaml.YAMLError:
        walk.ranges += _unread(text, event.end_mark.index if event else 0, len(text), walk.due())
    return walk.finish()


_PROPERTY = re.compile(r"[&!][^\s,\[\]{}]*\s*")


def _past_properties(text: str, start: int, end: int) -> int:
    """Where a node's content starts: past its anchor and tag (``&a !!str``), which its event's span holds."""
    match = _PROPERTY.match(text, start, end)
    while match and match.end() > start:
        start = match.end()
        match = _PROPERTY.match(text, start, end)
    return start


# a JSON token: a string (to its closing quote), a punctuation mark, a number or literal; else what stops the
# reading (an unclosed string, a stray character)
_JSON_TOKEN = re.compile(r'[ \t\r]*(?:("(?:[^"\\]|\\.)*")|([{}\[\],:])|([^\s{}\[\],:"]+)|(.))')


def _json_ranges(text: str) -> list:
    """The index ranges of the secret values of a JSONL text, each line read as a JSON document."""
    walk, offset = Walk(holds_secret, ENV_REF), 0
    for line in text.split("\n"):
        if _may_hold_secret(line):
            _json_line(walk, line, offset)
        offset += len(line) + 1
    return walk.ranges


def _json_line(walk: Walk, line: str, offset: int) -> None:
    """Add the index ranges (``offset`` is the line's start in the text) of the secret values of one JSONL
    line to ``walk``'s, from the tokens of JSON's grammar; a line that is no valid JSON is read as far as it
    goes (a mismatched closing mark closes what is open)."""
    walk.stack.clear()  # each line is a document of its own
    for match in _JSON_TOKEN.finditer(line):
        string, mark, literal, stray = match.groups()
        start, end = offset + match.start(match.lastindex), offset + match.end()
        if stray is not None:
            walk.ranges += _unread(line, match.start(4), len(line), walk.due(), offset)
            break
        if mark in ("{", "["):
            walk.open(mark == "{", None, start)
        elif mark in ("}", "]"):
            walk.close(end)
        elif mark is None:  # ':' and ',' only separate the nodes: a mapping's are its keys and values in turn
            value = literal
            if string is not None:
                value = string[1:-1]
                if "\\" in value:
                    try:
                        value = json.loads(string)
                    except ValueError:  # an invalid escape: the text between the quotes
                        pass
            walk.scalar(value, None, start, end)


def _unread(text: str, start: int, end: int, due: bool, offset: int = 0) -> list:
    """The ranges of ``text[start:end]``, a part the parser did not reach: all of it when ``due`` (a secret
    value was due there), else each of its lines that holds a word that ``holds_secret``."""
    if due:  # the value starts past the ':' after its key
        colon = text.find(":", start, end)
        if colon >= 0 and not text[start:colon].strip():
            start = colon + 1
        return [(offset + start, offset + end)]
    out = []
    while start < end:
        line_end = text.find("\n", start, end)
        line_end = end if line_end < 0 else line_end
        if any(holds_secret(word.group(0)) for word in _WORD.finditer(text, start, line_end)):
            out.append((offset + start, offset + line_end))
        start = line_end + 1
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
