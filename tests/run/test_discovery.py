"""Which files are linted, as what, and in which order."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from agentv_runner import run_suite
from clirun import git, run_concise
from evallint import lint_paths
from evallint.api import expand_paths
from evallint.config import Config
from evallint.lint import lint_file
from evallint.load.files import CONFIG, DATASET, EVAL, PLACES, SIDECAR, TARGETS, PathKind, glob_match, glob_spec, repo_root
from evallint.load.recognize import content_kind

CASE = "evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n"


def linted(tmp_path, config=None):
    return [os.path.relpath(d.path, tmp_path) for d in lint_paths([tmp_path], config=config or Config())]


def test_kinds_by_content_and_path(tmp_path):
    files = {
        "suite.yaml": "$schema: agentv-eval-v2\n" + CASE,
        "plain.yaml": CASE,
        "typo.yaml": CASE.replace("evalcases", "eval_cases"),
        "evals/by_path.yaml": "description: x\n",
        "x.eval.yml": "description: x\n",
        "other.yaml": "services: {}\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert linted(tmp_path) == ["evals/by_path.yaml", "plain.yaml", "suite.yaml", "typo.yaml", "x.eval.yml"]


def test_unknown_agentv_schema_is_linted_with_ev012(tmp_path):
    (tmp_path / "s.yaml").write_text("$schema: agentv-eval-v9\n" + CASE.replace("id: 1", "id: a"))
    assert [d.code for d in lint_paths([tmp_path])] == ["EV012"]


def test_gitignore_hidden_and_node_modules_are_skipped(tmp_path):
    (tmp_path / ".git").mkdir()
    for name in ("keep/a.yaml", "ignored/b.yaml", "node_modules/c.yaml", ".hidden/d.yaml", ".agentv/e.yaml",
                 "keep/skip.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(CASE)
    (tmp_path / ".gitignore").write_text("ignored/\nskip.yaml\n")
    assert linted(tmp_path) == [".agentv/e.yaml", "keep/a.yaml"]


def test_named_files_are_linted_even_if_ignored(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("*.yaml\n")
    (tmp_path / "a.yaml").write_text(CASE)
    assert linted(tmp_path) == []
    assert [d.code for d in lint_paths([tmp_path / "a.yaml"])] == ["EV103"]


def test_exclude_globs(tmp_path):
    for name in ("a/x.yaml", "b/y.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(CASE)
    assert linted(tmp_path, Config(exclude=("b/**",))) == ["a/x.yaml"]


def test_order_is_deterministic_and_deduplicated(tmp_path):
    for name in ("b.yaml", "a.yaml", "c/a.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(CASE)
    paths = [str(tmp_path / "b.yaml"), str(tmp_path), str(tmp_path / "a.yaml")]
    got = [os.path.relpath(p, tmp_path) for p, _ in expand_paths(paths, Config())]
    assert got == ["a.yaml", "b.yaml", "c/a.yaml"]


def test_repository_root(tmp_path):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "sub" / ".agentv").mkdir(parents=True)
    (tmp_path / "plain" / ".agentv").mkdir(parents=True)
    (tmp_path / "plain" / "x" / "y").mkdir(parents=True)
    (tmp_path / "alone").mkdir()
    assert repo_root(str(tmp_path / "repo" / "sub")) == str(tmp_path / "repo")
    assert repo_root(str(tmp_path / "plain" / "x" / "y")) == str(tmp_path / "plain")
    assert repo_root(str(tmp_path / "alone")) in (str(tmp_path / "alone"), repo_root(str(tmp_path)))


def _outside_a_repository(folder) -> None:
    marked = [above for above in folder.parents if (above / ".git").exists() or (above / ".agentv").is_dir()]
    if marked:
        pytest.skip(f"{marked[0]}, above {folder}, holds .git or .agentv")


def test_outside_a_repository_the_root_is_the_working_folder_that_holds_the_file(tmp_path, monkeypatch):
    """As the runner's (findRepoRoot: the working folder when no folder above it holds .git), whatever folder between
    holds .agentv/; a file outside the working folder is its own root."""
    (tmp_path / "project" / "evals" / "deep" / ".agentv").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    _outside_a_repository(tmp_path / "project")
    assert repo_root(str(tmp_path / "project" / "evals" / "deep")) == str(tmp_path / "project")
    assert repo_root(str(tmp_path / "project")) == str(tmp_path / "project")
    assert repo_root(str(tmp_path / "elsewhere")) == str(tmp_path / "elsewhere")


def test_the_working_folder_is_no_root_when_it_is_the_home_folder_or_the_file_systems_root(tmp_path, monkeypatch):
    """Every path of the machine would be in the repository from /, and the user's cache in what is linted from
    the home folder or a folder above it."""
    (tmp_path / "evals").mkdir()
    monkeypatch.chdir(tmp_path)
    _outside_a_repository(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert repo_root(str(tmp_path / "evals")) == str(tmp_path / "evals")
    monkeypatch.setenv("HOME", str(tmp_path / "users" / "ada"))
    assert repo_root(str(tmp_path / "evals")) == str(tmp_path / "evals")
    monkeypatch.chdir("/")
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    assert repo_root(str(tmp_path / "evals")) == str(tmp_path / "evals")


def test_the_working_folder_in_a_folder_holding_agentv_takes_that_folder_for_the_root(tmp_path, monkeypatch):
    """Run from a project's subfolder, the project (the folder holding .agentv/) is the root, as run from the
    project itself."""
    (tmp_path / "p" / ".agentv").mkdir(parents=True)
    (tmp_path / "p" / "evals" / "deep").mkdir(parents=True)
    _outside_a_repository(tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p" / "evals")
    assert repo_root(str(tmp_path / "p" / "evals" / "deep")) == str(tmp_path / "p")
    assert repo_root(str(tmp_path / "p" / "evals" / "deep"), str(tmp_path)) == str(tmp_path)


PROMPT_ABOVE = ("tests: [{id: t, input: hi, criteria: ok, assertions: [{type: llm-grader, "
                "prompt: 'file://../prompts/g.md'}]}]\n")


def _prompt_above(folder):
    (folder / "evals").mkdir(parents=True)
    (folder / "prompts").mkdir()
    (folder / "evals" / "a.eval.yaml").write_text(PROMPT_ABOVE)
    (folder / "prompts" / "g.md").write_text("Grade it. {{ output }}\n")
    return folder


def test_outside_a_repository_a_prompt_above_the_eval_files_folder_is_inside_the_root(tmp_path):
    """Run from the eval file's own folder, that folder is the root, and the prompt is outside it."""
    _outside_a_repository(_prompt_above(tmp_path))
    assert run_concise(tmp_path, "--no-cache", ".") == (0, "", "")
    assert run_concise(tmp_path / "evals", "--no-cache", ".") == (1, (
        "a.eval.yaml:1:82: EV403 [error] '../prompts/g.md' resolves outside the repository root; evallint does not "
        "follow it and the runner may read a file you did not mean to ship\n"), "")


