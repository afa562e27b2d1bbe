"""The README's setup works before the first release: beside each command that names the release (the
package on the index, the server extra, pre-commit's `rev:`, the action's tag and `version:`) stands the way
to use a checkout or a commit, and the pre-commit configuration for a commit runs as written, showing
warnings with `verbose: true` and failing on them with `args: [--strict]`."""
from __future__ import annotations

import re
import subprocess

import pytest
from conftest import ROOT
from test_precommit import commit_of, git, run_hook

README = (ROOT / "README.md").read_text(encoding="utf-8")
WARNED = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    colour: blue\n"


def section(heading: str) -> str:
    """The README's text under ``heading`` up to the next heading of its level or above (a `#` line in a
    code block is no heading)."""
    lines = README.splitlines(keepends=True)
    start = lines.index(heading + "\n")
    fenced = False
    for end in range(start + 1, len(lines)):
        fenced ^= lines[end].startswith("```")
        if not fenced and re.match(r"#{1,%d} " % heading.count("#"), lines[end]):
            break
    else:
        end = len(lines)
    return "".join(lines[start:end])


@pytest.mark.parametrize("heading,release,before_it", [
    ("## Try it", "python3 -m pip install agentv-evallint\n",
     "python3 -m pip install 'agentv-evallint @ git+https://github.com/agentv-evallint/evallint@COMMIT'\n"),
    ("### Language server", "python3 -m pip install 'agentv-evallint[server]'",
     "python3 -m pip install '.[server]'"),
    ("### pre-commit", "    rev: v0.1.0\n", "    rev: COMMIT "),
    ("### GitHub Actions", "uses: agentv-evallint/evallint@v0.1.0", "`uses: agentv-evallint/evallint@COMMIT`"),
    ("### GitHub Actions", '`with: {version: "0.1.0"}`', "leave `version` empty"),
], ids=lambda value: value if value.startswith("#") else "")
def test_each_command_for_the_release_has_one_for_a_checkout_or_a_commit_beside_it(heading, release, before_it):
    text = section(heading)
    assert release in text and before_it in text


def precommit_config(**hook) -> str:
    """The README's pre-commit configuration for a commit, with a clone's path and commit filled in and the
    hook's `verbose: true` line replaced by ``hook`` (key: the README's text for it)."""
    [config] = [block for block in re.findall(r"^```yaml\n(.*?)^```$", section("### pre-commit"), re.M | re.S)
                if "rev: COMMIT" in block]
    for key, text in hook.items():
        config = re.sub(r"^(\s+)verbose: true.*$", lambda m: m.group(1) + text, config, flags=re.M)
    return config


def run_precommit(hook_repo, project, config: str) -> subprocess.CompletedProcess:
    (project / ".pre-commit-config.yaml").write_text(
        config.replace("/path/to/evallint", str(hook_repo)).replace("COMMIT", commit_of(hook_repo)))
    (project / "evals" / "s.yaml").write_text(WARNED)
    git(project, "add", ".")
    return run_hook(hook_repo, project, "--files", "evals/s.yaml")


@pytest.fixture
def project(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "evals").mkdir()
    return tmp_path


WARNING_LINE = "evals/s.yaml:5:5: EV109 [warning] unknown key 'colour'"


@pytest.mark.precommit
def test_the_readmes_configuration_for_a_commit_shows_warnings(hook_repo, project):
    done = run_precommit(hook_repo, project, precommit_config())
    assert done.returncode == 0, done.stdout + done.stderr
    assert WARNING_LINE in done.stdout


@pytest.mark.precommit
def test_without_verbose_a_passing_hook_hides_its_warnings(hook_repo, project):
    done = run_precommit(hook_repo, project, precommit_config(verbose=""))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout and "EV109" not in done.stdout


@pytest.mark.precommit
def test_with_strict_args_the_hook_fails_on_warnings(hook_repo, project):
    assert "give the hook `args: [--strict]`" in " ".join(section("### pre-commit").split())
    done = run_precommit(hook_repo, project, precommit_config(args="args: [--strict]"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert WARNING_LINE in done.stdout
