"""The commands beside linting: ``rule CODE``, ``rules``, ``schema``, ``normalize``, ``server`` and ``upgrade``."""
from __future__ import annotations

import json
import os
from typing import IO

from evallint.arguments import EXIT_ERROR, EXIT_FOUND, EXIT_OK, Parser, UsageError
from evallint.rules import docs
from evallint.rules.registry import RULES


def run_subcommand(argv: list, stdout: IO[str], stderr: IO[str]) -> int:
    if argv[0] == "schema":
        return _schema(argv[1:], stdout)
    if argv[0] == "normalize":
        return _normalize(argv[1:], stdout, stderr)
    if argv[0] == "upgrade":
        return _upgrade(argv[1:], stdout, stderr)
    if argv[0] == "server":
        return _server(argv[1:])
    if argv[0] == "rule":
        p = Parser(prog="evallint rule", description="Explain a rule: what it does, why, an example, the fix.")
        p.add_argument("code", help="a rule code such as EV310, or its name")
        args = p.parse_args(argv[1:])
        rule = docs.find_rule(args.code)
        if rule is None:
            raise UsageError(f"unknown rule '{args.code}' (see 'evallint rules')")
        stdout.write(docs.render(rule))
        return EXIT_OK
    p = Parser(prog="evallint rules", description="List every rule.")
    p.add_argument("--format", choices=("text", "json"), default="text")
    args = p.parse_args(argv[1:])
    if args.format == "json":
        json.dump([{"code": r.code, "name": r.name, "severity": _level(r.level), "fixable": r.fixable,
                    "generations": list(r.generations), "summary": r.summary} for r in RULES.values()], stdout, indent=2)
        stdout.write("\n")
        return EXIT_OK
    for r in RULES.values():
        stdout.write(f"{r.code}  {r.name:<32} {_level(r.level):<8} {'fix' if r.fixable else '   '}  "
                     f"{','.join(r.generations):<8}  {r.summary}\n")
    return EXIT_OK if RULES else EXIT_ERROR


def _level(level: str) -> str:
    return {"E": "error", "W": "warning", "S": "style"}[level]


def _schema(argv: list, stdout: IO[str]) -> int:
    from evallint.api import json_schema
    from evallint.diagnostics import GENERATIONS
    from evallint.format.agentv2.jsonschema import SCHEMAS as SCHEMAS_2
    from evallint.format.agentv4.jsonschema import SCHEMAS  # AgentV 2.2's kinds, and those only AgentV 4.42.4 reads

    later_only = sorted(set(SCHEMAS) - set(SCHEMAS_2))  # an Agent Skills evals file, an assertion template
    p = Parser(prog="evallint schema", description="Print a JSON Schema (draft-07) for editors.")
    p.add_argument("kind", nargs="?", default="eval", choices=sorted(SCHEMAS))
    p.add_argument("--agentv-version", choices=GENERATIONS, default=None,
                   help=f"the AgentV version whose format the schema describes (default: {GENERATIONS[0]}; "
                        f"{GENERATIONS[1]} for {' and '.join(later_only)}, which only AgentV {GENERATIONS[1]} reads)")
    p.add_argument("--output", metavar="FILE", help="write the schema to FILE instead of standard output")
    args = p.parse_args(argv)
    version = args.agentv_version or (GENERATIONS[1] if args.kind in later_only else GENERATIONS[0])
    if args.kind in later_only and version != GENERATIONS[1]:
        raise UsageError(f"AgentV {version} reads no {args.kind} file; the {args.kind} schema is AgentV "
                         f"{GENERATIONS[1]}'s")
    text = json.dumps(json_schema(args.kind, version), indent=2) + "\n"
    if args.output:
        folder = os.path.dirname(args.output)
        try:
            if folder:
                os.makedirs(folder, exist_ok=True)
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise UsageError(f"cannot write '{args.output}': {exc.strerror or exc}") from None
    else:
        stdout.write(text)
    return EXIT_OK


_NORMALIZE_TAKES = ("normalize takes an eval suite (YAML with an 'evalcases' list, or a 'tests' list for AgentV 4.42.4), "
                    "a JSONL dataset or an Agent Skills evals file (JSON with an 'evals' list)")


