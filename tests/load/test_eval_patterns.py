"""A project's ``eval_patterns`` name its suites too: a suite so named can make a file data, as one named
``*.eval.yaml`` can; the config file the loader takes is the nearest valid one."""
from __future__ import annotations

import json
import os

import pytest

from agentv_runner import read_configs, read_globs
from clirun import git, run_concise
from test_named_data import named_with_dependencies

# what AgentV's own repository configures
DATASETS = 'eval_patterns: ["**/evals/**/dataset*.yaml"]\n'
# a file of tests that a suite sends as input: linted alone, its test lacks an input and a criteria
SUITE_LIKE = "tests:\n  - id: q\n    inptu: nothing\n"


def _project(root, config=DATASETS) -> str:
    """A repository whose suite 'evals/smoke/dataset.yaml' sends 'evals/data/x.yaml', its '.agentv/config.yaml'
    holding ``config`` (None: none); the path of that file."""
    (root / ".git").mkdir()
    if config is not None:
        (root / ".agentv").mkdir()
        (root / ".agentv" / "config.yaml").write_text(config)
    (root / "evals" / "smoke").mkdir(parents=True)
    (root / "evals" / "smoke" / "dataset.yaml").write_text(
        "tests: [{id: t, input: hi, criteria: c, input_files: [../data/x.yaml]}]\n")
    (root / "evals" / "data").mkdir()
    (root / "evals" / "data" / "x.yaml").write_text(SUITE_LIKE)
    return str(root / "evals" / "data" / "x.yaml")


def test_a_suite_the_patterns_name_makes_the_file_it_sends_data_and_the_config_file_is_a_dependency(tmp_path):
    assert named_with_dependencies(tmp_path, _project(tmp_path)) == (True, [
        ".", ".agentv", ".agentv/config.yaml", "evals", "evals/data", "evals/data/x.yaml", "evals/smoke",
        "evals/smoke/dataset.yaml"])


def test_without_patterns_a_file_named_so_is_no_suite_and_the_file_it_sends_is_linted_alone(tmp_path):
    _project(tmp_path, config=None)
    assert run_concise(tmp_path, ".") == (1, "\n".join([
        "evals/data/x.yaml:2:5: EV105 [error] test has no 'input'; the runner skips it (the suite's input does not count)",
        "evals/data/x.yaml:2:5: EV106 [error] test has no 'criteria', 'expected_output', 'assertions' or 'turns'; the runner "
        "skips it as incomplete",
        "evals/data/x.yaml:3:5: EV115 [error] unknown key 'inptu' in test (did you mean 'input'?); the runner does not read "
        "it, so what it holds is dropped", ""]), "")


def test_with_the_patterns_the_file_is_data_of_the_suite_and_not_linted_alone(tmp_path):
    _project(tmp_path)
    assert run_concise(tmp_path, ".") == (0, "", "")


def test_the_patterns_match_in_any_case_below_the_folder_their_leading_names_give_as_written(tmp_path):
    """fast-glob reads that folder from the file system, in the case it is written (here, one that tells cases
    apart)."""
    path = _project(tmp_path, 'eval_patterns: ["./evals/**/DataSet*.YAML"]\n')
    assert named_with_dependencies(tmp_path, path)[0] is True
    (tmp_path / ".agentv" / "config.yaml").write_text('eval_patterns: ["./EVALS/**/dataset*.yaml"]\n')
    assert named_with_dependencies(tmp_path, path)[0] is False


def test_a_pattern_led_by_an_exclamation_mark_leaves_out_what_it_matches(tmp_path):
    path = _project(tmp_path, 'eval_patterns: ["**/dataset*.yaml", "!evals/smoke/**"]\n')
    assert named_with_dependencies(tmp_path, path)[0] is False


