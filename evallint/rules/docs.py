"""Rule documentation: the markdown in ``docs/`` beside this module, read
only when asked for. Each rule is a ``## CODE name`` section with four parts."""
from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Optional

from evallint.rules.registry import BY_NAME, RULES, Rule

DOCS_DIR = os.path.join(os.path.dirname(__file__), "docs")
PARTS = ("What it does", "Why is this bad?", "Example", "Fix")


@lru_cache(maxsize=1)
def sections() -> dict:
    """code -> {part title -> markdown body}."""
    out: dict = {}
    for name in sorted(os.listdir(DOCS_DIR)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(DOCS_DIR, name), encoding="utf-8") as fh:
            text = fh.read()
        for block in re.split(r"^## ", text, flags=re.M)[1:]:
            head, _, body = block.partition("\n")
            code = head.split(" ", 1)[0]
            parts = {}
            for part in re.split(r"^### ", body, flags=re.M)[1:]:
                title, _, content = part.partition("\n")
                parts[title.strip()] = content.strip()
            out[code] = parts
    return out


def find_rule(code_or_name: str) -> Optional[Rule]:
    key = code_or_name.strip()
    return RULES.get(key.upper()) or BY_NAME.get(key.lower())


LEVELS = {"E": "error", "W": "warning", "S": "style (off unless selected)"}


def render(rule: Rule) -> str:
    """One rule's section: what ``evallint rule CODE`` prints and docs/rules.md holds."""
    parts = sections().get(rule.code, {})
    out = [f"## {rule.code} {rule.name}", "",
           f"Default severity: {LEVELS[rule.level]}. Fixable: {'yes' if rule.fixable else 'no'}.", ""]
    for title in PARTS:
        out += [f"### {title}", "", parts.get(title, "(not documented)"), ""]
    return "\n".join(out).rstrip() + "\n"


def markdown() -> str:
    """docs/rules.md: every rule of the registry with its four parts."""
    out = ["# evallint rules", "",
           "Generated from the rule registry and `evallint/rules/docs/` by `python -m evallint.rules.docs`; "
           "`evallint rule CODE` prints the same text.", "",
           "| code | name | default severity | fixable |", "|---|---|---|---|"]
    for rule in RULES.values():
        out.append(f"| [{rule.code}](#{rule.code.lower()}-{rule.name}) | {rule.name} | {LEVELS[rule.level]} | "
                   f"{'yes' if rule.fixable else ''} |")
    return "\n".join(out) + "\n\n" + "\n".join(render(rule) for rule in RULES.values())


if __name__ == "__main__":
    import sys

    target = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs",
                          "rules.md")
    with open(sys.argv[1] if len(sys.argv) > 1 else target, "w", encoding="utf-8") as fh:
        fh.write(markdown())
