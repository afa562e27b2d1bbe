"""Agent Skills evals files (``evals.json``), which AgentV 4.42.4 loads from any '.json' file it is given: which
files are linted, every check at its line and column with its message, what normalize and the JSON Schema make
of one, and (runner-marked) the live loader keeping and skipping the same evals as evallint says."""
from __future__ import annotations

import io
import json
import shutil

import jsonschema
import pytest
from conftest import FIXTURES, ROOT
from golden import render

from evallint import lint_paths
from evallint.cli import main
from evallint.config import Config
from evallint.run.discovery import expand_paths

SKILLS = FIXTURES / "skills"
REJECTED = sorted(p.parent.name for p in (SKILLS / "rejected").glob("*/evals.json"))


def lint(*paths, **settings):
    return render(lint_paths(list(paths), config=Config(root=str(ROOT), **settings)), SKILLS)


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_a_skills_evals_file_as_the_runner_reads_it_is_clean():
    assert lint(SKILLS / "good") == ""


def test_every_mistake_in_an_evals_file_at_its_place_with_the_code_of_the_same_mistake_in_a_suite():
    assert lint(SKILLS / "bad").splitlines() == [
        "bad/evals/evals.json:3:3: EV109 unknown key 'skill' in Agent Skills evals file (did you mean 'skill_name'?)",
        "bad/evals/evals.json:5:60: EV401 file 'missing.txt' not found (looked in: fixtures/skills/bad/evals/); the "
        "runner gives the agent a path to nothing and fails the test when it copies the file into a workspace",
        "bad/evals/evals.json:5:106: EV110 an item of 'assertions' must be a string, found 5 (a number); the runner's "
        "llm-grader does not read it as its prompt and judges with its default prompt",
        "bad/evals/evals.json:6:25: EV105 'prompt' is an empty string; the runner skips the eval",
        "bad/evals/evals.json:7:6: EV105 eval has no 'prompt'; the runner skips it",
        "bad/evals/evals.json:7:15: EV115 unknown key 'input' in eval (did you mean 'prompt'?); the runner does not "
        "read it, so what it holds is dropped",
        "bad/evals/evals.json:8:5: EV102 an eval case must be an object with 'id' and 'prompt', found 'summarise'; "
        "the runner skips it",
        "bad/evals/evals.json:9:6: EV103 eval has no 'id'; the runner names its test 'undefined'",
        "bad/evals/evals.json:10:12: EV103 eval 'id' must be a number or a string, found a mapping; the runner names "
        "its test '[object Object]'",
        "bad/evals/evals.json:11:39: EV110 'files' must be a list of strings, found 'ab'; the runner reads each of "
        "its characters as a file name",
        "bad/evals/evals.json:11:64: EV110 'expected_output' must be a string, found 7 (a number); the runner sends "
        "it to the graders as the expected answer as it is",
        "bad/evals/evals.json:11:67: EV109 unknown key 'expected_outptu' in eval (did you mean 'expected_output'?)",
        "bad/evals/evals.json:12:44: EV110 'assertions' must be a list of strings, found a mapping; the runner "
        "ignores it",
        "bad/evals/evals.json:12:57: EV110 'files' must be a list of strings, found null; the runner ignores it",
        "bad/evals/evals.json:12:63: EV109 unknown key 'notes' in eval (known keys: assertions, expected_output, "
        "files, id, prompt, should_trigger)",
        "bad/evals/evals.json:13:12: EV104 duplicate case id '1' (first used on line 5); results of the two cases "
        "overwrite each other",
        # this eval is skipped: its 'files' and 'assertions', which would make the runner fail, are never read
        "bad/evals/evals.json:14:25: EV105 'prompt' must be a string, found 3 (a number); the runner skips the eval",
        "bad/evals/evals.json:15:6: EV106 eval has no 'expected_output' or 'assertions': the runner keeps it, but "
        "grades it with its default llm-grader against empty criteria, so its score means nothing; add either",
        "bad/evals/evals.json:16:84: EV306 an assertion is blank: the runner grades the answer with an llm-grader "
        "whose prompt is blank, so its score means nothing; write what the answer must do, or remove it",
    ]


