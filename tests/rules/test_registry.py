"""The registry collects each rule from the module that declares it, and the markdown beside that module
explains exactly that module's rules."""
from __future__ import annotations

import importlib
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
import test_layout

from evallint.diagnostics import E, W, Rule
from evallint.rules import docs
from evallint.rules.registry import BY_NAME, DECLARED_IN, REDACTED, RETIRED, RULE_MODULES, RULES, collect

PACKAGE = Path(__file__).resolve().parent.parent.parent / "evallint"


def _declared_by(module: str) -> list:
    return [code for code, where in DECLARED_IN.items() if where == module]


@pytest.mark.parametrize("module", RULE_MODULES)
def test_each_module_declares_rules_and_its_markdown_explains_exactly_them(module):
    codes = _declared_by(module)
    assert codes
    assert list(docs.module_sections(module)) == codes  # the same rules, in code order
    assert docs.doc_path(module) == str(Path(importlib.import_module(module).__file__).with_suffix(".md"))


def test_every_rule_is_declared_by_a_listed_module_as_a_constant_named_by_its_code():
    assert list(RULES) == sorted(RULES)
    for code, rule in RULES.items():
        assert rule.code == code
        assert getattr(importlib.import_module(DECLARED_IN[code]), code) is rule
    assert BY_NAME["duplicate-case-id"] is RULES["EV104"] and DECLARED_IN["EV104"] == "evallint.rules.structure"
    assert DECLARED_IN["EV014"] == "evallint.load.yaml12" and DECLARED_IN["EV512"] == "evallint.rules.targets"
    assert set(REDACTED) == {"EV512"}


def test_every_rule_code_in_the_sources_is_a_declared_rule():
    used = {}
    for path in PACKAGE.rglob("*.py"):
        for code in re.findall(r"""["'](EV\d{3})["']""", path.read_text(encoding="utf-8")):
            used.setdefault(code, path.relative_to(PACKAGE).as_posix())
    assert {code: where for code, where in used.items() if code not in RULES} == {"EV011": "rules/registry.py"}
    assert set(RETIRED) == {"EV011"}  # a retired code is named only where it is retired
    assert len(used) > 90  # the pattern finds the codes the checks report


def test_the_registry_imports_only_modules_at_or_below_its_layer():
    registry = test_layout._layer("evallint.rules.registry")
    assert [module for module in RULE_MODULES if test_layout._layer(module) > registry] == []


def test_reading_the_rules_imports_neither_the_schemas_nor_the_pipeline():
    code = ("import sys\nfrom evallint.rules.registry import RULES\nassert RULES['EV104'].name\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'marshmallow' or m.startswith(\n"
            "      ('evallint.format', 'evallint.lint', 'evallint.report', 'evallint.config'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"


def test_no_declaring_module_imports_the_registry():
    """The registry imports the declaring modules on its first use; none imports it back, so that use never
    meets a module half imported, its rules not yet declared."""
    code = (f"import importlib, sys\nfor name in {RULE_MODULES!r}:\n    importlib.import_module(name)\n"
            "print('evallint.rules.registry' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "False\n"


def _module(name: str, **rules) -> types.ModuleType:
    module = types.ModuleType(name)
    for attribute, rule in rules.items():
        setattr(module, attribute, rule)
    return module


def test_collect_gives_each_rule_with_its_module_in_code_order():
    b = Rule("EV902", "b-rule", W, "b")
    a = Rule("EV101", "a-rule", E, "a", fixable=True)
    found = collect([_module("fake.one", EV902=b, other=3), _module("fake.two", EV101=a)])
    assert found == {"EV101": (a, "fake.two"), "EV902": (b, "fake.one")}
    assert list(found) == ["EV101", "EV902"]


def test_a_code_declared_twice_raises():
    first = _module("fake.one", EV104=Rule("EV104", "duplicate-case-id", E, "two cases share an 'id'"))
    second = _module("fake.two", EV104=Rule("EV104", "other-name", W, "another rule"))
    with pytest.raises(ValueError, match=r"^rule EV104 is declared twice: in fake\.one and in fake\.two$"):
        collect([first, second])


def test_a_rule_under_another_name_than_its_code_raises():
    with pytest.raises(ValueError, match=r"^fake\.one\.DUPLICATE holds rule EV104: a rule's constant is named by"):
        collect([_module("fake.one", DUPLICATE=Rule("EV104", "duplicate-case-id", E, "two cases share an 'id'"))])
