"""The stored verdicts of AgentV 4.42.4's loader, on its own examples (``runner-loaded.json``) and on
single-mistake variants of them (``fixtures/agentv-4.42.4-mutants``), are what the live loader says: the
oracle the differential tests read is the runner's, not a copy that drifted."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from agentv_runner import load_tests, require_runner
from conftest import FIXTURES, ROOT

CORPUS = FIXTURES / "agentv-4.42.4-examples"
pytestmark = pytest.mark.runner


def test_the_live_loader_gives_the_stored_verdicts_on_agentvs_examples():
    stored = json.loads((CORPUS / "runner-loaded.json").read_text())
    assert len(stored) == 113
    live = load_tests(CORPUS, sorted(stored))
    assert [name for name in stored if live[name] != stored[name]] == []



def test_the_live_loader_gives_the_stored_verdicts_on_the_single_mistake_variants():
    """``tests/agentv/mutants.py --check``: every variant made again and loaded by the live loader."""
    require_runner()
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "agentv" / "mutants.py"), "--check"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr


def test_every_case_agentv_4_skips_in_a_seed_format_suite_is_an_error_when_read_as_4_42():
    """AgentV 2.2's example suites, read with agentv-version 4.42: the live 4.42.4 loader keeps 3 of their 110
    cases, and each case it skips gets an error from evallint (a case written with 'input_messages', which
    4.42.4 does not read: EV105 and EV115), so a team sees before upgrading which cases it would lose."""
    from evallint import Severity, lint_paths
    from evallint.config import Config
    from evallint.load.yaml12 import parse_yaml

    corpus = FIXTURES / "corpus" / "agentv-examples"
    names = [n for n in sorted(json.loads((corpus / "runner-normalized.json").read_text())) if n.endswith(".yaml")]
    live = load_tests(corpus, names)
    cases = kept = 0
    unreported = []
    for name in names:
        ids = [c.get("id") for c in parse_yaml((corpus / name).read_text(encoding="utf-8")).data["evalcases"]]
        loaded = {t["id"] for t in live[name]["tests"] or ()}
        erred = {d.case_id for d in lint_paths([corpus / name], config=Config(root=str(corpus), agentv_version="4.42"))
                 if d.severity is Severity.ERROR}
        cases, kept = cases + len(ids), kept + len(loaded)
        unreported += [(name, i) for i in ids if i not in loaded and i not in erred]
    assert (len(names), cases, kept, unreported) == (20, 110, 3, [])
