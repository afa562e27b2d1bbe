"""GitHub workflow commands and SARIF, exactly (docs/format.md#output-formats)."""
from __future__ import annotations

import io
import json

import pytest
from conftest import FIXTURES
from runsummary import RunSummary, report

from evallint import Diagnostic, Severity
from evallint.cli import main
from evallint.report.formats.github import GithubReporter, escape_data, escape_property

GITHUB = (
    "::warning title=evallint (EV109),file=fixtures/formats/we%2Cird/suite.yaml,line=6,col=5,endLine=6,endColumn=14::"
    "fixtures/formats/we,ird/suite.yaml:6:5: EV109 unknown key 'exécution' in eval case (did you mean 'execution'?)\n"
    "::error title=evallint (EV350),file=fixtures/formats/we%2Cird/suite.yaml,line=11,col=22,endLine=11,endColumn=24::"
    "fixtures/formats/we,ird/suite.yaml:11:22: EV350 latency 'threshold' must be a finite number >= 0, found -5 "
    "(a number)\n"
    "evallint: 1 error and 1 warning in 1 file (1 file checked); GitHub shows at most 10 error and 10 warning "
    "annotations per step, every one is listed above\n"
)


def run(*argv, env=None):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def test_github_format_exact(monkeypatch):
    path = str(FIXTURES / "formats" / "we,ird" / "suite.yaml")
    assert run("--format", "github", path) == (1, GITHUB, "")


def test_github_format_is_automatic_in_actions(monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    path = str(FIXTURES / "formats" / "we,ird" / "suite.yaml")
    assert run(path) == (1, GITHUB, "")
    assert run("--format", "concise", path)[1].startswith(path + ":6:5: EV109 [warning]")


def test_github_escaping_and_multi_line_ranges():
    d = Diagnostic("EV001", Severity.ERROR, "bad: 100% wrong,\nreally\r", "a,b:c.yaml", 2, 3, 4, 5)
    out = io.StringIO()
    report(GithubReporter(out), RunSummary([d], 1, repo_paths={"a,b:c.yaml": "dir/a,b:c.yaml"}))
    first = out.getvalue().splitlines()[0]
    assert first == ("::error title=evallint (EV001),file=dir/a%2Cb%3Ac.yaml,line=2,endLine=4::"
                     "dir/a,b:c.yaml:2:3: EV001 bad: 100%25 wrong,\\nreally\\r")  # escaped before %-encoding
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25" and escape_data("a:b,c%") == "a:b,c%25"


def test_github_clean_run():
    assert run("--format", "github", str(FIXTURES / "cli" / "clean.yaml")) == (
        0, "evallint: no problems found (1 file checked)\n", "")


def sarif_of(path):
    code, out, err = run("--format", "sarif", str(path))
    return code, json.loads(out)


def test_sarif_has_what_code_scanning_requires():
    code, doc = sarif_of(FIXTURES / "formats" / "we,ird" / "suite.yaml")
    assert code == 1
    assert doc["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json" and doc["version"] == "2.1.0"
    (run_,) = doc["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "evallint" and driver["version"] and driver["informationUri"].startswith("https://")
    assert [r["id"] for r in driver["rules"]] == ["EV109", "EV350"]
    for rule in driver["rules"]:
        assert set(rule) >= {"id", "name", "shortDescription", "fullDescription", "help", "defaultConfiguration"}
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["help"]["text"]
    assert driver["rules"][0]["defaultConfiguration"] == {"level": "warning"}
    assert driver["rules"][1]["defaultConfiguration"] == {"level": "error"}
    first, second = run_["results"]
    assert first["ruleId"] == "EV109" and first["ruleIndex"] == 0 and first["level"] == "warning"
    assert second["ruleId"] == "EV350" and second["ruleIndex"] == 1 and second["level"] == "error"
    location = second["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "fixtures/formats/we,ird/suite.yaml"
    assert location["region"] == {"startLine": 11, "startColumn": 22, "endLine": 11, "endColumn": 24}
    assert second["message"]["text"] == "latency 'threshold' must be a finite number >= 0, found -5 (a number)"


def test_sarif_validates_against_the_official_schema():
    import jsonschema

    # OASIS's SARIF 2.1.0 schema (sarif-schema-2.1.0.json, as the SARIF TC publishes it)
    schema = json.loads((FIXTURES / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    for path in (FIXTURES / "formats" / "we,ird" / "suite.yaml", FIXTURES / "cli" / "clean.yaml"):
        jsonschema.validate(sarif_of(path)[1], schema)


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "github", "sarif"])
def test_only_github_and_sarif_name_files_from_the_repository_root(fmt):
    """The command finds each reported file's repository root only for the formats that show it
    (``cli.REPO_PATH_FORMATS``): a run in another format does not look for them."""
    from evallint.cli import FORMATS, REPO_PATH_FORMATS
    from evallint.report.formats import get_reporter

    assert fmt in FORMATS and set(REPO_PATH_FORMATS) <= set(FORMATS)
    d = Diagnostic("EV001", Severity.ERROR, "bad", "here/a.yaml", 2, 3, 2, 5)
    out = io.StringIO()
    report(get_reporter(fmt)(out), RunSummary([d], 1, repo_paths={"here/a.yaml": "ROOTED/a.yaml"}))
    assert ("ROOTED/a.yaml" in out.getvalue()) == (fmt in REPO_PATH_FORMATS)
