"""--fix and --diff: golden pairs, idempotence, byte preservation, safety."""
from __future__ import annotations

import io
import os
import shutil
import stat
import subprocess

import pytest
import yaml
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evallint import lint_paths
from evallint.cli import main
from evallint.config import Config

FIX = FIXTURES / "fix"
PAIRS = sorted(FIX.glob("*.in.yaml"))
ARGS = ["--extend-select", "EV9,EV322", "--unsafe-fixes", "--no-references", "--format", "concise", "--quiet"]


def run(*argv, stdin=None):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=stdin)
    return code, out.getvalue(), err.getvalue()


def fixed_copy(pair, tmp_path):
    path = tmp_path / pair.name.replace(".in.yaml", ".yaml")
    shutil.copyfile(pair, path)
    return path


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_fix_golden_pair(pair, tmp_path):
    path = fixed_copy(pair, tmp_path)
    code, out, err = run("--fix", *ARGS, str(path))
    assert path.read_bytes() == pair.with_name(pair.name.replace(".in.", ".out.")).read_bytes()
    assert out.startswith("Fixed ") and err == ""
    config = Config(extend_select=("EV9", "EV322"), references=False)
    assert [d.code for d in lint_paths([path], config=config) if d.fix is not None] == []


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_fix_is_idempotent(pair, tmp_path):
    out_file = pair.with_name(pair.name.replace(".in.", ".out."))
    path = tmp_path / "again.yaml"
    shutil.copyfile(out_file, path)
    code, out, _ = run("--fix", *ARGS, str(path))
    assert path.read_bytes() == out_file.read_bytes()
    assert out.startswith("Fixed 0 problems in 0 files.")


def test_every_fixable_rule_has_a_golden_pair():
    from evallint.rules.registry import RULES

    names = " ".join(p.name for p in PAIRS)
    for code, rule in RULES.items():
        if rule.fixable:
            assert code in names, code


def test_crlf_bom_and_comments_survive():
    crlf = (FIX / "crlf_line_endings.out.yaml").read_bytes()
    assert b"\r\n" in crlf and b"\n" not in crlf.replace(b"\r\n", b"")
    assert b"# five" in crlf
    assert (FIX / "utf8_bom.out.yaml").read_bytes().startswith(b"\xef\xbb\xbf$schema: agentv-eval-v2\n")


def test_diff_writes_nothing_and_exits_1(tmp_path):
    path = fixed_copy(FIX / "EV901_expected_outcome.in.yaml", tmp_path)
    before = path.read_bytes()
    code, out, err = run("--diff", *ARGS, str(path))
    assert code == 1 and path.read_bytes() == before
    assert out.startswith(f"--- a/{path}\n+++ b/{path}\n")
    assert "-    outcome: Greets the user.   # alias\n+    expected_outcome: Greets the user.   # alias\n" in out
    assert err == "Would fix 2 problems in 1 file.\n"
    clean = fixed_copy(FIX / "EV901_expected_outcome.out.yaml", tmp_path)
    assert run("--diff", *ARGS, str(clean))[:2] == (0, "")


def test_unsafe_fixes_need_the_flag(tmp_path):
    path = fixed_copy(FIX / "EV322_script_list.in.yaml", tmp_path)
    before = path.read_bytes()
    code, out, _ = run("--fix", "--extend-select", "EV322", "--no-references", "--format", "concise", str(path))
    assert path.read_bytes() == before and out.startswith("Fixed 0 problems in 0 files.")
    assert "[*]" not in run("--extend-select", "EV322", "--no-references", str(path))[1]


def test_fix_keeps_permissions_and_exit_code_reflects_what_remains(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n    notes: x\n  - id: b\n    input: q\n")
    os.chmod(path, 0o640)
    code, out, _ = run("--fix", "--no-references", "--format", "concise", str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert code == 1 and out.splitlines()[0] == "Fixed 1 problem in 1 file."
    assert [line.split()[1] for line in out.splitlines()[1:-1]] == ["EV109", "EV106"]
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".evallint-")]


