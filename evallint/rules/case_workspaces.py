"""The workspace templates of a folder of tests' cases that the run never reads (EV125, explained in
structure.md): the loader gives a case without a workspace its subfolder's 'workspace' folder as its template
(case-file-loader.ts), but when the tests share one workspace folder, the run sets that folder up from the first
test's workspace, merged with the suite's, alone (workspace/setup.ts)."""
from __future__ import annotations

import os
from typing import Any

from evallint.diagnostics import Finding
from evallint.load.case_files import folder_tests
from evallint.rules.common import is_text
from evallint.rules.kept_tests import first_test, kept_by_loader
from evallint.rules.reference_words import shown
from evallint.rules.workspace_kept import case_template, first_workspace, shares_a_folder
from evallint.suggest import quote


def later_case_templates(at: tuple, suite_workspace: Any, folder: str, suite_folder: str, root: str,
                         max_bytes: int) -> list:
    """EV125, at ``at`` (the suite's 'tests'), for each case of the folder of tests ``folder`` after the first whose
    template the loader makes of its 'workspace' folder, when the tests share a workspace folder set up from
    another template; ``suite_workspace`` is the suite's inline workspace (a workspace file leaves it unknown)."""
    cases = [(test, case_template(test, os.path.dirname(path))) for test, path in folder_tests(folder, root, max_bytes)]
    tests = [{**test, "workspace": {"template": template}} if template else test for test, template in cases]
    data = {"workspace": suite_workspace, "tests": tests}
    setup = first_workspace(data)
    if setup is None or shares_a_folder(data) is not True:
        return []
    read = os.path.normpath(os.path.join(suite_folder, setup["template"])) if is_text(setup["template"]) else None
    first = first_test(tests)
    return [Finding("EV125", f"the workspace folder {quote(shown(template, root))} of case {quote(test['id'])} is never "
                    "read: the runner makes it the test's workspace template, but the tests share one workspace folder, "
                    "which the run sets up from the first test's workspace (merged with the suite's) alone; give the "
                    "suite the template, or the suite's workspace 'isolation: per_test'", at)
            for test, (_, template) in zip(tests, cases)
            if template is not None and test is not first and kept_by_loader(test) and template != read]
