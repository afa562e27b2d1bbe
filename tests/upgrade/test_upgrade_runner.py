"""``evallint upgrade`` proved by both runners. AgentV 2.2's example files (``fixtures/corpus/agentv-examples``),
upgraded, are loaded by the live AgentV 4.42.4 loader: every case the 2.2 runner kept (``runner-normalized.json``)
is kept, with the same id, input, expected messages and criteria, the same graders (name, kind, weight and
settings, as evallint's model of 2.2 reads the original) and the same files found; and evallint reports no error
on the upgraded files that it did not report on the originals."""
from __future__ import annotations

import dataclasses
import io
import json
import shutil
from collections import Counter

import pytest

from agentv_runner import load_tests
from clirun import run_concise
from conftest import FIXTURES

CORPUS = FIXTURES / "corpus" / "agentv-examples"
pytestmark = pytest.mark.runner

# what 4.42.4's loader adds to a file block of a message: the file found and its text
FOUND = ("path", "resolvedPath", "text")
GRADERS = 145  # the graders of the cases of the corpus's YAML suites, members of composites not counted


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory):
    """(the upgraded copy of the corpus, the upgrade's exit code, its report with the copy's path taken out)."""
    from evallint.cli import main

    root = tmp_path_factory.mktemp("upgrade") / "corpus"
    shutil.copytree(CORPUS, root)
    out, err = io.StringIO(), io.StringIO()
    code = main(["upgrade", "--root", str(root), str(root)], out, err)
    return root, code, out.getvalue().replace(f"{root}/", ""), err.getvalue()


def _suites() -> dict:
    return json.loads((CORPUS / "runner-normalized.json").read_text())


def _recorded(messages, expected: bool = False) -> list:
    """Messages as ``runner-normalized.json`` records them: role, content (an input file block as written,
    without the file the loader found, which is checked apart; an expected message's content only when it is
    inline text or a mapping) and the names of the tools called."""
    out = []
    for message in messages or ():
        kept = {"role": message["role"]}
        content = message.get("content")
        if isinstance(content, list) and not expected:
            kept["content"] = [{k: v for k, v in block.items() if k not in FOUND} if isinstance(block, dict)
                               else block for block in content]
        elif isinstance(content, (str, dict)):
            kept["content"] = content
        if "tool_calls" in message:
            kept["tools"] = [call.get("tool") for call in message["tool_calls"]]
        elif "tools" in message:
            kept["tools"] = message["tools"]
        out.append(kept)
    return out


def _files_not_found(messages) -> list:
    """The file blocks of ``messages`` whose file the loader did not find."""
    return [block.get("value", block.get("path")) for message in messages or ()
            if isinstance(message.get("content"), list) for block in message["content"]
            if isinstance(block, dict) and block.get("type") == "file" and "resolvedPath" not in block]


