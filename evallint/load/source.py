"""Reading a file safely: never block, never follow a link out of the root,
never read more than the size cap, decode strictly."""
from __future__ import annotations

import errno
import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Optional, Union

from evallint.diagnostics import E, Finding, Rule, Span
from evallint.load.paths import inside

# the rules this module finds, explained in source.md beside it
EV002 = Rule("EV002", "invalid-encoding", E, "the file is not UTF-8 text, or holds a NUL byte")
EV009 = Rule("EV009", "unreadable", E, "the file cannot be read: permissions, FIFO or device, broken or escaping symlink")

DEFAULT_MAX_BYTES = 10 * 1024 * 1024

_FOREIGN_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
)
_BOM_STARTS = (b"", b"\x00", b"\xfe", b"\xff")
_UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Source:
    """Decoded text of a file; ``bom`` is True when a UTF-8 BOM was stripped."""

    text: str
    bom: bool = False
    raw: bytes = b""


def _span_at_byte(data: bytes, offset: int) -> Span:
    before = data[:offset]
    line = before.count(b"\n")
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode("utf-8", errors="replace"))
    return Span(line, column, line, column + 1, offset, offset + 1)


def _unreadable(message: str) -> Finding:
    return Finding("EV009", message, span=Span(0, 0, 0, 1))


def _inside(path: str, root: str) -> bool:
    return inside(os.path.realpath(path), os.path.realpath(root))


def open_regular(path: str, root: Optional[str]) -> Union[tuple, Finding]:
    """(an open descriptor, the size) of the regular file at ``path``, or a finding saying why it cannot be
    read: the one place where a file linted is opened."""
    fd = _open_unlinked(path)
    if fd is None:  # a symbolic link, a file that cannot be opened, or a system that cannot tell at open
        fd = _open_link(path, root)
        if isinstance(fd, Finding):
            return fd
    try:
        info = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        return _unreadable(f"cannot read file: {exc.strerror or exc}")
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return _unreadable(f"not a regular file ({_what(info.st_mode)}); only regular files are read")
    return fd, info.st_size


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "not a regular file"


def read_bytes(path: str, root: Optional[str], max_bytes: int = DEFAULT_MAX_BYTES, *,
               head: bool = False) -> Union[bytes, Finding]:
    """The file's bytes, or a finding saying why not. With ``head``, only its start: up to the end of
    its first line that holds more than whitespace, at most ``max_bytes``, without complaining about
    the rest."""
    found = open_regular(path, root)
    if isinstance(found, Finding):
        return found
    fd, size = found
    try:
        if size > max_bytes and not head:
            return too_large(size, max_bytes)
        data = _read_head(fd, max_bytes) if head else _read_fd(fd, size, max_bytes + 1)
    except OSError as exc:
        return _unreadable(f"cannot read file: {exc.strerror or exc}")
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        return _over_cap(max_bytes)
    return data


_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _open_unlinked(path: str) -> Optional[int]:
    """An open descriptor of ``path`` when it is no symbolic link (one open, no ``lstat`` first); None
    when the open fails, whatever the reason (a link: ELOOP on Linux, EMLINK or EFTYPE on some BSDs;
    a missing or unreadable file), or the system has no ``O_NOFOLLOW``: ``_open_link`` then looks."""
    if not _NOFOLLOW:
        return None
    try:
        return os.open(path, _FLAGS | _NOFOLLOW)
    except OSError:
        return None


