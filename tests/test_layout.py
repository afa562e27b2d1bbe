"""The package's layout is its pipeline: each layer imports only from the layers below it, and no
module imports itself back through another (no import cycles)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "evallint"

# Lowest first. A module belongs to the first entry its name starts with; the package's own
# __init__ (its version and lazily imported public names) is importable from everywhere.
LAYERS = (
    ("evallint.diagnostics", "evallint.suggest"),
    ("evallint.load",),
    ("evallint.rules",),
    ("evallint.format",),
    ("evallint.config",),
    ("evallint.report",),
    ("evallint.models",),
    ("evallint.lint",),
    ("evallint.run",),
    ("evallint.upgrade",),
    ("evallint.api", "evallint.arguments", "evallint.commands", "evallint.cli", "evallint.__main__", "evallint.server"),
)


def _modules() -> dict:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(path: Path, modules: dict) -> set:
    """The evallint modules ``path`` imports, anywhere in it (inside functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("evallint"):
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found.update(name if name in modules else node.module for name in names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("evallint"))
    return {name for name in found if name != "evallint"}


def _layer(module: str) -> int:
    for number, prefixes in enumerate(LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return number
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def test_every_module_imports_only_from_its_layer_or_below():
    modules = _modules()
    wrong = []
    for name, path in sorted(modules.items()):
        if name == "evallint":
            continue
        for imported in sorted(_imports(path, modules)):
            if _layer(imported) > _layer(name):
                wrong.append(f"{name} imports {imported}")
    assert wrong == []


def test_no_import_cycles():
    modules = _modules()
    graph = {name: _imports(path, modules) for name, path in modules.items()}
    cycles = []

    def visit(name: str, trail: tuple) -> None:
        for imported in sorted(graph.get(name, ())):
            if imported in trail:
                cycles.append(" -> ".join(trail[trail.index(imported):] + (imported,)))
            elif imported not in done:
                visit(imported, trail + (imported,))
        done.add(name)

    done: set = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, (name,))
    assert cycles == []


def test_the_tests_mirror_the_packages():
    """A test module sits in the folder named for the package it tests (tests/load for evallint/load, ...),
    or in tests/ itself when it tests a top-level module (cli, api, commands, lint, suggest) or the project
    as a whole."""
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    folders = {path.parent.name for path in (ROOT / "tests").glob("*/test_*.py")}
    assert folders == packages
