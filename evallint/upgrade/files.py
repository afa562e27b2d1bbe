"""One file's upgrade: read it as lint reads it, plan its changes by its kind, apply the ones whose result
reads back as declared, and say where each note is."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

from evallint.config import Config
from evallint.diagnostics import Span
from evallint.load.positions import Index
from evallint.suggest import quote
from evallint.upgrade.edits import Document
from evallint.upgrade.plan import ERROR, Plan, apply, note_references

OLD_VERSION, NEW_VERSION = "2.2", "4.42"
FILE_KINDS = ("eval", "dataset", "sidecar", "targets", "config")  # the kinds of file lint tells that it rewrites


@dataclass
class Upgraded:
    """A file rewritten for AgentV 4.42.4: its text before and after, and the notes on what changed."""

    path: str
    before: str
    after: str
    raw: bytes  # the file's bytes as read: it is written only if they are still what it holds
    bom: bool = False
    notes: list = field(default_factory=list)  # (line, column, level, message), 1-based
    templates: list = field(default_factory=list)  # the prompt templates whose variables get 4.42.4's names

    @property
    def changed(self) -> bool:
        return self.after != self.before


def _document(kind: str, text: str) -> tuple:
    """(the Document of ``text``, None) or (None, (line, column, why it is not upgraded))."""
    if kind == "dataset":
        from evallint.load.jsonl import parse_jsonl

        dataset = parse_jsonl(text)
        return Document(text, {"evalcases": dataset.cases}, Index(dataset.root()), jsonl=True, parsed=dataset), None
    from evallint.load.yaml12 import parse_yaml

    parsed = parse_yaml(text)
    if not parsed.ok:
        finding = parsed.findings[-1]
        at = finding.span or Span(0, 0, 0, 0)
        return None, (at.line + 1, at.column + 1, f"the file does not parse as YAML ({finding.code}: "
                                                  f"{finding.message}); not upgraded")
    if parsed.merges:
        return None, (1, 1, "the file uses '<<' merge keys, which AgentV 2.2 read as a plain key and 4.42.4 merges; "
                            "not upgraded: write the merged keys out first")
    return Document(text, parsed.data, Index(parsed.root), parsed=parsed), None


def _verifier(doc: Document):
    """The check of an upgraded text: it reads back as the document with exactly the fixes' changes made."""
    if doc.jsonl:
        from evallint.load.jsonl import parse_jsonl
        from evallint.report.fixcheck import changed_otherwise

        def verify(text: str, fixes: list) -> Optional[str]:
            after = parse_jsonl(text)
            if len(after.findings) > len(doc.parsed.findings):
                return "a line would no longer read as JSON"
            return changed_otherwise(doc.data, {"evalcases": after.cases}, fixes)
        return verify
    from evallint.report.fixcheck import check

    return lambda text, fixes: check(doc.parsed, text, fixes)


def _plan(kind: str, doc: Document, path: str, root: str) -> tuple:
    """(the plan, the prompt templates its graders read that need 4.42.4's variable names)."""
    from evallint.upgrade.plan_project import plan_config, plan_targets
    from evallint.upgrade.plan_suite import Where, plan_dataset, plan_sidecar, plan_suite

    plan, where = Plan(doc), Where(path, root)
    {"eval": plan_suite, "dataset": plan_dataset, "sidecar": plan_sidecar, "targets": plan_targets,
     "config": plan_config}[kind](plan, where)
    if kind != "targets":  # AgentV 4.42.4 resolves a target's references setting by setting, as 2.2 did
        note_references(plan)
    return plan, where.templates


def _where(change: tuple) -> tuple:
    """The path a refused change is reported at: what it changes, or the mapping a new key goes in."""
    kind, path, arg = change
    if kind == "all":
        return _where(arg[0])
    return path[:-1] if kind in ("insert", "insert_before") else path


def with_partners(paths: list) -> list:
    """``paths`` and, beside each dataset, its sidecar (beside each sidecar, its dataset), each once: AgentV
    4.42.4 rejects a dataset whose sidecar names a judge of 2.2, and skips the lines of a 2.2 dataset."""
    import os

    from evallint.load.files import YAML_SUFFIXES

    out: dict = {}
    for path in paths:
        stem = os.path.splitext(path)[0]
        partners = [stem + suffix for suffix in YAML_SUFFIXES] if path.endswith(".jsonl") else \
            [stem + ".jsonl"] if path.endswith(YAML_SUFFIXES) else []
        for each in [path] + [p for p in partners if os.path.isfile(p)]:
            out.setdefault(os.path.realpath(each), each)
    return list(out.values())


def upgrade_file(path: str, config: Config) -> Optional[Upgraded]:
    """The upgrade of the file at ``path``; None when it is no AgentV 2.2 file the upgrade rewrites."""
    from evallint.lint import lint_file

    result = lint_file(path, config)
    source = result.source
    if result.kind not in FILE_KINDS or source is None:
        return None
    out = Upgraded(path, source.text, source.text, source.raw, source.bom)
    doc, why = _document(result.kind, source.text)
    if result.version != OLD_VERSION and doc is not None:
        return None  # a file of AgentV 4.42.4 (or one whose version nothing tells, unread)
    if doc is None:
        line, column, message = why
        out.notes.append((line, column, ERROR, message))
        return out
    plan, templates = _plan(result.kind, doc, path, result.root or config.root_of(path))
    out.after, _, refused = apply(plan, _verifier(doc))
    out.templates = templates
    untold = [plan.told.get(id(fix)) for fix, _ in refused]
    notes = [(doc.index.locate(n.path, n.target), n.level, n.message) for n in plan.notes if n not in untold]
    notes += [(doc.index.locate(_where(fix.change), "key"), ERROR, f"{fix.description} is left out: {why}")
              for fix, why in refused]
    out.notes = sorted((span.line + 1, span.column + 1, level, message) for span, level, message in notes)
    out.notes += _new_errors(result, out.after, config)
    return out


def _new_errors(result, text: str, config: Config) -> list:
    """The errors AgentV 4.42.4's rules find in the upgraded text beyond those 2.2's found in the original
    (by code, in the file's order), as notes: what 4.42.4 will refuse that the upgrade cannot write otherwise.
    References are not followed: the prompt templates an upgrade rewrites are read later, and a file 2.2
    found is there for 4.42.4 too."""
    from collections import Counter

    from evallint.diagnostics import Severity
    from evallint.lint import lint_source
    from evallint.load.source import Source

    after = lint_source(Source(text, result.source.bom), result.path, result.kind,
                        replace(config, agentv_version=NEW_VERSION, references=False), root=result.root)
    errors = [d for d in after.diagnostics if d.severity is Severity.ERROR]
    more = Counter(d.code for d in errors) - Counter(d.code for d in result.diagnostics
                                                     if d.severity is Severity.ERROR)
    notes = []
    for d in errors:
        if more[d.code] > 0:
            more[d.code] -= 1
            notes.append((d.line, d.column, ERROR, f"after the upgrade, {d.code}: {d.message}"))
    return notes


def upgrade_template(path: str) -> Optional[Upgraded]:
    """A prompt template with its AgentV 2.2 variables written under their 4.42.4 names."""
    from evallint.load.source import Source, read_source
    from evallint.upgrade.prompts import upgraded_template

    source = read_source(path)
    if not isinstance(source, Source):
        return Upgraded(path, "", "", b"", notes=[(1, 1, ERROR, f"the prompt template {quote(path)} cannot be read: "
                                                              f"{source.message}")])
    return Upgraded(path, source.text, upgraded_template(source.text), source.raw, source.bom)
