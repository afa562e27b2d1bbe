"""Per-run memos that keep memory flat however many files a run has."""
from __future__ import annotations

MISSING = object()


class Bounded:
    """A memo of at most ``size`` entries, in two generations: when the young one is full (half the
    size) it becomes the old one and the previous old one is dropped; an old entry that is used
    again moves back to the young one. What a run keeps coming back to (a repository's targets file, the
    folders above the files) stays; what was used once goes. Forgetting costs a lookup, never a
    wrong answer."""

    __slots__ = ("half", "young", "old")

    def __init__(self, size: int):
        self.half = max(1, size // 2)
        self.young: dict = {}
        self.old: dict = {}

    def get(self, key, default=None):
        value = self.young.get(key, MISSING)  # not [key]: most lookups of a run's memos miss, and a miss raising costs more
        if value is not MISSING:
            return value
        value = self.old.pop(key, MISSING)
        if value is MISSING:
            return default
        return self.put(key, value)

    def put(self, key, value):
        if len(self.young) >= self.half:
            self.old = self.young
            self.young = {}
        self.young[key] = value
        return value

    def __len__(self) -> int:
        return len(self.young) + len(self.old)
