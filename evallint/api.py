"""The Python API: load an eval suite, or lint files and folders."""
from __future__ import annotations

import os
from typing import Iterable, Optional, Union

from evallint.config import Config
from evallint.diagnostics import Diagnostic, EvalFileError, Severity
from evallint.lint import FileResult, lint_file, lint_source
from evallint.load import deps, files
from evallint.load.source import Source
from evallint.run.discovery import expand_paths  # noqa: F401  (part of the API)


def _raise_on_errors(result: FileResult, allow: Iterable[str] = ()):
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if [d for d in errors if d.code not in set(allow)] or errors and result.suite is None:
        raise EvalFileError(errors)
    if result.suite is None:
        raise EvalFileError([Diagnostic("EV101", Severity.ERROR, "not an eval file: no 'evalcases' list",
                                        result.path, 1, 1, 1, 2)])
    return result.suite


def load_eval_file(path: Union[str, os.PathLike], *, root: Optional[str] = None, references: bool = False,
                   allow: Iterable[str] = ()):
    """Load one eval suite; raises EvalFileError holding every error of the file but those whose code is in
    ``allow`` (mistakes the runner loads the file in spite of, such as EV108: the model says what it runs)."""
    return _raise_on_errors(read_eval_file(path, root=root, references=references), allow)


def read_eval_file(path: Union[str, os.PathLike], *, root: Optional[str] = None,
                   references: bool = False) -> FileResult:
    """Lint one eval suite and build its model when its structure allows: ``suite`` (or None) and every
    diagnostic of the file. A file not recognised by its content is read as an eval file all the same."""
    path = os.fspath(path)
    config = Config(root=root, references=references)
    result = lint_file(path, config, explicit=True)
    if result.kind is None:
        source_result = _force_eval(path, config)
        if source_result is not None:
            result = source_result
    return result


def _force_eval(path: str, config: Config) -> Optional[FileResult]:
    from evallint.load.source import read_source

    source = read_source(path, config.root, config.max_bytes)
    if isinstance(source, Source):
        return lint_source(source, path, files.EVAL, config, root=config.root_of(path))
    return None


def load_eval_text(text: str, *, path: str = "<string>", allow: Iterable[str] = ()):
    """Load an eval suite from a string (no references are checked)."""
    result = lint_source(Source(text), path, files.EVAL, Config(references=False))
    return _raise_on_errors(result, allow)


def lint_paths(paths: Iterable[Union[str, os.PathLike]], *, config: Optional[Config] = None) -> list[Diagnostic]:
    """Lint files and folders; every diagnostic, sorted by path, line, column, code."""
    config = config or Config()
    out: list[Diagnostic] = []
    with deps.run_scope():  # one run: a prompt or targets file shared by several files is looked at once
        for path, explicit in expand_paths([os.fspath(p) for p in paths], config):
            out += lint_file(path, config, explicit=explicit, model=False).diagnostics
    return sorted(out, key=Diagnostic.sort_key)
