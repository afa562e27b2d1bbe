"""The checks an AgentV 4.42 workspace's ``env`` asks the machine for before the run (workspace/setup.ts
runPreflightChecks): each command through a shell, as ``sh -c 'command -v NAME'``, each module as ``python3 -c
'import NAME'``. A name either of them reads as something else makes a check that fails on every machine, which
stops the run before any test, or one that passes without checking."""
from __future__ import annotations

import ast
import re
from typing import Iterator

from evallint.rules import shellwords
from evallint.rules.common import check_unknown_keys, finding
from evallint.rules.script_files import SHELL_OPERATORS
from evallint.suggest import quote

QUOTING = re.compile(r"[\"'\\]")  # a shell's quotes and escape, which may hide an operator
# a module name as a version spec writes it ('json>=2.0'): the name before the version
VERSIONED = re.compile(r"\s*([\w.]+)\s*(?:[<>=!~]=?|===?)")
MAX_NAME = 4096  # characters of a module name parsed: no module's is that long


def check_env(env: dict, place) -> Iterator:
    """An unknown key (EV115: 'env' holds the checks alone, not environment variables), and each check that cannot
    check what it names (EV110)."""
    dropped = {key: "; the runner reads only these checks there, made before the run, and sets no environment "
                    "variable, so what it holds is dropped" for key in env if isinstance(key, str)}
    yield from check_unknown_keys(env, place.keys, place.at, "workspace env", code="EV115", notes=dropped)
    commands, modules = env.get("required_commands"), env.get("required_python_modules")
    for i, name in enumerate(commands if isinstance(commands, list) else ()):
        if isinstance(name, str):
            yield from _command(name, place.at + ("required_commands", i))
    for i, name in enumerate(modules if isinstance(modules, list) else ()):
        if isinstance(name, str) and not _imports(name):
            yield finding("EV110", f"required Python module {quote(name)} cannot be imported on any machine: the runner "
                          f"checks it with python3 -c {quote('import ' + name)}, which is not imports alone and fails "
                          f"whatever is installed, so the run fails before any test; {_module_hint(name)}",
                          place.at + ("required_python_modules", i))


def _command(name: str, at: tuple) -> Iterator:
    """EV110 for a command name the shell reads as another thing than one name: none (the check passes), an operator
    ('node>=18' checks 'node' and writes what it finds to a file '=18'), several words, or a name no command has (a
    version written in it, an unclosed quote). Quotes around a name are the shell's: it checks the name."""
    try:
        words = shellwords.split(name)
    except ValueError:  # an unclosed quote: the shell's syntax error
        words = None
    operator = SHELL_OPERATORS.search(name) if not QUOTING.search(name) else None
    if words == []:
        then = "which checks nothing and passes on every machine"
    elif operator and operator.group() in "<>":
        then = (f"where the shell reads {quote(operator.group())} as a redirection: it checks "
                f"{quote(name[:operator.start()].strip())} alone, which passes wherever that command is, whatever its "
                "version, and writes what it finds to a file")
    elif operator:
        then = f"where the shell reads {quote(operator.group())} itself, so the check is not of {quote(name)}"
    elif words is not None and len(words) > 1:
        then = f"which the shell reads as {len(words)} names, so it checks another thing than {quote(name)}"
    elif words is None or "=" in words[0] or SHELL_OPERATORS.search(words[0]):
        then = "which fails on every machine, as no command has that name, and the run fails before any test"
    else:
        return
    yield finding("EV110", f"required command {quote(name)} is no command's name: the runner checks it with sh -c "
                  f"{quote('command -v ' + name)}, {then}; write the command's name alone (check its version in a "
                  "'before_all' hook)", at)


def _imports(name: str) -> bool:
    """Whether ``import NAME`` is Python import statements alone, as python3 -c reads it (parsed, never run)."""
    if len(name) > MAX_NAME:
        return True  # not judged
    try:
        body = ast.parse(f"import {name}").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return all(isinstance(statement, ast.Import) for statement in body)


def _module_hint(name: str) -> str:
    versioned = VERSIONED.match(name)
    if versioned and _imports(versioned.group(1)):
        return f"write the module's name alone, {quote(versioned.group(1))}, and check its version in a 'before_all' hook"
    return "write the name an import statement takes, the module's, not its package's ('yaml' for PyYAML)"
