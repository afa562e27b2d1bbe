"""Linting many files: answers from the result cache, a process pool for the files the cache cannot answer
(in this process when they make one chunk or the run has one job), and every result given back in input
order (``_in_order``). The cache is written by the main process alone, from the rows the linting made.
``Chunks`` says how a chunk's files are linted: read from disk (``FROM_DISK``), or from the git index
(``run/staged.py``, without the cache)."""
from __future__ import annotations

import os
from collections import deque
from itertools import chain, islice, repeat
from typing import Callable, Iterator, NamedTuple, Optional

from evallint.config import Config
from evallint.load import deps
from evallint.report.result import FileResult

CHUNK = 16  # files per pool task: neighbouring files, which share prompts and targets files
WINDOW = 4  # chunks per worker in a window: the pool has one window's work queued while the last is given back


class Chunks(NamedTuple):
    """How the files of a chunk are linted: ``here(todo, config, keys)`` in this process and ``there``,
    the same with results slimmed, in a pool worker (a module-level function, which ``initializer(*initargs)``
    prepares each worker for); each gives a (result, cache row or None) pair per (path, detail) item."""

    here: Callable
    there: Callable
    initializer: Optional[Callable] = None
    initargs: tuple = ()


def lint_paths(paths: list, config: Config, *, jobs: int, cache_dir: Optional[str], use_cache: bool,
               also: tuple = ()):
    """FileResults for the files and folders named on the command line, and the files ``also`` (found,
    not named: the eval files that use a file named), in output order."""
    from evallint.run.discovery import iter_paths

    items = iter_paths(paths, config)
    if also:
        items = list(items)
        have = {os.path.abspath(path) for path, _ in items}
        items += [(path, False) for path in also if os.path.abspath(path) not in have]
        items.sort(key=lambda item: item[0])
    return lint_many(items, config, jobs=jobs, cache_dir=cache_dir, use_cache=use_cache)


def lint_many(items, config: Config, *, jobs: int, cache_dir: Optional[str], use_cache: bool) -> Iterator[FileResult]:
    """FileResults for (path, named explicitly) items, in the same order. ``items`` may be a generator
    (a walk still under way)."""
    cache = None
    if use_cache:
        from evallint.run.cache import ResultCache

        cache = ResultCache(config, cache_dir)
    with deps.run_scope():
        try:
            yield from _in_order(items, config, jobs, cache, FROM_DISK)
        finally:
            if cache is not None:
                cache.close()


def lint_ordered(items, config: Config, jobs: int, how: Chunks) -> Iterator[FileResult]:
    """FileResults for (path, detail) items, in the same order, each chunk linted as ``how`` says,
    without the cache."""
    with deps.run_scope():
        yield from _in_order(items, config, jobs, None, how)


def _in_order(items, config: Config, jobs: int, cache, how: Chunks) -> Iterator[FileResult]:
    """Windows of ``WINDOW`` chunks per worker: the files of a window the cache cannot answer go to
    ``Executor.map`` a chunk a task, and the next window is sent before this one's results are given
    back, so the workers never wait for the walk and at most two windows are held."""
    keys = cache.context if cache is not None else None
    windows = _batches(items, CHUNK * WINDOW * jobs)
    window = next(windows, None)
    pool = None
    held: deque = deque()  # (window, its cached results, the others' (result, row) pairs in order)
    try:
        while window is not None:
            following = next(windows, None)
            cached = cache.lookup_many(window) if cache is not None else [None] * len(window)
            todo = list(_batches((item for item, result in zip(window, cached) if result is None), CHUNK))
            if pool is None and jobs > 1 and (len(todo) > 1 or (todo and following is not None)):
                pool = _start_pool(jobs, how.initializer, how.initargs)
            # in this process, lazily: a chunk is linted when its results are next to be given back
            linted = (pool.map(how.there, todo, repeat(config), repeat(keys)) if pool is not None
                      else map(how.here, todo, repeat(config), repeat(keys)))
            held.append((window, cached, chain.from_iterable(linted)))
            if len(held) > 1:
                yield from _given_back(held.popleft(), cache)
            window = following
        while held:
            yield from _given_back(held.popleft(), cache)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def _batches(items, size: int) -> Iterator[list]:
    items = iter(items)
    while True:
        batch = list(islice(items, size))
        if not batch:
            return
        yield batch


