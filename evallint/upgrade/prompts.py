"""Prompts read from files: whether AgentV 2.2 read a prompt from a file, and whether AgentV 4.42.4 can read
that file as it is or its template variables need their 4.42.4 names (``TEMPLATE_NAMES``)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from evallint.load.reach import resolve
from evallint.rules.referenced import BLANK, TEMPLATE_VARIABLE, template_variables
from evallint.rules.grader_files import EARLIER_VARIABLES_4 as TEMPLATE_NAMES, REQUIRED_VARIABLES_4, TEMPLATE_VARIABLES_4
from evallint.suggest import quote
from evallint.upgrade.spellings import UNFILLED_NAMES



@dataclass(frozen=True)
class Found:
    """Where the prompt of an ``llm_judge`` leads, and whether AgentV 4.42.4 reads it as 2.2 did."""

    path: Optional[str] = None  # the template 2.2 read; None: the prompt is the words themselves
    error: str = ""  # why 4.42.4 cannot read the template as 2.2 did
    rewrite: bool = False  # the template's 2.2 variables get their 4.42.4 names


def prompt_file(value: str, folder: str, root: str) -> Found:
    """Where the prompt ``value`` of an llm_judge in ``folder`` leads."""
    if "\n" in value or not value.strip():
        return Found()
    resolved = resolve(value, folder, root)
    if resolved.path is None:
        return Found()  # 2.2 sent these words as the prompt, and 4.42.4 does too
    names = template_variables(resolved, root)  # as the lint of the file read them, once per run
    if names is None:
        return Found(error=f"the prompt template {quote(value)} cannot be read (or is over 1 MiB); the upgrade "
                           "leaves the prompt as it is, which AgentV 4.42.4 sends as words, not as the file")
    names = () if names is BLANK else names
    unfilled = list(dict.fromkeys(name for name in names if name in UNFILLED_NAMES))
    if unfilled:
        shown = ", ".join(f"'{{{{ {name} }}}}'" for name in unfilled)
        return Found(error=f"the prompt template {quote(value)} uses {shown}, which AgentV 4.42.4 has no variable "
                           "for (it leaves the text as written); the prompt is left as it is, which 4.42.4 sends as "
                           "words: rewrite the template for 4.42.4's variables by hand")
    if any(name in REQUIRED_VARIABLES_4 for name in names):
        return Found(resolved.path, rewrite=any(name in TEMPLATE_NAMES for name in names))
    if any(TEMPLATE_NAMES.get(name) in REQUIRED_VARIABLES_4 for name in names):
        return Found(resolved.path, rewrite=True)
    return Found(error=f"the prompt template {quote(value)} uses neither of the variables AgentV 4.42.4 needs in "
                       f"a grader's template ({' nor '.join(REQUIRED_VARIABLES_4)}, AgentV 2.2's "
                       f"{' and '.join(k for k, v in TEMPLATE_NAMES.items() if v in REQUIRED_VARIABLES_4)}), so "
                       "4.42.4 would skip the test; the prompt is left as it is (4.42.4 sends it as words)")


def upgraded_template(text: str) -> str:
    """``text`` with each 2.2 template variable written under its 4.42.4 name, the braces' spacing kept."""
    def renamed(match: re.Match) -> str:
        name = match.group(1)
        new = TEMPLATE_NAMES.get(name)
        if new is None or new not in TEMPLATE_VARIABLES_4:
            return match.group(0)
        start, end = match.span(1)
        whole = match.group(0)
        return whole[:start - match.start()] + new + whole[end - match.start():]
    return TEMPLATE_VARIABLE.sub(renamed, text)
