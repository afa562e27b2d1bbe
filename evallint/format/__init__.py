"""Marshmallow schemas: ``pre_load`` expands aliases and shorthands (running the
rule checks of each level on the way), ``post_load`` builds the frozen model."""
from __future__ import annotations

from marshmallow import ValidationError

__all__ = ["ValidationError"]
