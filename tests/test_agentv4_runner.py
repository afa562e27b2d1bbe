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
