"""What importing evallint costs and changes: nothing of ``re``, PyYAML or marshmallow is altered, a run
answered from the cache imports no linting machinery, and a run imports the format of the AgentV versions and
kinds of files it lints only."""
import subprocess
import sys

from evallint.format.agentv4.graders import KINDS


def _run(code: str) -> list:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.split()


def _repo_with_suite(root, case_tail: str) -> None:
    """A repository holding evals/s.yaml: one case, ``case_tail`` its last lines."""
    (root / ".git").mkdir()
    (root / "evals").mkdir()
    (root / "evals" / "s.yaml").write_text("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n" + case_tail)


def test_importing_evallint_leaves_re_yaml_and_marshmallow_as_they_are():
    code = ("import re\ncompile_before = re.compile\n"
            "import evallint.lint\nimport yaml, yaml.reader, marshmallow.validate\n"
            "print(re.compile is compile_before, type(yaml.reader.Reader.NON_PRINTABLE) is re.Pattern,\n"
            "      type(marshmallow.validate.Email.USER_REGEX) is re.Pattern, yaml.safe_load('a: yes'))\n")
    assert _run(code) == ["True", "True", "True", "{'a':", "True}"]


def test_a_run_answered_from_the_cache_imports_no_linting_machinery(tmp_path):
    """An unchanged tree is answered without the parser or the schemas: what a cached run never needs,
    it never imports."""
    _repo_with_suite(tmp_path, "    execution: {target: nowhere}\n")
    code = ("import sys, io\nfrom evallint.cli import main\n"
            f"main(['-j1', '-q', {str(tmp_path)!r}], stdout=io.StringIO(), stderr=io.StringIO())\n"
            "print(sorted(m for m in ('yaml', 'marshmallow', 'evallint.lint', 'evallint.load.yaml12')\n"
            "            if m in sys.modules))\n")
    assert _run(code) != ["[]"]  # the first run lints
    assert _run(code) == ["[]"]


def _modules_imported(tmp_path, prefixes: tuple, *argv: str) -> list:
    """The modules whose names start with one of ``prefixes`` that a run of the command on ``argv`` imports."""
    code = (f"import io, os, sys\nos.chdir({str(tmp_path)!r})\nfrom evallint.cli import main\n"
            f"main(['-q', '--no-cache', *{list(argv)!r}], stdout=io.StringIO(), stderr=io.StringIO())\n"
            f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))\n")
    return _run(code)


def _format_modules_imported(tmp_path, *argv: str) -> list:
    return _modules_imported(tmp_path, ("evallint.format.agentv2.", "evallint.format.agentv4."), *argv)


def test_a_run_imports_only_the_formats_of_its_files(tmp_path):
    """The command imports the format of its files' AgentV version only, and not the model's classes: it reports
    findings and never reads a model."""
    _repo_with_suite(tmp_path, "    evaluators: [{name: j, type: llm_judge}]\n")
    (tmp_path / "evals" / "t.yaml").write_text("tests:\n  - {id: a, criteria: c, input: q, assertions: [{include: x}]}\n")
    assert _format_modules_imported(tmp_path, "evals/s.yaml") == [
        "['evallint.format.agentv2.evaluator_parts',", "'evallint.format.agentv2.evaluators',",
        "'evallint.format.agentv2.messages',", "'evallint.format.agentv2.suite']"]
    later = _format_modules_imported(tmp_path, "evals/t.yaml")
    assert "'evallint.format.agentv4.suite'," in later
    assert not any("project" in m or "skills" in m or "templates" in m or "model" in m for m in later)
    assert not any("agentv2.evaluators" in m or "agentv2.suite" in m for m in later)  # its parts only


