"""The includes of AgentV 4.42's grader lists (``include: NAME``): the loader puts the assertions of the template
they name in their place (``load/templates.py``) before it reads a list. Loading a file's grader lists within
``expanding`` gives its model the expanded lists."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator, Optional

from marshmallow import ValidationError

from evallint.format.base import made
from evallint.load import templates

# where the includes of the file being loaded are looked up: (its folder, the repository root, the size cap);
# None: they are not, and the model keeps each include entry as written
_LOOKUP: ContextVar[Optional[tuple]] = ContextVar("evallint_template_lookup", default=None)


@contextmanager
def expanding(folder: str, root: str, max_bytes: int) -> Iterator[None]:
    """Within it, the grader lists loaded have their includes expanded as for an eval file in ``folder``."""
    token = _LOOKUP.set((folder, root, max_bytes))
    try:
        yield
    finally:
        _LOOKUP.reset(token)


def include_entry(value: dict) -> Any:
    """The model's ``Include`` of an include entry (``grader_lists.is_include``; ``base.made``)."""
    return made("evallint.format.agentv4.model", "Include", include=value["include"])


def expanded(items: list, load: Callable[[Any], Any]) -> list:
    """``items`` with each include entry replaced by the items of its template, each loaded by ``load``, when the
    loader can expand it and they all load; else the include is kept as written (the runner then skips the test:
    EV401, EV410 or the template's own findings say why)."""
    from evallint.format.agentv4.model import Include  # the model is being built: only it expands includes

    lookup = _LOOKUP.get()
    if lookup is None or not any(isinstance(item, Include) for item in items):
        return items
    out: list = []
    for item in items:
        expansion = templates.expand(item.include, *lookup) if isinstance(item, Include) else None
        if expansion is None or expansion.items is None:
            out.append(item)
            continue
        try:
            out += [loaded for loaded in map(load, expansion.items) if loaded is not None]
        except ValidationError:
            out.append(item)
    return out