def test_file_changed_on_disk_is_not_clobbered(tmp_path, monkeypatch):
    import evallint.run.autofix as autofix

    path = tmp_path / "s.yaml"
    path.write_text("evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n")
    real = autofix.fix_file

    def edit_meanwhile(result, config, **kw):
        outcome = real(result, config, **kw)
        path.write_text("# edited by someone else\n" + path.read_text())
        return outcome

    monkeypatch.setattr(autofix, "fix_file", edit_meanwhile)
    code, out, err = run("--fix", "--no-references", str(path))
    assert code == 2 and "changed while it was being linted; not fixed" in err
    assert path.read_text().startswith("# edited by someone else\nevalcases:\n  - id: 1\n")


def test_fix_with_staged_is_refused(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, out, err = run("--fix", "--staged")
    finally:
        os.chdir(old)
    assert code == 2 and "--fix cannot be combined with --staged" in err


# --- property: a fix changes exactly the fixed keys or values ---------------------

KEYS = st.sampled_from(["a", "b", "c"])
SCALARS = st.one_of(st.integers(-5, 99), st.sampled_from(["x", "hello world", "yes", "2026-01-01"]))


@st.composite
def eval_files(draw):
    n = draw(st.integers(1, 4))
    lines = []
    if draw(st.booleans()):
        lines.append("# a leading comment")
    if draw(st.booleans()):
        lines.append("target: default  # legacy")
    lines.append("evalcases:")
    for i in range(n):
        case_id = draw(st.one_of(st.integers(0, 999), st.just(f"case-{i}")))
        outcome_key = draw(st.sampled_from(["outcome", "expected_outcome"]))
        flow = draw(st.booleans())
        extra = {draw(KEYS): draw(SCALARS)} if draw(st.booleans()) else {}
        args_key = draw(st.sampled_from(["args", "input"]))
        if flow:
            lines.append(f"  - {{id: {case_id}, {outcome_key}: Goal {i}, input: q}}")
        else:
            lines += [f"  - id: {case_id}  # c{i}", f"    {outcome_key}: Goal {i}", "    input: q",
                      "    expected_messages:", "      - role: assistant", "        tool_calls:",
                      f"          - {{tool: t{i}, {args_key}: {extra or {'k': 1}}}}".replace("'", "")]
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + newline


def normalize(data, renamed):
    """The parsed data with exactly the fixed keys and values put back."""
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            out[renamed.get(key, key)] = normalize(value, renamed)
        if "execution" in out and list(out["execution"]) == ["target"]:
            out["target"] = out.pop("execution")["target"]
        out.pop("$schema", None)
        if "id" in out:
            out["id"] = str(out["id"])
        return out
    if isinstance(data, list):
        return [normalize(v, renamed) for v in data]
    return data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(eval_files())
def test_fix_changes_only_the_fixed_keys_and_values(tmp_path, text):
    path = tmp_path / "p.yaml"
    path.write_bytes(text.encode())
    run("--fix", *ARGS, str(path))
    after = path.read_bytes().decode()
    before_data = yaml.load(text, Loader=yaml.BaseLoader)
    after_data = yaml.load(after, Loader=yaml.BaseLoader)
    renamed = {"outcome": "expected_outcome", "args": "input"}
    assert normalize(after_data, {}) == normalize(before_data, renamed)
    assert after.count("\r\n") >= text.count("\r\n")
    for i in range(5):
        if f"# c{i}" in text:
            assert f"# c{i}" in after


def test_fix_from_stdin_with_a_file_name_prints_the_fixed_text_and_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evals").mkdir()
    data = io.BytesIO(b"evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n")
    code, out, err = run("--fix", "--format", "concise", "--stdin-filename", "evals/f.yaml", "-", stdin=data)
    assert (code, out) == (0, "evalcases:\n  - id: \"1\"\n    expected_outcome: g\n    input: q\n")
    assert err == "Fixed 1 problem in 1 file.\nNo problems found (1 file checked).\n"
    assert list(tmp_path.rglob("*.yaml")) == []


def test_fix_from_stdin_prints_the_text_unchanged_when_nothing_is_fixed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = "evalcases:\n  - id: a\n    expected_outcome: g\n    inptu: q\n"
    code, out, err = run("--fix", "--format", "concise", "--stdin-filename", "evals/f.yaml", "-",
                         stdin=io.BytesIO(text.encode()))
    assert (code, out) == (1, text)
    assert err.startswith("Fixed 0 problems in 0 files.\nevals/f.yaml:2:5: EV105 [error]")
    assert list(tmp_path.iterdir()) == []
