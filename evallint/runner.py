"""Running many files: the cache, and a process pool that ships paths (not
parsed data) and keeps the output in input order."""
from __future__ import annotations

import os
from typing import Optional

from .config import Config
from .result import FileResult

POOL_THRESHOLD = 32  # fewer files than this are linted in-process: a pool costs more than it saves


def lint_cached(path: str, explicit: bool, config: Config, cache) -> FileResult:
    """Lint one file, answering from the cache when nothing it depends on changed.
    The linting machinery (parser, schemas) is imported only when a file must be linted."""
    if cache is None:
        from .lint import lint_file

        return lint_file(path, config, explicit=explicit)
    from .source import read_bytes

    absolute = os.path.abspath(path)
    root = config.root_of(absolute)
    data = read_bytes(path, root, config.max_bytes)
    if not isinstance(data, bytes):  # unreadable: cheap to redo, never cached
        from .lint import lint_file

        return lint_file(path, config, explicit=explicit)
    key = cache.key(absolute + "\0" + root, explicit, data)
    entry = cache.get(absolute, root, key)
    diagnostics = None
    if entry is not None:
        from .cache import load_diagnostics

        try:
            diagnostics = load_diagnostics(entry, path) if "kind" in entry else None
        except (KeyError, TypeError, ValueError):
            diagnostics = None  # a damaged entry is a miss
    if diagnostics is not None:
        from .result import masked

        text = ""
        if diagnostics:
            text = masked(data.decode("utf-8", "replace").lstrip("\ufeff"), diagnostics)
        return FileResult(path, entry["kind"], diagnostics, text)
    from . import deps
    from .lint import lint_bytes

    with deps.recording() as seen:
        result = lint_bytes(data, path, config, explicit=explicit)
    if result.traceback is None:
        cache.put(absolute, root, key, result.kind, result.diagnostics, seen)
    return result


_WORKER: dict = {}


def _init_worker(config: Config, cache_dir: Optional[str], use_cache: bool) -> None:
    from . import deps
    from .cache import Cache

    _WORKER["config"] = config
    _WORKER["cache"] = Cache(config, cache_dir) if use_cache else None
    _WORKER["scope"] = deps.run_scope()  # the worker process lives for one run only
    _WORKER["scope"].__enter__()


def _work(item: tuple) -> FileResult:
    path, explicit = item
    return lint_cached(path, explicit, _WORKER["config"], _WORKER["cache"]).slim()


def lint_many(items: list, config: Config, *, jobs: int, cache_dir: Optional[str], use_cache: bool):
    """FileResults for (path, explicit) items, in the same order."""
    if jobs > 1 and len(items) >= POOL_THRESHOLD:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        chunk = max(1, min(64, len(items) // (jobs * 8)))
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                                 initargs=(config, cache_dir, use_cache)) as pool:
            yield from pool.map(_work, items, chunksize=chunk)
        return
    from . import deps

    cache = None
    if use_cache:
        from .cache import Cache

        cache = Cache(config, cache_dir)
    with deps.run_scope():
        for path, explicit in items:
            yield lint_cached(path, explicit, config, cache)