def test_what_makes_the_runner_reject_an_evals_file():
    assert lint(SKILLS / "rejected").splitlines() == [
        "rejected/assertions-text/evals.json:1:51: EV110 'assertions' must be a list of strings, found 'one text'; "
        "the runner fails on it and rejects the file",
        "rejected/bom/evals.json:1:1: EV701 invalid JSON: Unexpected byte order mark (U+FEFF) at line 1, column 1; "
        "the runner rejects the file",
        "rejected/broken/evals.json:4:3: EV701 invalid JSON: Expecting value at line 4, column 3; the runner rejects "
        "the file",
        "rejected/empty-evals/evals.json:1:30: EV101 'evals' is an empty list; the runner rejects the file",
        "rejected/files-number/evals.json:2:38: EV401 file 'ok.txt' not found (looked in: "
        "fixtures/skills/rejected/files-number/); the runner gives the agent a path to nothing and fails the test "
        "when it copies the file into a workspace",
        "rejected/files-number/evals.json:2:48: EV110 an item of 'files' must be a string (a path from the file's "
        "folder), found 2 (a number); the runner fails on it and rejects the file",
        "rejected/no-evals/evals.json:1:2: EV101 no 'evals' list; the runner rejects the file",
        "rejected/no-evals/evals.json:1:21: EV115 unknown key 'eval' in Agent Skills evals file (did you mean "
        "'evals'?); the runner does not read it, so what it holds is dropped",
        "rejected/null-case/evals.json:1:65: EV102 an eval case must be an object with 'id' and 'prompt', found "
        "null; the runner fails on it and rejects the file",
    ]
    # a walk leaves an evals.json without 'evals' alone (another tool's); named, it is reported
    named = SKILLS / "rejected" / "not-object" / "evals.json"
    assert lint(named) == ("rejected/not-object/evals.json:1:1: EV008 the top level is a list; an Agent Skills evals "
                           "file must be an object with an 'evals' list; the runner rejects the file\n")


def test_a_walk_lints_evals_json_and_name_evals_json_and_no_other_json(tmp_path):
    (tmp_path / ".git").mkdir()
    for name in ("evals.json", "csv.evals.json", "package.json", "data.json"):
        (tmp_path / "skill" / "evals").mkdir(parents=True, exist_ok=True)
        (tmp_path / "skill" / "evals" / name).write_text('{"evals": []}\n')
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "evals.json").write_text('{"metrics": ["accuracy"]}\n')  # another tool's evals.json
    found = [path for path, _ in expand_paths([str(tmp_path)], Config(root=str(tmp_path)))]
    assert [p[len(str(tmp_path)) + 1:] for p in found] == [
        "other/evals.json", "skill/evals/csv.evals.json", "skill/evals/evals.json"]
    linted = lint_paths([tmp_path], config=Config(root=str(tmp_path)))
    assert [(d.path[len(str(tmp_path)) + 1:], d.code) for d in linted] == [
        ("skill/evals/csv.evals.json", "EV101"), ("skill/evals/evals.json", "EV101")]


