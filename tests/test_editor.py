"""For editors: JSON Schema export, normalize, and the generated rule docs."""
from __future__ import annotations

import io
import json
import os
import re

import jsonschema
import pytest
from conftest import FIXTURES, ROOT
from golden import lint_fixture

from evallint import __version__
from evallint.cli import main
from evallint.config import Config
from evallint.format.agentv2.jsonschema import SCHEMAS
from evallint.format.agentv4.jsonschema import SCHEMAS as SCHEMAS_4
from evallint.lint import lint_file
from evallint.load.case_files import folder_case
from evallint.load.source import read_source
from evallint.load.yaml12 import parse_yaml
from evallint.rules import docs
from evallint.rules.registry import RULES
from evallint.run.discovery import expand_paths

VALIDATORS = {kind: jsonschema.Draft7Validator(make()) for kind, make in SCHEMAS.items()}
VALIDATORS_4 = {kind: jsonschema.Draft7Validator(make()) for kind, make in SCHEMAS_4.items()}


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
@pytest.mark.parametrize("version,suffix", [("2.2", ""), ("4.42", "-4.42")])
def test_schema_is_valid_draft_07_and_shipped(kind, version, suffix):
    code, out, _ = run("schema", kind, "--agentv-version", version)
    schema = json.loads(out)
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert f"/v{__version__}/{'evallint/jsonschemas'}/{kind}{suffix}.schema.json" in schema["$id"]
    shipped = (ROOT / "evallint" / "jsonschemas" / f"{kind}{suffix}.schema.json").read_text(encoding="utf-8")
    assert shipped == out, ("stale: run 'evallint schema KIND --agentv-version VERSION --output "
                            "evallint/jsonschemas/KIND[-VERSION].schema.json'")


def test_agentv_4_examples_meet_the_4_42_schema_but_where_evallint_reports_a_key():
    """The 4.42 schema accepts AgentV's own example suites, but for the three where a key the runner does not
    read is written (an assertion's 'id', a test's 'execution.target', an expected call's 'input')."""
    from evallint.format.agentv4.jsonschema import eval_schema
    from evallint.load.yaml12 import merge_keys

    validator = jsonschema.Draft7Validator(eval_schema())
    corpus = ROOT / "fixtures" / "agentv-4.42.4-examples"
    rejected = []
    for name in sorted(json.loads((corpus / "runner-loaded.json").read_text())):
        if name.endswith((".yaml", ".yml")):
            parsed = parse_yaml((corpus / name).read_text(encoding="utf-8"))
            merge_keys(parsed)
            if not validator.is_valid(parsed.data):
                rejected.append(name)
    assert rejected == ["examples/features/autoresearch/EVAL.yaml", "examples/features/basic/evals/dataset.eval.yaml",
                        "examples/features/tool-trajectory-advanced/evals/trace-file-demo.eval.yaml"]


def test_every_property_has_a_title_and_description():
    def walk(node, where):
        if isinstance(node, dict):
            for name, prop in node.get("properties", {}).items():
                if "$ref" not in prop:
                    assert prop.get("title") and prop.get("description"), f"{where}.{name}"
            for key, value in node.items():
                if key != "if":  # a condition, not a documented property
                    walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}[{i}]")

    for kind, make in SCHEMAS.items():
        walk(make(), kind)


def documents():
    out = []
    for path, explicit in expand_paths([str(FIXTURES / "good"), str(FIXTURES / "corpus")], Config()):
        result = lint_file(path, Config(references=False), explicit=explicit)
        # a folder of tests' case file is one test, which no JSON Schema of a whole file describes
        if result.kind in VALIDATORS and not folder_case(path, str(ROOT), Config().max_bytes):
            out.append((path, result.kind, result.version))
    return out


# the corpus's mistakes that the JSON Schema can say too: arguments under 'input' in expected calls (EV115)
SCHEMA_MISTAKES = {
    "trace-file-demo.yaml": [
        f"['evalcases', {case}, 'execution', 'evaluators', 0, 'expected', {call}]: Additional properties are not "
        "allowed ('input' was unexpected)" for case, call in ((3, 0), (3, 1))],
}


@pytest.mark.parametrize("path,kind,version", documents(), ids=lambda v: str(v).rsplit("fixtures/", 1)[-1])
def test_good_files_and_the_corpus_validate(path, kind, version):
    """Each against the JSON Schema of its kind in the format of the AgentV version it is read as."""
    data = parse_yaml(read_source(path).text).data
    validator = (VALIDATORS_4 if version == "4.42" else VALIDATORS)[kind]
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
    assert errors == SCHEMA_MISTAKES.get(os.path.basename(path), [])


def error_paths(errors) -> set:
    out = set()
    for error in errors:
        out.add(tuple(error.absolute_path))
        out |= error_paths(error.context or [])
    return out


def yaml_path_parts(text: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.findall(r"[^.\[\]]+", text))


# schema-expressible rules: wrong enum, wrong type, missing required key, negative number, unknown key
EXPRESSIBLE = ["EV103", "EV106", "EV109", "EV201", "EV301", "EV305", "EV310", "EV341", "EV342", "EV350", "EV351",
               "EV506", "EV513", "EV603"]
KEY_CODES = {"EV109", "EV506", "EV603"}