@pytest.mark.runner
def test_outside_a_repository_the_runner_reads_that_prompt(tmp_path):
    (tmp_path / "home").mkdir()
    _outside_a_repository(_prompt_above(tmp_path / "project"))
    run = run_suite(tmp_path / "project", "evals/a.eval.yaml", tmp_path / "home")
    assert (run["error"], run["logs"], [graded["prompt"] for graded in run["graded"]]) == (None, [], ["Grade it. answer 1\n"])


def test_path_kinds(tmp_path):
    (tmp_path / ".agentv").mkdir()
    assert PathKind(str(tmp_path / ".agentv" / "targets.yaml"), str(tmp_path), ()).kind == TARGETS
    (tmp_path / "d.jsonl").write_text("")
    assert PathKind(str(tmp_path / "d.yaml"), str(tmp_path), ()).kind == SIDECAR
    assert content_kind("targets.yaml", {"targets": []}, None) == TARGETS
    assert content_kind("x.yaml", {"evalCases": []}, None) == EVAL


class _Read(tuple):
    """Include globs that note each time they are read (in ``reads``)."""

    def __iter__(self):
        self.reads.append(1)
        return super().__iter__()


def test_a_path_kind_is_asked_place_by_place_and_the_include_globs_only_when_a_kind_before_them_does_not_decide(tmp_path):
    (tmp_path / ".agentv").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "d.jsonl").write_text("")
    include = _Read(Config().include)
    include.reads = []
    kinds = {".agentv/targets.yaml": TARGETS, ".agentv/config.yaml": CONFIG, "evals/d.yaml": SIDECAR,
             "evals/s.yaml": EVAL, "evals/d.jsonl": DATASET, "s.yaml": None}
    for name, kind in kinds.items():
        path = str(tmp_path / name)
        assert PathKind(path, str(tmp_path), include).kind == kind, name
        assert [place for place in (None, *(place for place, _ in PLACES)) if PathKind(path, str(tmp_path), include).gives(
            place)] == [kind], name
    include.reads = []
    for name, kind in list(kinds.items())[:3]:
        assert PathKind(str(tmp_path / name), str(tmp_path), include).gives(kind)
    assert PathKind(str(tmp_path / "evals/s.yaml"), str(tmp_path), include).gives(TARGETS) is False
    assert include.reads == []
    assert PathKind(str(tmp_path / "evals/s.yaml"), str(tmp_path), include).gives(EVAL) and include.reads


