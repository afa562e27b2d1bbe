"""The format evallint checks, declared once: marshmallow schemas whose fields
state each key's type, accepted values, range and requiredness with its rule
code (``fields.py``); ``post_load`` hooks build the frozen model (``model.py``), unless the load is for
findings only (``base.py``);
``walk.py`` runs the rules that span fields (each schema's ``checks``) over the
loaded data; ``jsonschema.py`` exports the same declarations for editors."""
from __future__ import annotations

from marshmallow import ValidationError

__all__ = ["ValidationError"]