def test_the_upgrade_reports_what_it_leaves_and_changes_every_seed_format_file(upgraded):
    """What 4.42.4 has no place for is an error and left as it is; a mistake 2.2 absorbed, which 4.42.4 absorbs
    too, is a warning."""
    root, code, report, summary = upgraded
    assert (code, summary) == (1, "evallint: 39 files upgraded; 6 errors, 13 warnings\n")
    target = ("warning: AgentV 2.2 ran this case against the suite's target, not 'azure_base', and 4.42.4 ignores a "
              "test's 'execution.target' too; to run it against that target, write 'execution.targets' (a list)")
    unread = ("warning: AgentV 2.2 did not read an expected call's 'input' (it reads 'args'), and 4.42.4 does not "
              "either; left as it is, the call matches any arguments")
    template = ("error: AgentV 4.42.4 does not read a target's 'workspace_template': write the folder as the "
                "'workspace: {template: ...}' of the eval suites run against this target, which is where 4.42.4 "
                "reads it")
    guidelines = ("error: AgentV 4.42.4 does not read 'guideline_patterns': a file these patterns match, which 2.2 "
                  "sent to the agent apart as a guideline, is sent as an ordinary file of its message")
    trace = "examples/features/tool-trajectory-advanced/evals/trace-file-demo.yaml"
    member = ("warning: AgentV 2.2 graded with a composite member's default prompt, not its 'prompt', and 4.42.4 "
              "would use it; commented out, so that it does not")
    assert report.splitlines() == [
        ".agentv/targets.yaml:6:15: error: AgentV 4.42.4 has no provider 'pi-agent-sdk': it runs the target as a "
        "provider script '.agentv/providers/pi-agent-sdk.ts', which fails when there is none; 'pi-coding-agent' and "
        "'pi-cli' run the pi agent",
        f"examples/features/.agentv/config.yaml:9:1: {guidelines}",
        f"examples/features/.agentv/targets.yaml:36:5: {template}",
        f"examples/features/.agentv/targets.yaml:42:5: {template}",
        f"examples/features/basic-jsonl/evals/dataset.jsonl:2:693: {target}",
        f"examples/features/basic/evals/dataset.yaml:74:7: {target}",
        *(f"examples/features/composite/evals/dataset.yaml:{at}: {member}" for at in (
            "27:15", "30:15", "55:15", "58:15", "82:15", "85:15", "111:19", "114:19", "122:15")),
        f"{trace}:125:15: {unread}", f"{trace}:128:15: {unread}",
        f"examples/showcase/.agentv/config.yaml:15:1: {guidelines}",
        f"examples/showcase/.agentv/targets.yaml:27:5: {template}"]


def test_agentv_4_resolves_every_upgraded_target(upgraded):
    """Each target of the upgraded targets files resolves with the live 4.42.4 runner, and what its validator
    still says is what the upgrade reported as left (a target's workspace_template, an unknown provider)."""
    from agentv_runner import read_targets

    root = upgraded[0]
    files = sorted(str(p.relative_to(root)) for p in root.rglob("targets.yaml"))
    live = read_targets(root, files)
    failed = [(f, t["name"], t["error"]) for f in files for t in live[f]["targets"] if "error" in t]
    said = Counter(v["message"].split(".")[0] for f in files for v in live[f]["validate"])
    assert (len(files), [f for f in files if live[f]["error"]], failed, said) == (8, [], [], Counter({
        "workspace_template has been removed from targets": 3, "Unknown provider 'pi-agent-sdk'": 1}))


def test_agentv_4_keeps_every_case_agentv_2_kept_with_the_same_content(upgraded):
    root = upgraded[0]
    suites = _suites()
    live = load_tests(root, sorted(suites))
    kept, lost, differ = 0, [], []
    for name, cases in suites.items():
        tests = {t["id"]: t for t in live[name]["tests"] or ()}
        assert live[name]["error"] is None, name
        assert [t["id"] for t in live[name]["tests"]] == [c["id"] for c in cases], name
        for case in cases:
            test = tests.get(case["id"])
            if test is None:
                lost.append((name, case["id"]))
                continue
            kept += 1
            same = (_recorded(test["input"]) == _recorded(case["input_messages"])
                    and _recorded(test.get("expected_output"), True) == _recorded(case.get("expected_messages"), True)
                    and (test.get("criteria") or None) == (case.get("expected_outcome") or None)
                    and _files_not_found(test["input"]) + _files_not_found(test.get("expected_output")) == [])
            if not same:
                differ.append((name, case["id"]))
    assert (kept, lost, differ) == (117, [], [])


