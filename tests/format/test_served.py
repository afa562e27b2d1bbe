"""Which AgentV version a targets or config file is read as when what it holds shows none and the configuration
names none: that of the suites it serves, the runner looking for it walking up from a suite's folder."""
from __future__ import annotations

import pytest
from clirun import run_concise

# a target both releases read, which AgentV 4.42.4's resolver rejects: its 'model' is no environment reference
TARGETS = "targets:\n  - name: default\n    provider: openai\n    model: gpt-4o\n    api_key: ${{ OPENAI_API_KEY }}\n"
LITERAL_MODEL = (".agentv/targets.yaml:4:12: EV110 [error] 'model' must be an environment reference such as "
                 "'${{ NAME }}' (the runner reads it only from the environment), found 'gpt-4o'; the runner rejects "
                 "the target\n")
LATER_SUITE = "tests:\n  - id: one\n    criteria: Says hello.\n    input: hi\n"
EARLIER_SUITE = "evalcases:\n  - id: one\n    expected_outcome: Says hello.\n    input_messages: [{role: user, content: hi}]\n"


def _project(folder, suites: dict, targets: str = TARGETS, repository: bool = True):
    (folder / ".agentv").mkdir(parents=True)
    if repository:
        (folder / ".git").mkdir()
    (folder / ".agentv" / "targets.yaml").write_text(targets)
    for name, text in suites.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


@pytest.mark.parametrize("suites", [
    {"evals/area/deep/smoke.eval.yaml": LATER_SUITE},
    {"evals/old.eval.yaml": EARLIER_SUITE, "evals/new/x.yaml": LATER_SUITE},
    # AgentV 4.42.4's deprecated list, with a key of a test only it reads
    {"evals/x.eval.yaml": "evalcases:\n  - id: one\n    criteria: Says hello.\n    input: hi\n"},
    {"data/qa.jsonl": '{"id": "one", "criteria": "Says hello.", "input": "hi"}\n'},
    {"evals/x.eval.yaml": '"\\x74ests":\n  - id: one\n    criteria: Says hello.\n    input: hi\n'},  # 'tests', escaped
])
def test_a_targets_file_serving_a_suite_of_agentv_4_42_is_read_as_its(tmp_path, suites):
    _project(tmp_path, suites)
    assert run_concise(tmp_path, "--no-cache", ".agentv/targets.yaml") == (1, LITERAL_MODEL, "")


@pytest.mark.parametrize("suites", [
    {"evals/old.eval.yaml": EARLIER_SUITE},
    {},
    # not served: a folder with a targets file of its own, one in '.agentv', one in a folder discovery skips
    {"sub/.agentv/targets.yaml": "targets:\n  - {name: default, provider: mock}\n", "sub/evals/x.yaml": LATER_SUITE},
    {"sub/targets.yaml": "targets:\n  - {name: default, provider: mock}\n", "sub/x.eval.yaml": LATER_SUITE},
    {"node_modules/pkg/x.eval.yaml": LATER_SUITE},
    {"evals/notes.md": LATER_SUITE},
])
def test_a_targets_file_serving_no_suite_of_agentv_4_42_is_read_as_2_2s(tmp_path, suites):
    _project(tmp_path, suites)
    assert run_concise(tmp_path, "--no-cache", ".agentv/targets.yaml") == (0, "", "")


def test_the_configured_version_decides_over_the_suites(tmp_path):
    """The suite, linted too as the targets file's user, is read as the configured version as well."""
    _project(tmp_path, {"evals/x.eval.yaml": LATER_SUITE})
    code, out, _ = run_concise(tmp_path, "--no-cache", "--agentv-version", "2.2", ".agentv/targets.yaml")
    assert (code, out.startswith("evals/x.eval.yaml:1:1: EV101 [error]"), ".agentv/" in out) == (1, True, False)
    _project(tmp_path / "old", {"evals/x.eval.yaml": EARLIER_SUITE})
    code, out, _ = run_concise(tmp_path / "old", "--no-cache", "--agentv-version", "4.42", ".agentv/targets.yaml")
    assert (code, out.startswith(LITERAL_MODEL), out.count("\n.agentv/")) == (1, True, 0)