def test_a_config_file_the_loader_finds_invalid_is_passed_over_for_the_one_above(tmp_path):
    """config-loader.ts takes the first valid file walking up: one whose 'eval_patterns' is no list, or whose
    'required_version' is no string, is passed over."""
    path = _project(tmp_path)
    (tmp_path / "evals" / ".agentv").mkdir()
    inner = tmp_path / "evals" / ".agentv" / "config.yaml"
    for invalid in ('eval_patterns: "**/dataset*.yaml"\n', "required_version: 4\n", "- a list\n", "eval_patterns:\n",
                    "eval_patterns: []\neval_patterns: []\n", "eval_patterns: [\n"):
        inner.write_text(invalid)
        assert named_with_dependencies(tmp_path, path)[0] is True, invalid


def test_the_nearest_valid_config_file_decides_even_without_patterns(tmp_path):
    """An absent or empty 'eval_patterns' means the default patterns, whatever a config file above says."""
    path = _project(tmp_path)
    (tmp_path / "evals" / ".agentv").mkdir()
    for nearest in ("required_version: '>=4'\n", "eval_patterns: []\n"):
        (tmp_path / "evals" / ".agentv" / "config.yaml").write_text(nearest)
        assert named_with_dependencies(tmp_path, path)[0] is False, nearest


def test_patterns_merged_in_by_a_merge_key_count_as_the_runners_parser_merges_them(tmp_path):
    path = _project(tmp_path, 'shared: &shared {eval_patterns: ["**/dataset*.yaml"]}\n<<: *shared\n')
    assert named_with_dependencies(tmp_path, path)[0] is True



def test_a_suite_the_patterns_match_is_linted_outside_the_include_globs_as_the_agentv_command_runs_it(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / ".agentv").mkdir()
    (tmp_path / "suites" / "a").mkdir(parents=True)
    for name in ("one.suite.yaml", "other.yaml"):
        (tmp_path / "suites" / "a" / name).write_text("tests:\n  - id: t\n    inptu: hi\n    criteria: ok\n")
    (tmp_path / ".agentv" / "config.yaml").write_text('eval_patterns: ["suites/**/*.suite.yaml"]\n')
    assert run_concise(tmp_path, ".") == (1, "\n".join([
        "suites/a/one.suite.yaml:2:5: EV105 [error] test has no 'input'; the runner skips it (the suite's input does "
        "not count)",
        "suites/a/one.suite.yaml:3:5: EV115 [error] unknown key 'inptu' in test (did you mean 'input'?); the runner "
        "does not read it, so what it holds is dropped", ""]), "")
    (tmp_path / ".agentv" / "config.yaml").write_text("eval_patterns: []\n")
    assert run_concise(tmp_path, ".") == (0, "", "")

# config files the loader may pass over, each with the patterns it is taken for (None: passed over)
CONFIGS = [
    ('eval_patterns: ["**/evals/**/dataset*.yaml"]\n', ["**/evals/**/dataset*.yaml"]),
    ("required_version: '>=4'\n", []),
    ("eval_patterns: []\n", []),
    ('eval_patterns: "**/dataset*.yaml"\n', None),
    ("eval_patterns: [1]\n", None),
    ("eval_patterns:\n", None),
    ("required_version: 4\n", None),
    ("required_version:\n", None),
    ("- a list\n", None),
    ("eval_patterns: []\neval_patterns: []\n", None),
    ("eval_patterns: [\n", None),
    ('shared: &shared {eval_patterns: ["a/*.yaml"]}\n<<: *shared\n', ["a/*.yaml"]),
    ('<<: 1\neval_patterns: ["a/*.yaml"]\n', None),
    ('<<: [{}, 1]\neval_patterns: ["a/*.yaml"]\n', None),
    ("a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
     "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\neval_patterns: [\"a/*.yaml\"]\n", None),
    ('x: !local 1\neval_patterns: ["a/*.yaml"]\n', ["a/*.yaml"]),
    ('\ufeffeval_patterns: ["a/*.yaml"]\n', ["a/*.yaml"]),
    ('%YAML 1.1\n---\neval_patterns: ["a/*.yaml"]\nx: yes\n', ["a/*.yaml"]),
    ('eval_patterns: ["a/*.yaml"]\n---\nx: 1\n', None),
]
FALLBACK = ["fallback/*.yaml"]  # the patterns of the config file taken when one is passed over
# each pattern above: the folder its leading names give, and the rest
SPLIT = {"**/evals/**/dataset*.yaml": ("", "**/evals/**/dataset*.yaml"), "a/*.yaml": ("a", "*.yaml"),
         "fallback/*.yaml": ("fallback", "*.yaml")}


