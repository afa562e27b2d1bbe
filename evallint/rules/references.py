"""EV4xx: what an eval file points at (docs/format.md#references-to-other-files).

The schemas' checks find references while the file is loaded (the ``Site``s of the other rule families), and they
are checked here, only when references are on. Where a path leads is ``load/reach.py``'s answer, what the file there
holds ``referenced.py``'s; a path is never opened when it resolves outside the repository root."""
from __future__ import annotations

import os
from typing import Callable, Optional

from evallint.diagnostics import E, W, Finding, Rule
from evallint.load.reach import Resolved, resolve
from evallint.load.view import current
from evallint.rules.grader_lists import normal_type
from evallint.rules.grader_files import (REQUIRED_VARIABLES, REQUIRED_VARIABLES_4, TEMPLATE_VARIABLES,
                                         TEMPLATE_VARIABLES_4, custom_grader_file)
from evallint.rules.loaded_files import LoadedFiles
from evallint.rules.prompt_templates import template_findings
from evallint.rules.reference_words import NOT_TEXT, elsewhere, escape_finding, looks_like_path, shown, then_
from evallint.rules.referenced import is_binary, is_blank, template_variables
from evallint.rules.script_files import script_file
from evallint.rules.target_references import TargetReferences
from evallint.rules.workspace_kept import file_settings
from evallint.suggest import one_of, quote

# the rules this module finds, explained in references.md beside it
EV401 = Rule("EV401", "file-not-found", E, "a 'type: file' content block (or another file the runner reads) names no file")
EV402 = Rule("EV402", "file-empty", W, "a referenced file is empty or only whitespace")
EV403 = Rule("EV403", "path-escapes-root", E, "a reference resolves outside the repository root")
EV404 = Rule("EV404", "prompt-not-found", E, "a prompt that looks like a path names no file")
EV405 = Rule("EV405", "prompt-missing-variables", E,
             "a prompt template without {{ candidate_answer }} or {{ expected_messages }}")
EV406 = Rule("EV406", "prompt-unknown-variable", W, "a prompt template variable that the runner does not fill")
EV407 = Rule("EV407", "cwd-not-found", E, "a code_judge's or a workspace hook's 'cwd' names no folder")
EV408 = Rule("EV408", "script-not-found", E, "the script file a code_judge or aggregator runs does not exist")
EV409 = Rule("EV409", "unknown-target", E, "a target name that the targets file the runner would use does not define")
EV410 = Rule("EV410", "template-not-expandable", E, "an assertion template the runner cannot expand: not a mapping "
             "with an 'assertions' list, or its includes missing, more than 3 deep or in a cycle", generations=("4.42",))
EV411 = Rule("EV411", "image-type-unsupported", E, "an image block names a file of a type the runner does not read as an image",
             generations=("4.42",))
EV412 = Rule("EV412", "script-not-executable", E, "a script the runner starts as a command itself has no execute "
             "permission", generations=("4.42",))
EV413 = Rule("EV413", "file-not-text", W, "a file the runner sends as text is no UTF-8 text (a picture, a PDF)")
EV414 = Rule("EV414", "hook-cwd-from-run-folder", W, "a target hook's relative 'cwd', which the runner takes from the "
             "folder the agentv command runs in, not the eval file's", generations=("4.42",))
EV415 = Rule("EV415", "workspace-path-from-run-folder", W, "a workspace's relative 'path', which the runner takes from "
             "the folder the agentv command runs in, not the file's", generations=("4.42",))
EV416 = Rule("EV416", "no-default-target", W, "a suite that names no target where the targets file the runner uses "
             "defines no 'default': the agentv command needs --target", generations=("4.42",))


