"""The quick read of a YAML file for the strings it holds (``yaml_skim``), and what the suites around a file name
read so."""
from __future__ import annotations

from clirun import run_concise
from evallint.load.yaml_skim import skim


def test_every_scalar_is_its_text_but_a_null():
    assert skim("a: [1, yes, 2024-01-01, 0o17, 'x']\nb: ~\nc:\nd: null\n") == {
        "a": ["1", "yes", "2024-01-01", "0o17", "x"], "b": None, "c": None, "d": None}


def test_an_alias_is_its_node_read_once():
    data = skim("a: &x [p.md, {b: c}]\nd: *x\n")
    assert data == {"a": ["p.md", {"b": "c"}], "d": ["p.md", {"b": "c"}]} and data["a"] is data["d"]
    looped = skim("a: &r [x, *r]\n")
    assert looped["a"][0] == "x" and looped["a"][1] is looped["a"]


def test_a_key_written_twice_is_read_as_the_first_as_yaml12_reads_it():
    assert skim("tests: cases.yaml\nprompt: a.md\ntests: [x]\n") == {"tests": "cases.yaml", "prompt": "a.md"}


def test_what_the_composer_cannot_read_or_holds_no_document_is_none():
    assert [skim(text) for text in ("x: [\n", "", "# only a comment\n", "--- a\n--- b\n")] == [None] * 4
    assert skim("{[a]: b, c: d}") == {"c": "d"}  # a complex key names no setting


def test_a_suite_naming_data_through_an_alias_or_a_recursive_one_is_read(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals" / "data").mkdir(parents=True)
    (tmp_path / "evals" / "a.eval.yaml").write_text(
        "x-files: &files [./data/app.yaml]\nx-loop: &loop [*loop]\ntests:\n  - {id: a, input: hi, criteria: ok, "
        "input_files: *files}\n")
    (tmp_path / "evals" / "data" / "app.yaml").write_text("server:\n  port: 8080\n")
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        "evals/a.eval.yaml:2:16: EV005 [error] recursive alias '*loop' refers to the node that contains it\n"), "")