@pytest.mark.parametrize("code", EXPRESSIBLE)
def test_bad_fixtures_fail_validation_where_evallint_reports(code):
    (path,) = [p for p in sorted((FIXTURES / "bad").glob(f"{code}_*.yaml"))][:1]
    diagnostics = [d for d in lint_fixture(path) if d.code == code]
    assert diagnostics
    result = lint_file(str(path), Config(references=False))
    data = parse_yaml(read_source(str(path)).text).data
    paths = error_paths(VALIDATORS[result.kind].iter_errors(data))
    for d in diagnostics:
        where = yaml_path_parts(d.yaml_path)
        assert where in paths or (code in KEY_CODES and where[:-1] in paths), (d.yaml_path, sorted(paths))


# the files show precedence: a shadowed alias (EV108), a case's evaluators list (EV113) or target (EV116) is
# an error, and the suite is printed all the same, as the runner runs it
NORMALIZE_ERRORS = {
    "aliases": ["aliases.yaml:9:5: EV108", "aliases.yaml:11:5: EV108", "aliases.yaml:15:5: EV108"],
    "shorthands": [],
    "evaluators": ["evaluators.yaml:23:5: EV113", "evaluators.yaml:26:7: EV116"],
}


@pytest.mark.parametrize("name", ["aliases", "shorthands", "evaluators"])
def test_normalize_output(name, monkeypatch):
    monkeypatch.chdir(FIXTURES / "normalize")
    code, out, err = run("normalize", f"{name}.yaml")
    assert [line.split(" ", 2)[0] + " " + line.split(" ", 2)[1] for line in err.splitlines()] == NORMALIZE_ERRORS[name]
    assert code == (1 if NORMALIZE_ERRORS[name] else 0)
    assert out == (FIXTURES / "normalize" / f"{name}.json").read_text(encoding="utf-8")


def test_normalize_yaml_and_errors(monkeypatch):
    monkeypatch.chdir(FIXTURES / "normalize")
    code, out, _ = run("normalize", "--format", "yaml", "shorthands.yaml")
    assert code == 0 and out.startswith("path: shorthands.yaml\ncases:\n- id: structured-output\n")
    code, out, err = run("normalize", str(FIXTURES / "bad" / "EV310_invalid_trajectory_mode.yaml"))
    assert code == 1 and out == "" and " EV310 " in err


def test_normalize_prints_a_suite_whose_only_mistakes_run_as_written(tmp_path, monkeypatch):
    """A warning's value is left out of the suite, as the runner uses its default in its place (a YAML 1.1 word for
    the boolean that default is) or never reads it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.eval.yaml").write_text("tests:\n  - id: t\n    input: hi\n    criteria: c\n    assertions:\n"
                                          "      - {type: contains, value: answer, negate: no}\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run("normalize", "a.eval.yaml")
    assert (code, err) == (0, "")
    assert json.loads(out)["tests"][0]["assertions"][0]["negate"] is False


TAKES = ("normalize takes an eval suite (YAML with an 'evalcases' list, or a 'tests' list for AgentV 4.42.4), "
         "a JSONL dataset or an Agent Skills evals file (JSON with an 'evals' list)")


@pytest.mark.parametrize("path, kind", [
    ("good/rules/.agentv/targets.yaml", "a targets file"),
    ("bad/EV505_missing_provider.yaml", "a targets file"),
    ("bad/EV603_unknown_config_key.yaml", "an AgentV config file ('.agentv/config.yaml')"),
    ("good/rules/EV703_invalid_sidecar/dataset.yaml", "a dataset's sidecar (the settings of the .jsonl file beside it)"),
])
def test_normalize_names_the_kind_of_file_it_does_not_take(path, kind, monkeypatch):
    monkeypatch.chdir(FIXTURES)
    assert run("normalize", path) == (1, "", f"{path}: {kind}, not an eval file; {TAKES}\n")


def test_rules_docs_are_current():
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == docs.markdown(), \
        "stale: run 'python -m evallint.rules.docs'"


def test_every_code_has_docs_and_every_docs_section_a_code():
    sections = docs.sections()
    assert set(sections) == set(RULES)
    for code, parts in sections.items():
        assert list(parts) in (list(docs.PARTS), list(docs.PARTS + docs.LATER_PARTS)), code
        assert all(parts[p].strip() for p in docs.PARTS), code
        assert parts["Example"].count("```") >= 2 and parts["Fix"].count("```") >= 2, code


def test_rule_command_prints_the_docs_section():
    for code in ("EV310", "EV512", "EV904"):
        assert run("rule", code) == (0, docs.render(RULES[code]), "")
        assert docs.render(RULES[code]) in docs.markdown()
    assert run("rule", "invalid-trajectory-mode") == run("rule", "EV310")  # a rule's name finds it too


def test_normalize_prints_an_agentv_4_suite_as_its_runner_loads_it(tmp_path):
    (tmp_path / "a.eval.yaml").write_text("input: Be brief.\ntests:\n  - id: greet\n    criteria: Greets.\n"
                                          "    input: Hello\n    assertions: [{type: contains, value: hi}]\n")
    code, out, err = run("normalize", str(tmp_path / "a.eval.yaml"))
    suite = json.loads(out)
    (test,) = suite["tests"]
    assert (code, err) == (0, "") and test["id"] == "greet" and test["criteria"] == "Greets."
    assert [(m["role"], m["content"]) for m in test["input"]] == [("user", "Be brief."), ("user", "Hello")]
    assert [(a["type"], a["name"]) for a in test["assertions"]] == [("contains", "contains-hi")]
    code, out, err = run("normalize", "--agentv-version", "2.2", str(tmp_path / "a.eval.yaml"))
    assert (code, out) == (1, "") and " EV101 no 'evalcases' list" in err
