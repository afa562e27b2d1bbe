"""A failure in one message never ends the server: it is written to the client's log with its traceback,
and a request is answered with an error (a notification has no answer to give)."""
from __future__ import annotations

import functools
import traceback
from typing import Callable

from pygls.exceptions import JsonRpcInternalError


def guarded(method: str, log: Callable[[str], None], *, request: bool) -> Callable:
    """A decorator for the handler of ``method``; ``log(text)`` writes to the client's log."""

    def wrap(handler: Callable) -> Callable:
        @functools.wraps(handler)
        def run(*args, **kwargs):
            try:
                return handler(*args, **kwargs)
            except Exception as exc:  # isolation: the server answers the next message all the same
                log(f"evallint: {method} failed:\n" + "".join(traceback.format_exception(type(exc), exc,
                                                                                         exc.__traceback__)))
                if request:
                    raise JsonRpcInternalError(message=f"evallint: {method} failed: {type(exc).__name__}: {exc}") \
                        from exc
                return None

        return run

    return wrap
