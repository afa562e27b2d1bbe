"""Running many files: the cache, and a process pool that ships paths (not
parsed data) and keeps the output in input order."""
from __future__ import annotations

import os
import time
from collections import deque
TYPE_CHECKING = False  # typing is not imported at run time: a cached run never needs it
if TYPE_CHECKING:
    from typing import Optional

from . import deps, on_first_use
from .config import Config
from .result import FileResult

POOL_THRESHOLD = 32  # fewer files to lint than this are linted in-process: a pool costs more than it saves
# Files per task sent to a worker: a chunk of neighbouring files shares prompts, targets and folders, which the
# worker then looks up once (smaller chunks split a folder's files between workers, and each looks them up).
# The first batch and the last go out in one chunk per worker, so that every worker starts at once and they
# finish together.
CHUNK = 64
AHEAD = 16  # chunks per worker in flight at most: the walk never runs far ahead of the results (memory stays flat)
HELD = 4096  # results waiting for an earlier one at most before the walk waits too
SENT_LISTING = 256  # entries at most in a folder listing sent with a chunk (a large folder's would go with each)


_lint = on_first_use("lint")  # imported when a file must first be linted: a run the cache answers never loads it


def lint_cached(path: str, explicit: bool, config: Config, cache) -> FileResult:
    """Lint one file, answering from the cache when nothing it depends on changed: a file
    untouched since it was linted is not even read, any other file is read once and its bytes
    compared by hash. The linting machinery (parser, schemas) is imported only when a file
    must be linted."""
    if cache is None:
        return _lint().lint_file(path, config, explicit=explicit, model=False)
    found = cached(path, explicit, config, cache)
    if isinstance(found, FileResult):
        return found
    result, made = lint_fresh(found, config, cache)
    if made is not None:
        cache.add(made, path)
    return result


def lint_fresh(found, config: Config, cache) -> tuple:
    """(result, the cache entry it makes or None) of linting a file the cache could not answer."""
    if found.data is None:
        found = _read(found, config)
    data = found.data
    if not isinstance(data, bytes):  # unreadable: cheap to redo, never cached
        return _lint().lint_file(found.path, config, explicit=found.explicit, model=False), None
    lint = _lint()
    since_ns = time.time_ns()
    with deps.recording() as seen:
        result = lint.lint_bytes(data, found.path, config, explicit=found.explicit, model=False)
    if result.traceback is not None:
        return result, None
    return result, cache.entry_for(found, result, seen, since_ns)


def cached(path: str, explicit: bool, config: Config, cache):
    """The cached result of a file, else the ``Lookup`` that missed (with the file's bytes when
    they had to be read to tell)."""
    found = cache.lookup(path, explicit, config)
    if isinstance(found, FileResult) or found.entry is None:
        return found
    found = _read(found, config)
    if isinstance(found.data, bytes) and cache.unchanged(found, key=found.key):
        result = cache.answer(found.entry, path, lambda: found.data)
        if result is not None:
            cache.refresh(found)
            return result
    return found


def _read(found, config: Config):
    """``found`` with the file's bytes and their hash."""
    from .cache import content_key
    from .source import read_bytes

    found.data = read_bytes(found.path, found.root, config.max_bytes)
    if isinstance(found.data, bytes):
        found.key = content_key(found.data)
    return found


_WORKER: dict = {}


def _init_worker(config: Config, cache_dir: Optional[str], use_cache: bool) -> None:
    import evallint

    from .cache import Cache

    evallint.OWN_PROCESS = True  # a worker lints for the command that started it, and nothing else
    _WORKER["config"] = config
    _WORKER["cache"] = Cache(config, cache_dir) if use_cache else None
    _WORKER["scope"] = deps.run_scope()  # the worker process lives for one run only
    _WORKER["scope"].__enter__()