def _normalize(argv: list, stdout: IO[str], stderr: IO[str]) -> int:
    import dataclasses

    from evallint.api import read_eval_file
    from evallint.diagnostics import GENERATIONS, Severity
    from evallint.load import files
    from evallint.report.result import secret_values
    from evallint.report.starring import starred_data, text_secrets

    not_eval = {files.TARGETS: "a targets file", files.CONFIG: "an AgentV config file ('.agentv/config.yaml')",
                files.SIDECAR: "a dataset's sidecar (the settings of the .jsonl file beside it)",
                files.TEMPLATE: "an assertion template (the assertions an 'include' entry stands for)"}

    p = Parser(prog="evallint normalize", description="Print the loaded suite: aliases and shorthands expanded, "
                "evaluator precedence applied, positions omitted. Errors go to stderr (exit 1); the suite is "
                "printed whenever it can be built, as the runner would run it.")
    p.add_argument("file")
    p.add_argument("--format", choices=("json", "yaml"), default="json")
    p.add_argument("--agentv-version", choices=GENERATIONS, default=None,
                   help="read the file as this AgentV version's format (default: its keys tell)")
    args = p.parse_args(argv)
    if os.path.isdir(args.file):
        raise UsageError(f"'{args.file}' is a folder; normalize takes one eval file")
    if not os.path.isfile(args.file):
        raise UsageError(f"no such file: '{args.file}'")
    result = read_eval_file(args.file, agentv_version=args.agentv_version)
    if result.kind in not_eval:
        stderr.write(f"{args.file}: {not_eval[result.kind]}, not an eval file; {_NORMALIZE_TAKES}\n")
        return EXIT_FOUND
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    for d in errors:
        stderr.write(f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}\n")
    if result.suite is None:
        if not errors:
            stderr.write(f"{args.file}: not an eval file: no list of cases; {_NORMALIZE_TAKES}\n")
        return EXIT_FOUND
    data = json.loads(json.dumps(dataclasses.asdict(result.suite)))  # tuples become lists
    data = starred_data(data, secret_values(result.source.text, text_secrets(result.source.text, args.file)))
    if args.format == "yaml":
        import yaml

        stdout.write(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    else:
        stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return EXIT_FOUND if errors else EXIT_OK


# how to get the server's libraries: the released package, or a checkout of evallint before a release
SERVER_INSTALL = ("pip install 'agentv-evallint[server]' from the package index, or pip install '.[server]' in a "
                  "checkout of evallint")


def _server(argv: list) -> int:
    p = Parser(prog="evallint server", description="A language server for editors (LSP over standard input and "
               "output): diagnostics as you type, quick fixes, hover, completion and goto definition. Needs the "
               f"'server' extra: {SERVER_INSTALL}.")
    p.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default and only "
                   "transport; accepted because editors' clients pass it)")
    p.parse_args(argv)
    try:
        from evallint.server.app import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol", "attrs", "cattrs"):
            raise
        raise UsageError(f"'evallint server' needs {exc.name}, which is not installed: {SERVER_INSTALL}") from None
    return serve()


def _upgrade(argv: list, stdout: IO[str], stderr: IO[str]) -> int:
    """``evallint upgrade [PATHS]``: AgentV 2.2 files (eval suites, JSONL datasets and their sidecars, targets
    and config files, and the prompt templates their graders read) rewritten in AgentV 4.42.4's format as
    edits of their text; ``--diff`` prints the change and writes nothing."""
    from dataclasses import replace

    from evallint.arguments import build_config
    from evallint.load import deps
    from evallint.run.discovery import expand_paths
    from evallint.upgrade.files import upgrade_file, with_partners
    from evallint.upgrade.report import FAILED, FOUND, finish

    p = Parser(prog="evallint upgrade",
               description="Rewrite AgentV 2.2 eval files in AgentV 4.42.4's format, keeping what 2.2 ran.",
               epilog="Exit status: 0 when nothing is left to report (with --diff: nor to change), 1 when an error "
                      "is reported (or --diff shows a change), 2 for a usage error or a file not written.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files and folders to upgrade (default: .)")
    p.add_argument("--diff", action="store_true", help="print the change as a unified diff; write nothing")
    p.add_argument("--config", metavar="FILE", help="a pyproject.toml or .evallint.toml (default: the nearest one)")
    p.add_argument("--root", metavar="DIR", help="the repository root that references resolve within")
    # the lint settings the configuration builder reads, which an upgrade does not take from the command line
    p.set_defaults(select=None, ignore=(), extend_select=(), strict=False, no_references=False,
                   no_force_exclude=False, agentv_version=None, staged=False, stdin_filename=None)
    args = p.parse_args(argv)
    config = replace(build_config(args), agentv_version=None)  # each file's own keys tell its version
    paths = args.paths or ["."]
    missing = [path for path in paths if not os.path.lexists(path)]
    if missing:
        raise UsageError(f"no such file or folder: '{missing[0]}'")
    found = with_partners([path for path, _ in expand_paths(paths, config)])
    with deps.run_scope():  # one run: what the lint of a file read (a template, a script) is read once
        ended = finish([upgrade_file(path, config) for path in found], args.diff, stdout, stderr)
    return {FAILED: EXIT_ERROR, FOUND: EXIT_FOUND}.get(ended, EXIT_OK)
