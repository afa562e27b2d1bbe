"""SARIF 2.1.0 for GitHub code scanning."""
from __future__ import annotations

import json
import os
from urllib.parse import quote

from evallint import __version__
from evallint.diagnostics import Severity
from evallint.report.formats.base import Reporter, RunSummary, json_text
from evallint.rules.registry import RULES

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# the distribution's page (the PyPI name ``evallint`` is another project) and the rule docs in the repository
INFORMATION_URI = "https://pypi.org/project/agentv-evallint/"
RULES_DOCS_URI = "https://github.com/your-org/evallint/blob/main/docs/rules.md"
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
        "helpUri": f"{RULES_DOCS_URI}#{code.lower()}-{rule.name}",
        "defaultConfiguration": {"level": level(rule.severity)},
        "properties": {"tags": [rule.name]},
    }


def uri(path: str) -> str:
    """A relative URI reference for ``path``: its bytes, percent-encoded but for the characters a URI path
    may hold as they are (RFC 3986 'pchar' and '/')."""
    return quote(os.fsencode(path), safe="/!$&'()*+,;=:@")


class SarifReporter(Reporter):
    def report(self, run: RunSummary) -> None:
        fired = sorted({d.code for d in run.diagnostics})
        index = {code: i for i, code in enumerate(fired)}
        results = []
        for d in run.diagnostics:
            path = run.repo_path(d.path)
            where = d.yaml_path or run.sources.get(d.path, {}).get(d.line, "").strip()
            results.append({
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri(path), "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": d.line, "startColumn": d.column, "endLine": d.end_line,
                                   "endColumn": d.end_column},
                    }
                }],
                "partialFingerprints": {FINGERPRINT: fingerprint(d.code, path, where)},
            })
        document = {
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {"name": "evallint", "version": __version__, "semanticVersion": __version__,
                                    "informationUri": INFORMATION_URI,
                                    "rules": [rule_descriptor(code) for code in fired]}},
                "results": results,
                "columnKind": "unicodeCodePoints",
            }],
        }
        self.stream.write(json_text(json.dumps(document, indent=2, ensure_ascii=False)))
        self.stream.write("\n")
