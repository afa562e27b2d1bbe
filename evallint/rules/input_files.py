"""An AgentV 4.42 suite's and test's 'input_files': the files the loader attaches to a test's input, each
looked up from the eval file's folder up (a missing one is left out with a warning), a '{{ name }}' in a path filled
in from the test's vars first (the suite's paths from the vars of each test that gets them)."""
from __future__ import annotations

from typing import Any, Iterator

from evallint.diagnostics import FIRST_KEY
from evallint.rules.common import Site, finding, is_text, js_truthy
from evallint.rules.grader_lists import skips_defaults
from evallint.rules.template_vars import VARIABLE, filled, render, variables
from evallint.suggest import quote

INPUT_FILE = {"what": "input file", "then": "the runner leaves it out of the input it sends (warning 'File not found')"}


def check(data: dict, at: tuple, test: bool = True) -> Iterator:
    """The files of a ``test``'s or the suite's 'input_files', which the loader attaches as file blocks: looked up
    from the eval file's folder up, a missing one left out. A test's path that still has a '{{ name }}' once its
    vars are filled in is looked up as written; the suite's is filled in from each test's vars first."""
    paths = data.get("input_files")
    for i, value in enumerate(paths if isinstance(paths, list) else ()):
        unfilled = VARIABLE.search(value) if is_text(value) else None
        if unfilled and test:
            yield Site("file", value, at + ("input_files", i), {**INPUT_FILE, "then": (
                f"no var of the test fills in {quote(unfilled.group(0))}, so the runner looks for a file of that name "
                "and leaves it out of the input it sends (warning 'File not found')")})
        elif is_text(value) and "{{" not in value:
            yield Site("file", value, at + ("input_files", i), INPUT_FILE)


def no_paths(files: Any) -> bool:
    """An 'input_files' list without a string: with it, the loader finds no input."""
    return isinstance(files, list) and not any(isinstance(path, str) for path in files)


def names_files(files: Any) -> bool:
    """Input files the loader attaches: a list holding a string (expandInputFilesShorthand); with other input files
    it finds no input."""
    return isinstance(files, list) and any(isinstance(path, str) for path in files)


def check_suite_input_files(data: dict, place) -> Iterator:
    """The suite's input files as references, as written and as each test's vars fill them in. EV105: they make
    the loader read a string 'input' only, and skip every test with messages that does not set
    'execution.skip_defaults: true'."""
    yield from check(data, (), test=False)
    if "input_files" not in data or not isinstance(data.get("tests"), list):
        return
    yield from _suite_files_filled(data)
    if no_paths(data["input_files"]):
        yield finding("EV105", "the suite's 'input_files' names no file, so the runner finds no input in any test "
                      "without 'input_files' of its own or 'execution: {skip_defaults: true}', and skips it; remove "
                      "it or name the files", ("input_files",))
        return
    for i, test in enumerate(data["tests"]):
        if not isinstance(test, dict) or "input" not in test or suite_files_for(test, data) is None:
            continue  # the test's own input files decide, or it skips the suite's, or the suite's are null
        if not isinstance(filled(test)["input"], str):
            filled_in = "once its vars are filled in, " if isinstance(test["input"], str) else ""
            yield finding("EV105", f"{filled_in}the suite's 'input_files' make the runner read only a string 'input', "
                          "so it skips this test; give it 'execution: {skip_defaults: true}' or a string input",
                          ("tests", i, "input"))
        elif not names_files(suite_files_filled(test, data)):
            yield finding("EV105", f"the suite's 'input_files' {quote(data['input_files'])} are no list of files once "
                          "this test's vars are filled in, so the runner finds no input and skips the test; give it "
                          "vars that fill them in with a list, or 'execution: {skip_defaults: true}'", ("tests", i),
                          FIRST_KEY)


def suite_files_for(test: dict, suite: Any) -> Any:
    """The suite's input files as written that ``test`` gets, when it has none of its own (or null) and does not
    skip the suite's defaults, and the suite's are JavaScript-truthy (yaml-parser.ts: 'rawSuiteInputFiles &&
    !skipDefaults', then resolveInputMessages' 'input_files ?? the suite's'); else None."""
    return suite_files_given(test.get("input_files"), skips_defaults(test), suite)


def suite_files_filled(test: dict, suite: Any) -> Any:
    """``suite_files_for`` ``test``, its vars filled in (one '{{ name }}' may make the whole list)."""
    return render(suite_files_for(test, suite), variables(test))


def suite_files_given(own: Any, skip_defaults: bool, suite: Any) -> Any:
    """``suite_files_for`` a test whose own input files are ``own`` (None: it has none) and which skips the suite's
    defaults or not."""
    written = suite.get("input_files") if isinstance(suite, dict) else None
    return None if own is not None or skip_defaults or not js_truthy(written) else written


def _suite_files_filled(data: dict) -> Iterator:
    """The suite's input files that a test's vars fill in, as that test gets them: when it has no input files of
    its own and does not skip the suite's defaults; one whose '{{ name }}' a test's vars do not fill in, as written,
    once (naming the first such test)."""
    written, unfilled = data["input_files"], set()
    for test in data["tests"]:
        files = suite_files_filled(test, data) if isinstance(test, dict) else None
        if files is None:
            continue
        for i, value in enumerate(files if isinstance(files, list) else ()):
            item = written[i] if isinstance(written, list) else None  # one '{{ name }}' fills in the whole list
            at = ("input_files", i) if isinstance(written, list) else ("input_files",)
            left = VARIABLE.search(value) if is_text(value) else None
            if left and at not in unfilled:
                unfilled.add(at)
                yield Site("file", value, at, {**INPUT_FILE, "then": (
                    f"the vars of test {quote(test.get('id'))} do not fill in {quote(left.group(0))}, so the runner "
                    "looks for a file of that name and leaves it out of that test's input (warning 'File not found')")})
            elif value != item and is_text(value) and "{{" not in value:
                yield Site("file", value, at, {**INPUT_FILE, "then": (
                    f"the runner leaves it out of the input of test {quote(test.get('id'))}, whose vars fill it in "
                    "(warning 'File not found')")})