def test_include_globs():
    assert glob_match("examples/basic/evals/dataset.yaml", ("**/evals/**/*.yaml",))
    assert glob_match("evals/dataset.yaml", ("**/evals/**/*.yaml",))
    assert not glob_match("examples/dataset.yaml", ("**/evals/**/*.yaml",))
    assert glob_match("a/b.eval.yml", ("**/*.eval.yml",))


def test_a_glob_by_the_end_of_a_name_answers_as_the_pathspec_does():
    """'**/*.eval.yaml' is read by the end of the name, without building a PathSpec; the answer is the PathSpec's,
    for a glob written as a negating one, a folder of that name, a name in another case, a path with a line break
    and a glob that is no plain end too."""
    paths = ("x.eval.yaml", "a/b/x.eval.yaml", ".eval.yaml", "a/x.eval.yaml/", "a/x.eval.yaml/b.txt", "a/x.Eval.yaml",
             "a/x.eval.yamlx", "evals/x.yaml", "a/x[1].eval.yaml", "a\nb/x.eval.yaml", "a/x\n.eval.yaml")
    globs = (("**/*.eval.yaml",), ("**/*.eval.yaml", "!**/skip.eval.yaml"), ("**/*.eval.yaml", "**/evals/**/*.yaml"),
             ("**/*[.]eval.yaml",), ("**/*.eval.yaml ",), ("**/x*.eval.yaml",), ("*.eval.yaml",))
    for patterns in globs:
        spec = glob_spec(patterns)
        for path in paths + ("a/skip.eval.yaml",):
            assert glob_match(path, patterns) == spec.match_file(path), (path, patterns)


def test_a_suite_named_eval_yaml_is_linted_in_any_folder(tmp_path):
    """The agentv command runs '**/eval.yaml' of a folder it is given (apps/cli eval/shared.ts resolveEvalPaths),
    not only in an 'evals' folder; another tool's 'eval.yaml' (a Hydra config) is left alone."""
    git(tmp_path, "init", "-q")
    (tmp_path / "sub").mkdir()
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "eval.yaml").write_text("defaults:\n  - model: small\nbatch_size: 4\ncheckpoint: last.ckpt\n")
    for name in ("eval.yaml", "sub/eval.yml"):
        (tmp_path / name).write_text("tests:\n  - {id: a, input: hi, criteria: c, expected_outcome: c}\n")
    (tmp_path / "sub" / "notes.yaml").write_text("tests:\n  - {id: a, input: hi, criteria: c, expected_outcome: c}\n")
    then = "'expected_outcome' is ignored because 'criteria' is also present; remove one of them\n"
    assert run_concise(tmp_path, "--no-cache", ".") == (1, (
        f"eval.yaml:2:37: EV108 [error] {then}"
        f"sub/eval.yml:2:37: EV108 [error] {then}"), "")


