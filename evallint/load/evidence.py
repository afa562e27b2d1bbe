"""What can be known of one file to tell its kind (``recognize``), each fact looked at once, when a row of the
table first asks: its text, its parsed top level, its first line."""
from __future__ import annotations

from functools import cached_property
from typing import Optional, Union

from evallint.load.files import PathKind
from evallint.load.jsonl import first_line, first_object, line_in_head, parse_json
from evallint.load.source import Content, Source
from evallint.load.yaml12 import Parsed, parse_yaml

YAML, JSONL, JSON = "yaml", "jsonl", "json"


class Evidence:
    """What can be known of one file to tell its kind, each fact looked at once, when a row first asks.
    ``place``: the kind its path gives, or the ``PathKind`` that tells it; ``jsonl``: read as JSON lines
    (default: a ``.jsonl`` path); ``explicit``: named on the command line; ``git_root``: the repository whose last
    commit is asked (None: it is not). A ``.json`` path is read as one JSON document."""

    def __init__(self, path: str, content: Content, place: Union[str, PathKind, None] = None, *,
                 jsonl: Optional[bool] = None, explicit: bool = False, git_root: Optional[str] = None,
                 max_bytes: int = 0):
        self.path, self.content, self.explicit = path, content, explicit
        self.path_kind = place if isinstance(place, PathKind) else PathKind.told(place)
        self.syntax = JSONL if (path.endswith(".jsonl") if jsonl is None else jsonl) else YAML
        if jsonl is None and path.endswith(".json"):
            self.syntax = JSON
        self._git_root, self.max_bytes = git_root, max_bytes

    @classmethod
    def of_data(cls, path: str, data, place: Optional[str]) -> "Evidence":
        """A YAML file known by its parsed top level (the last commit not asked)."""
        evidence = cls(path, Content.decoded(Source("")), place, jsonl=False)
        evidence.parsed = Parsed(data=data)  # known already: the parse is not looked at again
        return evidence

    def gives(self, kind: Optional[str]) -> bool:
        """Whether the path gives ``kind``, asked without matching the places listed after it (``PathKind``)."""
        return self.path_kind.gives(kind)

    @cached_property
    def source(self):
        """The decoded text (``Source``), or a finding saying why there is none."""
        return self.content.source()

    @property
    def root(self) -> Optional[str]:
        """The repository root (None: not known; the last commit is not asked)."""
        return self._git_root

    @property
    def unread(self) -> bool:
        return not isinstance(self.source, Source)

    @cached_property
    def parsed(self):
        """The parse of the text (YAML, or JSON for a ``.json`` file); None when there is no text."""
        if self.unread:
            return None
        if self.syntax == JSON:
            return parse_json(self.source.text, self.source.bom)
        return parse_yaml(self.source.text)

    @property
    def parsed_ok(self) -> bool:
        return self.parsed is not None and self.parsed.ok

    @property
    def data(self):
        return self.parsed.data if self.parsed_ok else None

    @property
    def schema(self) -> Optional[str]:
        schema = self.data.get("$schema") if isinstance(self.data, dict) else None
        return schema if isinstance(schema, str) else None

    @cached_property
    def first_line(self) -> Optional[str]:
        """The first line that holds more than whitespace ('' when none does): from the first bytes, or from
        the text when it goes on past them; None when it cannot be known."""
        head = self.content.head()
        if head is None:
            return None
        line = line_in_head(head)
        if line is not None:
            return line.decode("utf-8", "replace")
        if self.content.partial or self.unread:
            return None
        return first_line(self.source.text)

    @cached_property
    def first_value(self):
        """The first line's JSON value; None when it is not JSON (or is ``null``), blank or not known."""
        return first_object(self.first_line) if self.first_line else None
