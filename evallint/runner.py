"""Running many files: the cache, and a process pool that ships paths (not
parsed data) and keeps the output in input order."""
from __future__ import annotations

import os
from itertools import chain, islice
from typing import Optional

from .config import Config
from .result import FileResult

POOL_THRESHOLD = 32  # fewer files than this are linted in-process: a pool costs more than it saves
CHUNK = 16  # files per task sent to a worker


def lint_cached(path: str, explicit: bool, config: Config, cache) -> FileResult:
    """Lint one file, answering from the cache when nothing it depends on changed: a file
    untouched since it was linted is not even read (unless it has findings to show), any
    other file is read once and its bytes compared by hash. The linting machinery (parser,
    schemas) is imported only when a file must be linted."""
    if cache is None:
        from .lint import lint_file

        return lint_file(path, config, explicit=explicit)
    from .cache import file_stat, settled
    from .source import read_bytes

    absolute = os.path.abspath(path)
    root = config.root_of(absolute)
    stat_then = file_stat(path)  # before reading: a write during the read shows as a changed stat
    digest = cache.digest(absolute, root, explicit)
    context = digest.hexdigest()
    entry = cache.entry(absolute, root)
    if entry is not None and cache.unchanged(entry, context=context, stat_now=stat_then):
        result = _from_entry(entry, path, lambda: read_bytes(path, root, config.max_bytes))
        if result is not None:
            return result
    data = read_bytes(path, root, config.max_bytes)
    if not isinstance(data, bytes):  # unreadable: cheap to redo, never cached
        from .lint import lint_file

        return lint_file(path, config, explicit=explicit)
    digest.update(data)
    key = digest.hexdigest()
    if entry is not None and cache.unchanged(entry, key=key):
        result = _from_entry(entry, path, lambda: data)
        if result is not None:
            return result
    from . import deps
    from .lint import lint_bytes

    with deps.recording() as seen:
        result = lint_bytes(data, path, config, explicit=explicit)
    if result.traceback is None:
        cache.put(absolute, root, context, key, result.kind, result.diagnostics, seen, settled(stat_then))
    return result


def _from_entry(entry: dict, path: str, read) -> Optional[FileResult]:
    """The cached result; None when the entry is damaged, or the file cannot be read for
    the snippets of its findings (a miss). ``read()`` gives the file's bytes."""
    from .cache import load_diagnostics

    try:
        diagnostics = load_diagnostics(entry, path)
    except (KeyError, TypeError, ValueError):
        return None
    text = ""
    if diagnostics:
        data = read()
        if not isinstance(data, bytes):
            return None
        from .result import masked

        text = masked(data.decode("utf-8", "replace").lstrip("\ufeff"), diagnostics)
    return FileResult(path, entry["kind"], diagnostics, text)


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


def lint_many(items, config: Config, *, jobs: int, cache_dir: Optional[str], use_cache: bool):
    """FileResults for (path, explicit) items, in the same order. ``items`` may be a
    generator (a walk still under way): a pool starts as soon as it has enough files."""
    items = iter(items)
    head = list(islice(items, POOL_THRESHOLD))
    if jobs > 1 and len(head) == POOL_THRESHOLD:
        yield from _pool(chain(head, items), config, jobs, cache_dir, use_cache)
        return
    from . import deps

    cache = None
    if use_cache:
        from .cache import Cache

        cache = Cache(config, cache_dir)
    with deps.run_scope():
        for path, explicit in chain(head, items):
            yield lint_cached(path, explicit, config, cache)


def _pool(items, config: Config, jobs: int, cache_dir: Optional[str], use_cache: bool):
    """Workers answer from the cache or lint, in chunks of neighbouring files (which share
    prompts, targets and folders, so each worker's per-run lookups are reused); chunks are
    handed out while the walk goes on."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                             initargs=(config, cache_dir, use_cache)) as pool:
        yield from pool.map(_work, items, chunksize=CHUNK)