def _given_back(entry: tuple, cache) -> Iterator[FileResult]:
    """The results of a window in order (waiting for the pool's), storing the rows its linting made."""
    window, cached, linted = entry
    for (path, _), result in zip(window, cached):
        if result is None:
            result, row = next(linted)
            if row is not None:
                cache.store(path, row)
        yield result


def lint_one(path: str, explicit: bool, config: Config, keys: Optional[tuple]) -> tuple:
    """(the file's result, the cache row it makes or None). ``keys``: what every cache key ends with
    (``cache.context``: the version and the configuration's digest), or None without the cache. With the
    cache, the bytes linted are the bytes hashed, and the paths the lint looked at are recorded."""
    if keys is None:
        from evallint import lint

        return lint.lint_file(path, config, explicit=explicit, model=False), None
    result, row, _ = lint_noting(path, explicit, config, keys)
    return result, row


def lint_noting(path: str, explicit: bool, config: Config, keys: Optional[tuple]) -> tuple:
    """(the file's result, the cache row it makes or None, the paths its lint looked at); ``keys`` as for
    ``lint_one`` (None: no row is made)."""
    from evallint import lint
    from evallint.load.source import read_bytes

    root = config.root_of(path)
    stat_then = None
    if keys is not None:
        from evallint.run.cache import file_stat

        stat_then = file_stat(path)  # before reading: a write during the read shows as a changed stat
    data = read_bytes(path, root, config.max_bytes)
    with deps.recording() as looked_at:
        if not isinstance(data, bytes):
            return lint.lint_file(path, config, explicit=explicit, model=False), None, looked_at
        result = lint.lint_bytes(data, path, config, explicit=explicit, model=False)
    # an internal error is not kept, nor a result made without the git history (git may read it next time)
    if keys is None or result.traceback is not None or result.notice is not None:
        return result, None, looked_at
    from evallint.run.cache import content_key, file_key, make_row

    key = file_key(keys, os.path.abspath(path), root, explicit)
    return result, make_row(key, content_key(data), stat_then, result, looked_at), looked_at


def lint_here(items: list, config: Config, keys: Optional[tuple]) -> list:
    """``lint_one`` of each (path, explicit) item, in this process."""
    return [lint_one(path, explicit, config, keys) for path, explicit in items]


def lint_chunk(items: list, config: Config, keys: Optional[tuple]) -> list:
    """``lint_here`` in a pool worker, in the run it lives for: results as slim as a reporter needs."""
    return [(result.slim(), row) for result, row in lint_here(items, config, keys)]


FROM_DISK = Chunks(lint_here, lint_chunk)


def _start_pool(jobs: int, initializer: Optional[Callable] = None, initargs: tuple = ()):
    """A pool of ``jobs`` processes, each prepared by ``initializer(*initargs)``. Where processes can
    fork, the linter is imported first, once, and the workers start with it (they never touch the
    cache, whose database this process may have open)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = None
    if "fork" in multiprocessing.get_all_start_methods():
        from evallint import lint  # noqa: F401

        context = multiprocessing.get_context("fork")
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_worker,
                               initargs=(initializer, initargs))


def _start_worker(initializer: Optional[Callable], initargs: tuple) -> None:
    """Prepare a pool worker: it ends when the process that started it ends, its whole life is one run
    (``deps.begin_worker_run``), then ``initializer(*initargs)``. A parent killed outright never shuts its pool
    down, and a worker waiting for work would wait for ever."""
    import threading

    threading.Thread(target=_exit_with_parent, name="evallint-parent-watch", daemon=True).start()
    deps.begin_worker_run()
    if initializer is not None:
        initializer(*initargs)


def _exit_with_parent() -> None:
    """Wait for the parent process to end (its sentinel becomes ready), then end this worker at once."""
    import multiprocessing
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return
    wait([parent.sentinel])
    os._exit(1)
