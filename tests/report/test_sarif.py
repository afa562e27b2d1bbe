"""SARIF: rule levels agree with their results, fingerprints survive line moves, the links name this
distribution."""
from __future__ import annotations

import io
import json

from conftest import FIXTURES
from runsummary import RunSummary, report

from evallint import __version__, lint_paths
from evallint.cli import main
from evallint.config import Config
from evallint.load.secrets import secret_spans
from evallint.load.yaml12 import parse_yaml
from evallint.report.formats.sarif import SarifReporter, rule_descriptor
from evallint.report.result import snippets
from evallint.rules.registry import RULES


def sarif(diagnostics, sources=None) -> dict:
    out = io.StringIO()
    report(SarifReporter(out), RunSummary(diagnostics, 1, sources or {}))
    return json.loads(out.getvalue())


def test_every_rule_level_agrees_with_its_results():
    diagnostics = lint_paths([FIXTURES / "bad"], config=Config(extend_select=("EV9",), references=False))
    run = sarif(diagnostics)["runs"][0]
    levels = {rule["id"]: rule["defaultConfiguration"]["level"] for rule in run["tool"]["driver"]["rules"]}
    assert {"EV904", "EV310", "EV109"} <= set(levels)
    for result in run["results"]:
        assert result["level"] == levels[result["ruleId"]], result["ruleId"]
    for code, rule in RULES.items():
        assert rule_descriptor(code)["defaultConfiguration"]["level"] == rule.severity.value, code
    assert levels["EV904"] == "warning"


def test_links_name_the_agentv_evallint_distribution(monkeypatch):
    monkeypatch.chdir(FIXTURES / "cli")
    out, err = io.StringIO(), io.StringIO()
    assert main(["--format", "sarif", "small.yaml"], stdout=out, stderr=err) == 1
    driver = json.loads(out.getvalue())["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://pypi.org/project/agentv-evallint/"
    assert [rule["helpUri"] for rule in driver["rules"]] == [
        f"https://github.com/agentv-evallint/evallint/blob/v{__version__}/docs/rules.md#ev109-unknown-key",
        f"https://github.com/agentv-evallint/evallint/blob/v{__version__}/docs/rules.md#ev310-invalid-trajectory-mode"]


def fingerprints(path) -> list:
    diagnostics = lint_paths([path], config=Config(references=False))
    text = path.read_text()
    results = sarif(diagnostics, {str(path): snippets(text, diagnostics, secret_spans(text, parse_yaml(text).secrets))} if diagnostics else {})
    return [(r["locations"][0]["physicalLocation"]["region"]["startLine"], r["partialFingerprints"])
            for r in results["runs"][0]["results"]]


def test_partial_fingerprints_survive_a_line_move_and_tell_findings_apart(tmp_path):
    path = tmp_path / "a.eval.yaml"
    body = "  - id: a\n    expected_outcome: g\n    input: q\n    colour: x\n  - id: b\n    expected_outcome: g\n" \
           "    input: q\n    colour: x\n"
    path.write_text("evalcases:\n" + body)
    before = fingerprints(path)
    path.write_text("# a comment\n\nevalcases:\n" + body)
    after = fingerprints(path)
    assert [line for line, _ in before] == [5, 9] and [line for line, _ in after] == [7, 11]
    assert [f for _, f in before] == [f for _, f in after]
    assert before[0][1] != before[1][1]
    assert set(before[0][1]) == {"evallint/v1"} and len(before[0][1]["evallint/v1"]) == 64
