"""Marshmallow schemas: pre_load expands aliases and shorthands (running the
rule checks of each level on the way), post_load builds the frozen model.

marshmallow is imported here first, with two things it does at import put off
until they are used, which evallint never does; in every process (each
pre-commit run, each pool worker) they were most of what importing marshmallow
costs:

- the regular expressions of its e-mail validator are compiled on first use
  (Unicode letter classes, case-insensitive: about 60 ms), and so are those of
  ``platform``, which ``uuid`` imports to ask the system's name;
- ``email.utils``, which its date fields name for the RFC 822 formats, is
  imported when one of its functions is first called (it imports ``socket``,
  ``urllib.parse``, ``calendar`` and the ``email`` package's charsets: about
  14 ms);
- ``inspect``, whose ``getmro`` its schema classes call as they are made (it
  is ``cls.__mro__``) and whose two generator tests it calls when a field
  checks for a collection, is imported when one of those tests is first called
  (it imports ``ast``, ``dis``, ``tokenize`` and ``linecache``: about 7 ms).

Only marshmallow's import sees the stand-ins: they are gone from
``sys.modules`` when the import ends, and a program that imported one of
those modules before gets it as it is."""
from __future__ import annotations

import sys

from ..lazy import deferred_compiles, getmro, stand_in

if "marshmallow.validate" not in sys.modules:
    with deferred_compiles("marshmallow.validate", "platform"), \
            stand_in("email.utils", ("format_datetime", "parsedate_to_datetime")), \
            stand_in("inspect", ("isgeneratorfunction", "isgenerator"), {"getmro": getmro}):
        import marshmallow.validate  # noqa: F401

from marshmallow import ValidationError  # noqa: E402  (after the import above, on purpose)

__all__ = ["ValidationError"]
