"""Configuration files: found from the paths linted, not from the working folder; every mistake of
one reported; a broken [tool.evallint header is an error; mistyped rule codes get a "did you mean"."""
from __future__ import annotations

import io
import os
import re

import pytest
from clirun import run_concise

from evallint.cli import lint_parser, main

CASE = "evalcases:\n  - id: one\n    expected_outcome: g\n    input: q\n    colour: red\n"
EV109 = ("EV109 [warning] unknown key 'colour' in eval case (known keys: conversation_id, description, evaluator, "
         "evaluators, execution, expected_messages, expected_outcome, expected_output, id, input, input_messages, "
         "outcome, rubrics)")


@pytest.fixture
def tree(tmp_path):
    """A repository with two projects: corpus/ has a configuration that ignores EV109, other/ has none."""
    (tmp_path / ".git").mkdir()
    for name in ("corpus", "other"):
        (tmp_path / name / "evals").mkdir(parents=True)
        (tmp_path / name / "evals" / "a.yaml").write_text(CASE)
    (tmp_path / "corpus" / ".evallint.toml").write_text('ignore = ["EV109"]\n')
    return tmp_path


# --- found from the paths ---------------------------------------------------------------------------------

def test_the_configuration_above_a_folder_named_applies_from_any_working_folder(tree):
    assert run_concise(tree, "corpus") == (0, "", "")
    assert run_concise(tree / "other", "../corpus") == (0, "", "")
    assert run_concise(tree / "other", "../corpus/evals/a.yaml", "../corpus/evals") == (0, "", "")


def test_a_working_folder_with_a_configuration_does_not_lend_it_to_paths_outside(tree):
    assert run_concise(tree / "corpus", "../other") == (0, f"../other/evals/a.yaml:5:5: {EV109}\n", "")


def test_standard_input_takes_the_configuration_of_its_file_name(tree):
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(tree)
    try:
        code = main(["--format", "concise", "--quiet", "-", "--stdin-filename", "corpus/evals/a.yaml"],
                    stdout=out, stderr=err, stdin=io.BytesIO(CASE.encode()))
    finally:
        os.chdir(old)
    assert (code, out.getvalue(), err.getvalue()) == (0, "", "")


def test_paths_under_different_configurations_are_a_usage_error(tree):
    assert run_concise(tree, "corpus", "other/evals/a.yaml") == (2, "", (
        "evallint: error: the paths given have different configurations ('corpus' under "
        "'corpus/.evallint.toml' and 'other/evals/a.yaml' under none); a run reads one: lint them in separate "
        "runs, or name the configuration to use with --config FILE\n"))


def test_config_option_overrides_discovery_for_every_path(tree):
    code, out, err = run_concise(tree, "--config", "corpus/.evallint.toml", "corpus", "other")
    assert (code, out, err) == (0, "", "")


def test_a_pyproject_without_the_table_is_passed_over_on_the_way_up(tree):
    (tree / "corpus" / "evals" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert run_concise(tree, "corpus/evals/a.yaml") == (0, "", "")


# --- every mistake, and a broken header -------------------------------------------------------------------

def test_every_mistake_of_a_configuration_file_is_reported(tree):
    config = tree / "corpus" / ".evallint.toml"
    config.write_text('selct = ["EV1"]\nstrict = "yes"\nignore = ["EV4O1", "EV999"]\n\n[severity]\nEV1O3 = "fatal"\n'
                      'EV103 = "fatal"\n')
    assert run_concise(tree, "corpus") == (2, "", "".join(f"evallint: error: {config}:{line}\n" for line in (
        "1: unknown configuration key 'selct' (did you mean 'select'?)",
        "2: 'strict' must be true or false",
        "3: unknown rule selector 'EV4O1' in 'ignore' (did you mean 'EV401'?)",
        "3: unknown rule selector 'EV999' in 'ignore'",
        "6: unknown rule code 'EV1O3' in 'severity' (did you mean 'EV103'?)",
        "7: severity of EV103 must be \"error\" or \"warning\", found 'fatal'",
    )))


@pytest.mark.parametrize("header, column", [("[tool.evallint", 15), ("[ tool.evallint  # the linter", 18)])
def test_a_broken_table_header_in_pyproject_is_an_error(tree, header, column):
    (tree / "corpus" / ".evallint.toml").unlink()
    pyproject = tree / "corpus" / "pyproject.toml"
    pyproject.write_text(f'[project]\nname = "x"\n\n{header}\nignore = ["EV109"]\n')
    code, out, err = run_concise(tree, "corpus")
    assert (code, out) == (2, "")
    assert re.fullmatch(re.escape(f"evallint: error: {pyproject}") + "(:4)?" + re.escape(
        f": invalid TOML: Expected ']' at the end of a table declaration (at line 4, column {column})\n"), err), err


# --- "did you mean" for a rule code typed with a letter for a digit ------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["--select", "EV4O1"], "argument --select: unknown rule selector 'EV4O1' (did you mean 'EV401'?)"),
    (["--ignore", "ev3l0"], "argument --ignore: unknown rule selector 'EV3L0' (did you mean 'EV310'?)"),
    (["--extend-select", "EV9,EV1O"], "argument --extend-select: unknown rule selector 'EV1O' (did you mean 'EV10'?)"),
    (["--select", "E103"], "argument --select: unknown rule selector 'E103' (did you mean 'EV103'?)"),
])
def test_a_mistyped_selector_on_the_command_line_gets_a_suggestion(tree, argv, message):
    assert run_concise(tree, *argv, "other") == (2, "", lint_parser().format_usage() + f"evallint: error: {message}\n")


def test_a_mistyped_code_in_a_suppression_gets_a_suggestion(tree):
    (tree / "other" / "evals" / "a.yaml").write_text("# evallint: disable-file=EV4O9\n" + CASE)
    assert run_concise(tree, "--ignore", "EV109", "other") == (0, (
        "other/evals/a.yaml:1:1: EV099 [warning] unknown rule code 'EV4O9' in suppression (did you mean 'EV409'?); "
        "it suppresses nothing (see 'evallint rules')\n"), "")
