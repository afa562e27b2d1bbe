"""EvaluationScore: what an evaluator returns."""
from __future__ import annotations

from marshmallow import Schema, fields, post_load, validate

from evallint.format.model import EvaluationScore

VERDICTS = ("pass", "fail", "borderline")


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
