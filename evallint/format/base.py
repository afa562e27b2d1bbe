"""The base schema: unknown keys are left to the rules (EV109), never raised."""
from __future__ import annotations

from marshmallow import EXCLUDE, Schema


class LintSchema(Schema):
    """Schemas run rule checks in ``pre_load`` and hand marshmallow only the
    values those checks accepted, so loading itself never fails on user input;
    what is wrong has been reported with its position."""

    definition = ""  # the name its JSON Schema is exported under when another schema nests it (jsonschema.py)

    class Meta:
        unknown = EXCLUDE
