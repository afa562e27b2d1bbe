"""The files a new user meets besides the code: pyproject.toml, the README's snippets, action.yml, the
pre-commit manifest and the rule docs say the same as the package does."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import yaml
from conftest import ROOT

import evallint
from evallint.cli import main
from evallint.format.agentv2 import jsonschema
from evallint.rules.registry import RULES

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

README = (ROOT / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DISTRIBUTION = "agentv-evallint"


def code_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```$", text, re.M | re.S)


def test_distribution_name_differs_from_the_command_and_import_name():
    assert PYPROJECT["project"]["name"] == DISTRIBUTION
    assert PYPROJECT["project"]["scripts"] == {"evallint": "evallint.cli:entry"}
    assert PYPROJECT["project"]["version"] == evallint.__version__


def test_readme_installs_the_published_package_by_its_distribution_name():
    installs = re.findall(r"pip install ('[^']*'|[^\s&`]+)", README)
    from_index = [name for name in installs if not name.startswith((".", "'.", "atheris", "-e")) and "@" not in name]
    assert from_index == [DISTRIBUTION, DISTRIBUTION, f"'{DISTRIBUTION}[server]'"]
    assert "server" in PYPROJECT["project"]["optional-dependencies"]
    assert not re.search(r"pip install evallint\b", README)


def test_readme_sarif_example_also_installs_from_a_checkout():
    assert "- run: pip install ./.evallint && evallint --format sarif --exit-zero . > evallint.sarif" in README
    assert "with: {repository: agentv-evallint/evallint, ref: v0.1.0, path: .evallint}" in README


def test_action_installs_its_checkout_by_default_and_the_distribution_for_a_version():
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["inputs"]["version"]["default"] == ""
    install = action["runs"]["steps"][0]["run"]
    assert 'python3 -m pip install --quiet "agentv-evallint==$EVALLINT_VERSION"' in install
    assert 'python3 -m pip install --quiet "$GITHUB_ACTION_PATH"' in install
    # the checkout is what an empty version installs
    assert re.search(r'if \[ -n "\$EVALLINT_VERSION" \]; then\n\s+python3 -m pip install --quiet "agentv-evallint==',
                     install)


def test_readme_action_and_schema_urls_name_one_repository():
    assert jsonschema.BASE_URI == (f"https://raw.githubusercontent.com/agentv-evallint/evallint/v{evallint.__version__}"
                                   "/evallint/jsonschemas")
    urls = re.findall(r"https://raw\.githubusercontent\.com/[^\s\"]+", README)
    assert urls and all(url.startswith(jsonschema.BASE_URI + "/") for url in urls)
    assert "  - repo: https://github.com/agentv-evallint/evallint " in README
    assert "      - uses: agentv-evallint/evallint@v0.1.0 " in README
    assert "your-org" not in README


def test_readme_precommit_rev_is_the_version():
    """The tag v<version> must exist at release for the snippet to work; this keeps snippet and version in step."""
    revs = re.findall(r"^\s+rev: (\S+)$", README, re.M)
    assert revs == [f"v{PYPROJECT['project']['version']}"] == [f"v{evallint.__version__}"]
    uses = re.findall(r"uses: agentv-evallint/evallint@([^\s`]+)", README)
    assert uses == [f"v{evallint.__version__}", "COMMIT"]  # the release's tag, and a commit before it


def test_precommit_hook_runs_serially():
    from pre_commit.clientlib import load_manifest

    hooks = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    assert [hook["id"] for hook in hooks] == ["evallint"]
    assert hooks[0]["require_serial"] is True


def test_readme_python_api_example_runs_and_prints_what_the_readme_says(tmp_path):
    [example] = code_blocks(README, "python")
    printed = re.search(r"The `except` branch prints:\n\n```\n(.*?)```", README, re.S).group(1)
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "dataset.yaml").write_text(
        "evalcases:\n  - id: greeting\n    outcome: says hello\n    input: Hello\n"
        "    evaluators:\n      - name: polite\n        type: llm_judge\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", example], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "greeting ['polite']\n" + printed


def test_readme_lists_exactly_the_rules_that_are_off_by_default():
    off = [code for code, rule in RULES.items() if not rule.default_enabled]
    sentence = re.search(r"Style rules are off unless selected: ([^(]*) \(", README).group(1)
    assert re.findall(r"EV\d+", sentence) == off
    assert "EV322" in off


def test_ev322_docs_command_applies_the_fix(tmp_path, monkeypatch):
    rule_out = io.StringIO()
    assert main(["rule", "EV322"], stdout=rule_out, stderr=io.StringIO()) == 0
    text = rule_out.getvalue()
    [command] = re.findall(r"`evallint (--extend-select EV322 --fix[^`]*)`", text)
    assert command == "--extend-select EV322 --fix --unsafe-fixes"
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "check.py").write_text("")
    suite = tmp_path / "evals" / "s.yaml"
    suite.write_text("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
                     "      - name: v\n        type: code_judge\n        script: python check.py --strict\n")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    code = main([*command.split(), "--no-cache", "--no-references", "--quiet", "evals"], stdout=out,
                stderr=io.StringIO())
    assert code == 0, out.getvalue()
    assert suite.read_text().endswith('        script: ["python", "check.py", "--strict"]\n')


def test_python_versions_agree_between_pyproject_and_ci():
    project = PYPROJECT["project"]
    assert project["requires-python"] == ">=3.10"
    declared = [c.rsplit(" :: ", 1)[1] for c in project["classifiers"]
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert declared == ["3.10", "3.11", "3.12", "3.13"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # CI tests the oldest and the newest declared version beside the default python3
    assert re.findall(r"^for minor in (.*); do$", ci, re.M) == [f"{declared[0]} {declared[-1]}"]


def test_the_zed_extension_starts_the_server_for_yaml_and_json():
    zed = ROOT / "editors" / "zed"
    extension = tomllib.loads((zed / "extension.toml").read_text(encoding="utf-8"))
    assert extension["version"] == evallint.__version__
    assert extension["language_servers"] == {"evallint": {"name": "evallint", "languages": ["YAML", "JSON"]}}
    cargo = tomllib.loads((zed / "Cargo.toml").read_text(encoding="utf-8"))
    assert cargo["lib"] == {"crate-type": ["cdylib"], "path": "src/lib.rs"}
    assert "zed_extension_api" in cargo["dependencies"]
    source = (zed / "src" / "lib.rs").read_text(encoding="utf-8")
    assert 'worktree\n            .which("evallint")' in source
    assert 'args: vec!["server".to_string()]' in source
    assert "pip install 'agentv-evallint[server]'" in source
    assert "editors/zed" in README


def _run_action_step(args: str, cwd) -> subprocess.CompletedProcess:
    """The action's "Run evallint" step, run by bash as the runner runs it: its inputs in the environment,
    ``GITHUB_ACTIONS=true``, and this checkout's ``evallint`` first on ``PATH``."""
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    [step] = [step for step in action["runs"]["steps"] if step["name"] == "Run evallint"]
    env = {**os.environ, "GITHUB_ACTIONS": "true", "EVALLINT_PATHS": "small.yaml", "EVALLINT_ARGS": args,
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def test_action_reports_as_annotations():
    proc = _run_action_step("", ROOT / "fixtures" / "cli")
    assert (proc.returncode, proc.stderr) == (1, "")
    assert proc.stdout.splitlines()[0].startswith("::warning title=evallint (EV109),file=fixtures/cli/small.yaml,line=6,")


def test_action_prints_the_statistics_table_when_its_args_ask_for_it():
    proc = _run_action_step("--statistics", ROOT / "fixtures" / "cli")
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        1, "     1  EV109  [ ] unknown-key\n     1  EV310  [ ] invalid-trajectory-mode\n"
           "Found 1 error, 1 warning in 1 file (1 file checked).\n", "")


def test_action_args_choose_another_format():
    proc = _run_action_step("--format json --exit-zero", ROOT / "fixtures" / "cli")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert [d["code"] for d in json.loads(proc.stdout)] == ["EV109", "EV310"]
