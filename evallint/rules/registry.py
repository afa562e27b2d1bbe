"""The one registry of rules, collected from the modules that find them.

Each rule is a constant named by its code (``EV104 = Rule(...)``) in a module of ``RULE_MODULES``; its long
explanation (what / why / example / fix) is a ``## CODE name`` section of the markdown file beside that
module with the same stem (``structure.py``, ``structure.md``), read only when asked for (``rules/docs.py``)."""
from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from functools import cached_property, lru_cache
from types import ModuleType
from typing import Callable, Iterable, Optional

from evallint import __version__
from evallint.diagnostics import E, S, W, Rule  # noqa: F401 - E, W and S are re-exported for the rules' users

# the modules that declare rules: all in the rules layer or below it (tests/test_layout.py), none importing
# the schemas, so that listing or explaining the rules stays cheap
RULE_MODULES = (
    "evallint.rules.pipeline",
    "evallint.load.source",
    "evallint.load.yaml12",
    "evallint.load.yaml_directives",
    "evallint.load.jsonl",
    "evallint.rules.structure",
    "evallint.rules.common",
    "evallint.rules.messages",
    "evallint.rules.evaluators",
    "evallint.rules.references",
    "evallint.rules.targets",
    "evallint.rules.config_file",
    "evallint.rules.datasets",
    "evallint.rules.style",
)


def collect(modules: Iterable[ModuleType]) -> dict[str, tuple[Rule, str]]:
    """code -> (rule, name of the module that declares it), in code order, from every ``Rule`` in the
    modules' namespaces. A code declared twice, or a rule under a name other than its code, raises
    ValueError: a module that reports another module's rule names it by its code string."""
    found: dict[str, tuple[Rule, str]] = {}
    for module in modules:
        for name, value in vars(module).items():
            if not isinstance(value, Rule):
                continue
            if name != value.code:
                raise ValueError(f"{module.__name__}.{name} holds rule {value.code}: a rule's constant is named by its code")
            if value.code in found:
                raise ValueError(f"rule {value.code} is declared twice: in {found[value.code][1]} and in {module.__name__}")
            found[value.code] = (value, module.__name__)
    return dict(sorted(found.items()))


@lru_cache(maxsize=1)
def declared() -> dict[str, tuple[Rule, str]]:
    """``collect`` over RULE_MODULES, imported on the first question about a rule: a run answered from the
    cache asks none, and so never imports the parser that yaml12.py declares its rules beside."""
    return collect(importlib.import_module(name) for name in RULE_MODULES)


class _Declared(Mapping):
    """A read-only mapping drawn from ``declared()`` when first read."""

    def __init__(self, draw: Callable[[dict], dict]):
        self._draw = draw

    @cached_property
    def _items(self) -> dict:
        return self._draw(declared())

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


RULES: Mapping[str, Rule] = _Declared(lambda found: {code: rule for code, (rule, _) in found.items()})

# code -> the module that declares the rule (its explanation is in the markdown file beside it)
DECLARED_IN: Mapping[str, str] = _Declared(lambda found: {code: module for code, (_, module) in found.items()})

# the rules whose finding sits on a secret, by code: its text is starred out of every snippet
REDACTED: Mapping[str, Rule] = _Declared(lambda found: {code: rule for code, (rule, _) in found.items() if rule.redacted})

BY_NAME: Mapping[str, Rule] = _Declared(lambda found: {rule.name: rule for rule, _ in found.values()})

# codes of rules that are gone, never given to another rule: a configuration may still name them (to no effect)
RETIRED = {"EV011": "AgentV 4.42.4's 'tests:' files, which it reported unchecked, are checked"}


def is_selector(code: str) -> bool:
    """Whether ``code`` (upper-cased) selects rules: ALL, a retired code, or 'EV' with up to three digits that
    begin a code."""
    return code == "ALL" or code in RETIRED or (
        re.fullmatch(r"EV\d{0,3}", code) is not None and any(c.startswith(code) for c in RULES))


# docs/rules.md on the web, at the tag of this release: the text that matches the installed rules
DOCS_URL = f"https://github.com/agentv-evallint/evallint/blob/v{__version__}/docs/rules.md"


def doc_url(code: str) -> Optional[str]:
    """The link to the rule's section of docs/rules.md (SARIF's helpUri, the editor's code link)."""
    rule = RULES.get(code)
    return f"{DOCS_URL}#{code.lower()}-{rule.name}" if rule else None