def _work(chunk: list, listings: dict) -> list:
    """(slim result, cache entry or None) of each file of the chunk: the main process, which could not
    answer them from the cache, adds the entries to its packs. ``listings`` are what the main process's
    walk saw in the chunk's folders and the folders above them (``deps.remember_folder``)."""
    for folder, (entries, has_agentv) in listings.items():
        deps.remember_folder(folder, entries, has_agentv)
    config, cache = _WORKER["config"], _WORKER["cache"]
    if cache is None:
        lint_file = _lint().lint_file
        return [(lint_file(path, config, explicit=explicit, model=False).slim(), None) for path, explicit in chunk]
    out = []
    for path, explicit in chunk:
        result, made = lint_fresh(cache.start(path, explicit, config), config, cache)
        out.append((result.slim(), made))
    return out


def lint_paths(paths: list, config: Config, *, jobs: int, cache_dir: Optional[str], use_cache: bool):
    """FileResults for the files and folders named on the command line, in output order. With the
    cache, a run whose record shows nothing changed is given from the record (``snapshot``); any
    other run writes one as it goes."""
    from .discovery import iter_paths

    record = None
    if use_cache:
        from . import snapshot

        place, key = snapshot.location(paths, config, cache_dir)
        replayed = snapshot.replay(place, key, config, cache_dir)
        if replayed is not None:
            return replayed
        record = (place, key, paths)
    return lint_many(iter_paths(paths, config), config, jobs=jobs, cache_dir=cache_dir, use_cache=use_cache,
                     record=record)


def lint_many(items, config: Config, *, jobs: int, cache_dir: Optional[str], use_cache: bool,
              record: Optional[tuple] = None):
    """FileResults for (path, explicit) items, in the same order. ``items`` may be a
    generator (a walk still under way). Cached results are answered here; with more than one
    job, the files to lint go to a process pool once there are enough of them. ``record``:
    (place, key, paths named) of a run record to write (``snapshot.Recorder``)."""
    from .discovery import LISTINGS

    cache = None
    if use_cache:
        from .cache import Cache

        cache = Cache(config, cache_dir)
    token = LISTINGS.set(cache)  # a walk under way (``items``) keeps its folders' listings there too
    with deps.run_scope():
        recorder = _recorder(record, cache) if record is not None and cache is not None else None
        if jobs <= 1:
            results = (lint_cached(path, explicit, config, cache) for path, explicit in items)
        else:
            results = _Scheduler(config, jobs, cache_dir, cache).run(items)
        try:
            for result in results:
                if recorder is not None:
                    recorder.result(result, cache.proofs.pop(result.path, None))
                    if not recorder.live:  # dropped: the rest of the run need not keep proofs
                        cache.recorder = cache.proofs = recorder = None
                yield result
            if recorder is not None:
                recorder.finish()
        finally:
            results.close()
            if recorder is not None:
                recorder.drop()
            LISTINGS.reset(token)
            if cache is not None:
                cache.close()


def _recorder(record: tuple, cache):
    """A run record's writer, set up on ``cache`` (whose lookups and listings feed it), or None when
    the cache folder cannot be written."""
    from . import snapshot
    from .cache import _make_dir

    place, key, paths = record
    if not _make_dir(os.path.dirname(os.path.dirname(place))):
        return None
    try:
        recorder = snapshot.Recorder(place, key)
    except OSError:
        return None
    cache.recorder, cache.proofs = recorder, {}
    recorder.start(paths, deps.absolute)
    return recorder