def _grader_settings(old: dict) -> dict:
    """A 2.2 evaluator of evallint's model, as 4.42.4's loader shows the same grader."""
    from evallint.upgrade.spellings import KINDS

    kind = old["type"]
    new = {"name": old["name"], "type": KINDS[kind], "weight": old["weight"]}
    if kind == "code_judge":
        new["command"] = list(old["script"])
        if old["target"] is not None:
            new["target"] = old["target"]
    elif kind == "llm_judge" and old["prompt"] is not None:
        new["prompt"] = old["prompt"]
    elif kind == "rubric":
        new["type"] = "llm-grader"
        new["rubrics"] = [{"id": r["id"], "outcome": r["description"], "weight": r["weight"], "required": r["required"]}
                          for r in old["rubrics"]]
    elif kind == "tool_trajectory":
        new["mode"] = old["mode"]
        if old["minimums"]:
            new["minimums"] = old["minimums"]
        if old["expected"]:
            new["expected"] = [{"tool": e["tool"], **({"args": e["args"]} if e["args"] is not None else {})}
                               for e in old["expected"]]
        if any(isinstance(e["args"], dict) for e in old["expected"]):
            new["args_match"] = "superset"  # how 2.2 matched written args: each as the call has it, others free
    elif kind == "field_accuracy":
        new["aggregation"] = old["aggregation"] or "weighted_average"  # both graders' default
        new["fields"] = [_field(f) for f in old["fields"]]
    elif kind == "composite":
        # 2.2 gave a member none of its own settings: an llm_judge member ran the default prompt, unless a rubric
        new["assertions"] = [_grader_settings({**member, "prompt": None, "rubrics": []} if member["type"] == "llm_judge"
                                              else member) for member in old["evaluators"]]
        aggregator = {k: v for k, v in old["aggregator"].items() if v not in (None, {}) and k != "model"}
        aggregator["type"] = {"code_judge": "code-grader", "llm_judge": "llm-grader"}.get(aggregator["type"],
                                                                                           aggregator["type"])
        new["aggregator"] = aggregator
    elif kind in ("latency", "cost"):
        new.update({k: v for k, v in old.items() if k in ("threshold", "budget")})
    return new


def _field(spec: dict) -> dict:
    """A field of a field-accuracy grader, its unset settings given the values both runners' graders use
    (required, weight 1, not relative) and the empty ones left out."""
    return {"required": True, "weight": 1.0, "relative": False,
            **{k: v for k, v in spec.items() if v is not None and v != [] and v != ()}}


def _loaded_settings(grader: dict) -> dict:
    """What of a loaded grader ``_grader_settings`` compares: what the file says, not where its files are."""
    out = {k: v for k, v in grader.items() if k not in ("cwd", "resolvedCwd", "resolvedScriptPath", "promptPath",
                                                        "resolvedPromptPath", "config")}
    out.setdefault("weight", 1.0)  # the weight a grader has when its file gives none, in both runners
    if "argsMatch" in out:  # the loader's spelling of the file's args_match
        out["args_match"] = out.pop("argsMatch")
    if "assertions" in out:
        out["assertions"] = [_loaded_settings(member) for member in out["assertions"]]
    if "aggregator" in out:
        out["aggregator"] = {k: v for k, v in out["aggregator"].items() if k not in ("cwd", "promptPath")}
    if "fields" in out:
        out["fields"] = [_field(f) for f in out["fields"]]
        out.setdefault("aggregation", "weighted_average")
    return out


def test_agentv_4_reads_every_grader_as_agentv_2_read_it(upgraded):
    from evallint.api import read_eval_file

    root = upgraded[0]
    names = [name for name in sorted(_suites()) if name.endswith(".yaml")]
    live = load_tests(root, names)
    graders = differ = 0
    for name in names:
        suite = read_eval_file(str(CORPUS / name), root=str(CORPUS)).suite
        tests = {t["id"]: t for t in live[name]["tests"]}
        for case in suite.cases:
            old = [_grader_settings(json.loads(json.dumps(dataclasses.asdict(e)))) for e in case.evaluators]
            new = [_loaded_settings(g) for g in tests[case.id].get("assertions") or ()]
            graders += len(old)
            if old != new:
                differ += 1
                print(name, case.id, json.dumps(old), json.dumps(new), sep="\n")
    assert (graders, differ) == (GRADERS, 0)


def test_the_upgraded_files_have_no_error_the_originals_did_not_have_but_a_provider_agentv_4_lacks(upgraded):
    """One new error is the runner's: the targets file, which the upgrade leaves as it is, names the provider
    'pi-agent-sdk', which AgentV 4.42.4 no longer has, so the upgraded suite's default target runs a provider
    script that is not there (EV409)."""
    from evallint import Severity, lint_paths
    from evallint.config import Config

    root = upgraded[0]

    def errors(folder) -> Counter:
        return Counter((str(d.path).replace(f"{folder}/", ""), d.code)
                       for d in lint_paths([folder], config=Config(root=str(folder)))
                       if d.severity is Severity.ERROR)

    assert errors(root) - errors(CORPUS) == Counter({("evals/architecture/dataset.yaml", "EV409"): 1})


