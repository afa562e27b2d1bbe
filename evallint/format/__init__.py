"""The format evallint checks, declared once: marshmallow schemas whose fields
state each key's type, accepted values, range and requiredness with its rule
code (``fields.py``); ``pre_load`` expands aliases and shorthands and calls the
rules that span fields, ``post_load`` builds the frozen model (``model.py``),
and ``jsonschema.py`` exports the same declarations for editors."""
from __future__ import annotations

from marshmallow import ValidationError

__all__ = ["ValidationError"]