def _open_link(path: str, root: Optional[str]) -> Union[int, Finding]:
    """An open descriptor of what ``path`` leads to, or a finding: broken links, loops and links out of
    the repository root are not followed."""
    try:
        link = os.lstat(path)
    except OSError as exc:
        return _unreadable(f"cannot read file: {exc.strerror or exc}")
    if stat.S_ISLNK(link.st_mode):
        try:
            os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return _unreadable("symbolic link loop: the link never reaches a file")
            return _unreadable(f"broken symbolic link to '{os.readlink(path)}'")
        if root is not None and not _inside(path, root):
            return _unreadable("symbolic link leaves the repository root; it is not followed")
    try:
        return os.open(path, _FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _unreadable("symbolic link loop: the link never reaches a file")
        return _unreadable(f"cannot read file: {exc.strerror or exc}")


_BLOCK = 1 << 20  # what a read asks for at most


def _read_fd(fd: int, size: int, limit: int) -> bytes:
    """At most ``limit`` bytes from ``fd``, a file of ``size`` bytes when it was looked at. The first
    read asks for one byte more than that: a reply of exactly its size is the end of the file, so the
    usual file takes one read (one that grew or shrank reads on)."""
    chunks, got = [], 0
    if 0 < size < limit and size < _BLOCK:
        first = os.read(fd, size + 1)
        if len(first) == size or not first:
            return first  # the usual file (or an empty one): one read, nothing more to look at
        chunks, got = [first], len(first)
    while got < limit:
        asked = min(limit - got, _BLOCK)
        chunk = os.read(fd, asked)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
        if got == size and len(chunk) < asked:
            break
    return b"".join(chunks)


def _read_head(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes from ``fd``, in blocks that double from 4 KB, stopping at the end of the
    first line that holds more than whitespace: what decides a ``.jsonl`` file's kind, without reading
    the rest of a large results file."""
    data = b""
    ask = 4096
    while len(data) < limit:
        chunk = os.read(fd, min(ask, limit - len(data)))
        if not chunk:
            break
        data += chunk
        if b"\n" in data.lstrip(b" \t\r\n\xef\xbb\xbf"):
            break
        ask *= 2
    return data


def read_found(path: str, size: int, max_bytes: int) -> Optional[bytes]:
    """The bytes of a file that a stat has just found to be a regular file of ``size`` bytes inside
    the root, its links resolved (a reference checked by the EV4xx rules): one open and one read,
    without ``read_bytes``' checks again. None when it cannot be read or is over ``max_bytes``."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError:
        return None
    try:
        data = _read_fd(fd, size, max_bytes + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return None if len(data) > max_bytes else data


def too_large(size: int, max_bytes: int) -> Finding:
    """EV006 for a file of ``size`` bytes, over the cap."""
    return Finding("EV006", f"file is {size} bytes, over the size cap of {max_bytes} bytes; it is not read",
                   span=Span(0, 0, 0, 1))


def _over_cap(max_bytes: int) -> Finding:
    return Finding("EV006", f"file is over the size cap of {max_bytes} bytes; it is not read", span=Span(0, 0, 0, 1))


def decode_capped(data: bytes, max_bytes: int) -> Union[Source, Finding]:
    """``decode`` for bytes that did not come from ``read_bytes`` (standard input, the git index)."""
    return _over_cap(max_bytes) if len(data) > max_bytes else decode(data)


def decode(data: bytes) -> Union[Source, Finding]:
    if data[:1] in _BOM_STARTS:  # empty, or starting like a UTF-16 or UTF-32 byte order mark
        for bom, name in _FOREIGN_BOMS:
            if data.startswith(bom):
                return Finding("EV002", f"file starts with a {name} byte order mark; eval files must be UTF-8",
                               span=Span(0, 0, 0, 1))
    has_bom = data.startswith(_UTF8_BOM)
    body = data[3:] if has_bom else data
    nul = body.find(b"\x00")
    if nul >= 0:
        offset = nul + (3 if has_bom else 0)
        return Finding("EV002", f"file holds a NUL byte at byte offset {offset}; eval files must be UTF-8 text",
                       span=_span_at_byte(body, nul))
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = body[exc.start:exc.start + 1]
        return Finding(
            "EV002",
            f"invalid UTF-8 byte 0x{bad.hex()} at byte offset {exc.start + (3 if has_bom else 0)}; eval files must be UTF-8",
            span=_span_at_byte(body, exc.start),
        )
    return Source(text=text, bom=has_bom, raw=data)


def read_source(path: str, root: Optional[str] = None, max_bytes: int = DEFAULT_MAX_BYTES) -> Union[Source, Finding]:
    data = read_bytes(path, root, max_bytes)
    if isinstance(data, Finding):
        return data
    return decode(data)


PEEK = 64 * 1024  # the first bytes that tell a file's kind before (or without) the rest being read


class Content:
    """What a file holds, read once and only as far as telling its kind and linting it need: its first
    line (``head``), its first ``PEEK`` bytes (``prefix``), then all of it (``source``), each byte read
    once from one open file. ``partial``: only its first bytes can be known (it is over the size cap)."""

    def __init__(self, known: Optional[bytes], whole=None, *, partial: bool = False, fd: Optional[int] = None,
                 size: int = 0, max_bytes: int = DEFAULT_MAX_BYTES, text: Optional[str] = None):
        self._known = known  # the first bytes read; None: none can be
        self._whole = whole  # bytes, a Source or a Finding, once known
        self.partial = partial
        self._fd, self._size, self._max = fd, size, max_bytes
        self._head_read = fd is None
        self._text = text  # a text whose first bytes are encoded when asked

    @classmethod
    def given(cls, data: bytes, max_bytes: int) -> "Content":
        """Bytes in hand (standard input, a blob of the git index, an editor's text)."""
        over = len(data) > max_bytes
        return cls(data, _over_cap(max_bytes) if over else data, partial=over)

    @classmethod
    def over_cap(cls, size: int, head: bytes, max_bytes: int) -> "Content":
        """A file of ``size`` bytes, over the cap, known by its first bytes."""
        return cls(head, too_large(size, max_bytes), partial=True)

    @classmethod
    def first_bytes(cls, head: bytes) -> "Content":
        """A file known by its first bytes only (a blob of the last commit)."""
        return cls(head, partial=True)

    @classmethod
    def unread(cls, finding: Finding) -> "Content":
        """A file that cannot be read, and why."""
        return cls(None, finding)

    @classmethod
    def decoded(cls, source: Source) -> "Content":
        """Text already decoded; its first bytes are its first ``PEEK`` characters encoded, when asked."""
        return cls(source.raw or None, source, text=None if source.raw else source.text)

    def head(self) -> Optional[bytes]:
        """The first bytes, at least to the end of the first line that holds more than whitespace, at most
        ``PEEK``: what tells a dataset from a results file without reading the rest. None: none can be read."""
        if not self._head_read:
            self._head_read = True
            self._read(lambda fd: _read_head(fd, PEEK))
        return self._first()

    def prefix(self) -> Optional[bytes]:
        """The first ``PEEK`` bytes (all of a shorter file); None when none can be read."""
        self._head_read = True
        if self._fd is not None and self._known is not None and len(self._known) < min(PEEK, self._size):
            got = len(self._known)
            self._read(lambda fd: _read_fd(fd, min(PEEK, self._size) - got, PEEK - got))
        return self._first()

    def _first(self) -> Optional[bytes]:
        if self._text is not None:
            self._known, self._text = self._text[:PEEK].encode("utf-8", "surrogatepass"), None
        return None if self._known is None else self._known[:PEEK]

    def source(self) -> Union[Source, Finding, None]:
        """The decoded text, or a finding saying why there is none (None: only the first bytes are known)."""
        if self._fd is not None and self._whole is None:
            self._read_rest()
        if isinstance(self._whole, bytes):
            self._whole = decode(self._whole)
        return self._whole

    def _read_rest(self) -> None:
        if self._size > self._max:
            self._whole = too_large(self._size, self._max)
            return
        self._head_read = True
        got = len(self._known)
        self._read(lambda fd: _read_fd(fd, max(0, self._size - got), self._max + 1 - got))
        if self._known is not None:
            self._whole = _over_cap(self._max) if len(self._known) > self._max else self._known
        self._fd = None  # all of it is read

    def _read(self, more) -> None:
        """Read on with ``more(fd)``; an error leaves nothing known and the reason as the file's content."""
        try:
            self._known += more(self._fd)
        except OSError as exc:
            self._known, self._fd = None, None
            self._whole = _unreadable(f"cannot read file: {exc.strerror or exc}")


@contextmanager
def opened(path: str, root: Optional[str], max_bytes: int) -> Iterator[Content]:
    """The file at ``path`` as ``Content``, opened once and read as far as asked inside the block."""
    found = open_regular(path, root)
    if isinstance(found, Finding):
        yield Content.unread(found)
        return
    fd, size = found
    try:
        yield Content(b"", fd=fd, size=size, max_bytes=max_bytes, partial=size > max_bytes)
    finally:
        os.close(fd)
