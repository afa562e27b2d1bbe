"""Reporters behind one interface, chosen by name."""
from __future__ import annotations

from evallint.report.formats.base import REPORTERS, Reporter, get_reporter

__all__ = ["REPORTERS", "Reporter", "get_reporter"]
