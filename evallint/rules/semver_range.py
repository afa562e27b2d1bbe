"""Whether a text is a version range as the `semver` package reads one in its strict mode, which is how the
`agentv` command checks a project's 'required_version' (it stops when the range is not one).

A range is sets joined by '||'; a set is a hyphen range ('1.2 - 2') or comparators apart ('>=4.2.0 <5', '^4',
'~4.42', '4.x', '*'). The package reads a set in passes, and so does this module: it takes out the space after an
operator, a tilde or a caret; then in each word, the first build part ('+...'); a caret, tilde or partial version
('4', '4.x') is a range of its own, after any 'v' and '=' signs; what is left, once the first star goes, must be
one operator and a whole version ('v' before it at most). Every number stays within JavaScript's safe integers."""
from __future__ import annotations

import re

from evallint.load.numbers import JS_WHITESPACE, js_trim

_NUMBER = r"(?:0|[1-9][0-9]*)"
_PART = rf"({_NUMBER}|[xX*])"
_LABEL = r"(?:[0-9]*[A-Za-z-][A-Za-z0-9-]*|0|[1-9][0-9]*)"
_PRERELEASE = rf"(?:-{_LABEL}(?:\.{_LABEL})*)"
_BUILD = r"(?:\+[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)"
_OPERATOR = r"((?:<|>)?=?)"
# a partial version; every white space is one space by the time it is read
_PARTIAL = rf"[v= ]*{_PART}(?:\.{_PART}(?:\.{_PART}({_PRERELEASE})?{_BUILD}?)?)?"
_LOOSE_LABEL = r"(?:[0-9]*[A-Za-z-][A-Za-z0-9-]*|[0-9]+)"  # a number label may start with 0 in a loose version
_LOOSE_WHOLE = rf"[v= ]*[0-9]+\.[0-9]+\.[0-9]+(?:-?{_LOOSE_LABEL}(?:\.{_LOOSE_LABEL})*)?{_BUILD}?"
_HYPHEN = re.compile(rf"^ ?({_PARTIAL}) - ({_PARTIAL}) ?$")
_OPERATOR_SPACE = re.compile(rf"( ?){_OPERATOR} ?((?:{_LOOSE_WHOLE})|(?:{_PARTIAL}))")
_TILDE_SPACE = re.compile(r"( ?)~>? ")
_CARET_SPACE = re.compile(r"( ?)\^ ")
_BUILD_PART = re.compile(_BUILD)
_CARET_OR_TILDE = re.compile(rf"(?:\^|~>?){_PARTIAL}")
_X_RANGE = re.compile(rf"{_OPERATOR} ?{_PARTIAL}")
_STAR = re.compile(r"(?:<|>)?=? ?\*")
_COMPARATOR = re.compile(rf"(?:<|>)?=? ?v?({_NUMBER})\.({_NUMBER})\.({_NUMBER}){_PRERELEASE}?{_BUILD}?|")
_SPACES = re.compile("[" + re.escape(JS_WHITESPACE) + "]+")
_SAFE = 2 ** 53 - 1


def _safe(*numbers) -> bool:
    return all(number is None or not number.isdigit() or int(number) <= _SAFE for number in numbers)


def _is_x(part) -> bool:
    return part is None or part in "xX*"


def _word(word: str) -> bool:
    """Whether one word of a set is a range: a caret or tilde range, a partial version, or a comparator."""
    word = _BUILD_PART.sub("", word, count=1)
    for pattern in (_CARET_OR_TILDE, _X_RANGE):
        match = pattern.fullmatch(word)
        parts = match.groups()[-4:-1] if match else ()
        if match and (pattern is _CARET_OR_TILDE or any(map(_is_x, parts))):
            kind = word[0] if pattern is _CARET_OR_TILDE else match.group(1)
            bumped = _bumped(kind, *parts)
            # none read after an x; the number the package adds one to must stay safe once it has
            return _safe(*parts[:next((i for i, part in enumerate(parts) if _is_x(part)), 3)]) \
                and (bumped is None or int(bumped) < _SAFE)
    match = _COMPARATOR.fullmatch(_STAR.sub("", word, count=1).strip(" "))
    return match is not None and _safe(*match.groups())


def _bumped(kind: str, major, minor, patch):
    """The number of a caret ('^'), tilde ('~') or partial range (``kind`` its operator) that the package adds one
    to in the comparators it writes for it ('^4.2' is '>=4.2.0 <5.0.0-0'), or None."""
    if _is_x(major):
        return None
    if kind == "^":
        return major if major != "0" or _is_x(minor) else minor if minor != "0" or _is_x(patch) else patch
    if kind == "~":
        return major if _is_x(minor) else minor
    if kind in ("", "=", ">", "<="):  # a partial version: '4.2' is '>=4.2.0 <4.3.0-0', '>4' is '>=5.0.0'
        return major if _is_x(minor) else minor
    return None


def _hyphen(match: re.Match) -> str:
    """The comparators of a hyphen range, as the package writes them: a whole version keeps its signs."""
    start, major, minor, patch, prerelease, end, last_major, last_minor, last_patch, last_prerelease = match.groups()
    low = "" if _is_x(major) else f">={major}.0.0" if _is_x(minor) else f">={major}.{minor}.0" if _is_x(patch) \
        else f">={start}"
    high = "" if _is_x(last_major) else f"<{int(last_major) + 1}.0.0-0" if _is_x(last_minor) \
        else f"<{last_major}.{int(last_minor) + 1}.0-0" if _is_x(last_patch) \
        else f"<={last_major}.{last_minor}.{last_patch}{last_prerelease}" if last_prerelease else f"<={end}"
    return f"{low} {high}".strip(" ")


def _set(text: str) -> bool:
    text = _HYPHEN.sub(_hyphen, text, count=1)
    text = _OPERATOR_SPACE.sub(lambda m: m.group(1) + m.group(2) + m.group(3), text)
    text = _CARET_SPACE.sub(r"\1^", _TILDE_SPACE.sub(r"\1~", text))
    return all(_word(word) for word in text.strip(" ").split(" "))


LONGEST = 1024  # a longer text is taken for a range unread: reading one takes time in the square of its length


def is_range(text: str) -> bool:
    """Whether ``text`` is a version range the `semver` package reads (one of white space alone is not)."""
    if len(text) > LONGEST:
        return True
    raw = _SPACES.sub(" ", js_trim(text))
    return bool(raw) and all(_set(part.strip(" ")) for part in raw.split("||"))
