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
    if resolved.blank is UNREAD:
        resolved.blank = _text_facts(resolved, root)[0]
    return resolved.blank


def is_binary(resolved: Resolved, root: str) -> bool:
    """Whether the file found is no UTF-8 text: it holds bytes UTF-8 does not decode (a picture, a PDF, Latin-1 or
    UTF-16 text). False when it is over ``MAX_PROMPT_BYTES`` or cannot be read."""
    return bool(resolved.size) and resolved.size <= MAX_PROMPT_BYTES and _text_facts(resolved, root)[1]


def _text_facts(resolved: Resolved, root: str) -> tuple:
    """(whether the file found, of at most ``MAX_PROMPT_BYTES``, is only whitespace, whether it is no UTF-8 text),
    read once per run."""
    path, view = resolved.path, current()
    return deps.memoized(("text facts", view, path, root), _read_text_facts, view, path, resolved.size)


def _read_text_facts(view, path: str, size: int) -> tuple:
    data = view.read(path, size, MAX_PROMPT_BYTES)
    if data is None:
        return False, False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return not data.strip(), True
    return not data.strip(), False
