"""An exception inside one file's linting becomes EV000 for that file only."""
from __future__ import annotations

import io

from evallint import lint_paths
from evallint.cli import main

VALID = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"


def test_internal_error_is_isolated(tmp_path, monkeypatch):
    from evallint.format.agentv2.suite import CaseSchema
    from evallint.rules import structure

    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "a.yaml").write_text(VALID.replace("id: a", "id: boom"))
    (tmp_path / "evals" / "b.yaml").write_text(VALID.replace("id: a", "id: 7"))
    real = structure.check_case

    def explode(case, place):
        if case.get("id") == "boom":
            raise RuntimeError("rule exploded")
        return real(case, place)

    monkeypatch.setattr(CaseSchema, "checks", (explode,))
    diagnostics = lint_paths([tmp_path])
    assert [(d.path.rsplit("/", 1)[1], d.code, d.line, d.column) for d in diagnostics] == [
        ("a.yaml", "EV000", 1, 1), ("b.yaml", "EV103", 2, 9)]
    assert "RuntimeError: rule exploded" in diagnostics[0].message

    out, err = io.StringIO(), io.StringIO()
    assert main(["--verbose", "--format", "concise", str(tmp_path)], stdout=out, stderr=err) == 2
    assert "Traceback" in err.getvalue() and "EV103" in out.getvalue()
