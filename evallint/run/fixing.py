"""``--fix`` and ``--diff`` over the results of a run: each file's fixes written atomically, printed as a
diff, or (standard input) written to stdout byte for byte; what was refused said on stderr."""
from __future__ import annotations

import os
from typing import IO, Optional

from evallint.config import Config

ECHO_BLOCK = 1 << 20  # standard input over the size cap goes back out (--fix) in blocks of this size


def write_bytes(stream: IO[str], data: bytes) -> None:
    """``data`` to a text stream byte for byte: to its binary buffer where it has one (a real stdout), so no
    byte is decoded, replaced or translated; else (a stream in memory) decoded with ``surrogateescape``, from
    which ``encode("utf-8", "surrogateescape")`` gives the same bytes back."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(data.decode("utf-8", "surrogateescape"))
        return
    stream.flush()
    buffer.write(data)
    buffer.flush()


def write_file(path: str, original: bytes, data: bytes, stderr: IO[str], undone: str, swept: set) -> bool:
    """Write ``data`` to ``path`` atomically, unless it no longer holds ``original`` or cannot keep what it is
    (``write_atomically``); whether it was written. Why not is said on ``stderr``, ending with ``undone``. The
    stale temporary files of a folder are removed before its first write of a run (``swept``: those done)."""
    from evallint.run.autofix import NotWritten, remove_stale_temporaries, write_atomically

    folder = os.path.dirname(os.path.realpath(path))
    if folder not in swept:
        remove_stale_temporaries(folder)
        swept.add(folder)
    try:
        write_atomically(path, original, data)
        return True
    except NotWritten as exc:
        stderr.write(f"evallint: {exc}; {undone}\n")
    except OSError as exc:
        stderr.write(f"evallint: cannot write {path}: {exc.strerror or exc}\n")
    return False


class Fixing:
    """--fix / --diff over the results of a run. With --fix on standard input (``stdin`` holds its bytes),
    the text, fixed or not, goes to stdout and no file is written, whatever --stdin-filename names."""

    def __init__(self, args, stdout: IO[str], stderr: IO[str], stdin: Optional[bytes] = None, rest=None):
        """``rest``: standard input's stream, when ``stdin`` is only its first bytes (it is over the size cap)."""
        self.args, self.stdout, self.stderr = args, stdout, stderr
        self.stdin = stdin if not args.diff else None
        self.rest = rest
        self.echoed = False
        self.fixed = self.files = 0
        self.diffs: list = []
        self.failed = False
        self.swept: set = set()  # the folders whose stale temporary files are removed

    def run(self, result, config: Config):
        from evallint.run.autofix import encoded, fix_file, unified_diff

        outcome = fix_file(result, config, unsafe=self.args.unsafe_fixes)
        for d, why in outcome.refused:
            self.stderr.write(f"evallint: {d.path}:{d.line}:{d.column}: {d.code} not fixed: {why}\n")
        if not outcome.changed:
            return outcome.result
        if self.stdin is not None:  # standard input: the fixed text goes to stdout, encoded as a file would be
            write_bytes(self.stdout, encoded(outcome.text, result.source.bom))
            self.echoed = True
        elif self.args.diff:
            self.diffs.append(unified_diff(result.path, result.source.text, outcome.text, result.source.bom))
        elif not self._written(result, encoded(outcome.text, result.source.bom)):
            return result
        self.fixed += outcome.count
        self.files += 1
        return result if self.args.diff else outcome.result

    def _written(self, result, data: bytes) -> bool:
        """Write the fixed file atomically; whether it was (why not is said on stderr)."""
        if write_file(result.path, result.source.raw, data, self.stderr, "not fixed", self.swept):
            return True
        self.failed = True
        return False

    def _echo(self) -> None:
        """Standard input, unchanged, to stdout: past the size cap, block by block as it is read, never held."""
        write_bytes(self.stdout, self.stdin)
        block = self.rest.read(ECHO_BLOCK) if self.rest is not None else b""
        while block:
            write_bytes(self.stdout, block if isinstance(block, bytes) else block.encode())
            block = self.rest.read(ECHO_BLOCK)

    def finish(self, machine_format: bool) -> Optional[bool]:
        """Report what was fixed; with --diff, print the diff and say whether there was one (None without)."""
        from evallint.report.formats.base import plural

        if self.stdin is not None and not self.echoed:  # nothing fixed: standard input comes out unchanged
            self._echo()
        if self.args.diff:
            self.stdout.write("".join(self.diffs))
            self.stderr.write(f"Would fix {plural(self.fixed, 'problem')} in {plural(self.files, 'file')}.\n")
            return bool(self.diffs)
        (self.stderr if machine_format or self.stdin is not None else self.stdout).write(
            f"Fixed {plural(self.fixed, 'problem')} in {plural(self.files, 'file')}.\n")
        return None
