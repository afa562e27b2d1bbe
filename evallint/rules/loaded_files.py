"""AgentV 4.42.4's references to files its loader reads from the eval file's folder only: files and folders of
tests, 'file://' patterns, workspace files and assertion templates, with the references of what they hold."""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Optional

from evallint.diagnostics import Finding
from evallint.load import templates
from evallint.load.case_files import (
    BLANK, CASE_FILES, CASE_WORKSPACE, FILE_PREFIX, TEST_SIGNS, TESTS_SUFFIXES, UNREADABLE, case_file, folder_tests,
    holds_no_test, naming_suite, pattern_files, tests_of, yaml_data,
)
from evallint.load.files import YAML_SUFFIXES
from evallint.load.glob_braces import RANGE_LIMIT, refused_length, refused_range
from evallint.load.globs import is_glob, read_folders, static_folder
from evallint.load.named_data import paths_named
from evallint.load.paths import inside
from evallint.load.reach import resolve
from evallint.load.view import current
from evallint.rules.case_workspaces import case_workspace_findings
from evallint.rules.datasets import SIDECAR_SUFFIX, sidecar_grading
from evallint.rules.file_test_ids import FileTestIds
from evallint.rules.grader_lists import member_problems
from evallint.rules.dependencies import dependency_findings
from evallint.rules.hook_runs import replaced
from evallint.rules.reference_words import elsewhere, escape_finding, shown, then_
from evallint.rules.shared_setup import file_findings, replaced_in_suite_file
from evallint.rules.workspace_kept import command_of, file_hook_cwd, file_settings, template_file
from evallint.suggest import near_misses, quote, shown as shown_value


