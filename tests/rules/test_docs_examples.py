"""The AgentV 4.42 example of a rule's documentation has the mistake the rule reports, and its fix has not: each is
linted as the file its first line names ('# file: PATH', else evals/example.eval.yaml), beside the files its second
line names ('# with: PATH, ...'), in a repository of nothing else."""
from __future__ import annotations

import re

import pytest
from clirun import run_concise

from evallint.rules import docs

BLOCK = re.compile(r"```(?:yaml|json)\n(.*?)```", re.S)
# what a file the example needs holds, by its ending
WITH = {".md": "Grade {{ output }} against {{ expected_output }}.\n", ".py": "import sys\nsys.stdin.read()\n",
        ".sh": "#!/bin/sh\ncat >/dev/null\n"}
TARGETS = "targets:\n  - {name: default, provider: mock}\n"
EXAMPLES = sorted((code, parts["Example (AgentV 4.42)"], parts["Fix (AgentV 4.42)"])
                  for code, parts in docs.sections().items() if "Example (AgentV 4.42)" in parts)


def _codes(tmp_path, part: str) -> set:
    """The codes evallint reports on the one code block of ``part``, written as its first lines say."""
    (block,) = BLOCK.findall(part)
    lines = block.splitlines(keepends=True)
    path = "evals/example.eval.yaml"
    if lines and lines[0].startswith("# file: "):
        path = lines.pop(0)[len("# file: "):].strip()
    needed = []
    if lines and lines[0].startswith("# with: "):
        needed = [p.strip() for p in lines.pop(0)[len("# with: "):].split(",")]
    (tmp_path / ".git").mkdir(parents=True)
    for name in needed:
        file = tmp_path / name
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(TARGETS if name.endswith("targets.yaml") else WITH.get(file.suffix, ""))
        if file.suffix in (".py", ".sh"):
            file.chmod(0o755)
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_text("".join(lines))
    _, out, _ = run_concise(tmp_path, "--no-cache", "--agentv-version", "4.42", "--select", "ALL", path)
    return set(re.findall(r": (EV\d{3}) \[", out))


@pytest.mark.parametrize(("code", "example", "fix"), EXAMPLES, ids=[code for code, _, _ in EXAMPLES])
def test_a_rules_agentv4_example_has_its_mistake_and_its_fix_has_not(tmp_path, code, example, fix):
    assert code in _codes(tmp_path / "example", example)
    assert code not in _codes(tmp_path / "fix", fix)
