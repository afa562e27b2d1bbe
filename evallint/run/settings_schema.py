"""The settings of a configuration file (``[tool.evallint]`` in pyproject.toml, or .evallint.toml), declared
once: each field is a key of the file (its ``data_key``), the ``Config`` field it sets (its name) and the
command-line option that overrides it (``metadata["option"]``, None for a setting only a file sets).
``COMMAND_LINE_ONLY`` names the other ``Config`` fields, which no key of a file sets, with the option that
sets each; the tests check ``Config``, the command line and docs/format.md against the two."""
from __future__ import annotations

import os
from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validates_schema

from evallint.diagnostics import GENERATIONS
from evallint.rules.registry import RULES, is_selector
from evallint.suggest import code_hint, did_you_mean

# Config field -> the option that sets it
COMMAND_LINE_ONLY = {"root": "--root", "force_exclude": "--no-force-exclude"}


def strings(key: str, value: Any) -> tuple:
    """A list of strings as a tuple; ``key`` names it in the message."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValidationError(f"'{key}' must be a list of strings")
    return tuple(value)


def codes(key: str, value: Any) -> tuple:
    """A list of rule codes or prefixes (or ALL), upper-cased; every unknown one is a message."""
    found = strings(key, value)
    if not found and key == "select":
        raise ValidationError("unknown rule selector: 'select' is empty, which would turn every rule off "
                              "(name codes or prefixes, or ALL)")
    unknown = [f"unknown rule selector '{code}' in '{key}'{code_hint(code, RULES, prefixes=True)}"
               for code in found if not is_selector(code.upper())]
    if unknown:
        raise ValidationError(unknown)
    return tuple(code.upper() for code in found)


def _table(key: str, value: Any, shape: str) -> dict:
    if not isinstance(value, dict):
        raise ValidationError(f"'{key}' must be a table of {shape}")
    return value


class _Strings(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        return strings(self.data_key, value)


class _Codes(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        return codes(self.data_key, value)


class _Boolean(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError(f"'{self.data_key}' must be true or false")
        return value


class _Bytes(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValidationError(f"'{self.data_key}' must be a number of bytes > 0")
        return value


class _Generation(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        if value not in GENERATIONS:
            raise ValidationError(f"'{self.data_key}' must be one of {', '.join(map(repr, GENERATIONS))}, "
                                  f"found {value!r}")
        return value


class _PerFileIgnores(fields.Field):
    """glob -> codes, as (glob, codes) pairs; the messages of a glob's codes are under the glob."""

    def _deserialize(self, value, attr, data, **kwargs):
        pairs, problems = [], {}
        for glob, listed in _table(self.data_key, value, "glob = [codes]").items():
            try:
                pairs.append((glob, codes(glob, listed)))
            except ValidationError as exc:
                problems[glob] = exc.messages
        if problems:
            raise ValidationError(problems)
        return tuple(pairs)


class _Severity(fields.Field):
    """CODE -> "error" | "warning", the codes upper-cased; the message of a code is under the code."""

    def _deserialize(self, value, attr, data, **kwargs):
        levels, problems = {}, {}
        for code, level in _table(self.data_key, value, 'CODE = "error" | "warning"').items():
            if code.upper() not in RULES:
                problems[code] = [f"unknown rule code '{code}' in 'severity'{code_hint(code, RULES)}"]
            elif level not in ("error", "warning"):
                problems[code] = [f"severity of {code} must be \"error\" or \"warning\", found {level!r}"]
            else:
                levels[code.upper()] = level
        if problems:
            raise ValidationError(problems)
        return levels


class SettingsSchema(Schema):
    """The keys of a configuration file, in the order the "known keys" message lists them. ``folder``: the
    file's folder, which ``per-file-ignores`` globs are relative to."""

    class Meta:
        unknown = EXCLUDE  # each unknown key gets a message of its own (``_unknown_keys``)

    select = _Codes(data_key="select", metadata={"option": "--select"})
    ignore = _Codes(data_key="ignore", metadata={"option": "--ignore"})
    extend_select = _Codes(data_key="extend-select", metadata={"option": "--extend-select"})
    include = _Strings(data_key="include", metadata={"option": None})
    exclude = _Strings(data_key="exclude", metadata={"option": None})
    per_file_ignores = _PerFileIgnores(data_key="per-file-ignores", metadata={"option": None})
    strict = _Boolean(data_key="strict", metadata={"option": "--strict"})
    references = _Boolean(data_key="references", metadata={"option": "--no-references"})
    severity = _Severity(data_key="severity", metadata={"option": None})
    max_bytes = _Bytes(data_key="max-file-size", metadata={"option": None})
    agentv_version = _Generation(data_key="agentv-version", metadata={"option": "--agentv-version"})

    def __init__(self, folder: str, **kwargs):
        super().__init__(**kwargs)
        self.folder = folder

    @validates_schema(pass_original=True, skip_on_field_errors=False)
    def _unknown_keys(self, data: dict, original: dict, **kwargs) -> None:
        unknown = {key: [f"unknown configuration key '{key}'"
                         + (did_you_mean(key, KEYS) or f" (known keys: {', '.join(KEYS)})")]
                   for key in original if key not in KEYS}
        if unknown:
            raise ValidationError(unknown)

    @post_load
    def _globs_from_the_folder(self, data: dict, **kwargs) -> dict:
        if "per_file_ignores" in data:
            from evallint.load.files import glob_escape

            base = glob_escape(self.folder)
            data["per_file_ignores"] = tuple((os.path.join(base, glob), found)
                                             for glob, found in data["per_file_ignores"])
        return data


KEYS = tuple(field.data_key for field in SettingsSchema(os.curdir).fields.values())