def test_ci_workflow_is_never_reported(tmp_path):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    path = tmp_path / ".github" / "workflows" / "ci.yml"
    path.write_text("on: [push]\njobs:\n  test: {runs-on: ubuntu-latest}\n")
    assert not lint_file(str(path), Config()).linted


def test_a_walk_gives_normalized_paths_in_name_order(tmp_path, monkeypatch):
    from evallint.run.discovery import iter_paths

    for rel in ("b/evals/x.yaml", "a/evals/y.yaml", "a/evals/sub/z.yaml", "a/evals/.agentv/targets.yaml"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("evalcases: []\n")
    monkeypatch.chdir(tmp_path)
    expected = ["a/evals/.agentv/targets.yaml", "a/evals/sub/z.yaml", "a/evals/y.yaml", "b/evals/x.yaml"]
    for top, prefix in ((".", ""), ("./", ""), ("a/../", ""), (str(tmp_path) + "/", str(tmp_path) + "/")):
        assert [p for p, _ in iter_paths([top], Config())] == [prefix + e for e in expected]
    assert [p for p, _ in iter_paths(["a//evals/"], Config())] == ["a/evals/.agentv/targets.yaml", "a/evals/sub/z.yaml",
                                                                   "a/evals/y.yaml"]


def _tree(tmp_path, files):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)


def test_globs_understand_character_classes(tmp_path):
    _tree(tmp_path, {"cases/a.yaml": "description: x\n", "cases/b.yaml": "description: x\n",
                     "cases/c.yaml": "description: x\n"})
    (tmp_path / ".git").mkdir()
    found = lint_paths([tmp_path], config=Config(include=("cases/[ab].yaml",)))
    linted_paths = {os.path.relpath(d.path, tmp_path) for d in found}
    assert linted_paths == {"cases/a.yaml", "cases/b.yaml"}
    _tree(tmp_path, {name: CASE for name in ("cases/a.yaml", "cases/b.yaml", "cases/c.yaml")})
    assert linted(tmp_path, Config(exclude=("cases/[ab].yaml",))) == ["cases/c.yaml"]


def test_a_glob_does_not_match_a_hidden_folder_of_a_similar_name(tmp_path):
    (tmp_path / ".git").mkdir()
    _tree(tmp_path, {".agentv/targets.yaml": "targets: 3\n", "agentv/t.yaml": CASE})
    assert linted(tmp_path, Config(exclude=("agentv/*.yaml",))) == [".agentv/targets.yaml"]


def test_a_glob_without_a_slash_matches_at_the_root_only(tmp_path):
    (tmp_path / ".git").mkdir()
    _tree(tmp_path, {"x.yaml": CASE, "sub/x.yaml": CASE})
    assert linted(tmp_path, Config(exclude=("*.yaml",))) == ["sub/x.yaml"]
    assert linted(tmp_path, Config(exclude=("**/x.yaml",))) == []


def test_per_file_ignores_match_below_a_folder_whose_name_holds_glob_characters(tmp_path):
    project = tmp_path / "a[b]*"
    (project / ".git").mkdir(parents=True)
    _tree(project, {"evals/a.yaml": CASE.replace("id: 1", "id: 1\n    colour: red")})
    (project / ".evallint.toml").write_text('[per-file-ignores]\n"evals/a.yaml" = ["EV109"]\n')
    code, out, _ = run_concise(project, ".")
    assert [line.split()[1] for line in out.splitlines()] == ["EV103"]


def test_a_fifo_named_gitignore_above_the_folder_does_not_block_the_walk(tmp_path):
    (tmp_path / ".git").mkdir()
    os.mkfifo(tmp_path / ".gitignore")  # read as it stands, a FIFO waits for a writer that never comes
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "a.yaml").write_text(CASE)
    done = subprocess.run([sys.executable, "-m", "evallint", "--format", "concise", "evals"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout.split(" ")[1], done.stderr) == (1, "EV103", "")  # 'id: 1', linted