def test_a_json_file_named_is_linted_when_it_holds_evals_and_left_alone_otherwise(tmp_path):
    """As the runner loads any '.json' file it is given; pre-commit names every changed file, so a JSON file
    without 'evals' (a package.json, a data file an eval names) is not reported."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "mine.json").write_text('{"evals": [{"id": 1}]}\n')
    (tmp_path / "package.json").write_text('{"name": "x", "version": [}\n')
    code, out, err = run("--no-cache", "--format", "concise", str(tmp_path / "mine.json"),
                         str(tmp_path / "package.json"))
    assert (code, out.replace(str(tmp_path) + "/", "")) == (1, "mine.json:1:13: EV105 [error] eval has no 'prompt'; "
                                                               "the runner skips it\n"
                                                               "Found 1 error in 1 file (1 file checked).\n")


def test_agentv_version_2_2_configured_still_reads_an_evals_file_as_4_42s():
    assert lint(SKILLS / "rejected" / "empty-evals", agentv_version="2.2") == (
        "rejected/empty-evals/evals.json:1:30: EV101 'evals' is an empty list; the runner rejects the file\n")


def test_normalize_prints_the_tests_the_runner_makes():
    code, out, err = run("normalize", str(SKILLS / "good" / "pdf" / "evals" / "evals.json"))
    suite = json.loads(out)
    assert (code, err) == (0, "")
    assert [(t["id"], t["criteria"], [m["content"] for m in t["input"]], [m["content"] for m in t["expected_output"]],
             [(a["type"], a["name"], a["settings"]) for a in t["assertions"]], t["input_files"], t["metadata"])
            for t in suite["tests"]] == [
        ("1", "Revenue grew 12% in the third quarter.", ["Summarise evals/files/report.txt in one sentence."],
         ["Revenue grew 12% in the third quarter."],
         [("llm-grader", "assertion-1", {"prompt": "The summary is one sentence"}),
          ("llm-grader", "assertion-2", {"prompt": "It gives the 12% growth"})], ["files/report.txt"],
         {"skill_name": "pdf"}),
        ("no-files", "It reads, summarises and fills in PDF files.", ["What does this skill do?"],
         ["It reads, summarises and fills in PDF files."], [], [], {"skill_name": "pdf"}),
    ]


def test_the_skills_schema_is_shipped_and_accepts_the_good_file_only():
    code, out, _ = run("schema", "skills")
    schema = json.loads(out)
    jsonschema.Draft7Validator.check_schema(schema)
    assert (ROOT / "evallint" / "jsonschemas" / "skills-4.42.schema.json").read_text(encoding="utf-8") == out, (
        "stale: run 'evallint schema skills --output evallint/jsonschemas/skills-4.42.schema.json'")
    validator = jsonschema.Draft7Validator(schema)
    assert validator.is_valid(json.loads((SKILLS / "good" / "pdf" / "evals" / "evals.json").read_text()))
    assert not validator.is_valid(json.loads((SKILLS / "bad" / "evals" / "evals.json").read_text()))
    assert run("schema", "skills", "--agentv-version", "2.2")[0] == 2


def test_an_editor_follows_an_evals_files_files_and_is_offered_no_suppression_comment():
    """JSON takes no comments: no quick fix writes one; 'files' lead to the files they name."""
    from evallint import api

    path = SKILLS / "good" / "pdf" / "evals" / "evals.json"
    text = path.read_text(encoding="utf-8")
    config = Config(root=str(ROOT))
    assert [(r.kind, r.value, r.at.line, r.at.column, r.leads_to.path) for r in api.references_in(text, str(path), config)] \
        == [("local_file", "files/report.txt", 8, 17, str(path.parent / "files" / "report.txt"))]
    linted = api.lint_text(text.replace('"prompt": "What', '"promt": "What'), str(path), config)
    assert (linted.kind, [(d.code, d.line, d.column) for d in linted.diagnostics]) == ("skills", [("EV105", 12, 7),
                                                                                               ("EV115", 13, 7)])
    assert api.disable_edit(text, str(path), config, linted.diagnostics[0]) is None


# what the runner prints for an eval it skips
SKIPPED = "Error: Skipping eval case "


@pytest.mark.runner
def test_the_live_loader_keeps_skips_and_rejects_as_evallint_says(tmp_path):
    """For each fixture: the runner rejects the file exactly when evallint says it does, and otherwise skips as
    many evals as evallint reports skipped (EV105, EV102) and keeps the others, with the ids normalize gives."""
    from agentv_runner import load_tests

    from evallint.api import read_eval_file

    root = tmp_path / "skills"
    shutil.copytree(SKILLS, root)
    names = sorted(str(p.relative_to(root)) for p in root.rglob("evals.json"))
    live = load_tests(root, names)
    seen = []
    for name in names:
        result = read_eval_file(root / name, root=str(root), references=True)
        rejects = any(d.message.endswith("rejects the file") for d in result.diagnostics)
        skipped = sum(d.code in ("EV105", "EV102") and not d.message.endswith("rejects the file")
                      for d in result.diagnostics)
        tests = live[name]["tests"] or []
        # the evals it says it skips are those evallint says it skips, each by the id the runner prints
        said = sorted(line[len(SKIPPED):].split(" in '")[0] for line in live[name]["logs"] if line.startswith(SKIPPED))
        assert said == sorted(f"id={d.case_id}" if d.case_id is not None else "unknown" for d in result.diagnostics
                              if d.code in ("EV105", "EV102") and not d.message.endswith("rejects the file")), name
        if not rejects:  # the evals it keeps: those it does not skip
            assert len(tests) == len(json.loads((root / name).read_text())["evals"]) - skipped, name
        assert (live[name]["error"] is not None, len([line for line in live[name]["logs"] if line.startswith(SKIPPED)])) \
            == (rejects, 0 if rejects else skipped), name
        if result.suite is not None:
            assert [t["id"] for t in tests] == [t.id for t in result.suite.tests], name
        seen.append((name, len(tests), skipped, rejects))
    assert seen == [
        ("bad/evals/evals.json", 8, 4, False), ("good/pdf/evals/evals.json", 2, 0, False),
        ("rejected/assertions-text/evals.json", 0, 0, True), ("rejected/bom/evals.json", 0, 0, True),
        ("rejected/broken/evals.json", 0, 0, True), ("rejected/empty-evals/evals.json", 0, 0, True),
        ("rejected/files-number/evals.json", 0, 0, True), ("rejected/no-evals/evals.json", 0, 0, True),
        ("rejected/not-object/evals.json", 0, 0, True), ("rejected/null-case/evals.json", 0, 0, True)]
    # EV106 and EV306: an eval with nothing to grade by is graded against empty criteria, a blank assertion by an
    # llm-grader whose prompt is blank
    nothing, blank = live["bad/evals/evals.json"]["tests"][-2:]
    assert (nothing["criteria"], nothing.get("assertions"), blank["assertions"][1]) == (
        "", None, {"name": "assertion-2", "type": "llm-grader", "prompt": " "})
