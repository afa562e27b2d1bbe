"""How a reference finding names what it is about: paths shown from the repository root, the file it points at,
what the runner does without the file."""
from __future__ import annotations

import os

from evallint.diagnostics import Finding
from evallint.load.view import current
from evallint.suggest import quote


PROMPT_SUFFIXES = (".md", ".txt", ".prompt")
# EV413: what the runners do with a file they send as text that is no UTF-8 text
NOT_TEXT = ("is no UTF-8 text: the runner reads it as UTF-8, so each byte it cannot decode is sent as a replacement "
            "character (to a model target, or to the graders from an expected output; an agent target gets the path); "
            "save it as UTF-8 text, or attach a text form of it")


def looks_like_path(value: str) -> bool:
    """Whether a prompt's text is the path of a prompt file: its suffix, or a '/' and no white space."""
    return value.endswith(PROMPT_SUFFIXES) or ("/" in value and not any(c.isspace() for c in value))


def shown(path: str, root: str) -> str:
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    return "./" if rel == "." else rel + ("/" if current().isdir(path) else "")


def elsewhere(path: str, what: str) -> dict:
    """A finding's ``extra`` that names another file it is about (a related place in an editor)."""
    return {"elsewhere": (path, what)}


def escape_finding(path: tuple, value: str) -> Finding:
    return Finding("EV403", f"{quote(value)} resolves outside the repository root; evallint does not follow it "
                   "and the runner may read a file you did not mean to ship", path)


def then_(site) -> str:
    """What the runner does without the file or folder a site names, as the end of its finding's message."""
    then = site.extra.get("then")
    return f"; {then}" if then else ""


def from_run_folder(value: str, folder: str, root: str):
    """(the folder a relative path names taken from the repository's ``root``, where a run started there takes it,
    whether that folder is there) when it differs from the one it names from the file's ``folder``; None when they
    agree (the file is in the root) or the path is written from the root (that folder is there, the other is not;
    in the files linted: the index with --staged)."""
    from_root, from_here = (os.path.normpath(os.path.join(base, value)) for base in (root, folder))
    there = current().isdir(from_root)
    if from_root == from_here or there and not current().isdir(from_here):
        return None
    return from_root, there
