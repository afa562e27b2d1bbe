"""A code-grader's access to the target (its 'target'): ``true``, a mapping whose 'max_calls' bounds the calls, or
a value that says no access."""
from __future__ import annotations

from typing import Any, Iterator

from evallint.diagnostics import KEY
from evallint.format.base import LintSchema
from evallint.format.fields import MappingOr, Number
from evallint.rules.common import check_unknown_keys, finding
from evallint.suggest import quote

# the calls to the target a code-grader's script may make when 'target.max_calls' does not say
DEFAULT_MAX_CALLS = 50


def _unread_keys(access: dict, place) -> Iterator:
    """EV115 for a key of a code-grader's 'target' mapping other than 'max_calls', which the loader drops: a target's
    'name' or 'model' written there does not choose the target the script's calls go to (graders/code-grader.ts)."""
    return check_unknown_keys(access, place.keys, place.at, "code-grader target", code="EV115", notes={
        key: "; the runner drops it: the script's calls go to the run's grader target, "
             "or to the target each call names" for key in access if isinstance(key, str)})


class TargetAccessSchema(LintSchema):
    """A code-grader's access to the target, as a mapping: the loader reads only 'max_calls'."""

    checks = (_unread_keys,)
    max_calls = Number("EV323", "code-grader 'target.max_calls' must be a finite number >= 0, {found}; the runner "
                       "warns and gives the script no access to the target", minimum=0,
                       metadata={"description": f"Most calls to the target the script may make, >= 0 (default "
                                                f"{DEFAULT_MAX_CALLS}).", "default": DEFAULT_MAX_CALLS})


# the values of a code-grader's 'target' that say no access, which the runner gives for them (with a warning); an
# empty 'target:' says nothing (a 'max_calls' left out, say), and the runner gives no access for it too (EV323)
NO_ACCESS = (False, 0, "false", "no", "off", "0")


def says_no_access(value: Any) -> bool:
    return value is not True and (value in NO_ACCESS[:2] or isinstance(value, str) and value.strip().lower() in NO_ACCESS)


def _false_access(value: Any, place) -> Iterator:
    """EV109 for a 'target' that says no access ('false', 'no'), which the runner gives, as without it, and warns
    of."""
    if says_no_access(value):
        yield finding("EV109", f"code-grader 'target: {value if isinstance(value, str) else quote(value)}' gives the "
                      "script no calls to the target, as without it, and the runner warns 'Invalid target config'; "
                      "remove it", place.at, KEY)


class TargetAccessField(MappingOr):
    """A code-grader's access to the target: ``true``, or a mapping with ``max_calls`` (``false`` is no access,
    with a warning)."""

    accepted_shape = {"const": True}
    scalar = True  # true may be given by an environment reference

    def __init__(self, **kwargs: Any):
        super().__init__(TargetAccessSchema(), "EV323", "code-grader 'target' must be true or a mapping with "
                         "'max_calls', {found}; the runner ignores it",
                         accepts=lambda value: value is True or says_no_access(value), checks=(_false_access,),
                         **kwargs)