class ReferenceChecker(LoadedFiles, TargetReferences):
    """The findings of a file's references, looked up from its folder, or from ``suite``'s for a file of tests
    that the suite names: the runner resolves a test's paths from its suite's folder."""

    def __init__(self, eval_path: str, root: str, max_bytes: int, suite: Optional[str] = None, template: bool = False,
                 item_sites: Optional[Callable] = None, workspace_file: Optional[Callable] = None):
        self.template = template  # the file is an assertion template
        self.item_sites = item_sites  # the references of a template's items, loaded as assertions
        self.workspace_file = workspace_file  # what a workspace file holds, read as a workspace (models.py)
        self.folder = os.path.dirname(os.path.abspath(suite or eval_path))
        self.root = os.path.abspath(root)
        self.max_bytes = max_bytes  # the size cap: a targets file over it is not read
        self.eval_path = eval_path
        self.suite = suite
        self.out: list = []
        self.test_ids: dict = {}  # test id -> (the file of tests first holding it, as named; its path)
        self.artifact_folders: dict = {}  # artifact folder -> (the first test id naming it, where that test is)

    def run(self, sites) -> list:
        for site in sites:
            _CHECKS[site.kind](self, site)
        return self.out

    def _tried(self, resolved: Resolved, site=None, near: Optional[str] = None) -> str:
        """Where a reference was looked for, why there, and what of a near name is there (``near``, else the one
        found where it was looked for)."""
        near = near or resolved.near
        near = f"; did you mean {quote(near)}?" if near else ""
        return ", ".join(shown(t, self.root) for t in resolved.tried) + (self._where(site) if site else self._from_suite()) \
            + near

    def _base(self, site) -> str:
        """The folder a site's path is looked up from: the folder the run starts in, taken as the repository root, for
        what the run resolves from its working folder (``extra['started']`` says why: a turn's grader, which the loader
        passes on as written, or a preprocessor's program); else the eval file's (its suite's, for a file of tests)."""
        return self.root if site.extra.get("started") else self.folder

    def _where(self, site) -> str:
        """Why a site's path was looked for where it was (``_base``)."""
        if site.extra.get("started"):
            return f"; {site.extra['started']}"
        if site.extra.get("merged"):
            return "; the 'cwd' of the suite's hook of its name, which a test's hook without one takes"
        if site.extra.get("for_test"):
            return (f"; the suite's hook runs for the test {quote(site.extra['for_test'])} in the folder of its "
                    f"workspace file {quote(site.extra['workspace_file'])}")
        if site.extra.get("workspace_file"):
            return (f"; a test's hook without a 'cwd' runs in the folder of the suite's workspace file "
                    f"{quote(site.extra['workspace_file'])}, or in the 'cwd' of the file's hook of its name")
        return self._from_suite()

    def _from_suite(self) -> str:
        """Why a file of tests' path was looked for where it was: from the folder of its suite."""
        if self.suite is None:
            return ""
        return f"; the runner looks from the folder of {shown(self.suite, self.root)}, the suite naming this file"

    def _file(self, site) -> None:
        """A file the runner attaches, looked up from the eval file's folder up (``extra``: 'what' it is,
        and what the runner does without it, 'then')."""
        value = site.value
        resolved = resolve(value, self.folder, self.root)
        if resolved.escapes:
            self.out.append(escape_finding(site.path, value))
        elif resolved.path is None:
            self.out.append(Finding("EV401", f"{site.extra.get('what', 'file')} {quote(value)} not found (looked in: "
                                    f"{self._tried(resolved)}){then_(site)}", site.path))
        elif site.extra.get("suffixes") and os.path.splitext(resolved.path)[1].lower() not in site.extra["suffixes"]:
            self.out.append(Finding("EV411", f"{site.extra['what']} {quote(value)} is of no type the runner reads as an "
                                    "image: it leaves the block out (warning 'Unsupported image extension'); the endings "
                                    f"it reads, in any case: {one_of(site.extra['suffixes'])}", site.path))
        elif not site.extra.get("suffixes") and is_binary(resolved, self.root):
            self.out.append(Finding("EV413", f"{site.extra.get('what', 'file')} {quote(value)} {NOT_TEXT}", site.path))
        elif is_blank(resolved, self.root):
            self.out.append(Finding("EV402", f"file {quote(value)} is empty", site.path,
                                    extra=elsewhere(resolved.path, "the empty file")))
        elif site.extra.get("vars"):
            self._unfilled(site, resolved)

    def _unfilled(self, site, resolved: Resolved) -> None:
        """EV406 for a var of the test written in a file it sends: the runner fills vars into the eval file's text
        alone, and sends the file as written."""
        names = template_variables(resolved, self.root)
        used = [name for name in names if name.split(".")[0] in site.extra["vars"]] if isinstance(names, tuple) else []
        if used:
            self.out.append(Finding("EV406", f"file {quote(site.value)} holds '{{{{ {used[0]} }}}}', a var of this test, "
                                    "which the runner does not fill in there: it fills vars into the eval file's text "
                                    "alone and sends the file as written; write that text in the eval file, or the "
                                    "value in the file", site.path, extra=elsewhere(resolved.path, "the file")))

    def _prompt(self, site) -> None:
        value = site.value
        if "\n" in value or not value.strip():
            return  # inline prompt text
        resolved = resolve(value, self.folder, self.root)
        if resolved.escapes and looks_like_path(value):
            self.out.append(escape_finding(site.path, value))
            return
        if resolved.path is None:
            if looks_like_path(value):
                self.out.append(Finding("EV404", f"prompt {quote(value)} looks like a path but names no file "
                                        f"(looked in: {self._tried(resolved)}); it will be sent as inline prompt text",
                                        site.path))
            return
        self.out += template_findings(site.path, value, resolved, self.root, TEMPLATE_VARIABLES, REQUIRED_VARIABLES,
                                      "the runner skips cases judged by it")

    def _aggregator_prompt(self, site) -> None:
        """An llm_judge (llm-grader) aggregator's prompt: both runners send its words as the prompt, never a
        file's text; AgentV 4.42.4 skips the test when a 'file://' one names no file (``extra['file']``)."""
        value, after_prefix = site.value, site.extra.get("file", False)
        if "\n" in value or not value.strip() or not (after_prefix or looks_like_path(value)):
            return
        resolved = resolve(value, self.folder, self.root)
        if resolved.escapes:
            self.out.append(escape_finding(site.path, value))
        elif after_prefix and resolved.path is None:
            self.out.append(Finding("EV404", f"prompt file {quote(value)} not found (looked in: "
                                    f"{self._tried(resolved)}); the runner skips the test", site.path))
        else:
            checked = " (after 'file://' it only checks that the file exists)" if after_prefix else ""
            self.out.append(Finding("EV404", f"aggregator prompt {quote(value)} looks like a path, but the runner sends "
                                    f"these words as the aggregator's prompt, never a file's text{checked}: write the "
                                    "prompt itself, with {{EVALUATOR_RESULTS_JSON}} where the members' results go",
                                    site.path))

    def _cwd(self, site) -> None:
        """A folder a command runs in: looked up from the eval file's folder up, or in it only (``extra``:
        'local'); 'what' it is and 'then', what the runner does without it."""
        resolved = resolve(site.value, self._base(site), self.root, want_dir=True,
                           ancestors=not (site.extra.get("local") or site.extra.get("started")))
        if resolved.escapes:
            self.out.append(escape_finding(site.path, site.value))
        elif resolved.path is None:
            self.out.append(Finding("EV407", f"{site.extra.get('what', 'code_judge cwd')} {quote(site.value)} names no "
                                    f"folder (looked in: {self._tried(resolved, site)}){then_(site)}", site.path))

    def _repo_folder(self, site) -> None:
        from evallint.rules.workspace_repos import local_folder

        self.out += local_folder(site, self.folder, self.root)

    def _run_path(self, site) -> None:
        from evallint.rules.workspaces import path_from_run_folder  # its module loads the schemas, as target_hooks'

        self.out += path_from_run_folder(site, self.folder, self.root)

    def _run_folder(self, site) -> None:
        from evallint.rules.target_hooks import run_folder  # its module loads the schemas, which listing rules does not

        self.out += run_folder(site, self.folder, self.root)

    def _script(self, site) -> None:
        found = script_file(site.value, site.extra.get("cwd"), self._base(site), self.root)
        if found is None:
            return  # no script file named, or its cwd not found (EV407 or EV403 says why)
        index, token, base, resolved = found
        path = site.path + ((index,) if index is not None else ())
        if resolved.escapes:
            self.out.append(escape_finding(path, token))
        elif resolved.path is None:
            where = shown(base, self.root)
            self.out.append(Finding("EV408", f"script file {quote(token)} not found in {where} (the script's "
                                    f"working folder{self._where(site)})", path))
        elif is_blank(resolved, self.root):
            self.out.append(Finding("EV402", f"script file {quote(token)} is empty", path,
                                    extra=elsewhere(resolved.path, "the empty script")))

    # AgentV 4.42.4's references

    def _prompt_file(self, site) -> None:
        """A 'file://' prompt: the runner skips the test when the file is missing or its template uses neither
        of the variables that hold the answer."""
        value = site.value
        resolved = resolve(value, self.folder, self.root)
        if resolved.escapes:
            self.out.append(escape_finding(site.path, value))
        elif resolved.path is None:
            self.out.append(Finding("EV404", f"prompt file {quote(value)} not found (looked in: {self._tried(resolved)}); "
                                    "the runner skips the test", site.path))
        else:
            self.out += template_findings(site.path, value, resolved, self.root, TEMPLATE_VARIABLES_4,
                                          REQUIRED_VARIABLES_4, "the runner skips the test", site.extra.get("rubrics", False),
                                          agent=self._graded_by_an_agent(site))

    def _blind_prompt(self, site) -> None:
        """EV405 for an inline prompt with template variables (``site.value``) but none that shows what the agent did,
        unless an agent grades it (``grader_files._blind_template``)."""
        if not self._graded_by_an_agent(site):
            shown_names = " and ".join(f"'{{{{ {name} }}}}'" for name in site.value)
            self.out.append(Finding("EV405", f"inline prompt uses {shown_names} but not '{{{{ output }}}}': with a "
                                    "template variable it is the whole grader prompt, so the grader never sees the "
                                    "answer; add '{{ output }}', or write it without variables (it is then the "
                                    "criteria)", site.path))

    def _bare_prompt(self, site) -> None:
        """A prompt that looks like a path but has no 'file://': AgentV 4.42.4 sends the words themselves."""
        value = site.value
        if "\n" in value or not value.strip() or not looks_like_path(value):
            return
        if site.extra.get("started"):  # a turn's grader, which reads no prompt file
            self.out.append(Finding("EV404", f"prompt {quote(value)} looks like a path, but a turn's grader reads its "
                                    "prompt as written: it sends these words to the grader as its criteria; write the "
                                    "prompt's text", site.path))
            return
        self.out.append(Finding("EV404", f"prompt {quote(value)} looks like a path, but the runner reads a prompt "
                                f"from a file only after 'file://': it sends these words to the grader as its prompt; "
                                f"write 'file://{value.strip()}'", site.path))

    def _prompt_command(self, site) -> None:
        """An executable prompt (or a preprocessor, ``extra``): the runner skips the test when the file its
        command's last word names is missing."""
        token, path = site.value[-1], site.path + (len(site.value) - 1,)
        resolved = resolve(token, self._base(site), self.root, ancestors=not site.extra.get("started"))
        if resolved.escapes:
            self.out.append(escape_finding(path, token))
        elif resolved.path is None:
            self.out.append(Finding("EV408", f"{site.extra.get('what', 'prompt command file')} {quote(token)} not "
                                    f"found (looked in: {self._tried(resolved, site)}); "
                                    f"{site.extra.get('then', 'the runner skips the test')}", path))
        elif len(site.value) == 1:
            self._executable(site, token, resolved.path, path)

    def _custom_type(self, site) -> None:
        """A custom assertion type: the runner looks for a grader file of that name in an '.agentv' folder
        from the eval file's folder up, and fails the run without one."""
        read = normal_type(site.value)
        if custom_grader_file(site.value if site.extra.get("turn") else read, self.folder, self.root) is not None:
            return
        written = custom_grader_file(site.value, self.folder, self.root) if read != site.value else None
        if site.extra.get("turn") and custom_grader_file(read, self.folder, self.root) is not None:
            self.out.append(Finding("EV301", f"turn grader type {quote(site.value)} is not read as {quote(read)}: the "
                                    "runner takes a turn's graders as written, and its registry has no grader of that "
                                    f"type, so the grader fails ('Unknown grader type') and scores 0; write {quote(read)}",
                                    site.path))
            return
        if written is not None:
            self.out.append(Finding("EV301", f"assertion type {quote(site.value)} is read as {quote(read)} (the runner "
                                    f"reads '_' as '-'), but the grader file '{shown(written, self.root)}' registers "
                                    f"{quote(site.value)}; the run fails with 'Unknown grader type': name the file "
                                    f"'{read}{os.path.splitext(written)[1]}' and write {quote(read)}", site.path))
            return
        self.out.append(Finding("EV301", f"assertion type {quote(site.value)} is no built-in kind and no custom "
                                f"grader '.agentv/assertions/{read}.ts' (or .js, .mts, .mjs) is found from "
                                "this folder up; the run fails with 'Unknown grader type'", site.path))

    def _merged_enabled(self, site) -> None:
        """A test's hooks 'enabled' that is no boolean, where the suite's workspace is a file (``extra['file']``): the
        loader reads it as absent, so the file's 'enabled' applies, and without one (a boolean) the hooks run; judged
        at the site's place by ``extra['judged']`` (``workspaces.check_test_enabled``). Nothing for a file not found
        (EV401 says so)."""
        path = resolve(site.extra["file"], self.folder, self.root, ancestors=False).path
        if path is None or not current().isfile(path):
            return
        hooks = file_settings(path, self.root, self.max_bytes).get("hooks")
        given = hooks.get("enabled") if isinstance(hooks, dict) else None
        used = (given, f"the 'enabled' of the workspace file {quote(site.extra['file'])}") if isinstance(given, bool) \
            else (True, "its default")
        self.out += site.extra["judged"](site.path, *used)

    def _command_file(self, site) -> None:
        """The file a command runs (``extra``: 'what' it is, and what happens without it, 'then'): looked up in the
        folder the command runs in (``_command_folder``)."""
        base = self._command_folder(site)
        if base is None:
            return  # EV407 or EV403 says why its cwd is not found
        resolved = resolve(site.value, base, self.root, ancestors=False)
        if resolved.escapes:
            self.out.append(escape_finding(site.path, site.value))
        elif resolved.path is None:
            folder = resolve(site.value, base, self.root, ancestors=False, want_dir=True).path is not None
            if folder and not site.extra.get("direct"):
                return  # a folder that an interpreter is given (python3 ./package) runs
            found = "is a folder, not a file," if folder else "not found"
            near = f"; did you mean {quote(resolved.near)}?" if resolved.near and not folder else ""
            self.out.append(Finding("EV408", f"{site.extra['what']} {quote(site.value)} {found} in "
                                    f"{shown(base, self.root)} (the folder the command runs in{self._where(site)}{near}); "
                                    f"{site.extra['then']}", site.path))
        elif site.extra.get("direct"):
            self._executable(site, site.value, resolved.path, site.path)

    def _executable(self, site, token: str, path: str, at: tuple) -> None:
        """EV412 for the script file at ``path`` that a command starts as its program (its first word) when it may
        not be run: the runner starts it without a shell or an interpreter, which fails ('EACCES')."""
        if current().isfile(path) and not current().is_executable(path):
            self.out.append(Finding("EV412", f"{site.extra.get('what', 'prompt command file')} {quote(token)} is not "
                                    "executable, but the command starts it as its program, which fails when it runs "
                                    "('EACCES'); make it executable ('chmod +x', committed with 'git add --chmod=+x') "
                                    "or put its interpreter first", at, extra=elsewhere(path, "the script")))

    def _program(self, site) -> None:
        """A command's first word that names a script without a '/': the runner looks it up on PATH only, so a
        file of that name in the folder the command runs in is not what it runs (a name found on PATH is a program
        of the machine, not checked here)."""
        base = self._command_folder(site)
        resolved = resolve(site.value, base, self.root, ancestors=False) if base is not None else None
        if resolved is not None and resolved.path is not None and current().isfile(resolved.path):
            looks = "the shell it runs in looks a command's first word without a '/' up on PATH only" \
                if site.extra.get("shell") else \
                "the runner looks a command's first word without a '/' up on PATH only (it starts commands without a shell)"
            self.out.append(Finding("EV408", f"{site.extra['what']} {quote(site.value)} is in {shown(base, self.root)}, "
                                    f"but {looks}, so {site.extra['then']} unless PATH has one; write './{site.value}' "
                                    "(an executable file) or put its interpreter first", site.path))

    def _command_folder(self, site) -> Optional[str]:
        """The folder the command of ``site`` runs in: its ``extra['cwd']`` (found from ``_base`` up, or in it only:
        ``extra['local']``, or for a turn's grader), else ``_base``; None when its cwd is not found."""
        local = site.extra.get("local", False) or site.extra.get("started", False)
        if site.extra.get("beside"):  # the folder of the file the command's last word names, where it is found
            found = resolve(site.extra["beside"], self._base(site), self.root).path
            return os.path.dirname(found) if found is not None else None
        if site.extra.get("workspace_file"):
            return self._workspace_file_folder(site.extra["workspace_file"], site.extra["hook"],
                                               replaced=bool(site.extra.get("for_test")))
        return self._folder(site.extra.get("cwd"), local, self._base(site))

    def _folder(self, cwd: Optional[str], local: bool, base: str) -> Optional[str]:
        """The folder a command runs in: its ``cwd`` (found from ``base`` up, or in it only: ``local``), else
        ``base``; None when its cwd is not found."""
        return base if cwd is None else resolve(cwd, base, self.root, want_dir=True, ancestors=not local).path


