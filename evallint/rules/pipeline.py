"""The rules that the per-file pipeline (``evallint/lint.py``) and the suppression comments
(``evallint/report/suppress.py``) report. They are declared here rather than beside those checks because
the registry, in the rules layer, may import neither: both sit above it (tests/test_layout.py) and import
it, and lint.py imports the schemas (marshmallow), which ``evallint rule`` and a cached run never need."""
from __future__ import annotations

from evallint.diagnostics import E, W, Rule

# the rules this module declares, explained in pipeline.md beside it
EV000 = Rule("EV000", "internal-error", E, "evallint failed on this file; the other files are still linted")
EV008 = Rule("EV008", "not-a-mapping", E, "the top level is empty, a scalar or a list where a mapping is required")
EV099 = Rule("EV099", "unused-suppression", W, "an '# evallint: disable' comment that suppresses nothing or is malformed")
