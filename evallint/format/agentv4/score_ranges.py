"""A rubric item's score bands (AgentV 4.42.4's 'score_ranges'): a list of bands, or its shorthand, a mapping from the
first score of each band to its outcome; checked as the loader reads them (grader-parser.ts), a test's own rubric
items' more leniently."""
from __future__ import annotations

from typing import Any, Iterator

from marshmallow import ValidationError

from evallint.format.fields import Checked, Problem
from evallint.load.environment import is_whole_reference
from evallint.rules.common import finding, is_text
from evallint.rules.kept_tests import kept_by_loader


SCORES = range(11)  # the scores a rubric item's bands cover


def _score(value: Any) -> Any:
    """A score of 0-10 as the loader reads a band's bound or a shorthand's key (a key may be a digit string)."""
    if isinstance(value, str) and value.isascii() and value.isdigit():  # Number('٣') is NaN; int('²') fails
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value in SCORES else None


class ScoreRanges(Checked):
    """Score bands that together cover every score 0-10 once, each with an outcome: a list of
    ``{score_range: [min, max], outcome}``, or a mapping from the first score of each band to its outcome
    (starting at 0), whose keys the runner reads (``keys_read``: one written beside 'score_ranges' is a band
    moved out of it)."""

    keys_read = tuple(str(score) for score in SCORES)

    def check(self, value):
        if isinstance(value, dict):
            starts = [_score(key) for key in value]
            if None in starts or 0 not in starts or not all(is_text(v) for v in value.values()):
                raise ValidationError(Problem(self.code, "rubric item 'score_ranges' as a mapping needs scores 0-10 "
                                              "as keys, starting at 0, each with a non-empty outcome; the runner "
                                              "skips the test"))
            return value
        if not isinstance(value, list):
            raise self.reject(value)
        return self._bands(value)

    def _bands(self, value: list) -> list:
        """A list of bands: each with whole bounds and an outcome, together covering every score once. A bound
        the run's environment gives (a whole reference) is taken as it: what the bands cover is then not known."""
        covered: list = []
        given = False
        for i, band in enumerate(value):
            bounds = band.get("score_range") if isinstance(band, dict) else None
            pair = bounds if isinstance(bounds, list) and len(bounds) == 2 else [None, None]
            scores = [_score(b) for b in pair if not is_whole_reference(b)]
            given = given or len(scores) < 2
            if None in scores or scores != sorted(scores) or not is_text(band.get("outcome")):
                raise ValidationError({i: [Problem(self.code, "a score band needs 'score_range: [min, max]' (whole "
                                                   "scores 0-10, min <= max) and a non-empty 'outcome'; the runner "
                                                   "skips the test")]})
            covered += range(scores[0], scores[1] + 1) if len(scores) == 2 else ()
        if not given and sorted(covered) != list(SCORES):
            raise ValidationError(Problem(self.code, "rubric item 'score_ranges' must cover every score 0-10 exactly "
                                          "once; the runner skips the test"))
        return value


def check_inline_bands(test: dict, place) -> Iterator:
    """EV361 for a test's own rubric item whose bands are a shorthand mapping that does not start at 0: the loader
    throws on it and loads none of the file's tests, once it reads the rubrics of a test it keeps (yaml-parser.ts
    reads them after it skips an incomplete test or one whose graders fail). Other bands it passes on unchecked."""
    rubrics = test.get("rubrics")
    if not isinstance(rubrics, list) or not kept_by_loader(test, place.schema.dataset, place.document):
        return
    for i, item in enumerate(rubrics):
        bands = item.get("score_ranges") if isinstance(item, dict) else None
        starts = [_score(key) for key in bands] if isinstance(bands, dict) and bands else [None]
        if None not in starts and all(isinstance(v, str) and v for v in bands.values()) and min(starts) != 0:
            yield finding("EV361", f"rubric item 'score_ranges' as a mapping of scores must start at 0, found "
                          f"{min(starts)} first; the loader fails on the whole file, so none of its tests runs",
                          place.at + ("rubrics", i, "score_ranges"))
