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
        from evallint.run.autofix import NotWritten, remove_stale_temporaries, write_atomically

        folder = os.path.dirname(os.path.realpath(result.path))
        if folder not in self.swept:
            remove_stale_temporaries(folder)
            self.swept.add(folder)
        try:
            write_atomically(result.path, result.source.raw, data)
            return True
        except NotWritten as exc:
            self.stderr.write(f"evallint: {exc}; not fixed\n")
        except OSError as exc:
            self.stderr.write(f"evallint: cannot write {result.path}: {exc.strerror or exc}\n")
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
