"""Configuration files: ``[tool.evallint]`` in pyproject.toml, or .evallint.toml
(docs/format.md#configuration). Every mistake in them is reported with file and line."""
from __future__ import annotations

import os
import re
import sys
from typing import Optional, Union

from evallint.diagnostics import Finding
from evallint.load.source import DEFAULT_MAX_BYTES, read_bytes


def _toml():
    """The TOML reader, imported only when there is a configuration file to read."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10
        import tomli as tomllib
    return tomllib


LOCAL_NAME = ".evallint.toml"


class ConfigError(Exception):
    """The mistakes of one configuration file: ``problems`` are (line or None, message) in the file's order,
    each shown as ``path:line: message`` on a line of its own; ``line`` and ``message`` are the first's."""

    def __init__(self, path: str, problems: list):
        self.path, self.problems = path, problems
        self.line, self.message = problems[0]
        super().__init__("\n".join(f"{path}:{line}: {message}" if line else f"{path}: {message}"
                                   for line, message in problems))


def find_config_file(start: str) -> Optional[str]:
    """The nearest .evallint.toml, or pyproject.toml with [tool.evallint], walking up."""
    current = os.path.abspath(start)
    while True:
        local = os.path.join(current, LOCAL_NAME)
        if os.path.isfile(local):
            return local
        pyproject = os.path.join(current, "pyproject.toml")
        if os.path.isfile(pyproject) and _has_table(pyproject):
            return pyproject
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def configurations_of(paths: list) -> dict:
    """The configuration file nearest above each path (a folder, or a file's folder; None: none) -> the
    first of the paths under it."""
    found: dict = {}
    nearest: dict = {}  # folder -> its configuration file
    for path in paths:
        folder = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
        if folder not in nearest:
            nearest[folder] = find_config_file(folder)
        found.setdefault(nearest[folder], path)
    return found


# a header of the [tool.evallint] table or of a table in it, written right or not: a header left unclosed
# ('[tool.evallint' and a line break) makes the file one to read, whose reading then says what is wrong
_TABLE_HEADER = re.compile(r"^[ \t]*\[\[?[ \t]*tool[ \t]*\.[ \t]*evallint[ \t]*(?:[\].#]|$)", re.M)


def _has_table(path: str) -> bool:
    raw = _read_config(path)
    if isinstance(raw, Finding):
        return False
    return _TABLE_HEADER.search(raw.decode("utf-8", errors="replace")) is not None


def _line_of(text: str, key: str, after: int = 0) -> Optional[int]:
    pattern = re.compile(r'^[ \t]*(?:"%s"|\'%s\'|%s)[ \t]*=' % (re.escape(key), re.escape(key), re.escape(key)), re.M)
    match = pattern.search(text, after)
    if match is None:
        return None
    return text.count("\n", 0, match.start()) + 1


def _read_config(path: str) -> Union[bytes, Finding]:
    """A configuration file's bytes, read as the linter reads a file (a regular file only, without
    blocking) up to the default size cap: the configuration is what sets another."""
    return read_bytes(path, None, DEFAULT_MAX_BYTES)


def load_config_file(path: str) -> dict:
    """Validated settings of one file, as Config keyword arguments (``SettingsSchema``)."""
    text, tomllib = _config_text(path), _toml()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [(getattr(exc, "lineno", None), f"invalid TOML: {exc}")]) from None
    table, start = data, 0
    if os.path.basename(path) == "pyproject.toml":
        tool = data.get("tool")
        table = tool.get("evallint") if isinstance(tool, dict) else None
        if table is None:
            return {}
        match = re.search(r"^\s*\[\s*tool\s*\.\s*evallint\s*\]", text, re.M)
        start = match.start() if match else 0
    if not isinstance(table, dict):
        raise ConfigError(path, [(None, "[tool.evallint] must be a table")])
    from marshmallow import ValidationError

    from evallint.run.settings_schema import SettingsSchema

    try:
        return SettingsSchema(os.path.dirname(os.path.abspath(path))).load(table)
    except ValidationError as exc:
        problems = [(_line_of(text, key, start), message) for key, message in _flat(exc.messages, table)]
        raise ConfigError(path, sorted(problems, key=lambda problem: problem[0] or 0)) from None


def _config_text(path: str) -> str:
    raw = _read_config(path)
    if isinstance(raw, Finding):
        raise ConfigError(path, [(None, f"cannot read configuration: {raw.message}")])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(path, [(None, f"cannot read configuration: {exc}")]) from None


def _flat(messages: dict, table: dict) -> list:
    """(key, message) for each message of the schema, in the file's order of keys: a message under a key of
    a table (a glob of per-file-ignores, a code of severity) is placed at that key."""
    out = []
    for key, value in table.items():
        found = messages.get(key, ())
        if isinstance(found, dict):
            out += [(inner, message) for inner in value if inner in found for message in found[inner]]
        else:
            out += [(key, message) for message in found]
    return out
