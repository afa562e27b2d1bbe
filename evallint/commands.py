"""The commands beside linting: ``rule CODE`` and ``rules``."""
from __future__ import annotations

import json
from typing import IO

from .cli import EXIT_ERROR, EXIT_OK, UsageError, _Parser
from .rules import docs
from .rules.registry import RULES


def run_subcommand(argv: list, stdout: IO[str], stderr: IO[str]) -> int:
    if argv[0] == "rule":
        p = _Parser(prog="evallint rule", description="Explain a rule: what it does, why, an example, the fix.")
        p.add_argument("code", help="a rule code such as EV310, or its name")
        args = p.parse_args(argv[1:])
        rule = docs.find_rule(args.code)
        if rule is None:
            raise UsageError(f"unknown rule '{args.code}' (see 'evallint rules')")
        stdout.write(docs.render(rule))
        return EXIT_OK
    p = _Parser(prog="evallint rules", description="List every rule.")
    p.add_argument("--format", choices=("text", "json"), default="text")
    args = p.parse_args(argv[1:])
    if args.format == "json":
        json.dump([{"code": r.code, "name": r.name, "severity": _level(r.level), "fixable": r.fixable,
                    "summary": r.summary} for r in RULES.values()], stdout, indent=2)
        stdout.write("\n")
        return EXIT_OK
    for r in RULES.values():
        stdout.write(f"{r.code}  {r.name:<32} {_level(r.level):<8} {'fix' if r.fixable else '   '}  {r.summary}\n")
    return EXIT_OK if RULES else EXIT_ERROR


def _level(level: str) -> str:
    return {"E": "error", "W": "warning", "S": "style"}[level]