def test_the_include_globs_are_matched_only_for_a_file_whose_kind_needs_them(tmp_path):
    """A suite told by its 'evalcases' needs no glob, so their matcher (pathspec) is not imported; a YAML file
    below 'evals/' holding no suite is told an eval file by the default globs."""
    _repo_with_suite(tmp_path, "")
    (tmp_path / "evals" / "notes.yaml").write_text("a: 1\n")
    assert _modules_imported(tmp_path, ("pathspec",), "evals/s.yaml") == ["[]"]
    assert _modules_imported(tmp_path, ("pathspec",), "evals/notes.yaml")[0] == "['pathspec',"


def test_a_suite_named_as_the_default_globs_name_one_needs_no_glob_matcher(tmp_path):
    """A 4.42 suite named '*.eval.yaml' is told an eval file by the end of its name ('**/*.eval.yaml')."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "s.eval.yaml").write_text("tests:\n  - {id: a, criteria: c, input: q}\n")
    assert _modules_imported(tmp_path, ("pathspec",), "s.eval.yaml") == ["[]"]


def test_the_command_tunes_its_collector_and_main_leaves_a_programs_alone():
    # the frozen count is compared with its value before: Python 3.12 starts with objects already frozen
    code = ("import gc, io, sys\nfrom evallint.cli import entry, main\n"
            "before, frozen = gc.get_threshold(), gc.get_freeze_count()\n"
            "main(['rule', 'EV310'], stdout=io.StringIO())\n"
            "print(gc.get_threshold() == before, gc.get_freeze_count() == frozen)\n"
            "sys.argv = ['evallint', 'rule', 'EV310']\n"
            "sys.stdout = io.StringIO()\n"
            "try:\n    entry()\nexcept SystemExit:\n    pass\n"
            "sys.stdout = sys.__stdout__\n"
            "print(gc.get_threshold(), gc.get_freeze_count() > frozen)\n")
    assert _run(code) == ["True", "True", "(20000,", "20,", "20)", "True"]


def test_the_editors_references_and_diagnostics_build_no_model(tmp_path):
    """Goto definition reads only the values that name files, and the editor's lint only the findings."""
    _repo_with_suite(tmp_path, "    evaluators: [{name: j, type: code_judge, script: [python, check.py]}]\n")
    suite = str(tmp_path / "evals" / "s.yaml")
    code = ("import sys\nfrom evallint import api\nfrom evallint.config import Config\n"
            f"text = open({suite!r}).read()\n"
            f"found = api.references_in(text, {suite!r}, Config())\n"
            f"linted = api.lint_text(text, {suite!r}, Config())\n"
            "print(len(found) > 0, len(linted.diagnostics) > 0, 'evallint.format.agentv2.model' in sys.modules)\n")
    assert _run(code) == ["True", "True", "False"]


def test_a_lint_makes_the_schemas_of_the_kinds_a_file_holds(tmp_path):
    """The schema of each assertion kind is made when a file holds that kind; those of every kind only when a key
    no schema knows asks which kind reads it."""
    (tmp_path / ".git").mkdir()
    test = "tests:\n  - id: a\n    criteria: c\n    input: q\n    assertions:\n      - {type: contains, value: x%s}\n"
    (tmp_path / "a.eval.yaml").write_text(test % "")
    (tmp_path / "b.eval.yaml").write_text(test % ", flags: i")  # 'flags' is a regex's
    code = ("import gc, io, os, sys\nos.chdir(sys.argv[1])\nfrom evallint.cli import main\n"
            "main(['-q', '--no-cache', sys.argv[2]], stdout=io.StringIO(), stderr=io.StringIO())\n"
            "from evallint.format.agentv4.assertions import AssertionSchema\n"
            "print(len([s for s in gc.get_objects() if isinstance(s, AssertionSchema) and type(s).kind]))\n")
    made = [subprocess.run([sys.executable, "-c", code, str(tmp_path), name], capture_output=True, text=True,
                           check=True).stdout.split() for name in ("a.eval.yaml", "b.eval.yaml")]
    assert made == [["1"], [str(len(KINDS))]]
