"""An AgentV 4.42 suite's metadata, which the loader reads into each test's: its own keys beside the tests (checked
only when the suite has a string 'name'), and its governance."""
from __future__ import annotations

from typing import Iterator

from evallint.diagnostics import KEY
from evallint.rules.common import finding
from evallint.rules.structure import check_description
from evallint.suggest import all_of, quote

METADATA_TEXT = ("description", "version", "author", "license")
METADATA = METADATA_TEXT + ("tags", "requires")  # what the loader reads into the suite's metadata


def check_metadata(data: dict) -> Iterator:
    yield from _metadata(data)
    yield from _governance(data)


def _governance(data: dict) -> Iterator:
    """EV108 for a suite's 'metadata.governance' beside a top-level 'governance', which replaces it whole (yaml-parser.ts
    extractSuiteMetadataPayload): its keys the top-level one lacks, or sets otherwise, are dropped."""
    top, metadata = data.get("governance"), data.get("metadata")
    nested = metadata.get("governance") if isinstance(top, dict) and isinstance(metadata, dict) else None
    lost = [key for key in nested if key not in top or top[key] != nested[key]] if isinstance(nested, dict) else []
    if lost:
        yield finding("EV108", "'metadata.governance' is not read beside the top-level 'governance', which replaces it "
                      f"whole: {all_of([str(key) for key in lost])} of it never reach the tests' metadata; merge them "
                      "into one", ("metadata", "governance"), KEY)


def _metadata(data: dict) -> Iterator:
    """The loader validates the suite's metadata only when its 'name' is a string, and then rejects the file
    for a value of the wrong type (EV110); without a string name a description that is no string is never
    read (EV117)."""
    if not isinstance(data.get("name"), str):
        yield from check_description(data, (), "eval suite")
        return
    checks = "with a 'name', the runner checks the suite's metadata and rejects the file"
    for key in METADATA_TEXT:
        value, described = data.get(key), key == "description"
        if key in data and not (isinstance(value, str) and (0 < len(value) <= 1024 or not described)):
            yield finding("EV110", f"'{key}' in eval suite must be a {'string of 1-1024 characters' if described else 'string'}"
                          f", found {quote(value)}; {checks}", (key,))
    tags, requires = data.get("tags"), data.get("requires")
    if "tags" in data and not (isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
        yield finding("EV110", f"'tags' in eval suite must be a list of strings; {checks}", ("tags",))
    if "requires" in data and not isinstance(requires, dict):
        yield finding("EV110", f"'requires' in eval suite must be a mapping {{agentv: a version range}}, found "
                      f"{quote(requires)}; {checks}", ("requires",))
    elif "requires" in data and not isinstance(requires.get("agentv", ""), str):
        yield finding("EV110", f"'requires.agentv' in eval suite must be a string (a version range), found "
                      f"{quote(requires['agentv'])}; {checks}", ("requires", "agentv"))
