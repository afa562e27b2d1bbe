"""Secret values starred out of what evallint prints besides diagnostics: the diffs of ``--fix --diff`` and
``upgrade --diff`` (each text starred before it is compared, so a line holding a secret shows it starred, and such a
diff no longer applies) and the suite ``normalize`` prints (``load.secrets`` says what a secret is)."""
from __future__ import annotations

from typing import Any

from evallint.load.secrets import secret_spans


def text_secrets(text: str, path: str) -> list:
    """(line index, start, end) of each secret value of ``text``, read as the file at ``path`` (JSON lines, JSON or
    YAML) is read."""
    if path.endswith(".jsonl"):
        from evallint.load.jsonl import parse_jsonl

        ranges = parse_jsonl(text).secret_ranges(text)
    elif path.endswith(".json"):
        from evallint.load.jsonl import parse_json

        ranges = parse_json(text, False).secrets
    else:
        from evallint.load.yaml12 import parse_yaml

        ranges = parse_yaml(text).secrets
    return secret_spans(text, ranges)


def starred_text(text: str, path: str) -> str:
    """``text`` with each secret value starred, character for character."""
    lines = text.split("\n")
    for n, start, end in text_secrets(text, path):
        lines[n] = lines[n][:start] + "*" * (end - start) + lines[n][end:]
    return "\n".join(lines)


def starred_data(data: Any, values: list) -> Any:
    """``data`` (what JSON holds) with each of the secret ``values`` (``report.result.secret_values``) starred in
    its strings."""
    if isinstance(data, str):
        for value in values:
            data = data.replace(value, "*" * len(value))
        return data
    if isinstance(data, list):
        return [starred_data(item, values) for item in data]
    if isinstance(data, dict):
        return {key: starred_data(value, values) for key, value in data.items()}
    return data
