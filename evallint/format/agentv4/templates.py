"""An AgentV 4.42.4 assertion template (``.agentv/templates/NAME.yaml``): a mapping whose 'assertions' list the
loader puts in place of an ``include`` entry of a grader list (``load/templates.py``, ``graders.pooled``); each
item is read as an item of a suite's 'assertions', and no other key of the file is read."""
from __future__ import annotations

from evallint.format.agentv4.graders import AssertionField
from evallint.format.base import LintSchema, builds
from evallint.format.fields import Items, missing
from evallint.rules.evaluators import check_keys

SKIPS = "the runner skips every test that includes the template"


class TemplateSchema(LintSchema):
    checks = (check_keys("assertion template"),)
    interpolated = True
    assertions = Items(AssertionField(), "EV306", f"'assertions' must be a list of assertions, {{found}}; {SKIPS}",
                       required=True, error_messages=missing("EV119", f"assertion template has no 'assertions' list; "
                                                                      f"{SKIPS}"),
                       metadata={"description": "The assertions put in place of an include of this template: "
                                                "criteria strings, assertions, or includes of other templates.",
                                 "confusable": ("assert", "evaluators", "graders", "assertion")})

    @builds
    def build(self, data, **kwargs):
        from evallint.format.agentv4.model import Template  # imported by the loads that build a model only

        return Template(path="", assertions=tuple(data["assertions"]))


TEMPLATE_SCHEMA = TemplateSchema()
