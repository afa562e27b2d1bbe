"""What importing evallint costs and changes: nothing of ``re``, PyYAML or marshmallow is altered, and a
run answered from the cache imports no linting machinery."""
import subprocess
import sys


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
