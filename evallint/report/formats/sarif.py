"""SARIF 2.1.0 for GitHub code scanning."""
from __future__ import annotations

import json
import os
import tempfile
from urllib.parse import quote

from evallint import __version__
from evallint.diagnostics import Severity
from evallint.report.formats.base import Reporter, json_text
from evallint.report.formats.json_format import indented
from evallint.rules.registry import RULES, doc_url

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# the distribution's page (the PyPI name ``evallint`` is another project)
INFORMATION_URI = "https://pypi.org/project/agentv-evallint/"
FINGERPRINT = "evallint/v1"


def level(severity: Severity) -> str:
    """The SARIF level of a severity: a rule's default and each of its results use the same one."""
    return "error" if severity is Severity.ERROR else "warning"


def fingerprint(code: str, path: str, where: str) -> str:
    """A result's identity across runs: its code, its file (from the repository root) and ``where``, its data
    path, else the offending line's text without surrounding blanks; line numbers are left out, so moving
    the finding up or down the file keeps it."""
    import hashlib

    return hashlib.sha256("\0".join((code, path, where)).encode("utf-8", "surrogatepass")).hexdigest()


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def rule_descriptor(code: str) -> dict:
    from evallint.rules import docs

    rule = RULES[code]
    parts = docs.sections().get(code, {})
    what = parts.get("What it does", rule.summary)
    why = parts.get("Why is this bad?", "")
    fix = parts.get("Fix", "")
    markdown = "\n\n".join(p for p in (f"**{code} {rule.name}**", what, "## Why is this bad?", why, "## Fix", fix) if p)
    return {
        "id": code,
        "name": _pascal(rule.name),
        "shortDescription": {"text": rule.summary[0].upper() + rule.summary[1:] + "."},
        "fullDescription": {"text": what},
        "help": {"text": f"{what}\n\n{why}".strip(), "markdown": markdown},
        "helpUri": doc_url(code),
        "defaultConfiguration": {"level": level(rule.severity)},
        "properties": {"tags": [rule.name]},
    }


def uri(path: str) -> str:
    """A relative URI reference for ``path``: its bytes, percent-encoded but for the characters a URI path
    may hold as they are (RFC 3986 'pchar' and '/')."""
    return quote(os.fsencode(path), safe="/!$&'()*+,;=:@")


RESULTS_DEPTH = 4  # document > runs > the run > results > a result


class SarifReporter(Reporter):
    """The document lists the rules that fired before the results, which point at them by index: the
    results wait in a temporary file, one line each, until the run ends and the rules are known."""

    def __init__(self, stream, *, color: bool = False, quiet: bool = False):
        super().__init__(stream, color=color, quiet=quiet)
        self.fired: set = set()
        self.spool = None

    def file(self, diagnostics: list, lines: dict, repo_path: str) -> None:
        if self.spool is None:
            self.spool = tempfile.TemporaryFile("w+", encoding="utf-8")
        for d in diagnostics:
            where = d.yaml_path or lines.get(d.line, "").strip()
            self.fired.add(d.code)
            self.spool.write(json.dumps({
                "ruleId": d.code,
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri(repo_path), "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": d.line, "startColumn": d.column, "endLine": d.end_line,
                                   "endColumn": d.end_column},
                    }
                }],
                "partialFingerprints": {FINGERPRINT: fingerprint(d.code, repo_path, where)},
            }) + "\n")

    def finish(self, totals) -> None:
        fired = sorted(self.fired)
        placeholder = "\u0000results\u0000"
        document = {
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {"name": "evallint", "version": __version__, "semanticVersion": __version__,
                                    "informationUri": INFORMATION_URI,
                                    "rules": [rule_descriptor(code) for code in fired]}},
                "results": [placeholder] if self.spool is not None else [],
                "columnKind": "unicodeCodePoints",
            }],
        }
        text = json_text(json.dumps(document, indent=2, ensure_ascii=False))
        if self.spool is None:
            self.stream.write(text + "\n")
            return
        head, _, tail = text.partition(" " * (2 * RESULTS_DEPTH) + json.dumps(placeholder))
        self.stream.write(head)
        index = {code: i for i, code in enumerate(fired)}
        self.spool.seek(0)
        for n, line in enumerate(self.spool):
            result = json.loads(line)
            result = {"ruleId": result["ruleId"], "ruleIndex": index[result["ruleId"]], **result}
            self.stream.write((",\n" if n else "") + indented(result, RESULTS_DEPTH))
        self.spool.close()
        self.spool = None
        self.stream.write(tail + "\n")
