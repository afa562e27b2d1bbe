"""The workspace templates of a folder of tests' cases that the run never reads (EV125, explained in
structure.md): the loader gives a case without a workspace its subfolder's 'workspace' folder as its template
(case-file-loader.ts), but when the tests share one workspace folder, the run sets that folder up from the first
test's workspace, merged with the suite's, alone (workspace/setup.ts); and the hooks of the suite's workspace that
the first case's workspace keeps from running (EV124); and a case's own workspace without a template beside its
subfolder's 'workspace' folder, which the loader then never uses (EV129)."""
from __future__ import annotations

import os

from evallint.diagnostics import KEY, Finding
from evallint.load.case_files import folder_tests
from evallint.rules.common import Place, finding, is_text
from evallint.rules.hook_runs import ONCE, never_runs
from evallint.rules.kept_tests import first_test, kept_by_loader
from evallint.rules.reference_words import shown
from evallint.rules.workspace_kept import (case_template, case_workspace_folder, first_workspace, inline_hooks,
                                          shares_a_folder)
from evallint.suggest import quote


def case_workspace_findings(at: tuple, suite: dict, folder: str, suite_folder: str, root: str,
                            max_bytes: int) -> list:
    """EV125, at ``at`` (the suite's 'tests'), for each case of the folder of tests ``folder`` after the first whose
    template the loader makes of its 'workspace' folder, when the tests share a workspace folder set up from
    another template; EV124 for a hook of the suite's workspace that the first case keeps from running.
    ``suite`` is the suite's mapping: its inline workspace (a workspace file leaves it unknown), and its input files,
    which decide which cases the loader keeps. The folder is read when references are checked."""
    cases = [(test, case_template(test, os.path.dirname(path))) for test, path in folder_tests(folder, root, max_bytes)]
    tests = [{**test, "workspace": {"template": template}} if template else test for test, template in cases]
    data = {"workspace": suite.get("workspace"), "input_files": suite.get("input_files"), "tests": tests}
    setup = first_workspace(data)
    if setup is None or shares_a_folder(data) is not True:
        return _suite_hooks_unrun(data)
    read = os.path.normpath(os.path.join(suite_folder, setup["template"])) if is_text(setup["template"]) else None
    first = first_test(tests, data)
    return [Finding("EV125", f"the workspace folder {quote(shown(template, root))} of case {quote(test['id'])} is never "
                    "read: the runner makes it the test's workspace template, but the tests share one workspace folder, "
                    "which the run sets up from the first test's workspace (merged with the suite's) alone; give the "
                    "suite the template, or the suite's workspace 'isolation: per_test'", at)
            for test, (_, template) in zip(tests, cases)
            if template is not None and test is not first and kept_by_loader(test, suite=data) and template != read] \
        + _suite_hooks_unrun(data)


def unused_case_folder(test: dict, subfolder: str, suite_folder: str) -> list:
    """EV129 for a folder of tests' case in ``subfolder`` whose own inline 'workspace' sets no 'template' while the
    subfolder holds a 'workspace' folder: the loader makes that folder the template only of a case without a
    workspace (``case_template``), so the test runs without what it holds. Not of a workspace file, whose template
    is not known here."""
    workspace = test.get("workspace")
    folder = case_workspace_folder(subfolder) if isinstance(workspace, dict) and "template" not in workspace else None
    if folder is None:
        return []
    written = os.path.relpath(folder, suite_folder).replace(os.sep, "/")
    return [finding("EV129", f"this case's 'workspace' sets no 'template', so the runner never uses the subfolder's "
                    f"'workspace' folder: the loader makes it the template only of a case without a workspace; add "
                    f"'template: {written}' (looked up from the suite's folder), or move the folder out",
                    ("workspace",), KEY)]


def _suite_hooks_unrun(data: dict) -> list:
    """EV124 for a 'before_all' or 'after_all' of the suite's inline workspace that the first case keeps from running,
    in the suite ``data`` whose tests are a folder's cases (``hook_runs.never_runs``)."""
    hooks, at = inline_hooks(data), ("workspace", "hooks")
    return [finding("EV124", why, at + (name,), KEY) for name in ONCE if isinstance(hooks.get(name), dict)
            for why in [never_runs(name, hooks, Place(at, document=data))] if why is not None]
