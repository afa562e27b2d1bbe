"""Rule documentation: the markdown in ``docs/`` beside this module, read
only when asked for. Each rule is a ``## CODE name`` section with four parts."""
from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Optional

from .registry import BY_NAME, RULES, Rule

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


def render(rule: Rule) -> str:
    level = {"E": "error", "W": "warning", "S": "style (off unless selected)"}[rule.level]
    lines = [f"{rule.code} {rule.name}", "",
             f"Default severity: {level}. Fixable: {'yes' if rule.fixable else 'no'}.", "",
             rule.summary[0].upper() + rule.summary[1:] + ".", ""]
    parts = sections().get(rule.code, {})
    for title in PARTS:
        lines += [f"## {title}", "", parts.get(title, "(not documented)"), ""]
    return "\n".join(lines).rstrip() + "\n"