class LoadedFiles(FileTestIds):
    """The checks of ``references.ReferenceChecker`` for the files the loader reads."""

    def _local_file(self, site) -> None:
        """A file the loader reads from the eval file's folder only (a file or folder of tests, a workspace
        file, a workspace template): without it, the runner does what ``extra['then']`` says. A ``file://``
        item of 'tests' with a glob character is a pattern: the runner loads what it matches, and warns
        when it matches nothing."""
        if site.extra.get("glob") and is_glob(site.value):
            self._pattern(site)
            return
        resolved = as_file = resolve(site.value, self.folder, self.root, ancestors=False)
        if resolved.path is None and (site.extra.get("folder") or site.extra.get("file_item")):
            resolved = resolve(site.value, self.folder, self.root, ancestors=False, want_dir=True)
        if site.extra.get("file_item") and resolved.path is not None and current().isdir(resolved.path):
            self.out.append(Finding("EV401", f"{site.extra['what']} {quote(site.value)} is a folder: a 'file://' item "
                                    "names a file (a folder of tests is read only when 'tests' is its path alone)"
                                    f"{then_(site)}", site.path))
        elif resolved.escapes:
            self.out.append(escape_finding(site.path, site.value))
        elif resolved.path is None:
            self.out.append(Finding("EV401", f"{site.extra['what']} {quote(site.value)} not found (looked in: "
                                    f"{self._tried(resolved, near=resolved.near or as_file.near)}){then_(site)}", site.path))
        elif site.extra.get("cases") and current().isdir(resolved.path):
            self._folder_of_tests(site, resolved.path)
        elif current().isfile(resolved.path):
            self._local_file_read(site, resolved.path)

    def _local_file_read(self, site, path: str) -> None:
        """The file at ``path`` that ``site`` names, read: a workspace file, a file of tests, a workspace template."""
        if site.extra.get("workspace") and self.workspace_file:
            self._workspace(site, path)
        elif site.extra.get("tests_file"):
            self._file_of_tests(site, path)
        elif site.extra.get("template"):
            self.out.extend(template_file(site, path))

    def _file_of_tests(self, site, path: str) -> None:
        """A file of tests the runner reads (loaders/case-file-loader.ts): a YAML list, or JSONL lines, by its
        suffix; it rejects the suite for a file of another suffix, or a YAML file that holds no list. A 'file://'
        item's tests join the suite's (``extra['ids']``: the id and place of each test the suite's own list keeps):
        an id twice stops the run (EV104)."""
        if site.extra.get("ids") is not None:
            self._duplicates(site, path)
        if not path.lower().endswith(TESTS_SUFFIXES):
            self._unsupported(site, f"file of tests {quote(site.value)} is")
            return
        self._contents(site, path, f"file of tests {quote(site.value)}")

    def _contents(self, site, path: str, said: str) -> None:
        """What the file of tests at ``path`` (``said``: which file) holds: EV401 for a YAML file that holds no list
        (the runner rejects the suite; it skips a blank file, with a warning), EV111 for one that holds no test (the
        runner loads none from it; of white space alone, warning 'External test file is empty')."""
        data = yaml_data(path, self.root, self.max_bytes) if not path.lower().endswith(".jsonl") else []
        if path.lower().endswith(".jsonl"):
            self._bypassed_sidecar(site, path, said)
        if holds_no_test(path, self.root, self.max_bytes):
            self.out.append(Finding("EV111", f"{said} holds no test; the runner loads none from it", site.path))
        elif data is not UNREADABLE and data is not BLANK and not isinstance(data, list):
            self.out.append(Finding("EV401", f"{said} holds {shown_value(data)}, not a list of tests{then_(site)} "
                                    "('External test file must contain a YAML array')"
                                    + ("; list the tests at its top level" if isinstance(data, dict) and "tests" in data
                                       and path != os.path.abspath(self.eval_path) else ""), site.path))

    def _bypassed_sidecar(self, site, path: str, said: str) -> None:
        """EV704 for a ``.jsonl`` file of tests whose sidecar gives default graders: run on its own, the file is a
        dataset graded by them; named by a suite, the runner reads it without its sidecar (case-file-loader.ts)."""
        sidecar = os.path.splitext(path)[0] + SIDECAR_SUFFIX
        grading = sidecar_grading(yaml_data(sidecar, self.root, self.max_bytes)) if current().isfile(sidecar) else ""
        if grading:
            self.out.append(Finding("EV704", f"{said} has a sidecar, {quote(os.path.basename(sidecar))}, that gives its "
                                    f"lines {grading} when it runs on its own; named by this suite, the runner reads it "
                                    "without its sidecar and those settings; give this suite the graders meant for "
                                    "these tests", site.path))

    def _unsupported(self, site, said: str) -> None:
        """EV401 for a file of tests of a suffix the runner does not read (``said``: which file, up to 'is')."""
        self.out.append(Finding("EV401", f"{said} no {', '.join(TESTS_SUFFIXES)} file{then_(site)} ('Unsupported "
                                "external test file format')", site.path))

    def _workspace(self, site, path: str) -> None:
        """A workspace file's findings, and those of what it names (looked up from its folder), at the reference; what
        it does to the setup of the folder the tests share, in it and in the suite (``shared_setup``)."""
        found = self.workspace_file(path, self.root, self.max_bytes, site.extra.get("env_unchecked"))
        inherited = site.extra.get("inherited") or {}
        settings = file_settings(path, self.root, self.max_bytes)
        unrun = replaced_in_suite_file(settings, *site.extra.get("replacing", ((), None)))
        sites = [replace(s, extra={**s.extra, "cwd": os.path.join(self.folder, inherited[s.path[1]]), "merged": True})
                 if s.path[:1] == ("hooks",) and len(s.path) > 1 and s.path[1] in inherited and s.kind != "cwd"
                 and "cwd" in s.extra and s.extra["cwd"] is None else s for s in found.sites
                 if s.path[:2] not in [("hooks", name) for name in unrun]
                 and not (s.kind == "run_path" and "later" in site.extra)]  # a path the run never reads (EV125)
        inner = type(self)(path, self.root, self.max_bytes).run(sites)
        in_file, in_suite = file_findings(settings, site.extra)
        never = [Finding("EV124", replaced(name), ("hooks", name)) for name in unrun]
        self._within(site, "workspace file", found.findings + never + in_file + inner, elsewhere(path, "the workspace file"))
        self.out += in_suite

    def _dependencies(self, site) -> None:
        """EV122 of a suite's tests with those of the files its 'file://' items name (a pattern's matches in path
        order), as the runner checks them together (``dependencies.dependency_findings``)."""
        tests = []
        for i, item in enumerate(site.value):
            at = site.path if site.extra.get("path") else site.path + (i,)  # 'tests' is the path of a file of tests
            folder = resolve(item[len(FILE_PREFIX):], self.folder, self.root, ancestors=False, want_dir=True).path \
                if site.extra.get("path") else None
            if folder is not None and current().isdir(folder):  # a folder of tests: a test of each case file
                tests += [(test, at, f"in case file {quote(shown(path, self.root))}: ")
                          for test, path in folder_tests(folder, self.root, self.max_bytes)]
            elif isinstance(item, str) and item.startswith(FILE_PREFIX):
                files = self._item_files(item[len(FILE_PREFIX):])
                if files is None:
                    return  # tests outside the repository, not known here
                for path in files:
                    said = f"in file of tests {quote(shown(path, self.root))}: "
                    tests += [(test, at, said) for test in tests_of(path, self.root, self.max_bytes)]
            else:
                tests.append((item, at, ""))
        self.out += [f for f in dependency_findings(tests, site.extra["suite"]) if f not in self.out]

    def _item_files(self, written: str) -> Optional[tuple]:
        """The files of tests a 'file://' item names: a pattern's matches, in path order, else the file; None for a
        pattern outside the repository, which is not walked (EV403 says so)."""
        if is_glob(written):
            return pattern_files(os.path.normpath(os.path.join(self.folder, written)), self.root)
        path = resolve(written, self.folder, self.root, ancestors=False).path
        return (path,) if path is not None and current().isfile(path) else ()

    def _workspace_file_folder(self, written: str, hook: str, replaced: bool = False) -> Optional[str]:
        """The folder a test's hook without a 'cwd' runs in when the suite's workspace is the file ``written`` (or a
        suite's hook, for a test whose own workspace is that file): the 'cwd' of the file's hook of that name
        (yaml-parser.ts mergeWorkspaceConfigs), from the file's folder, else the file's folder
        (workspace/script-executor.ts); None when the file or that folder is not found, or (``replaced``) when the
        file's hook of that name has a command of its own, which runs in place of the suite's."""
        found = resolve(written, self.folder, self.root).path
        if found is None:
            return None  # the workspace file, reported where it is named
        hooks = file_settings(found, self.root, self.max_bytes).get("hooks") if replaced else None
        own = hooks.get(hook) if isinstance(hooks, dict) else None
        if isinstance(own, dict) and command_of(own) is not None:
            return None
        folder = os.path.dirname(found)
        cwd = file_hook_cwd(found, hook, self.root, self.max_bytes)
        return folder if cwd is None else resolve(cwd, folder, self.root, want_dir=True, ancestors=False).path

    def _folder_of_tests(self, site, folder: str) -> None:
        """A folder of tests: the runner reads one test from each of its subfolders, from the subfolder's
        case.yaml (or case.yml), and skips with a warning a subfolder without one; any other file, a case file of
        the folder itself or a test written flat beside the subfolders, it never reads, and says nothing."""
        view = current()
        names = view.subfolders(folder)
        own = case_file(folder)
        if own is not None:
            self.out.append(Finding("EV401", f"folder of tests {quote(site.value)} holds {os.path.basename(own)} itself, "
                                    "which the runner never reads: it reads a test from each subfolder's case.yaml (or "
                                    "case.yml); move it into a subfolder, or name the folder above", site.path))
        for name in self._flat_tests(folder):
            data = yaml_data(os.path.join(folder, name), self.root, self.max_bytes)
            move = "give each of its tests a subfolder of its own, holding it as a mapping in case.yaml" \
                if isinstance(data, list) else f"move it to '{_moved(site.value, name)}'"
            self.out.append(Finding("EV401", f"folder of tests {quote(site.value)} holds the test {quote(name)} "
                                    "beside its subfolders, which the runner never reads: it reads a test from each "
                                    "subfolder's case.yaml (or case.yml), and skips other files without a word; "
                                    f"{move}", site.path))
        for name in view.linked_folders(folder):
            self.out.append(Finding("EV401", f"folder of tests {quote(site.value)} holds {quote(name)}, a link to a "
                                    "folder, which the runner passes over without a word: it reads a test from each "
                                    "subfolder that is a folder itself, so this one never runs; make it a folder",
                                    site.path))
        if not names:
            self.out.append(Finding("EV111", f"folder of tests {quote(site.value)} has no subfolder; the runner reads a "
                                    "test from each subfolder's case.yaml (or case.yml), so this suite runs nothing",
                                    site.path))
        data = self._named_by_cases(folder) if names else set()
        for name in names:
            self._subfolder(site, folder, name, data)
        self._duplicate_cases(site, folder)
        self.out += case_workspace_findings(site.path, site.extra["suite"], folder, self.folder, self.root,
                                            self.max_bytes)

    def _flat_tests(self, folder: str) -> list:
        """The names of the YAML files of a folder of tests itself that hold tests, but its case files, this suite
        and a file of tests a suite names (which the runner reads for that suite)."""
        return [name for name in current().files_in(folder) if name not in CASE_FILES
                and os.path.join(folder, name) != os.path.abspath(self.eval_path)
                and self._holds_test(os.path.join(folder, name))
                and naming_suite(os.path.join(folder, name), self.root, self.max_bytes) is None]

    def _subfolder(self, site, folder: str, name: str, data: set) -> None:
        """A subfolder of a folder of tests: EV104 when it holds both case files, EV401 when it holds a test the
        runner does not read (a case file a level down, or none where it looks and a sign that one was meant),
        EV111 when it holds no sign of a test (the runner warns on every run, and runs as written); ``data``: what
        the folder's cases name as data, no sign."""
        view, subfolder = current(), os.path.join(folder, name)
        found, deeper = case_file(subfolder), self._deeper_cases(subfolder)
        where = f"subfolder {quote(name)} of the folder of tests {quote(site.value)}"
        if found == os.path.join(subfolder, CASE_FILES[0]) and view.isfile(os.path.join(subfolder, CASE_FILES[1])):
            self.out.append(Finding("EV104", f"{where} holds both {' and '.join(CASE_FILES)}, each a test of the "
                                    f"subfolder: the runner reads {CASE_FILES[0]} alone, so {CASE_FILES[1]} never "
                                    "runs; keep one", site.path))
        if found is not None:
            for deep in deeper:
                self.out.append(Finding("EV401", f"{where} holds the test {quote(deep)} a level down, which the "
                                        "runner never reads: it reads one test from each subfolder, from the "
                                        f"subfolder's own case file; move {quote(os.path.dirname(deep))} up into the "
                                        "folder of tests", site.path))
            return
        sign = self._sign_of_test(subfolder, deeper, data)
        if sign is None:
            self.out.append(Finding("EV111", f"{where} holds no {' or '.join(CASE_FILES)}, nor a sign of a test; the "
                                    "runner skips it with a warning ('no case.yaml found') on every run; move it out "
                                    "of the folder of tests", site.path))
        else:
            self.out.append(Finding("EV401", f"{where} has no {' or '.join(CASE_FILES)}{sign}; the runner skips it "
                                    "(warning 'no case.yaml found')", site.path))

    def _sign_of_test(self, subfolder: str, deeper: list, data: set) -> Optional[str]:
        """What a subfolder without a case file holds that shows a test was meant, worded for a message: a near
        miss of a case file's name, a test in another YAML file (but the cases' ``data``) or a level down, or a case's
        workspace template; None when it holds none of these."""
        view = current()
        held = view.files_in(subfolder)
        near = next(((name, near_misses(name, CASE_FILES)[0]) for name in held if near_misses(name, CASE_FILES)), None)
        if near:
            return f" (it holds {quote(near[0])}: did you mean '{near[1]}'?)"
        other_case = next((name for name in held if name.lower().split(".")[0] == "case"), None)
        if other_case:  # 'case.json', 'case.txt': the test, in a form the runner does not read
            return f" (it holds {quote(other_case)}: the runner reads {' or '.join(CASE_FILES)} alone)"
        other = next((name for name in held if os.path.join(subfolder, name) not in data
                      and self._holds_test(os.path.join(subfolder, name))), None)
        if other or deeper:
            return f" (it holds the test {quote(other or deeper[0])})"
        if CASE_WORKSPACE in view.subfolders(subfolder):
            return f" (it holds a case's workspace template, {quote(CASE_WORKSPACE + '/')})"
        return None

    def _named_by_cases(self, folder: str) -> set:
        """The paths the case files of a folder of tests name as data (an input file, a file block's), which hold no
        sign of a test of their own: a subfolder of such files is a folder of data."""
        cases = (case_file(os.path.join(folder, name)) for name in current().subfolders(folder))
        named: set = set()
        for case in (case for case in cases if case is not None):
            data = yaml_data(case, self.root, self.max_bytes)
            named |= paths_named(data, case, self.root) if isinstance(data, dict) else set()
        return named

    def _deeper_cases(self, subfolder: str) -> list:
        """The case files of a subfolder's own subfolders (but its workspace template) that hold a test, each as
        'name/case.yaml': the runner never reads them."""
        found = []
        for name in current().subfolders(subfolder):
            path = case_file(os.path.join(subfolder, name)) if name != CASE_WORKSPACE else None
            if path is not None and self._holds_test(path):
                found.append(f"{name}/{os.path.basename(path)}")
        return found

    def _holds_test(self, path: str) -> bool:
        """Whether the YAML file at ``path`` holds a test: a mapping, or a list of mappings, with a key of a test's
        (``TEST_SIGNS``)."""
        if not path.endswith(YAML_SUFFIXES):
            return False
        data = yaml_data(path, self.root, self.max_bytes)
        items = data if isinstance(data, list) else [data]
        return any(isinstance(item, dict) and any(key in item for key in TEST_SIGNS) for item in items)

    def _pattern(self, site) -> None:
        pattern = os.path.normpath(os.path.join(self.folder, site.value))
        folder = static_folder(pattern)
        if not inside(folder, self.root):
            self.out.append(escape_finding(site.path, site.value))
            return
        refused = refused_range(site.value)
        if refused:
            self.out.append(Finding("EV110", f"{site.extra['what']} pattern {quote(site.value)} has the range "
                                    f"{quote(refused)} of more than {RANGE_LIMIT} numbers, which the runner's glob "
                                    "refuses to expand; the runner rejects the suite ('expanded array length exceeds "
                                    "range limit')", site.path))
            return
        too_long = refused_length(pattern)
        if too_long:
            self.out.append(Finding("EV110", f"{site.extra['what']} pattern {quote(site.value)} is longer than the "
                                    f"runner's glob reads once made absolute; the runner rejects the suite ('{too_long}')",
                                    site.path))
            return
        blocked = next(((read, file) for read in read_folders(pattern) for file in [_file_in_the_way(read)] if file), None)
        if blocked is not None:
            self.out.append(Finding("EV401", f"{site.extra['what']} pattern {quote(site.value)} reads the folder "
                                    f"{quote(shown(blocked[0], self.root))}, but {quote(shown(blocked[1], self.root))} is "
                                    "a file: the runner's glob fails ('ENOTDIR: not a directory') and the runner "
                                    "rejects the suite", site.path))
            return
        matched = pattern_files(pattern, self.root)  # its folder is inside the root: a tuple
        if not matched:
            self.out.append(Finding("EV401", f"{site.extra['what']} pattern {quote(site.value)} matches no file (looked "
                                    f"in: {shown(folder, self.root)}); the runner loads no test from it (warning "
                                    "'Glob pattern matched no files')", site.path))
        for path in matched if site.extra.get("tests_file") else ():
            matches_file = f"file of tests pattern {quote(site.value)} matches '{shown(path, self.root)}', which"
            if not path.lower().endswith(TESTS_SUFFIXES):
                self._unsupported(site, f"{matches_file} is")
                continue
            self._contents(site, path, matches_file)
            if site.extra.get("ids") is not None:
                self._duplicates(site, path, shown(path, self.root))

    def _assertion_template(self, site) -> None:
        """The template of an 'include' entry (``load/templates.py``): without it, or when the runner cannot
        expand it (not a mapping with an 'assertions' list, its own includes missing, too deep or in a cycle),
        the runner skips the test (every test that includes the template, when the include is in one)."""
        value = site.value
        within = os.path.abspath(self.eval_path) if self.template else None
        skips = "every test that includes this template" if within else "the test"
        found = templates.find(value, self.folder, self.root)
        if found.escapes:
            self.out.append(escape_finding(site.path, value))
        elif found.path is None:
            self.out.append(Finding("EV401", f"assertion template {quote(value)} not found "
                                    f"({templates.not_found(value, found, self.root)}{self._from_suite()}); the "
                                    f"runner skips {skips}", site.path))
            return
        expansion = templates.expand(value, self.folder, self.root, self.max_bytes, within)
        if expansion.problem:
            self.out.append(Finding("EV410", f"assertion template {quote(value)} cannot be expanded: "
                                    f"{expansion.problem}; the runner skips {skips}", site.path,
                                    extra=elsewhere(found.path, "the assertion template")))
        elif expansion.items and self.item_sites and not within and "members" not in site.extra:
            self._included(site, found.path, expansion.items)
        if expansion.items is not None and "members" in site.extra:  # a composite's members: dropped, not looked up
            dropped = [Finding(code, message, ()) for item in expansion.items
                       for code, message, _ in member_problems(item, site.extra["members"])]
            self._within(site, "assertion template", dropped, elsewhere(found.path, "the assertion template"))

    def _included(self, site, template: str, items: tuple) -> None:
        """What the items an include puts in its place point at (prompt files, commands, custom types), looked up
        as the runner looks them up, from this file's folder: each finding at the include, naming the template.
        A template alone does not check them, as each suite that includes it looks from its own folder."""
        inner = type(self)(self.eval_path, self.root, self.max_bytes, self.suite).run(self.item_sites(items))
        self._within(site, "assertion template", inner, elsewhere(template, "the assertion template"))

    def _within(self, site, what: str, findings: list, elsewhere: dict) -> None:
        """The ``findings`` of the ``what`` that ``site`` names, each once, at the site and naming it; a finding
        points at where it is in that file (``elsewhere``) unless it points further."""
        for inner in findings:
            found = Finding(inner.code, f"in {what} {quote(site.value)}: {inner.message}", site.path,
                            extra=inner.extra or elsewhere)
            if found not in self.out:
                self.out.append(found)


def _moved(written: str, name: str) -> str:
    """Where a test written flat as ``name`` in the folder of tests ``written`` goes: a subfolder's case file."""
    stem = os.path.splitext(name)[0]
    return "/".join(part for part in (written.rstrip("/\\"), stem, CASE_FILES[0]) if part)


def _file_in_the_way(folder: str) -> Optional[str]:
    """The file that the absolute ``folder``, or the nearest folder above it that exists, is: fast-glob fails to read
    ``folder`` (ENOTDIR); None when that is a folder (or nothing: fast-glob then finds no file)."""
    at = folder
    while not current().lexists(at) and os.path.dirname(at) != at:
        at = os.path.dirname(at)
    return at if current().isfile(at) else None
