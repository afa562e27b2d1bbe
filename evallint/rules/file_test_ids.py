"""The test ids of the files of tests a suite reads, checked against the suite's own and each other's (EV104 and
EV126, explained in structure.md): the runner changes no id of a file of tests (case-file-loader.ts), stops the run
on an id given twice (orchestrator.ts), and writes each test's results to a folder named after its id
(run-artifacts.ts)."""
from __future__ import annotations

from typing import Optional

from evallint.load.case_files import folder_tests, tests_of
from evallint.rules.common import finding
from evallint.rules.kept_tests import kept_by_loader
from evallint.rules.reference_words import shown
from evallint.rules.structure import DUPLICATE, SHARED_FOLDER, artifact_folder
from evallint.suggest import quote


class FileTestIds:
    """The checks of ``references.ReferenceChecker`` for the test ids of files and folders of tests."""

    def _duplicates(self, site, path: str, named: Optional[str] = None) -> None:
        """EV104 for a test id of the file of tests at ``path`` (``named``: as a pattern's match) that a test of the
        suite's own list, or of a file an earlier item names, has too."""
        inline, named = dict(site.extra["ids"]), named or site.value
        for other, at in inline.items():  # the suite's own tests come first
            self.artifact_folders.setdefault(artifact_folder(other), (other, "the test on line {ref_line}", at))
        for test in tests_of(path, self.root, self.max_bytes):
            test_id = test.get("id")
            if not (isinstance(test_id, str) and test_id and kept_by_loader(test, suite=site.extra["suite"])):
                continue
            earlier, earlier_path = self.test_ids.get(test_id, (None, None))
            if earlier_path == path:
                self.out.append(finding("EV104", f"file of tests {quote(named)} is read again here (an earlier item "
                                        f"reads it too), so its test id {quote(test_id)} is there twice; {DUPLICATE}",
                                        site.path))
            elif test_id in inline or earlier:
                first = "the test on line {ref_line}" if test_id in inline else f"file of tests {quote(earlier)}"
                self.out.append(finding("EV104", f"file of tests {quote(named)} holds test id {quote(test_id)}, as "
                                        f"{first} does; {DUPLICATE}", site.path, ref=inline.get(test_id)))
            else:
                self._artifact_folder(site, test_id, f"file of tests {quote(named)}")
            self.test_ids.setdefault(test_id, (named, path))

    def _artifact_folder(self, site, test_id: str, holder: str) -> None:
        """EV126 for ``test_id`` of a file of tests (``holder`` says which) whose artifact folder an earlier test of
        the suite names with another id (``artifact_folders``): one of its own list, or of a file of tests read
        before. The runner changes no id of a file of tests (case-file-loader.ts), and writes each test's results
        to a folder named after its id (run-artifacts.ts)."""
        first, where, at = self.artifact_folders.setdefault(artifact_folder(test_id), (test_id, holder, None))
        if first != test_id:
            self.out.append(finding("EV126", f"{holder} holds test id {quote(test_id)}, which names the artifact folder "
                                    f"of test {quote(first)} ({where}): {SHARED_FOLDER}", site.path, ref=at))

    def _duplicate_cases(self, site, folder: str) -> None:
        """EV104 for two case files of a folder of tests that give the same test id (it stops the run), EV126 for
        two whose ids differ but name the same artifact folder."""
        first: dict = {}
        for test, path in folder_tests(folder, self.root, self.max_bytes):
            if isinstance(test.get("id"), str) and test["id"] and kept_by_loader(test, suite=site.extra["suite"]):
                earlier, earlier_path = first.get(artifact_folder(test["id"]), (None, path))
                files = f"case files {quote(shown(earlier_path, self.root))} and {quote(shown(path, self.root))}"
                if earlier == test["id"]:
                    self.out.append(finding("EV104", f"{files} of the folder of tests give the same test id "
                                            f"{quote(test['id'])}; {DUPLICATE}", site.path))
                elif earlier is not None:
                    self.out.append(finding("EV126", f"{files} of the folder of tests give the test ids {quote(earlier)} "
                                            f"and {quote(test['id'])}, which name the same artifact folder: "
                                            f"{SHARED_FOLDER}", site.path))
                first.setdefault(artifact_folder(test["id"]), (test["id"], path))
