"""What the reference checks read of a file a reference leads to, once per run: the variables a prompt template
uses, whether a file is empty or only whitespace, whether it is no UTF-8 text. None reads a file of more than
``MAX_PROMPT_BYTES``."""
from __future__ import annotations

import re

from evallint.load import deps
from evallint.load.reach import UNREAD, Resolved
from evallint.load.view import current

TEMPLATE_VARIABLE = re.compile(r"\{\{\s*([^{}\s]*)\s*\}\}")  # a variable of a prompt template
MAX_PROMPT_BYTES = 1024 * 1024
BLANK = object()  # a blank template (not the same as one without variables)


def template_variables(resolved: Resolved, root: str):
    """The template variables a prompt file uses, in order; BLANK for a blank
    file, None for one that cannot be read. Read once per run."""
    names = resolved.names
    if names is UNREAD:
        path, size, view = resolved.path, resolved.size, current()
        names = resolved.names = deps.memoized(("variables", view, path, root), _read_variables, view, path, size)
    return names


def _read_variables(view, path: str, size: int):
    data = view.read(path, size, MAX_PROMPT_BYTES)
    if data is None:
        return None
    text = data.decode("utf-8", errors="replace")
    if not text.strip():
        return BLANK
    return tuple(m.group(1) for m in TEMPLATE_VARIABLE.finditer(text))


def is_blank(resolved: Resolved, root: str) -> bool:
    """Whether the file found is empty or only whitespace; its size was seen when it was found."""
    size = resolved.size
    if size == 0:
        return True
    if size > MAX_PROMPT_BYTES:
        return False
    blank = resolved.blank
    if blank is UNREAD:
        path, view = resolved.path, current()
        blank = resolved.blank = deps.memoized(("blank", view, path, root), _read_blank, view, path, size)
    return blank


def _read_blank(view, path: str, size: int) -> bool:
    data = view.read(path, size, MAX_PROMPT_BYTES)
    return data is not None and not data.strip()


def is_binary(resolved: Resolved, root: str) -> bool:
    """Whether the file found is no UTF-8 text: it holds bytes UTF-8 does not decode (a picture, a PDF, Latin-1 or
    UTF-16 text). False when it is over ``MAX_PROMPT_BYTES`` or cannot be read."""
    if not resolved.size or resolved.size > MAX_PROMPT_BYTES:
        return False
    path, view = resolved.path, current()
    return deps.memoized(("binary", view, path, root), _read_binary, view, path, resolved.size)


def _read_binary(view, path: str, size: int) -> bool:
    data = view.read(path, size, MAX_PROMPT_BYTES)
    if data is None:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False
