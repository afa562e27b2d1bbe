"""Per-run memos that keep memory flat however many files a run has."""
from __future__ import annotations


class Bounded(dict):
    """A dict that is emptied when it reaches ``size`` entries (the memos it serves are
    filled again on demand, so forgetting costs a lookup, never a wrong answer)."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def put(self, key, value):
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value
