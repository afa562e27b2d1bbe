"""Whether a path lies inside a folder: asked of the repository root at every layer (what a reference reaches,
what a lookup climbs to, where the cache may sit), so it is answered in one place, below them all."""
from __future__ import annotations

import os


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies below it; both absolute and normalized the same way (both real paths,
    say). Every absolute path lies inside the top of the file system."""
    top = folder.rstrip(os.sep)  # '' for the top of the file system
    return path == (top or os.sep) or path.startswith(top + os.sep)
