"""The secret that authenticates the result cache's rows.

A cache folder can arrive with the files it sits among: a pull request can commit a forged
``.evallint_cache`` (``git add -f``), and a CI run on a fresh clone would then report what the
forger wrote. So a row counts only when it carries an HMAC-SHA256, made with a key that this user's
evallint made on this machine and keeps outside every repository: ``evallint/key`` in the user cache
folder (``$XDG_CACHE_HOME`` when it is an absolute path, else ``~/.cache``). The key is 32 random
bytes, made on first use in a file of mode 0600, written whole under a temporary name and then linked
to its name, so a run never reads half a key and two runs that make one at once agree on the one
that was linked first. A key file that is a link, not a regular file, of another size, another
owner's or readable by others is replaced; when no key can be read or made (no home folder, a
read-only one), the run is uncached."""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
from typing import Optional

KEY_BYTES = 32
_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
          | getattr(os, "O_CLOEXEC", 0))
_UNUSABLE = object()  # a key file that is there but must not be trusted


def key_path() -> Optional[str]:
    """Where the key lives; None when there is no user cache folder."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "evallint", "key")


def user_key() -> Optional[bytes]:
    """This user's key, made when missing or unusable; None when it can be neither read nor made."""
    path = key_path()
    if path is None:
        return None
    found = _read(path)
    if isinstance(found, bytes):
        return found
    return _make(path, replace=found is _UNUSABLE)


def _read(path: str):
    """The key at ``path``; None when there is none, ``_UNUSABLE`` when the file must not be trusted."""
    try:
        if not getattr(os, "O_NOFOLLOW", 0) and stat.S_ISLNK(os.lstat(path).st_mode):
            return _UNUSABLE
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        return None
    except OSError:
        return _UNUSABLE  # a link (ELOOP), a folder, a file that cannot be read
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != KEY_BYTES or not _private(info):
            return _UNUSABLE
        data = os.read(fd, KEY_BYTES + 1)
    except OSError:
        return _UNUSABLE
    finally:
        os.close(fd)
    return data if len(data) == KEY_BYTES else _UNUSABLE


def _private(info: os.stat_result) -> bool:
    """Whether the file is this user's and no one else's to read or write (where the system says)."""
    if os.name == "nt" or not hasattr(os, "getuid"):
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o077


def _make(path: str, replace: bool) -> Optional[bytes]:
    """A new key at ``path``; with ``replace``, in place of the file there. When another run links its
    key first, that key."""
    import tempfile

    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".key-", dir=folder)  # mode 0600
    except OSError:
        return None
    key = os.urandom(KEY_BYTES)  # the system's cryptographic source, as secrets uses
    try:
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(key)
            if replace:
                os.replace(temporary, path)
                return key
            os.link(temporary, path)
            return key
        except FileExistsError:  # another run made it first
            found = _read(path)
            return found if isinstance(found, bytes) else None
        except OSError:
            return None
    finally:
        try:
            os.unlink(temporary)  # still there after a link, or after a failure
        except OSError:
            pass


def seal(key: bytes, row: tuple) -> str:
    """The HMAC of a row's (file, content, stat, entry), in hex. The four are joined with NUL, which none
    of them holds (hex digests, a JSON stat or none, JSON that escapes it; ``is_sealed`` refuses a row that
    does), the stat marked as there or not, so two rows never give one message."""
    file, content, stat, entry = row[:4]
    message = "\0".join((file, content, "-" if stat is None else "+" + stat, entry))
    return hmac.new(key, message.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def is_sealed(key: bytes, row: tuple, mac: str) -> bool:
    """Whether ``mac`` is the HMAC of the row's (file, content, stat, entry) under ``key``."""
    return isinstance(mac, str) and mac.isascii() and not any("\0" in value for value in row[:4] if value) \
        and hmac.compare_digest(seal(key, row), mac)
