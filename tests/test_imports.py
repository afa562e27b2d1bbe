"""What importing evallint costs and changes: marshmallow's e-mail patterns and PyYAML's reader,
resolver and constructor patterns are compiled on first use, ``email.utils`` and ``inspect`` are
imported when marshmallow first calls them, and nothing else about ``re``, ``email``, ``inspect``,
PyYAML or marshmallow changes."""
import re
import subprocess
import sys

from evallint import lazy


def _run(code: str) -> list:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.split()


def _repo_with_suite(root, case_tail: str) -> None:
    """A repository holding evals/s.yaml: one case, ``case_tail`` its last lines."""
    (root / ".git").mkdir()
    (root / "evals").mkdir()
    (root / "evals" / "s.yaml").write_text("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n" + case_tail)


def test_email_patterns_are_compiled_on_first_use():
    out = _run(
        "import re\n"
        "compile_before = re.compile\n"
        "import evallint.lint\n"
        "from marshmallow import ValidationError\n"
        "from marshmallow.validate import Email\n"
        "print(re.compile is compile_before)\n"
        "print(type(Email.USER_REGEX).__name__, type(Email.DOMAIN_REGEX).__name__)\n"
        "print(Email()('someone@example.org'))\n"
        "try:\n"
        "    Email()('not an address')\n"
        "except ValidationError as exc:\n"
        "    print('rejected')\n"
        "print(type(Email.USER_REGEX._compiled).__name__)\n"
    )
    assert out == ["True", "DeferredPattern", "DeferredPattern", "someone@example.org", "rejected", "Pattern"]


def test_marshmallow_imported_first_is_left_alone():
    out = _run("import marshmallow\nimport evallint.lint\nfrom marshmallow.validate import Email\n"
               "print(type(Email.USER_REGEX).__name__)")
    assert out == ["Pattern"]


def test_only_the_named_modules_are_deferred():
    namespace = {"__name__": "some.module", "re": re}
    with lazy.deferred_compiles("some.module", "other.module"):
        exec("deferred = re.compile('a+', re.I)", namespace)
        passed_through = re.compile("b+")
    assert re.compile is lazy._compile_now
    assert isinstance(passed_through, re.Pattern)
    deferred = namespace["deferred"]
    assert isinstance(deferred, lazy.DeferredPattern)
    assert not hasattr(deferred, "__isabstractmethod__")  # asked by ABCMeta of class attributes
    assert deferred._compiled is None  # ... and answered without compiling
    assert deferred.match("AAa").group() == "AAa"
    assert deferred.pattern == "a+" and deferred.flags & re.I


def test_a_run_answered_from_the_cache_imports_no_linting_machinery(tmp_path):
    """An unchanged tree is answered without the parser, the schemas, or ``dataclasses`` (which loads
    ``inspect``), ``typing`` and ``difflib``: what a cached run never needs, it never imports."""
    _repo_with_suite(tmp_path, "    execution: {target: nowhere}\n")
    code = ("import sys, io\nfrom evallint.cli import main\n"
            f"main(['-j1', '-q', {str(tmp_path)!r}], stdout=io.StringIO(), stderr=io.StringIO())\n"
            "print(sorted(m for m in ('yaml', 'marshmallow', 'evallint.lint', 'evallint.yaml12', 'dataclasses',\n"
            "                         'typing', 'difflib', 'inspect') if m in sys.modules))\n")
    assert _run(code) != ["[]"]  # the first run lints
    assert _run(code) == ["[]"]


def test_the_command_tunes_its_collector_and_main_leaves_a_programs_alone():
    code = ("import gc, io, sys\nfrom evallint.cli import entry, main\n"
            "before = gc.get_threshold()\n"
            "main(['rule', 'EV310'], stdout=io.StringIO())\n"
            "print(gc.get_threshold() == before, gc.get_freeze_count() == 0)\n"
            "sys.argv = ['evallint', 'rule', 'EV310']\n"
            "sys.stdout = io.StringIO()\n"
            "try:\n    entry()\nexcept SystemExit:\n    pass\n"
            "sys.stdout = sys.__stdout__\n"
            "print(gc.get_threshold(), gc.get_freeze_count() > 0)\n")
    assert _run(code) == ["True", "True", "(20000,", "20,", "20)", "True"]


def test_the_command_lints_without_importing_the_model_and_the_api_loads_it(tmp_path):
    """The command builds no model, so it never imports ``evallint.model``; a program that asks for a
    suite gets the model imported on its first load."""
    _repo_with_suite(tmp_path, "    evaluators: [{type: rubric, rubrics: [r]}]\n")
    code = ("import sys, io\nfrom evallint.cli import main\n"
            f"code = main(['-j1', '--no-cache', '--select', 'ALL', {str(tmp_path)!r}], stdout=io.StringIO())\n"
            "print(code, 'evallint.model' in sys.modules, 'evallint.lint' in sys.modules)\n"
            "from evallint import load_eval_file\n"
            f"suite = load_eval_file({str(tmp_path / 'evals' / 's.yaml')!r})\n"
            "print(type(suite.cases[0].evaluators[0]).__name__, 'evallint.model' in sys.modules)\n")
    assert _run(code) == ["0", "False", "True", "RubricEvaluator", "True"]


def test_the_rules_name_the_evaluator_kinds_the_model_defines():
    from evallint import kinds, model

    assert tuple(model.EVALUATOR_CLASSES) == kinds.EVALUATOR_KINDS == model.EVALUATOR_KINDS


