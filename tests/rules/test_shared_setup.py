"""A workspace file's part in the setup of the folder the tests share (rules/shared_setup.py), judged once the
file is read as the suite's inline workspaces are judged without it, and checked against AgentV 4.42.4's
runEvaluation: contradicting settings (EV110), a later test's settings and hooks (EV125, EV124), the suite's hooks
that the first test's file keeps from running (EV124)."""
from __future__ import annotations

import pytest

from agreement import run_written, write_suite
from clirun import run_concise


def _hook(log, name: str) -> str:
    return f"{{command: [sh, -c, 'cat >/dev/null; echo {name} >> {log}']}}"


TESTS = "tests:\n  - {id: t1, input: hi, criteria: c%s}\n  - {id: t2, input: hi, criteria: c%s}\n"


def _cases(tmp_path) -> dict:
    """name -> (the suite, its files, what evallint says, the runner's error or the hooks that ran)."""
    log, static = tmp_path / "log", tmp_path / "static"
    return {
        "suite-file-contradicts": (
            "workspace: ./ws.yaml\n" + TESTS % ("", ""), (("ws.yaml", f"path: {static}\nmode: temp\n"),),
            "a.eval.yaml:1:12: EV110 [error] in workspace file './ws.yaml': workspace 'path' needs mode static, not "
            "'temp'; the run fails before any test\n", "workspace.path requires workspace.mode=static"),
        "first-file-contradicts": (
            f"workspace: {{path: {static}}}\n" + TESTS % (", workspace: ./ws.yaml", ""),
            (("ws.yaml", "isolation: per_test\n"),),
            "a.eval.yaml:3:49: EV110 [error] in workspace file './ws.yaml': a static workspace cannot have isolation "
            "'per_test'; the run fails before any test (write isolation: shared)\n",
            "static workspace mode is incompatible with isolation: per_test. Use isolation: shared (default)."),
        "later-file": (
            f"workspace:\n  template: ./tpl\n  hooks: {{before_all: {_hook(log, 'suite-before')}}}\n"
            + TESTS % ("", ", workspace: ./ws.yaml"),
            (("tpl/readme.txt", "hi\n"), ("tpl2/two.txt", "two\n"),
             ("ws.yaml", f"template: ./tpl2\nhooks:\n  before_all: {_hook(log, 't2-before')}\n")),
            "a.eval.yaml:6:49: EV124 [error] in workspace file './ws.yaml': this test's 'before_all' never runs: the "
            "tests share one workspace folder, whose setup runs only the first test's 'before_all' (merged with the "
            "suite's); set it in the suite's workspace, or in the first test's\n"
            "a.eval.yaml:6:49: EV125 [error] in workspace file './ws.yaml': this test's workspace 'template' is never "
            "read: the tests share one workspace folder, which the run sets up from the first test's workspace (merged "
            "with the suite's) alone; set it in the suite's workspace, or in the first test's\n", ["suite-before"]),
        "first-file-replaces": (
            f"workspace:\n  hooks: {{before_all: {_hook(log, 'suite-before')}}}\n"
            + TESTS % (", workspace: ./ws.yaml", ""),
            (("ws.yaml", f"hooks:\n  before_all: {_hook(log, 't1-before')}\n"),),
            "a.eval.yaml:2:11: EV124 [error] the suite's 'before_all' command never runs: the first test's own "
            "'before_all' replaces it (the runner merges a test's hooks over the suite's, key by key) and the run runs "
            "only the first test's; keep one of them\n", ["t1-before"]),
        "first-file-per-test": (
            f"workspace:\n  template: ./tpl\n  hooks: {{after_all: {_hook(log, 'suite-after')}}}\n"
            + TESTS % (", workspace: ./ws.yaml", ""),
            (("tpl/readme.txt", "hi\n"), ("ws.yaml", "isolation: per_test\n")),
            "a.eval.yaml:3:11: EV124 [error] the suite's 'after_all' never runs: the tests share no workspace folder "
            "(the first test's workspace, merged with the suite's, sets 'isolation: per_test' or gives no template, "
            "hooks or repos), and the runner runs an 'after_all' only in a shared one\n", []),
        "later-inline-under-a-file": (
            "workspace: ./ws.yaml\n" + TESTS % (
                "", f", workspace: {{template: ./tpl2, hooks: {{before_all: {_hook(log, 't2-before')}}}}}"),
            (("tpl/readme.txt", "hi\n"), ("tpl2/two.txt", "two\n"),
             ("ws.yaml", f"template: ./tpl\nhooks:\n  before_all: {_hook(log, 'suite-before')}\n")),
            LATER_INLINE % (4, 4), ["suite-before"]),
        "later-inline-after-a-file": (
            TESTS % (", workspace: ./ws.yaml",
                     f", workspace: {{template: ./tpl2, hooks: {{before_all: {_hook(log, 't2-before')}}}}}"),
            (("tpl/readme.txt", "hi\n"), ("tpl2/two.txt", "two\n"),
             ("ws.yaml", f"template: ./tpl\nhooks:\n  before_all: {_hook(log, 't1-before')}\n")),
            LATER_INLINE % (3, 3), ["t1-before"]),
    }


# a later test's inline template and before_all, which the setup a workspace file decides never reads
LATER_INLINE = ("a.eval.yaml:%d:50: EV125 [error] this test's workspace 'template' is never read: the tests share one "
                "workspace folder, which the run sets up from the first test's workspace (merged with the suite's) "
                "alone; set it in the suite's workspace, or in the first test's\n"
                "a.eval.yaml:%d:76: EV124 [error] this test's 'before_all' never runs: the tests share one workspace "
                "folder, whose setup runs only the first test's 'before_all' (merged with the suite's); set it in the "
                "suite's workspace, or in the first test's\n")
CASES = ("suite-file-contradicts", "first-file-contradicts", "later-file", "first-file-replaces", "first-file-per-test",
         "later-inline-under-a-file", "later-inline-after-a-file")


@pytest.mark.parametrize("name", CASES)
def test_a_workspace_files_part_in_the_shared_setup_is_judged_once_read(tmp_path, name):
    text, files, said, _ = _cases(tmp_path)[name]
    assert run_concise(write_suite(tmp_path, text, files), "--no-cache", "a.eval.yaml")[1] == said


@pytest.mark.runner
@pytest.mark.parametrize("name", CASES)
def test_the_runner_sets_up_the_shared_folder_from_the_first_tests_workspace_file_too(tmp_path, name):
    text, files, _, then = _cases(tmp_path)[name]
    ran = run_written(tmp_path, text, files)
    if isinstance(then, str):
        assert ran["error"] == then
    else:
        log = tmp_path / "log"
        assert (ran["error"], log.read_text().split() if log.exists() else []) == (None, then)
