"""The stored verdicts of AgentV 4.42.4's loader on its own examples (``runner-loaded.json``) are what the
live loader says: the oracle the differential tests read is the runner's, not a copy that drifted."""
from __future__ import annotations

import json

from agentv_runner import load_tests
from conftest import FIXTURES

CORPUS = FIXTURES / "agentv-4.42.4-examples"


def test_the_live_loader_gives_the_stored_verdicts_on_agentvs_examples():
    stored = json.loads((CORPUS / "runner-loaded.json").read_text())
    assert len(stored) == 113
    live = load_tests(CORPUS, sorted(stored))
    assert [name for name in stored if live[name] != stored[name]] == []

