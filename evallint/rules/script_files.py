"""The script file a command runs (a code grader's, an aggregator's): the first token when it is a source file,
else the first source file after an interpreter or inside a shell's ``-c`` string, and where it leads."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Optional

from evallint.load.reach import resolve
from evallint.rules import shellwords

SOURCE_SUFFIXES = (".py", ".ts", ".js", ".mjs", ".cjs", ".mts", ".cts", ".tsx", ".jsx", ".sh", ".bash", ".rb", ".pl",
                   ".php", ".ps1", ".lua", ".go", ".java", ".kts", ".r", ".R")
INTERPRETERS = ("python", "python3", "node", "bun", "deno", "npx", "tsx", "ts-node", "uv", "uvx", "ruby", "perl",
                "php", "pwsh", "powershell", "rscript", "java", "go", "pipx", "poetry", "pnpm", "yarn", "npm")
SHELLS = ("sh", "bash", "zsh", "dash", "cmd", "cmd.exe")
KEPT_COMMAND = 4096  # characters of a command string whose script token is remembered
SHELL_OPERATORS = re.compile(r"&&|\|\||[;|<>`$]")  # a command string that is more than one simple command


def _program(token: str) -> str:
    name = token.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name[:-4] if name.endswith(".exe") and name != "cmd.exe" else name


def script_token(command: Any) -> Optional[tuple]:
    """(index in argv or None, token) of the script file a command runs: the
    first token when it is a source file, or the first source file after an
    interpreter (``python x.py``, ``bun run x.ts``, ``sh -lc "node x.js"``)."""
    if isinstance(command, str):
        return _text_script_token(command)
    if not isinstance(command, list) or not command or not isinstance(command[0], str):
        return None
    first = command[0]
    if first.endswith(SOURCE_SUFFIXES):
        return 0, first
    program = _program(first)
    if program in SHELLS:
        for i, token in enumerate(command[1:], 1):
            if isinstance(token, str) and token.lower() in ("-c", "-lc", "-ic", "/c") and i + 1 < len(command):
                inner = command[i + 1]
                found = script_token(inner) if isinstance(inner, str) else None
                return (i + 1, found[1]) if found else None
            if isinstance(token, str) and token.endswith(SOURCE_SUFFIXES):
                return i, token
        return None
    if program in INTERPRETERS:
        for i, token in enumerate(command[1:], 1):
            if isinstance(token, str) and token.endswith(SOURCE_SUFFIXES):
                return i, token
    return None


def script_file(command: Any, cwd: Any, folder: str, root: str) -> Optional[tuple]:
    """(its index in argv, the token, the folder it is looked up in, where it leads) of the script file a code
    judge's ``command`` runs in ``cwd`` (relative to ``folder``, which it is without one); None when the command
    names no script file or ``cwd`` is not found."""
    found = script_token(command)
    base = resolve(cwd, folder, root, want_dir=True).path if isinstance(cwd, str) else folder
    if found is None or base is None:
        return None
    return found[0], found[1], base, resolve(found[1], base, root, ancestors=False)


def _text_script_token(command: str) -> Optional[tuple]:
    if len(command) > KEPT_COMMAND:
        return _split_script_token(command)  # not kept: the memo holds short commands only
    return _kept_script_token(command)


@lru_cache(maxsize=1024)  # a suite's cases often run the same command
def _kept_script_token(command: str) -> Optional[tuple]:
    return _split_script_token(command)


def _split_script_token(command: str) -> Optional[tuple]:
    if SHELL_OPERATORS.search(command):
        return None  # a shell pipeline: its working folder is not knowable here
    try:
        argv = shellwords.split(command)
    except ValueError:
        return None
    found = script_token(argv)
    return (None, found[1]) if found else None