@pytest.mark.runner
def test_the_config_files_read_for_patterns_are_those_the_runners_loader_takes(tmp_path):
    """``loadConfig`` gives a project's file's settings, or, passing it over, those of the next one up (here, the
    home folder's config of last resort, which the runner is given; for evallint, one at the root)."""
    from evallint.load import deps
    from evallint.load.eval_patterns import Pattern, configured

    names = []
    for i, (text, _) in enumerate(CONFIGS):
        (tmp_path / f"c{i}" / ".agentv").mkdir(parents=True)
        (tmp_path / f"c{i}" / ".agentv" / "config.yaml").write_text(text, encoding="utf-8")
        names.append(f"c{i}/.agentv/config.yaml")
    for folder in (tmp_path / "home", tmp_path / ".agentv"):
        folder.mkdir()
        (folder / "config.yaml").write_text(f"eval_patterns: {FALLBACK}\n")
    read = read_configs(tmp_path, names, tmp_path / "home")
    for i, (name, (text, patterns)) in enumerate(zip(names, CONFIGS)):
        expected = FALLBACK if patterns is None else patterns
        assert list((read[name]["config"] or {}).get("eval_patterns") or []) == expected, (text, read[name])
        base = tmp_path if patterns is None else tmp_path / f"c{i}"
        with deps.run_scope():
            assert configured(str(tmp_path / f"c{i}"), str(tmp_path), 1 << 20) == tuple(
                Pattern(os.path.normpath(base / SPLIT[pattern][0]), SPLIT[pattern][1], False) for pattern in expected), text


# files of a project, and lists of patterns its config file may name
TREE = ["evals/a/dataset.yaml", "evals/a/DataSet-two.YAML", "evals/a/notes.yaml", "evals/b/c/dataset.yml",
        "evals/.hidden/dataset.yaml", ".hidden/evals/dataset.yaml", "Evals/x/dataset.yaml", "dataset.yaml",
        "other/evals/suite.eval.yaml", "evals/a/.dataset.yaml", "evals/a/dataset-[1].yaml"]
PATTERN_LISTS = [["**/evals/**/dataset*.yaml"], ["./evals/*/dataset*.{yaml,yml}"], ["**/DATASET*.Y?ML"],
                 ["**/*.yaml", "!**/notes.yaml", "!other/**"], ["evals/**"], ["*.yaml"], ["**/dataset-[[]1].yaml"],
                 ["**/evals/[a-b]/**/*.y*ml"], ["evals/a/dataset.yaml", "evals/a/dataset.yaml"], ["EVALS/a/*.yaml"],
                 ["Evals/**/dataset.yaml"], ["evals/a/DATASET.yaml"], ["/evals/**"], ["evals/../Evals/*/*.yaml"],
                 ["{evals,Other}/**/*.yaml"], ["{Evals,other}/*/*.yaml"]]


@pytest.mark.runner
def test_the_patterns_match_the_files_the_agentv_commands_discovery_finds(tmp_path):
    """In any case, a '!' pattern leaving out what it matches, braces, classes and a leading './' as fast-glob reads
    them (apps/cli eval/discover.ts), from the folder holding the config's '.agentv'."""
    from evallint.load import deps
    from evallint.load.eval_patterns import configured, matched

    project = tmp_path / "project"
    for name in TREE:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("tests: []\n")
    (project / ".agentv").mkdir()
    found = read_globs(PATTERN_LISTS, discover=project)
    for patterns, discovered in zip(PATTERN_LISTS, found):
        (project / ".agentv" / "config.yaml").write_text(f"eval_patterns: {json.dumps(patterns)}\n")
        with deps.run_scope():
            absolute = configured(str(project), str(tmp_path), 1 << 20)
        ours = sorted(name for name in TREE if matched(str(project / name), absolute))
        assert ours == sorted(os.path.relpath(path, project) for path in discovered), patterns
