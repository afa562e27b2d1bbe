"""AgentV 4.42.4's own examples, linted as a user of AgentV 4.42.4 lints them: the files give no error but
the mistakes the runner makes of them.

- the one its loader shows: a prompt command naming a file that is not there, so two tests are skipped;
- the bare prompts that look like paths (``prompt: ../prompts/x.md``): AgentV 4.42.4 reads a prompt from a
  file only after ``file://`` and sends these words to the grader as its criteria (its ``grader-parser.ts``
  says so, and breaking such a path changes nothing in what the loader makes of the file);
- what the loader does not show but the run does: targets whose ``grader_target`` names no target of their file,
  llm-graders whose own ``target`` names none (the benchmark's README says its targets file holds three grader
  targets; it holds none, and each grader fails), a test's own target that the runner never uses, expected tool
  calls whose arguments are under ``input``, which the loader does not read there, an llm-grader's ``max_steps``
  and ``temperature`` without a ``target``, which the runner applies only to a grader with one, and a code-grader
  whose script is named from the folder above the one its command runs in (the eval file's: runtime/exec.ts runs
  the argv there), and an Agent Skills eval with nothing to grade by (a 'should_trigger' case, which the loader
  does not read), which the run grades with its default llm-grader against empty criteria."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from conftest import FIXTURES

from evallint import Severity, lint_paths
from evallint.config import Config

CORPUS = FIXTURES / "agentv-4.42.4-examples"
TRACE = "examples/features/tool-trajectory-advanced/evals/trace-file-demo.eval.yaml"
SDK = "examples/features/prompt-template-sdk/evals/dataset.eval.yaml"
IMPORT = "examples/features/import-claude/evals/transcript-check.EVAL.yaml"
BENCHMARK = "examples/showcase/offline-grader-benchmark/evals"


def _errors() -> list:
    diagnostics = lint_paths([CORPUS], config=Config(root=str(CORPUS)))
    return [(str(Path(d.path).relative_to(CORPUS)), d.line, d.column, d.code, d.message)
            for d in diagnostics if d.severity is Severity.ERROR]


def test_agentv_4_examples_give_only_the_mistakes_the_runner_makes_of_them():
    errors = _errors()
    bare = [e for e in errors if e[3] == "EV404"]
    assert len(bare) == 95 and len({e[0] for e in bare}) == 30
    aggregator = [e for e in bare if e[4].startswith("aggregator prompt")]  # its words are the prompt, file:// or not
    assert [e[:3] for e in aggregator] == [("examples/features/composite/evals/dataset.eval.yaml", 85, 19)]
    assert all("looks like a path, but the runner reads a prompt from a file only after 'file://'" in e[4]
               for e in bare if e not in aggregator)
    grader = "names no target in this file"
    assert [e[:4] for e in errors if e[3] != "EV404"] == [
        ("examples/features/agent-skills-evals/csv-analyzer.evals.json", 17, 7, "EV106"),
        ("examples/features/basic-jsonl/evals/dataset.jsonl", 2, 676, "EV116"),
        ("examples/features/code-grader-sdk/.agentv/targets.yaml", 4, 20, "EV511"),
        ("examples/features/file-changes-graders/.agentv/targets.yaml", 11, 20, "EV511"),
        ("examples/features/file-changes-graders/evals/dataset.eval.yaml", 52, 9, "EV115"),
        ("examples/features/file-changes-graders/evals/dataset.eval.yaml", 53, 9, "EV115"),
        (IMPORT, 11, 24, "EV408"),
        ("examples/features/latency-assertions/.agentv/targets.yaml", 4, 20, "EV511"),
        ("examples/features/local-cli/.agentv/targets.yaml", 4, 20, "EV511"),
        (SDK, 30, 31, "EV408"),
        (SDK, 50, 31, "EV408"),
        ("examples/features/tool-trajectory-advanced/.agentv/targets.yaml", 4, 20, "EV511"),
        (TRACE, 113, 13, "EV115"),
        (TRACE, 116, 13, "EV115"),
        ("examples/features/tool-trajectory-simple/.agentv/targets.yaml", 4, 20, "EV511"),
        ("examples/showcase/offline-grader-benchmark/.agentv/targets.yaml", 6, 20, "EV511"),
        *[(f"{BENCHMARK}/setup-{setup}.eval.yaml", line, 17, "EV409") for setup in "ab" for line in (17, 21, 25)],
    ]
    assert Counter(grader in e[4] for e in errors if e[3] == "EV511") == Counter({True: 7})
    assert next(e for e in errors if e[0] == IMPORT)[4] == (
        "script file 'graders/transcript-quality.ts' not found in examples/features/import-claude/evals/ (the folder "
        "the command runs in); the command fails when the grader runs")
    sdk = next(e for e in errors if e[0] == SDK)
    assert sdk[4] == ("prompt command file '../prompts/custom-grader.ts' not found (looked in: "
                      "examples/features/prompt-template-sdk/evals/, examples/features/prompt-template-sdk/, "
                      "examples/features/, examples/); the runner skips the test")
