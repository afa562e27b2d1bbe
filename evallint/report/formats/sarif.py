"""SARIF 2.1.0 for GitHub code scanning."""
from __future__ import annotations

import json

from evallint import __version__
from evallint.diagnostics import Severity
from evallint.report.formats.base import Reporter, RunSummary, json_text
from evallint.rules.registry import RULES

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/evallint/"
LEVELS = {"E": "error", "W": "warning", "S": "note"}


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
        "helpUri": f"{INFORMATION_URI}#{code.lower()}",
        "defaultConfiguration": {"level": LEVELS[rule.level]},
        "properties": {"tags": [rule.name]},
    }


class SarifReporter(Reporter):
    def report(self, run: RunSummary) -> None:
        fired = sorted({d.code for d in run.diagnostics})
        index = {code: i for i, code in enumerate(fired)}
        results = []
        for d in run.diagnostics:
            results.append({
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": "error" if d.severity is Severity.ERROR else "warning",
                "message": {"text": d.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": run.repo_path(d.path), "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": d.line, "startColumn": d.column, "endLine": d.end_line,
                                   "endColumn": d.end_column},
                    }
                }],
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