def test_email_utils_is_imported_when_marshmallow_first_needs_it():
    """marshmallow's date fields name two functions of ``email.utils`` at import; evallint's import
    leaves ``email.utils`` unimported, the functions work, and importing it later gives the real one."""
    code = ("import sys, datetime\nimport evallint.schemas\nfrom marshmallow import fields\n"
            "print('email.utils' in sys.modules, 'socket' in sys.modules)\n"
            "f = fields.DateTime(format='rfc')\n"
            "print(repr(f.serialize('d', {'d': datetime.datetime(2020, 1, 2, 3, 4, 5)})))\n"
            "print(f.deserialize('Thu, 02 Jan 2020 03:04:05 -0000').isoformat())\n"
            "import email.utils\n"
            "print(sys.modules['email.utils'] is email.utils, email.utils.formatdate(0, usegmt=True)[-3:])\n")
    assert _run(code) == ["False", "False", "'Thu,", "02", "Jan", "2020", "03:04:05", "-0000'",
                          "2020-01-02T03:04:05", "True", "GMT"]


def test_a_program_that_imported_email_utils_first_keeps_it():
    code = ("import email.utils, sys\nimport evallint.schemas\nfrom marshmallow import fields\n"
            "print(fields.DateTime.SERIALIZATION_FUNCS['rfc'] is email.utils.format_datetime,\n"
            "      sys.modules['email.utils'] is email.utils)\n")
    assert _run(code) == ["True", "True"]


def test_the_stand_in_gives_any_other_attribute_from_the_real_module_and_leaves_no_trace():
    code = ("import sys, email\nfrom evallint.lazy import stand_in\n"
            "with stand_in('email.utils', ('format_datetime',)):\n"
            "    import email.utils\n"
            "    print(type(email.utils.format_datetime).__name__, email.utils.formatdate(0, usegmt=True)[-3:])\n"
            "print('email.utils' in sys.modules, hasattr(email, 'utils'))\n")
    assert _run(code) == ["OnFirstCall", "GMT", "False", "False"]


def test_the_command_lints_without_inspect_or_dataclasses(tmp_path):
    """Linting needs neither ``inspect`` (marshmallow names it, for ``getmro`` and two generator tests)
    nor ``dataclasses`` (which imports ``inspect``, ``ast`` and ``dis``): a linting run imports neither."""
    _repo_with_suite(tmp_path, "    execution: {target: nowhere}\n    colour: red\n")
    code = ("import sys, io\nfrom evallint.cli import main\n"
            f"code = main(['-j1', '--no-cache', {str(tmp_path)!r}], stdout=io.StringIO(), stderr=io.StringIO())\n"
            "print(code, 'evallint.lint' in sys.modules, 'marshmallow' in sys.modules,\n"
            "      [m for m in ('inspect', 'dataclasses', 'ast', 'dis') if m in sys.modules])\n")
    assert _run(code) == ["0", "True", "True", "[]"]


def test_inspect_is_imported_when_marshmallow_first_calls_it():
    code = ("import sys\nimport evallint.schemas\nfrom marshmallow import Schema, fields, utils\n"
            "class S(Schema):\n    n = fields.Integer()\n"
            "print('inspect' in sys.modules, S.__mro__[1] is Schema, sorted(S._declared_fields))\n"
            "print(utils.is_generator(x for x in ()), utils.is_collection([1]), utils.is_generator([]))\n"
            "import inspect\n"
            "print(sys.modules['inspect'] is inspect, inspect.getmro(S) == S.__mro__)\n")
    assert _run(code) == ["False", "True", "['n']", "True", "True", "False", "True", "True"]


def test_a_program_that_imported_inspect_first_keeps_it():
    code = ("import inspect, sys\nimport evallint.schemas\nimport marshmallow.schema, marshmallow.utils\n"
            "print(marshmallow.schema.inspect is inspect, marshmallow.utils.inspect is inspect,\n"
            "      sys.modules['inspect'] is inspect)\n")
    assert _run(code) == ["True", "True", "True"]


def test_yaml_patterns_are_compiled_on_first_use():
    """evallint parses with PyYAML's C parser and resolves scalars itself: the pure-Python reader's,
    resolver's and constructor's patterns wait until something uses them, and then work as always."""
    code = ("import re, sys\ncompile_before = re.compile\nimport evallint.lint\nimport yaml\n"
            "from yaml import constructor, reader, resolver\n"
            "print(re.compile is compile_before, type(reader.Reader.NON_PRINTABLE).__name__,\n"
            "      type(constructor.SafeConstructor.timestamp_regexp).__name__)\n"
            "print(yaml.safe_load('a: yes\\nb: 2001-02-03\\nc: [0x1F, ~]'), yaml.load('x', Loader=yaml.SafeLoader))\n"
            "print(type(resolver.Resolver.yaml_implicit_resolvers['y'][0][1]._compiled).__name__)\n")
    assert _run(code) == ["True", "DeferredPattern", "DeferredPattern",
                          "{'a':", "True,", "'b':", "datetime.date(2001,", "2,", "3),", "'c':", "[31,", "None]}", "x",
                          "Pattern"]


def test_yaml_imported_first_is_left_alone():
    out = _run("import yaml.reader\nimport evallint.lint\nprint(type(yaml.reader.Reader.NON_PRINTABLE).__name__)")
    assert out == ["Pattern"]


def test_platform_patterns_are_compiled_on_first_use():
    """``platform``, which marshmallow's ``uuid`` imports for the system's name, compiles patterns
    evallint never uses; they wait, and work."""
    code = ("import sys\nimport evallint.lint\nimport platform\n"
            "print(type(platform._sys_version_parser).__name__, platform.python_implementation())\n")
    assert _run(code) == ["DeferredPattern", "CPython"]
