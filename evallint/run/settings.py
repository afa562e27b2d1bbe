"""Configuration files: ``[tool.evallint]`` in pyproject.toml, or .evallint.toml
(docs/format.md#configuration). Every mistake in them is reported with file and line."""
from __future__ import annotations

import os
import re
import sys
from typing import Any, Optional, Union

from evallint.diagnostics import Finding
from evallint.load.source import DEFAULT_MAX_BYTES, read_bytes
from evallint.rules.registry import RULES
from evallint.suggest import code_hint, did_you_mean


def _toml():
    """The TOML reader, imported only when there is a configuration file to read."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10
        import tomli as tomllib
    return tomllib

KEYS = ("select", "ignore", "extend-select", "include", "exclude", "per-file-ignores", "strict", "references", "severity",
        "max-file-size")
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


def _valid_code(code: str) -> bool:
    up = code.upper()
    return up == "ALL" or any(c.startswith(up) for c in RULES) and re.fullmatch(r"EV\d{0,3}", up) is not None


class _Reader:
    """Reads the settings of one file, noting every mistake (``problems``) and leaving out the values that
    have one."""

    def __init__(self, path: str, text: str, table_start: int):
        self.path, self.text, self.start = path, text, table_start
        self.problems: list = []

    def fail(self, key: str, message: str) -> None:
        self.problems.append((_line_of(self.text, key, self.start), message))

    def strings(self, key: str, value: Any) -> Optional[tuple]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return self.fail(key, f"'{key}' must be a list of strings")
        return tuple(value)

    def codes(self, key: str, value: Any) -> Optional[tuple]:
        codes = self.strings(key, value)
        if codes is None:
            return None
        if not codes and key == "select":
            return self.fail(key, "unknown rule selector: 'select' is empty, which would turn every rule off "
                                  "(name codes or prefixes, or ALL)")
        unknown = [code for code in codes if not _valid_code(code)]
        for code in unknown:
            self.fail(key, f"unknown rule selector '{code}' in '{key}'{code_hint(code, RULES, prefixes=True)}")
        return None if unknown else tuple(c.upper() for c in codes)

    def boolean(self, key: str, value: Any) -> Optional[bool]:
        if not isinstance(value, bool):
            return self.fail(key, f"'{key}' must be true or false")
        return value


def _read_config(path: str) -> Union[bytes, Finding]:
    """A configuration file's bytes, read as the linter reads a file (a regular file only, without
    blocking) up to the default size cap: the configuration is what sets another."""
    return read_bytes(path, None, DEFAULT_MAX_BYTES)


def load_config_file(path: str) -> dict:
    """Validated settings of one file, as Config keyword arguments."""
    tomllib = _toml()
    raw = _read_config(path)
    if isinstance(raw, Finding):
        raise ConfigError(path, [(None, f"cannot read configuration: {raw.message}")])
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        raise ConfigError(path, [(None, f"cannot read configuration: {exc}")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [(getattr(exc, "lineno", None), f"invalid TOML: {exc}")]) from None
    start = 0
    if os.path.basename(path) == "pyproject.toml":
        table = data.get("tool", {}).get("evallint")
        match = re.search(r"^\s*\[\s*tool\s*\.\s*evallint\s*\]", text, re.M)
        start = match.start() if match else 0
        if table is None:
            return {}
    else:
        table = data
    if not isinstance(table, dict):
        raise ConfigError(path, [(None, "[tool.evallint] must be a table")])
    reader = _Reader(path, text, start)
    out: dict = {"config_path": path}
    base = os.path.dirname(os.path.abspath(path))
    for key, value in table.items():
        if key not in KEYS:
            hint = did_you_mean(key, KEYS) or f" (known keys: {', '.join(KEYS)})"
            reader.fail(key, f"unknown configuration key '{key}'{hint}")
        elif key in ("select", "ignore", "extend-select"):
            out[key.replace("-", "_")] = reader.codes(key, value)
        elif key in ("include", "exclude"):
            out[key] = reader.strings(key, value)
        elif key in ("strict", "references"):
            out[key] = reader.boolean(key, value)
        elif key == "max-file-size":
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                reader.fail(key, "'max-file-size' must be a number of bytes > 0")
            else:
                out["max_bytes"] = value
        elif key == "per-file-ignores":
            out["per_file_ignores"] = _per_file_ignores(reader, value, base)
        elif key == "severity":
            out["severity"] = _severity(reader, value)
    if reader.problems:
        raise ConfigError(path, sorted(reader.problems, key=lambda problem: problem[0] or 0))
    return out


def _per_file_ignores(reader: _Reader, value: Any, base: str) -> Optional[tuple]:
    if not isinstance(value, dict):
        return reader.fail("per-file-ignores", "'per-file-ignores' must be a table of glob = [codes]")
    from evallint.load.files import glob_escape

    return tuple((os.path.join(glob_escape(base), glob), reader.codes(glob, codes))
                 for glob, codes in value.items())


def _severity(reader: _Reader, value: Any) -> Optional[dict]:
    if not isinstance(value, dict):
        return reader.fail("severity", "'severity' must be a table of CODE = \"error\" | \"warning\"")
    severity = {}
    for code, level in value.items():
        if code.upper() not in RULES:
            reader.fail(code, f"unknown rule code '{code}' in 'severity'{code_hint(code, RULES)}")
        elif level not in ("error", "warning"):
            reader.fail(code, f"severity of {code} must be \"error\" or \"warning\", found {level!r}")
        else:
            severity[code.upper()] = level
    return severity