def test_a_second_upgrade_changes_nothing(upgraded):
    """Upgraded files read as AgentV 4.42.4's and are left alone, and so are the config files, which the upgrade
    could not change: the upgraded suites they serve make them AgentV 4.42.4's, whose lint says what it no longer
    reads."""
    from evallint.cli import main

    root = upgraded[0]
    out, err = io.StringIO(), io.StringIO()
    code = main(["upgrade", "--diff", "--root", str(root), str(root)], out, err)
    assert (code, out.getvalue(), err.getvalue()) == (0, "", "evallint: 0 files would be upgraded; 0 errors, 0 warnings\n")
    configs = ("examples/features/.agentv/config.yaml", "examples/showcase/.agentv/config.yaml")
    code, out, _ = run_concise(root, "--no-cache", "--root", str(root), *configs)
    assert (code, [line.split(" (did you mean")[0] for line in out.splitlines()]) == (0, [
        f"{configs[0]}:9:1: EV603 [warning] unknown key 'guideline_patterns' in config.yaml",
        f"{configs[1]}:15:1: EV603 [warning] unknown key 'guideline_patterns' in config.yaml"])


def test_a_dataset_line_runs_its_own_graders_once(tmp_path):
    """A JSONL line with evaluators of its own, upgraded: AgentV 4.42.4 loads each of its graders once, as 2.2
    ran them (without 'skip_defaults' it adds the line's execution's evaluators after the line's own again)."""
    from evallint.cli import main

    (tmp_path / ".git").mkdir()
    (tmp_path / "d.yaml").write_text("dataset: d\n")
    (tmp_path / "d.jsonl").write_text(
        '{"id": "b", "expected_outcome": "x", "rubrics": ["Is short"], "input_messages": "hi", '
        '"execution": {"evaluators": [{"name": "c", "type": "latency", "threshold": 2}]}}\n')
    main(["upgrade", "--root", str(tmp_path), str(tmp_path)], io.StringIO(), io.StringIO())
    live = load_tests(tmp_path, ["d.jsonl"])["d.jsonl"]
    assert [(g["name"], g["type"]) for g in live["tests"][0]["assertions"]] == [
        ("rubric", "llm-grader"), ("c", "latency")]


def test_the_seed_format_fixtures_keep_their_cases_or_the_upgrade_says_why(tmp_path):
    """evallint's own AgentV 2.2 fixtures that must not trigger their rule (``fixtures/good/rules``), upgraded and
    loaded by the live 4.42.4 loader: each keeps every case that evallint's model of 2.2 keeps (a model that
    agrees with the 2.2 runner on its single-mistake variants), or the upgrade reports an error on that file."""
    from evallint.api import read_eval_file
    from evallint.cli import main
    from evallint.lint import lint_file
    from evallint.config import Config

    root = tmp_path / "good"
    shutil.copytree(FIXTURES / "good" / "rules", root / "rules")
    (root / ".git").mkdir()
    kept = {}
    for path in sorted((root / "rules").iterdir()):
        result = lint_file(str(path), Config(root=str(root)))
        if result.kind in ("eval", "dataset") and result.version == "2.2":
            suite = read_eval_file(str(path), root=str(root)).suite
            kept[str(path.relative_to(root))] = [case.id for case in suite.cases]
    out, err = io.StringIO(), io.StringIO()
    main(["upgrade", "--root", str(root), str(root)], out, err)
    reported = {line.split(":")[0] for line in out.getvalue().replace(f"{root}/", "").splitlines()
                if ": error: " in line}
    live = load_tests(root, sorted(kept))
    lost = [name for name, ids in kept.items()
            if [t["id"] for t in live[name]["tests"] or ()] != ids and name not in reported]
    assert (len(kept), sum(map(len, kept.values())), lost) == (87, 172, [])
