"""'<<' merge keys in AgentV 4.42 files: merged as AgentV 4.42.4's YAML parser merges them, and EV015 where that
parser refuses what a merge key holds (anything but a mapping, or a list of mappings), rejecting the file."""
from __future__ import annotations

import pytest

from evallint import lint_paths
from evallint.config import Config

TEST = "tests:\n  - id: a\n    input: hi\n"
MERGES = {  # file -> (its text, what the merge holds: None when the parser merges it)
    "number.yaml": ("base: &b 42\n" + TEST + "    <<: *b\n    criteria: c\n", "a number"),
    "null.yaml": (TEST + "    <<:\n    criteria: c\n", "null"),
    "text.yaml": (TEST + "    <<: plain\n    criteria: c\n", "a string"),
    "list-of-numbers.yaml": ("base: &b [1, 2]\n" + TEST + "    <<: *b\n    criteria: c\n", "a list holding a number"),
    "list-with-a-number.yaml": ("one: &o {criteria: c}\n" + TEST + "    <<: [*o, 3]\n", "a list holding a number"),
    "mapping.yaml": (TEST + "    <<: {criteria: c}\n", None),
    "list-of-mappings.yaml": ("one: &o {criteria: c}\n" + TEST + "    <<: [*o, {vars: {x: 1}}]\n", None),
    "alias-of-a-list.yaml": ("one: &o {criteria: c}\nboth: &b [*o]\n" + TEST + "    <<: *b\n", None),
}


def ev015(path) -> list:
    return [(d.line, d.column, d.message) for d in lint_paths([path], config=Config(references=False))
            if d.code == "EV015"]


@pytest.mark.parametrize("name", sorted(MERGES))
def test_ev015_at_the_merge_key_of_what_the_parser_refuses(tmp_path, name):
    text, held = MERGES[name]
    (tmp_path / name).write_text(text)
    line = text.splitlines().index(next(line for line in text.splitlines() if line.lstrip().startswith("<<"))) + 1
    assert ev015(tmp_path / name) == ([] if held is None else [(line, 5, (
        f"merge key '<<' merges {held}, not a mapping: AgentV 4.42.4's YAML parser refuses it (\"Merge sources must "
        "be maps or map aliases\") and rejects the whole file; merge a mapping or a list of mappings"))])


def test_a_merge_is_no_ev015_in_an_agentv_2_2_file(tmp_path):
    (tmp_path / "a.yaml").write_text("evalcases:\n  - id: a\n    input: hi\n    <<: 42\n    expected_outcome: c\n")
    assert ev015(tmp_path / "a.yaml") == []


@pytest.mark.runner
def test_ev015_is_reported_exactly_where_agentv_4s_loader_refuses_the_merge(tmp_path):
    from agentv_runner import load_tests

    for name, (text, _) in MERGES.items():
        (tmp_path / name).write_text(text)
    live = load_tests(tmp_path, sorted(MERGES))
    refused = {name for name in MERGES if "Merge sources must be maps" in (live[name]["error"] or "")}
    assert refused == {name for name in MERGES if ev015(tmp_path / name)}
    assert refused == {name for name, (_, held) in MERGES.items() if held is not None}
    assert all(len(live[name]["tests"]) == 1 and live[name]["tests"][0]["criteria"] == "c"
               for name in MERGES if name not in refused)