class _Scheduler:
    """Hands the files the cache cannot answer to a pool in chunks while the walk goes on, and
    gives every result back in input order."""

    def __init__(self, config: Config, jobs: int, cache_dir: Optional[str], cache):
        self.config, self.jobs, self.cache_dir, self.cache = config, jobs, cache_dir, cache
        self.pool = None
        self.waiting: list = []  # (index, path, explicit) not yet sent
        self.futures: deque = deque()  # (future, indexes), in the order sent
        self.done: dict = {}  # index -> result, not yet given back
        self.next = 0

    def run(self, items):
        try:
            yield from self._run(items)
        finally:
            if self.pool is not None:
                self.pool.shutdown(cancel_futures=True)

    def _run(self, items):
        for index, (path, explicit) in enumerate(items):
            found = cached(path, explicit, self.config, self.cache) if self.cache is not None else None
            if isinstance(found, FileResult):
                if index == self.next:  # every earlier file is given back, so nothing waits: give it now
                    self.next += 1
                    yield found
                    continue
                self.done[index] = found
            else:
                self.waiting.append((index, path, explicit))
                if len(self.waiting) >= (CHUNK if self.pool else POOL_THRESHOLD):
                    self._send()
            yield from self._ready(block=False)
            if len(self.futures) > self.jobs * AHEAD or len(self.done) > HELD:
                yield from self._catch_up()
        self._flush(spread=True)
        yield from self._ready(block=True)

    def _catch_up(self):
        """Wait for the pool until it is no more than half the limit ahead and the results held back
        are few again; files not yet sent go first, since the next result may be among them."""
        self._flush()
        while self.futures and (len(self.futures) > self.jobs * AHEAD // 2 or len(self.done) > HELD):
            yield from self._ready(block=True, keep=len(self.futures) - 1)
        yield from self._ready(block=False)

    def _flush(self, spread: bool = False) -> None:
        """Send the files not yet sent (``spread``: as ``_send``), or lint them here when they are too few
        for a pool to pay."""
        if self.pool is None:
            for index, path, explicit in self.waiting:
                self.done[index] = lint_cached(path, explicit, self.config, self.cache)
            self.waiting = []
        else:
            self._send(spread)

    def _send(self, spread: bool = False) -> None:
        """Send the files waiting, in chunks of ``CHUNK``; the first batch (which starts the pool) and with
        ``spread`` (the walk has ended), in one chunk per worker."""
        if self.pool is None:
            self.pool = _pool(self.config, self.jobs, self.cache_dir, self.cache is not None)
            spread = True
        size = max(1, -(-len(self.waiting) // self.jobs)) if spread else CHUNK
        for start in range(0, len(self.waiting), size):
            chunk = self.waiting[start:start + size]
            future = self.pool.submit(_work, [(path, explicit) for _, path, explicit in chunk], _listings(chunk))
            self.futures.append((future, [index for index, _, _ in chunk]))
        self.waiting = []

    def _ready(self, block: bool, keep: int = 0):
        """Give back the results that are next in order; with ``block``, wait until no more than ``keep``
        chunks are in flight, one chunk at a time (each given back before the next is waited for)."""
        while True:
            while self.next in self.done:
                yield self.done.pop(self.next)
                self.next += 1
            if len(self.futures) <= keep or not (block or self.futures[0][0].done()):
                return
            future, indexes = self.futures.popleft()
            for index, (result, made) in zip(indexes, future.result(), strict=True):
                self.done[index] = result
                if made is not None:
                    self.cache.add(made, result.path)


def _listings(chunk: list) -> dict:
    """What the walk saw in the folders of a chunk's files and in the folders above them, so that a
    worker need not ask the system again what the main process already knows."""
    out: dict = {}
    for _, path, _ in chunk:
        folder = os.path.dirname(deps.absolute(path))
        while folder not in out:
            seen = deps.listed(folder)
            if seen is None or len(seen[0]) > SENT_LISTING:
                break
            out[folder] = seen
            folder = os.path.dirname(folder)
    return out


def _pool(config: Config, jobs: int, cache_dir: Optional[str], use_cache: bool):
    """Workers answer from the cache or lint, in chunks of neighbouring files (which share
    prompts, targets and folders, so each worker's per-run lookups are reused)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    if method == "fork":
        from .lint import preload

        preload()  # imported once here, before the fork, rather than once in each worker
    context = multiprocessing.get_context(method)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                               initargs=(config, cache_dir, use_cache))
