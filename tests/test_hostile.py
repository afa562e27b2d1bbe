"""Hostile input: nothing crashes, hangs or blows up. Each file is
linted in its own process under an address-space limit and a timeout."""
from __future__ import annotations

import json

import pytest
from conftest import FIXTURES, ROOT
from hostile import LARGE, MANY, SMALL, build, build_many

HOSTILE = FIXTURES / "hostile" / "evals"
MAX_RSS_MB = 200


def lint_bounded(bounded, path, cwd):
    proc = bounded.run("--no-cache", "--format", "json", str(path), cwd=cwd)
    return proc.returncode, proc.stdout, proc.stderr


def check(bounded, path, cwd, expected, tmp_path):
    """The diagnostics of the file at ``path``, linted in a process of its own, whose peak memory stays small."""
    proc, peak = bounded.measured("--no-cache", "--format", "json", str(path), cwd=cwd, peak_file=tmp_path / "peak")
    code, err = proc.returncode, proc.stderr
    assert code in (0, 1), (code, err)
    diagnostics = json.loads(proc.stdout)
    codes = [d["code"] for d in diagnostics]
    assert "EV000" not in codes, err
    if expected is not None:
        assert codes == expected
    assert code == (1 if any(d["severity"] == "error" for d in diagnostics) else 0)
    assert peak < MAX_RSS_MB
    return diagnostics


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_hostile_file(bounded, name, tmp_path):
    assert (HOSTILE / name).read_bytes() == SMALL[name][0], "fixtures/hostile is out of date: run tests/hostile.py"
    check(bounded, HOSTILE / name, ROOT, SMALL[name][1], tmp_path)


@pytest.fixture(scope="module")
def large(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile")
    repo, outside = base / "repo", base / "outside"
    outside.mkdir()
    (repo / ".git").mkdir(parents=True)
    build(repo / "evals", outside)
    build_many(repo / "many")
    return repo


@pytest.mark.parametrize("name", sorted(LARGE))
def test_large_or_special_hostile_file(bounded, large, name, tmp_path):
    diagnostics = check(bounded, large / "evals" / name, large, LARGE[name], tmp_path)
    if LARGE[name] is None:  # quadratic merge: every merge key reported, expansion stopped
        codes = [d["code"] for d in diagnostics]
        assert codes[-1] == "EV005" and set(codes[:-1]) == {"EV010"}


@pytest.mark.parametrize("name", sorted(MANY))
def test_input_of_thousands_of_items(bounded, large, name, tmp_path):
    check(bounded, large / "many" / name, large, MANY[name], tmp_path)


def test_a_hostile_folder_is_linted_file_by_file(bounded, large):
    code, out, err = lint_bounded(bounded, large / "evals", large)
    assert code == 1 and "EV000" not in out
    assert {d["path"].rsplit("/", 1)[-1] for d in json.loads(out)} >= {"fifo.yaml", "big_50mb.yaml",
                                                                      "deep_mapping_1m.yaml", "link_loop.yaml"}


def test_nothing_is_executed_or_written(bounded, tmp_path):
    marker = tmp_path / "pwned"
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "x.yaml").write_text(
        f"evalcases: !!python/object/apply:os.system ['touch {marker}']\n"
        "extra:\n  - !!python/object/new:os.system [touch " + str(marker) + "]\n")
    (tmp_path / "evals" / "judge.yaml").write_text(
        "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    evaluators:\n"
        f"      - {{name: k, type: code_judge, script: 'touch {marker}'}}\n")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    code, out, err = lint_bounded(bounded, tmp_path, tmp_path)
    assert code == 1 and not marker.exists()
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # --no-cache: nothing written at all
