"""Configuration files and their precedence (docs/format.md#configuration)."""
from __future__ import annotations

import os
import textwrap

import pytest
from clirun import run_concise

CASE = textwrap.dedent("""\
    evalcases:
      - id: 1
        expected_outcome: g
        input: q
        colour: red
""")



def codes(out: str) -> list:
    return [line.split()[1] for line in out.splitlines()]


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "a.yaml").write_text(CASE)
    (tmp_path / "evals" / "b.yaml").write_text(CASE)
    return tmp_path


def test_pyproject_table_is_found_walking_up(project):
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.evallint]\nignore = ["EV109"]\n')
    assert codes(run_concise(project / "evals", "a.yaml")[1]) == ["EV103"]


def test_evallint_toml_takes_no_table_prefix(project):
    (project / ".evallint.toml").write_text('select = ["EV1"]\nextend-select = ["EV904"]\nstrict = true\n')
    assert codes(run_concise(project, "evals/a.yaml")[1]) == ["EV904", "EV103", "EV109"]


def test_cli_overrides_config(project):
    (project / ".evallint.toml").write_text('select = ["EV109"]\n')
    assert codes(run_concise(project, "evals/a.yaml")[1]) == ["EV109"]
    assert codes(run_concise(project, "--select", "EV103", "evals/a.yaml")[1]) == ["EV103"]
    assert codes(run_concise(project, "--ignore", "EV109", "evals/a.yaml")[1]) == []


def test_strict_from_config(project):
    (project / ".evallint.toml").write_text('strict = true\nignore = ["EV103"]\n')
    assert run_concise(project, "evals/a.yaml")[0] == 1
    (project / ".evallint.toml").write_text('ignore = ["EV103"]\n')
    assert run_concise(project, "evals/a.yaml")[0] == 0


def test_per_file_ignores(project):
    (project / ".evallint.toml").write_text('[per-file-ignores]\n"evals/a.yaml" = ["EV109"]\n"**/b.*" = ["EV1"]\n')
    code, out, _ = run_concise(project, ".")
    assert [line.split(":")[0] + " " + line.split()[1] for line in out.splitlines()] == ["evals/a.yaml EV103"]


def test_severity_override(project):
    (project / ".evallint.toml").write_text('[severity]\nEV103 = "warning"\nEV109 = "error"\n')
    code, out, _ = run_concise(project, "evals/a.yaml")
    assert code == 1 and "EV103 [warning]" in out and "EV109 [error]" in out


def test_references_off_in_config(project):
    (project / "evals" / "c.yaml").write_text("evalcases:\n  - id: c\n    expected_outcome: g\n    input:\n"
                                              "      - role: user\n        content: [{type: file, value: none.md}]\n")
    assert codes(run_concise(project, "evals/c.yaml")[1]) == ["EV401"]
    (project / ".evallint.toml").write_text("references = false\n")
    assert codes(run_concise(project, "evals/c.yaml")[1]) == []


def test_include_and_exclude(project):
    (project / "suites").mkdir()
    (project / "suites" / "x.yaml").write_text("description: only matched by include\n")
    (project / ".evallint.toml").write_text('include = ["suites/*.yaml"]\nexclude = ["evals/**"]\n')
    code, out, _ = run_concise(project, ".")
    assert out.splitlines()[0].startswith("suites/x.yaml:1:1: EV101")
    assert "evals/" not in out


def test_explicit_config_file(project, tmp_path_factory):
    other = tmp_path_factory.mktemp("cfg") / "custom.toml"
    other.write_text('[tool.evallint]\nselect = ["EV109"]\n')
    assert run_concise(project, "--config", str(other), "evals/a.yaml")[1] == ""  # a non-pyproject file: no table prefix
    other.write_text('select = ["EV109"]\n')
    assert codes(run_concise(project, "--config", str(other), "evals/a.yaml")[1]) == ["EV109"]


@pytest.mark.parametrize("text,message", [
    ('\nselect = ["EV999"]\n', ".evallint.toml:2: unknown rule selector 'EV999' in 'select'"),
    ('select = []\n', ".evallint.toml:1: unknown rule selector: 'select' is empty, which would turn every rule off "
                      "(name codes or prefixes, or ALL)"),
    ('ignore = "EV1"\n', ".evallint.toml:1: 'ignore' must be a list of strings"),
    ('[severity]\nEV777 = "error"\n', ".evallint.toml:2: unknown rule code 'EV777' in 'severity'"),
    ('select = [\n', ".evallint.toml"),
])
def test_config_errors_exit_2_with_file_and_line(project, text, message):
    (project / ".evallint.toml").write_text(text)
    code, out, err = run_concise(project, "evals/a.yaml")
    assert code == 2 and out == ""
    assert err.startswith("evallint: error: " + os.path.join(str(project), message)) or \
        err.startswith("evallint: error: " + message), err


def test_pyproject_errors_name_the_line_in_the_table(project):
    (project / "pyproject.toml").write_text('[project]\nname = "x"\nselect = 1\n\n[tool.evallint]\nselect = 1\n')
    code, _, err = run_concise(project, "evals/a.yaml")
    assert code == 2 and err.endswith("pyproject.toml:6: 'select' must be a list of strings\n")


def test_max_file_size(project):
    (project / ".evallint.toml").write_text("max-file-size = 20\n")
    code, out, _ = run_concise(project, "evals/a.yaml")
    assert out.startswith("evals/a.yaml:1:1: EV006 [error] file is 74 bytes, over the size cap of 20 bytes")
    (project / ".evallint.toml").write_text("max-file-size = 0\n")
    assert run_concise(project, "evals/a.yaml")[0] == 2


def test_which_rules_are_enabled_follows_the_configuration_as_it_changes():
    from evallint.config import Config

    config = Config()
    assert config.enabled("EV101") and not config.enabled("EV901")  # style rules are off by default
    config.select = ("EV9",)
    assert config.enabled("EV901") and not config.enabled("EV101")
    config.select = ["EV1"]  # a list, as a program may set it
    assert config.enabled("EV101") and not config.enabled("EV901")
    config.select, config.ignore = None, ("EV10",)
    assert not config.enabled("EV101") and config.enabled("EV201")
    assert not Config().enabled("EV201", ("EV2",)) and Config().enabled("EV201", ("EV3",))
    config.extend_select = ("EV101",)
    assert config.enabled("EV101")  # the more specific prefix wins


def test_whether_any_of_a_set_of_rules_is_enabled_follows_the_configuration_too():
    from evallint.config import Config
    from evallint.rules import style

    config = Config()
    assert not config.any_enabled(style.CODES) and config.any_enabled(("EV901", "EV101"))
    config.extend_select = (style.CODES[-1],)
    assert config.any_enabled(style.CODES)
    config.extend_select, config.select = (), ["EV9"]  # a list: answered without the memo
    assert config.any_enabled(style.CODES) and not config.any_enabled(("EV101", "EV201"))
    config.select, config.ignore = None, ("EV1", "EV2")
    assert not config.any_enabled(("EV101", "EV201")) and config.any_enabled(("EV101", "EV301"))