def test_a_nested_projects_targets_file_is_read_as_its_own_suites_are(tmp_path):
    """The suites of 'sub' take its targets file, the root's those of the rest."""
    _project(tmp_path, {"evals/old.eval.yaml": EARLIER_SUITE})
    _project(tmp_path / "sub", {"evals/new.eval.yaml": LATER_SUITE}, repository=False)
    assert run_concise(tmp_path, "--no-cache", ".agentv/targets.yaml", "sub/.agentv/targets.yaml") == (
        1, "sub/" + LITERAL_MODEL, "")


def test_a_config_file_serving_a_suite_of_agentv_4_42_is_read_as_its(tmp_path):
    """AgentV 4.42.4 reads no 'guideline_patterns' (2.2 does); its config file is looked for in a folder's '.agentv'
    alone, so a 'targets.yaml' beside a suite does not stop the look."""
    _project(tmp_path, {"sub/targets.yaml": "targets:\n  - {name: default, provider: mock}\n",
                        "sub/x.eval.yaml": LATER_SUITE})
    (tmp_path / ".agentv" / "config.yaml").write_text("guideline_patterns:\n  - '*.md'\n")
    assert run_concise(tmp_path, "--no-cache", ".agentv/config.yaml") == (0, (
        ".agentv/config.yaml:1:1: EV603 [warning] unknown key 'guideline_patterns' in config.yaml (did you mean "
        "'eval_patterns'?); AgentV 4.42.4 no longer reads guideline patterns\n"), "")
    (tmp_path / "sub" / "x.eval.yaml").write_text(EARLIER_SUITE)
    assert run_concise(tmp_path, "--no-cache", ".agentv/config.yaml") == (0, "", "")


def test_a_targets_file_the_runner_does_not_look_for_serves_no_suite(tmp_path):
    """A file its '$schema' makes a targets file, of a name the runner's walk does not look for, is read only when a
    run names it (--targets)."""
    _project(tmp_path, {"evals/x.eval.yaml": LATER_SUITE})
    (tmp_path / "evals" / "models.yaml").write_text("$schema: agentv-targets-v2\n" + TARGETS)
    assert run_concise(tmp_path, "--no-cache", "evals/models.yaml") == (0, "", "")


def _committed(tmp_path, suite: str):
    """A repository whose targets file shows no release, with one suite holding ``suite`` in its last commit."""
    from clirun import git

    _project(tmp_path, {"evals/x.eval.yaml": suite}, repository=False)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "start")
    return tmp_path


USES = ("evallint: also linting .agentv/targets.yaml, which uses evals/x.eval.yaml\n")


@pytest.mark.parametrize("before,after", [(EARLIER_SUITE, LATER_SUITE), (LATER_SUITE, EARLIER_SUITE)])
def test_a_suite_that_changes_release_brings_the_targets_file_it_decides(tmp_path, before, after):
    """pre-commit passes the changed suite alone: the targets file, whose release it decides, is linted with it."""
    root = _committed(tmp_path, before)
    (root / "evals" / "x.eval.yaml").write_text(after)
    code, out, err = run_concise(root, "--no-cache", "--verbose", "evals/x.eval.yaml")
    assert (code, out, err.startswith(USES)) == ((1, LITERAL_MODEL, True) if after == LATER_SUITE else (0, "", True))


def test_a_suite_of_the_same_release_or_a_configured_one_brings_no_settings_file(tmp_path):
    root = _committed(tmp_path, LATER_SUITE)
    (root / "evals" / "x.eval.yaml").write_text(LATER_SUITE.replace("hi", "hello"))
    assert run_concise(root, "--no-cache", "--verbose", "evals/x.eval.yaml")[1:] == ("", "")
    (root / "evals" / "x.eval.yaml").write_text(EARLIER_SUITE)
    code, out, err = run_concise(root, "--no-cache", "--verbose", "--agentv-version", "2.2", "evals/x.eval.yaml")
    assert (code, out, err) == (0, "", "")


def test_a_staged_suite_that_changes_release_brings_the_targets_file(tmp_path):
    from clirun import git

    root = _committed(tmp_path, EARLIER_SUITE)
    (root / "evals" / "x.eval.yaml").write_text(LATER_SUITE)
    git(root, "add", "evals/x.eval.yaml")
    code, out, err = run_concise(root, "--no-cache", "--verbose", "--staged")
    assert (code, out, err) == (1, LITERAL_MODEL, USES)
