"""The tables of docs/format.md that are read from the declarations: each sits between a
``<!-- generated: NAME -->`` line and ``<!-- end generated -->``, and ``python -m evallint.format.docs``
rewrites them (a test checks that they are current)."""
from __future__ import annotations

import os
import re
from collections.abc import Mapping

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "format.md")
BLOCK = re.compile(r"(<!-- generated: ([\w-]+) -->\n).*?(<!-- end generated -->)", re.S)


def kinds_table(schemas: Mapping, common: tuple, models: bool = True) -> str:
    """One row per evaluator kind: its ``type``, its summary, its own keys (those beside the ``common`` ones)
    and (with ``models``) the model class it builds."""
    rows = ["| `type` | what it checks | its own keys |" + (" model class |" if models else ""),
            "|---|---|---|" + ("---|" if models else "")]
    for kind, schema in schemas.items():
        keys = []
        at_least_one = getattr(schema, "at_least_one", ())
        for name, field in schema.load_fields.items():
            key = field.data_key or name
            if key not in common and key not in at_least_one:
                said = " (required)" if field.required else " (not read)" if field.metadata.get("unread") else ""
                keys.append(f"`{key}`{said}")
        if at_least_one:
            keys.append(", ".join(f"`{key}`" for key in at_least_one) + " (at least one)")
        if schema.open_keys:
            keys.append("and any other key as script configuration" if models else
                        "and any other key as its grader's configuration")
        model = f" `{schema.model_class}` |" if models else ""
        rows.append(f"| `{kind}` | {schema.summary} | {', '.join(keys)} |{model}")
    return "\n".join(rows) + "\n"


def tables() -> dict:
    from evallint.format.agentv2.evaluators import SCHEMAS, EvaluatorSchema
    from evallint.format.keys import known_keys

    from evallint.format.agentv4.assertions import AssertionSchema
    from evallint.format.agentv4.graders import SCHEMAS as ASSERTIONS

    return {"agentv2-evaluator-kinds": kinds_table(SCHEMAS, known_keys(EvaluatorSchema())),
            "agentv4-assertion-kinds": kinds_table(ASSERTIONS, known_keys(AssertionSchema()), models=False)}


def regenerated(text: str) -> str:
    """``text`` with every generated table rewritten from the declarations."""
    made = tables()
    return BLOCK.sub(lambda m: m.group(1) + made[m.group(2)] + m.group(3), text)


if __name__ == "__main__":
    with open(DOC, encoding="utf-8") as fh:
        current = fh.read()
    with open(DOC, "w", encoding="utf-8") as fh:
        fh.write(regenerated(current))
