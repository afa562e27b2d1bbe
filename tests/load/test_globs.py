"""The ranges of a file:// pattern's braces that fast-glob refuses to expand (the runner then rejects the suite)."""
from __future__ import annotations

import pytest

from evallint.load.globs import _compiled, matches, refused_range

RANGES = [  # (pattern, the range refused)
    ("cases/{0..1000}.yaml", "{0..1000}"), ("cases/{-5..995}.yaml", "{-5..995}"), ("a/{1..999}/{01..1001}", "{01..1001}"),
    ("cases/{1..1000}.yaml", None), ("cases/{1000..0}.yaml", None), ("cases/{0..2000..1}.yaml", None),
    # after a '$' or in a character class braces are no range; a number beyond a double's range is none either
    ("cases/${0..2000}.yaml", None), ("cases/[{0..1000}].yaml", None), ("{1.." + "9" * 400 + "}", None),
    ("{1.." + "9" * 5000 + "}", None),
]


@pytest.mark.parametrize("pattern, refused", RANGES, ids=[pattern[:20] for pattern, _ in RANGES])
def test_a_range_is_refused_as_fast_glob_refuses_it(pattern, refused):
    assert refused_range(pattern) == refused


def test_a_run_of_stars_is_one_star():
    """A run of stars matches what one does; as one, a name that does not match is refused at once, where each
    star of the run would try every split of the name."""
    assert _compiled("/r/" + "*" * 24).pattern == _compiled("/r/*").pattern
    assert (matches("/r/abcdefghijkl/a.yaml", "/r/" + "*" * 24), matches("/r/a.yaml", "/r/***.yaml")) == (False, True)
