"""Property tests: whatever the input, no exception, no EV000, and every
diagnostic has a real position (line within the file, column within the line)."""
from __future__ import annotations

import random

from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evallint.config import Config
from evallint.lint import lint_bytes

CONFIG = Config(references=False, extend_select=("EV9",))
GOOD = sorted((FIXTURES / "good").rglob("*.yaml")) + sorted((FIXTURES / "corpus").rglob("evals/*.yaml"))


def assert_sane(data: bytes, name: str = "evals/p.yaml") -> None:
    result = lint_bytes(data, name, CONFIG, explicit=True, references=False)
    assert result.traceback is None, result.traceback
    text = data.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    for d in result.diagnostics:
        assert d.code != "EV000", d
        assert 1 <= d.line <= max(1, len(lines)), d
        line = lines[d.line - 1] if d.line <= len(lines) else ""
        assert 1 <= d.column <= len(line.rstrip("\r")) + 1, (d, line)
        assert (d.end_line, d.end_column) >= (d.line, d.column), d


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data):
    assert_sane(data)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=25,
)
KEYS = st.sampled_from(["id", "expected_outcome", "outcome", "input", "input_messages", "expected_output",
                        "expected_messages", "evaluators", "execution", "rubrics", "role", "content", "tool_calls",
                        "type", "name", "weight", "mode", "script", "tool", "args", "fields", "aggregator"])
SHAPED = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["x", "llm_judge", "tool_trajectory",
                                                                      "code_judge", "any", "user", "in_order"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(KEYS, children, max_size=5),
    max_leaves=30,
)


@SETTINGS
@given(st.one_of(JSONISH, SHAPED))
def test_arbitrary_yaml_from_data(value):
    import yaml

    for style in (False, True, None):
        text = yaml.safe_dump({"evalcases": [value]}, default_flow_style=style, allow_unicode=True)
        assert_sane(text.encode("utf-8"))


@SETTINGS
@given(st.integers(0, len(GOOD) - 1), st.randoms(use_true_random=False), st.integers(1, 8))
def test_mutated_good_files(index, rng: random.Random, edits):
    data = bytearray(GOOD[index].read_bytes())
    alphabet = b" \t\n:-[]{}&*!|>'\"#%@`,?0aZ\xff\x00"
    for _ in range(edits):
        if not data:
            break
        at = rng.randrange(len(data))
        action = rng.randrange(3)
        if action == 0:
            del data[at:at + rng.randrange(1, 20)]
        elif action == 1:
            data[at:at] = bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 4)))
        else:
            data[at] = rng.choice(alphabet)
    assert_sane(bytes(data))