_CHECKS = {"file": ReferenceChecker._file, "prompt": ReferenceChecker._prompt,
           "assertion_template": ReferenceChecker._assertion_template,
           "aggregator_prompt": ReferenceChecker._aggregator_prompt, "cwd": ReferenceChecker._cwd,
           "run_cwd": ReferenceChecker._run_folder, "run_path": ReferenceChecker._run_path,
           "repo_folder": ReferenceChecker._repo_folder, "default_target": ReferenceChecker._default_target,
           "script": ReferenceChecker._script, "target": ReferenceChecker._target,
           "prompt_file": ReferenceChecker._prompt_file, "bare_prompt": ReferenceChecker._bare_prompt,
           "blind_prompt": ReferenceChecker._blind_prompt,
           "prompt_command": ReferenceChecker._prompt_command, "command_file": ReferenceChecker._command_file,
           "program": ReferenceChecker._program, "local_file": ReferenceChecker._local_file,
           "custom_type": ReferenceChecker._custom_type, "dependencies": ReferenceChecker._dependencies,
           "merged_enabled": ReferenceChecker._merged_enabled}


def check(sites, eval_path: str, root: str, max_bytes: int, suites: tuple = (), template: bool = False,
          item_sites: Optional[Callable] = None, workspace_file: Optional[Callable] = None) -> list:
    """The findings of ``sites``, the references of the file at ``eval_path`` (an assertion template's with
    ``template``); of a file of tests, checked from the folder of each of the ``suites`` naming it
    (``case_files.suites_by_folder``), each finding once. ``item_sites``: the references of a template's items
    (``models.template_sites``), checked where a suite includes the template."""
    found: list = []
    for suite in (suites or (None,)) if sites else ():
        checker = ReferenceChecker(eval_path, root, max_bytes, suite, template, item_sites, workspace_file)
        found += [f for f in checker.run(sites) if f not in found]
    return found
