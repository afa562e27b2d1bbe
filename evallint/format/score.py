"""EvaluationScore: what an evaluator returns, the same in every generation of the format."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional

from marshmallow import Schema, fields, post_load, validate

VERDICTS = ("pass", "fail", "borderline")


@dataclass(frozen=True)
class EvaluationScore:
    """What a grader script prints: its score, verdict, hits, misses and reasoning."""

    score: float
    verdict: Optional[Literal["pass", "fail", "borderline"]] = None
    hits: tuple[str, ...] = ()
    misses: tuple[str, ...] = ()
    reasoning: Optional[str] = None


class EvaluationScoreSchema(Schema):
    score = fields.Float(required=True, allow_nan=False)
    verdict = fields.String(allow_none=True, load_default=None, validate=validate.OneOf(VERDICTS))
    hits = fields.List(fields.String(), load_default=())
    misses = fields.List(fields.String(), load_default=())
    reasoning = fields.String(allow_none=True, load_default=None)

    @post_load
    def build(self, data, **kwargs):
        return EvaluationScore(score=data["score"], verdict=data.get("verdict"), hits=tuple(data["hits"]),
                               misses=tuple(data["misses"]), reasoning=data.get("reasoning"))
