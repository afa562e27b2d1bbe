"""Configuration files and their precedence (docs/format.md#configuration)."""
from __future__ import annotations

import os
import re
import textwrap

import pytest
from clirun import run_concise
from conftest import ROOT

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
    ('agentv-version = 4.42\n', ".evallint.toml:1: 'agentv-version' must be one of '2.2', '4.42', found 4.42\n"),
    ('agentv-version = "4"\n', ".evallint.toml:1: 'agentv-version' must be one of '2.2', '4.42', found '4'\n"),
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


# --- each setting declared once: the schema, Config and the command line agree --------------------------

def test_config_has_a_field_for_each_setting_of_the_schema_and_of_the_command_line_only():
    import dataclasses

    from evallint.config import Config
    from evallint.run.settings_schema import COMMAND_LINE_ONLY, SettingsSchema

    declared = list(SettingsSchema(os.curdir).fields) + list(COMMAND_LINE_ONLY)
    assert sorted(field.name for field in dataclasses.fields(Config)) == sorted(declared)
    assert len(set(declared)) == len(declared)


def options_with_a_value(usage: str, tmp_path) -> list:
    """A command line for each option of a usage line (``[--option VALUE]``) that gives it a value."""
    values = {"DIR": str(tmp_path), "FILE": str(tmp_path / "custom.toml"), "N": "2", "CODES": "EV101",
              "PATH": "a.yaml"}
    out = []
    for option, value in re.findall(r"\[(-[\w-]+)(?: ([^\]]+))?\]", usage):
        if option in ("-h", "--version"):
            continue
        if value:
            out.append([option, value.strip("{}").split(",")[0] if value.startswith("{") else values[value]])
        else:
            out.append([option])
    return out


def test_the_command_line_options_that_set_a_config_field_are_those_the_schema_declares(tmp_path, monkeypatch):
    """Each option is given on its own: the Config fields it changes are the one it is declared to set (in the
    schema, or as a command-line-only setting), and no others; an option not declared changes none."""
    import dataclasses

    from evallint.cli import build_config, lint_parser
    from evallint.run.settings_schema import COMMAND_LINE_ONLY, SettingsSchema

    monkeypatch.chdir(tmp_path)
    (tmp_path / "custom.toml").write_text("")
    declared = {field.metadata["option"]: name for name, field in SettingsSchema(os.curdir).fields.items()
                if field.metadata["option"] is not None}
    declared.update({option: name for name, option in COMMAND_LINE_ONLY.items()})
    parser = lint_parser()
    baseline = dataclasses.asdict(build_config(parser.parse_args([])))
    given = options_with_a_value(parser.format_usage(), tmp_path)
    assert len(given) > 20 and ["--select", "EV101"] in given and ["--strict"] in given
    for argv in given:
        config = dataclasses.asdict(build_config(parser.parse_args(argv)))
        changed = {name for name in config if config[name] != baseline[name]}
        assert changed == ({declared[argv[0]]} if argv[0] in declared else set()), argv
    assert set(declared) <= {argv[0] for argv in given}  # every option declared is on the command line


def test_the_keys_of_the_schema_are_those_docs_format_lists(project):
    from evallint.run.settings_schema import KEYS

    docs = (ROOT / "docs" / "format.md").read_text()
    table = docs.split("### Configuration keys\n", 1)[1].split("\n\n")[0]
    assert sorted(re.findall(r"^\| `([a-z-]+)` \|", table, re.M)) == sorted(KEYS)
    (project / ".evallint.toml").write_text('strictt = true\nzzz = 1\n')
    config = project / ".evallint.toml"
    assert run_concise(project, "evals/a.yaml") == (2, "", (
        f"evallint: error: {config}:1: unknown configuration key 'strictt' (did you mean 'strict'?)\n"
        f"evallint: error: {config}:2: unknown configuration key 'zzz' (known keys: select, ignore, extend-select, "
        "include, exclude, per-file-ignores, strict, references, severity, max-file-size, agentv-version)\n"))


def test_a_pyproject_whose_tool_is_not_a_table_has_no_settings(project):
    """``tool = 1`` holds no [tool.evallint] table: named with --config, it sets nothing."""
    (project / "pyproject.toml").write_text('tool = 1\n')
    assert run_concise(project, "--config", "pyproject.toml", "evals/a.yaml") == run_concise(project, "evals/a.yaml")
    assert codes(run_concise(project, "--config", "pyproject.toml", "evals/a.yaml")[1]) == ["EV103", "EV109"]
