"""The files an AgentV 4.42 grader names, as references to check (``references.py``): an llm-grader's prompt
(a ``file://`` path, a bare text that looks like one, an executable prompt's command), an aggregator's prompt, a
code-grader's command and folder, a preprocessor's command, and a custom type's grader file."""
from __future__ import annotations

import os
import re
from typing import Iterator, Optional

from evallint.diagnostics import KEY
from evallint.load.environment import refers
from evallint.load.reach import resolve
from evallint.rules.common import Site, check_unknown_keys, execution_of, finding, is_text, takes
from evallint.rules.grader_lists import in_dropped_turn, in_turn, turn_test
from evallint.rules.grading_targets import graded_by
from evallint.rules.reference_words import looks_like_path
from evallint.rules.referenced import TEMPLATE_VARIABLE
from evallint.rules.script_files import SHELL_OPERATORS
from evallint.rules.targets4 import added_targets
from evallint.suggest import did_you_mean, one_of, quote

FILE_PREFIX = "file://"
# AgentV 2.2's judge prompt templates: the variables it fills, of which one must hold the answer
TEMPLATE_VARIABLES = ("candidate_answer", "expected_messages", "question", "expected_outcome", "reference_answer",
                      "input_messages", "output_messages")
REQUIRED_VARIABLES = ("candidate_answer", "expected_messages")
# AgentV 4.42.4's grader prompt templates: the variables it fills, of which one must hold the answer
TEMPLATE_VARIABLES_4 = ("expected_output", "criteria", "metadata", "metadata_json", "rubrics", "rubrics_json",
                        "input", "output", "file_changes", "tool_calls")
REQUIRED_VARIABLES_4 = ("output", "expected_output")
# of an inline template's variables, those that show the grader what the agent did (the answer, its changes, its
# tool calls): an inline template is checked by no validator, and one without them grades blind
AGENT_VARIABLES_4 = ("output", "file_changes", "tool_calls")
# of a grader with rubrics, the variables of a template that show them, and what a template without them does
RUBRIC_VARIABLES_4 = ("rubrics", "rubrics_json")
RUBRICS_UNSEEN = ("uses neither '{{ rubrics }}' nor '{{ rubrics_json }}': it is the whole grader prompt, so the grader "
                  "never sees the rubrics it is scored on; add '{{ rubrics }}'")
# AgentV 2.2's names of variables that AgentV 4.42.4 fills, under these names, with what 2.2 filled them with
EARLIER_VARIABLES_4 = {"candidate_answer": "output", "reference_answer": "expected_output", "question": "input",
                       "expected_outcome": "criteria"}
# a turn's grader runs in the folder the run starts in (``references._base``: the repository root), as does a
# preprocessor's program, which the runner starts with no folder of its own (content-preprocessor.ts)
TURN = {"started": "a turn's grader runs in the folder the run starts in, taken as the repository root, not the eval "
                   "file's folder"}
STARTED = {"started": "the runner starts it in the folder the run starts in, taken as the repository root"}
ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")  # a shell's 'NAME=value' before its command
PLAIN_WORD = re.compile(r"[\w./@%+=:,-]+")  # a word the shell takes as written
COMMAND_SUFFIXES = (".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx", ".py", ".sh", ".bash", ".rb", ".go", ".rs")
# where AgentV 4.42.4 finds the grader of a custom assertion type, in an '.agentv' folder
CUSTOM_TYPE_FOLDERS = (".agentv/assertions", ".agentv/graders", ".agentv/judges")
CUSTOM_TYPE_SUFFIXES = (".ts", ".js", ".mts", ".mjs")


def check_grader_prompt(ev: dict, place) -> Iterator:
    """An llm-grader's prompt as a reference: a 'file://' path, a bare text that looks like a path (sent as
    text), or the argv of an executable prompt (its last word a file the runner looks up). A turn's grader reads
    its prompt as text, whatever it is (EV307: the loader passes a turn's graders on as written); in a turn the runner
    never plays, nothing is read."""
    if in_dropped_turn(place):
        return
    prompt = ev.get("prompt")
    at = place.at + ("prompt",)
    turn = in_turn(place)
    if turn and (isinstance(prompt, dict) or isinstance(prompt, str) and prompt.startswith(FILE_PREFIX)):
        what, then = (f"prompt {quote(prompt)} is not read from a file", "these words are the grader's criteria") \
            if isinstance(prompt, str) else ("executable prompt is not run", "the grader uses its default prompt")
        yield finding("EV307", f"a turn's grader's {what}: the runner passes a turn's graders on as written, so {then}; "
                      "write the prompt's text, or grade in the test's own 'assertions'", at)
    elif isinstance(prompt, str) and prompt.startswith(FILE_PREFIX):
        yield Site("prompt_file", prompt[len(FILE_PREFIX):], at,
                   {"rubrics": _has_rubrics(ev), **graded_by(ev, place.document)})
    elif isinstance(prompt, str):
        yield Site("bare_prompt", prompt, at, TURN if turn else {})
        yield from _blind_template(prompt, at, place.document, _has_rubrics(ev), graded_by(ev, place.document))
    elif isinstance(prompt, dict):
        command = prompt.get("command", prompt.get("script"))
        key = "command" if "command" in prompt else "script"
        if isinstance(command, list) and command and all(is_text(word) for word in command):
            yield Site("prompt_command", command, at + (key,))
            yield from _leading_script(command, at + (key,), {
                "beside": command[-1], "what": "prompt command file",
                "then": "the prompt fails when the grader runs, which scores 0"})


def check_config_keys(ev: dict, place) -> Iterator:
    """EV108 for a code-grader's own key that its 'config' sets too: the loader gives the script the grader's other
    keys with 'config' merged over them (loaders/grader-parser.ts), so the key's value is dropped."""
    config = ev.get("config")
    for key in ev if isinstance(config, dict) else ():
        if isinstance(key, str) and key in config and key not in place.keys.known:
            yield finding("EV108", f"'{key}' is ignored because 'config' also sets it: the runner gives the script "
                          f"'config' merged over the grader's other keys, so {quote(key)} is config's; remove one of "
                          "them", place.at + (key,), KEY)


def check_grader_target(ev: dict, place) -> Iterator:
    """The target an llm-grader (or rubrics) grades with: one the targets file the run uses defines, else the
    grader fails ('not found in targets') and scores 0 (registry/builtin-graders.ts); its 'temperature' and
    'max_steps' apply only with it (EV115 without); its 'model' is not read (EV115)."""
    target = ev.get("target")
    if is_text(target) and not refers(target):
        yield Site("target", target, place.at + ("target",), {"note": ", so the grader fails and scores 0", "exact": True,
                                                              "aliases": added_targets(execution_of(place.document))})
    steps = "max_steps" if ev.get("max_steps") is not None else "maxSteps"  # the loader reads 'max_steps ?? maxSteps'
    for key in ("temperature", steps):
        if key in ev and not is_text(target) and takes(place.schema, key, ev[key]):  # else its own finding says
            yield finding("EV115", f"'{key}' in {place.schema.kind} applies only with a 'target': without one the "
                          "grader runs on the run's grader target with its own settings, so what it holds is dropped",
                          place.at + (key,), KEY)
    if "model" in ev:
        yield finding("EV115", "'model' in llm-grader is not read: the runner grades with the model of the grader's "
                      "target, so what it holds is dropped; name a target of that model in 'target'",
                      place.at + ("model",), KEY)


def _leading_script(command: list, at: tuple, extra: dict) -> Iterator:
    """The first word of an executable prompt's or a preprocessor's argv of more words, when it names a script, which
    the runner starts as the program: an executable prompt in the folder where the file its last word names is
    found (``extra['beside']``: prompt-resolution.ts), a preprocessor where the run starts (content-preprocessor.ts)."""
    if len(command) > 1 and names_file(command[0]) and not is_program(command[0]):
        yield Site("command_file", command[0], at + (0,), {**extra, "direct": True})


def _var_names(document) -> set:
    """The names of the tests' vars in ``document``: a grader's '{{ name }}' of one is test_vars.py's finding."""
    tests = document.get("tests") if isinstance(document, dict) else document
    return {name for test in (tests if isinstance(tests, list) else ()) if isinstance(test, dict)
            and isinstance(test.get("vars"), dict) for name in test["vars"]}


def _has_rubrics(ev: dict) -> bool:
    rubrics = ev.get("rubrics")
    return isinstance(rubrics, list) and any(isinstance(item, dict) for item in rubrics)


def _blind_template(prompt: str, at: tuple, document, rubrics: bool, graded: dict) -> Iterator:
    """An inline prompt with a template variable but none of those that show what the agent did (a site: whether
    the grader, ``graded``, is an agent that reads the workspace decides, references.py), or, of a grader with
    ``rubrics``, neither of those that hold them (EV405): the runner takes such a prompt as the whole grader prompt
    (builtin-graders.ts, prompt-resolution.ts), which then shows the grader neither the answer, nor the agent's
    changes or tool calls (nor the rubrics it is scored on); a prompt without variables is the criteria instead.
    EV406 for a name that is no variable (but a name of the vars of a test of ``document``)."""
    written = {match.group(1): match.group(0) for match in reversed(list(TEMPLATE_VARIABLE.finditer(prompt)))}
    used = set(written) & set(TEMPLATE_VARIABLES_4)
    unknown = [name for name in written if name not in TEMPLATE_VARIABLES_4]
    for name in (n for n in unknown if n not in _var_names(document)):
        later = EARLIER_VARIABLES_4.get(name)
        meant = f" (AgentV 2.2's name of '{{{{ {later} }}}}')" if later else did_you_mean(name, TEMPLATE_VARIABLES_4)
        yield finding("EV406", f"inline prompt uses unknown variable '{{{{ {name} }}}}'{meant}, which reaches the "
                      f"grader as written; known: {one_of(TEMPLATE_VARIABLES_4)}", at, needle=written[name])
    if used and not used & set(AGENT_VARIABLES_4):
        yield Site("blind_prompt", sorted(used), at, graded)
    if used and rubrics and not used & set(RUBRIC_VARIABLES_4):
        yield finding("EV405", f"inline prompt {RUBRICS_UNSEEN} (a prompt with a template variable is one)", at)


def check_aggregator_prompt(aggregator: dict, place) -> Iterator:
    """An llm-grader aggregator's prompt, whose words are the prompt even after 'file://' (whose file the
    runner only needs to exist, but for a turn's composite, whose prompt nothing reads: EV307)."""
    if in_dropped_turn(place):
        return
    prompt = aggregator.get("prompt")
    if in_turn(place) and isinstance(prompt, str) and prompt.startswith(FILE_PREFIX):
        yield finding("EV307", f"a turn's aggregator prompt {quote(prompt)} is not read from a file: the runner passes "
                      "a turn's graders on as written, so these words are the aggregator's prompt; write the prompt "
                      "itself, with {{EVALUATOR_RESULTS_JSON}} where the members' results go", place.at + ("prompt",))
    elif isinstance(prompt, str) and prompt.startswith(FILE_PREFIX):
        yield Site("aggregator_prompt", prompt[len(FILE_PREFIX):], place.at + ("prompt",), {"file": True})
    elif isinstance(prompt, str):
        yield Site("aggregator_prompt", prompt, place.at + ("prompt",))
    if aggregator_kind(aggregator) == "llm-grader" and isinstance(prompt, str) and prompt != "" \
            and RESULTS not in prompt \
            and ("\n" in prompt or not looks_like_path(prompt)):
        spelt = next((m.group(0) for m in RESULTS_SPELT.finditer(prompt)), None)  # EV404 says it of a path
        said, fix = (f"writes {quote(spelt)}, which the runner does not fill", f"write {RESULTS}") if spelt else \
            (f"has no {RESULTS}", f"add {RESULTS} to the prompt")
        yield finding("EV405", f"aggregator prompt {said}: it puts the members' results only where a prompt writes "
                      f"{RESULTS} exactly, so the aggregator never sees them; {fix}", place.at + ("prompt",))


RESULTS = "{{EVALUATOR_RESULTS_JSON}}"  # the one text graders/composite.ts replaces by the members' results
RESULTS_SPELT = re.compile(r"\{\{\s*evaluator_results_json\s*\}\}", re.I)


def aggregator_kind(aggregator: dict, as_written: bool = False):
    """An aggregator's type as the loader reads it, 'code_grader' and 'llm_grader' as their kebab-case names (a
    turn's composite reads it ``as_written``)."""
    kind = aggregator.get("type")
    return kind.replace("_", "-") if kind in ("code_grader", "llm_grader") and not as_written else kind


# the key only one type of aggregator reads (loaders/grader-parser.ts keeps it for that type alone)
AGGREGATOR_READS = {"weights": "weighted_average", "threshold": "threshold", "path": "code-grader", "prompt": "llm-grader"}


def check_aggregator_keys(aggregator: dict, place) -> Iterator:
    """Unknown keys of an aggregator; a turn's composite reads its 'cwd' (graders/composite.ts: the loader, which
    drops it, does not read a turn's graders), a test's does not: EV115 for the 'cwd' of a code-grader aggregator
    there, whose script then runs in the eval file's folder, and for a key another type of aggregator reads."""
    kind, turn = aggregator_kind(aggregator), in_turn(place)
    cwd = aggregator.get("cwd")
    moved = kind == "code-grader" and not turn and "cwd" in aggregator \
        and not (isinstance(cwd, str) and os.path.normpath(cwd) == ".")  # the eval file's folder: unread, no change
    yield from check_unknown_keys(aggregator, place.keys, place.at, "aggregator", skip=("cwd",) if turn or moved else ())
    if moved:
        yield finding("EV115", "'cwd' is not read in a code-grader aggregator: the runner runs its script in the eval "
                      "file's folder; name the script from there", place.at + ("cwd",), KEY)
    for key, reader in AGGREGATOR_READS.items() if kind in AGGREGATOR_READS.values() else ():
        if key in aggregator and reader != kind:
            yield finding("EV115", f"'{key}' is read only by a '{reader}' aggregator: the runner drops it from this "
                          f"'{kind}' one", place.at + (key,), KEY)


def check_aggregator_script(aggregator: dict, place) -> Iterator:
    """A code-grader aggregator's 'path', as a reference: a command the runner runs through the shell (graders/
    composite.ts, code-grader.ts runScriptRaw) in the eval file's folder, which looks a first word without a '/' up
    on PATH only. A turn's composite runs it in the folder of the test's first input file, else in the folder the run
    starts in (orchestrator.ts runEvaluatorList; with an input file it is not looked up here), and there a '_'
    spelling of the type is no code-grader (it falls back to weighted_average: EV307)."""
    turn, path = in_turn(place), aggregator.get("path")
    if in_dropped_turn(place) or not is_text(path) or aggregator_kind(aggregator, as_written=turn) != "code-grader" \
            or turn and _has_input_file(place):
        return
    cwd = aggregator.get("cwd") if turn and isinstance(aggregator.get("cwd"), str) else None  # read in a turn only
    if cwd is not None:
        yield Site("cwd", cwd, place.at + ("cwd",), {"what": "aggregator cwd", **TURN})
    extra = {"cwd": cwd, "what": "aggregator script file", "then": "the composite scores 0", "shell": True,
             **(TURN if turn else {})}
    first = shell_first_word(path)
    yield from _first_word(first, place.at + ("path",), extra)
    if not (first and names_file(first[0]) and not is_program(first[0])):  # else the first word is the script
        yield Site("script", path, place.at + ("path",), extra)


def shell_first_word(command: str) -> list:
    """The first word of a command the shell runs ([] or one), when the shell takes it as written: a simple
    command whose first word has no quote, '~', glob character, '$' or backslash."""
    words = command.split() if not SHELL_OPERATORS.search(command) else []
    first = [word for word in words if not ASSIGNMENT.match(word)][:1]
    return first if first and PLAIN_WORD.fullmatch(first[0]) else []


def _has_input_file(place) -> bool:
    """Whether the test holding a turn at ``place`` attaches a file to its input (a 'file' block, 'input_files'), or
    its suite does to every test's."""
    test = turn_test(place)
    return any(isinstance(holder, dict) and (bool(holder.get("input_files")) or _file_block(holder.get("input")))
               for holder in (test, place.document))


def _file_block(value) -> bool:
    if isinstance(value, dict):
        return value.get("type") == "file" or any(_file_block(item) for item in value.values())
    return isinstance(value, list) and any(_file_block(item) for item in value)


def check_grader_command(ev: dict, place) -> Iterator:
    """A code-grader's folder, and its command's last word when it names a file, as references; its first word
    when the runner looks it up on PATH (``is_program``: a string runs as the shell's 'sh -lc' command, which does
    the same for a simple command)."""
    if in_dropped_turn(place):
        return
    key, command = read_command(ev)
    cwd = ev.get("cwd") if isinstance(ev.get("cwd"), str) else None
    started = TURN if in_turn(place) else {}
    if started:
        yield from _config_only(ev, place)
    if cwd is not None:
        yield Site("cwd", cwd, place.at + ("cwd",), {"what": "code-grader cwd", **started})
    extra = {"cwd": cwd, "what": "script file", "then": "the command fails when the grader runs", **started}
    if isinstance(command, str):  # run by the shell ('sh -lc')
        yield from _first_word(shell_first_word(command), place.at + (key,), {**extra, "shell": True})
    elif isinstance(command, list) and command and all(is_text(word) for word in command):
        yield from _first_word(command[:1] if len(command) > 1 or is_program(command[0]) else [],
                               place.at + (key, 0), extra)
        if names_file(command[-1]) and not (len(command) == 1 and is_program(command[0])):
            yield Site("command_file", command[-1], place.at + (key, len(command) - 1),
                       {**extra, "direct": len(command) == 1})


def _first_word(first: list, at: tuple, extra: dict) -> Iterator:
    """A command's first word (``first``: none, or one), which the runner starts as the program: looked up on PATH
    without a '/', else a file in the folder the command runs in."""
    if first and is_program(first[0]):
        yield Site("program", first[0], at, extra)
    elif first and names_file(first[0]):
        yield Site("command_file", first[0], at, {**extra, "direct": True})


def _config_only(ev: dict, place) -> Iterator:
    """EV307 for a turn's code-grader's key that the loader would carry to the script in its config: the runner
    passes a turn's graders on as written, and the script then gets 'config' alone."""
    for key in ev:
        if key not in place.keys.known:
            yield finding("EV307", f"{quote(key)} does not reach a turn's code-grader: the runner passes a turn's graders "
                          "on as written, and the script gets 'config' alone; move it under 'config'",
                          place.at + (key,), KEY)


def is_program(word: str) -> bool:
    """Whether the first word of a command is run from PATH: the runner starts a command without a shell
    (runtime/exec.ts), which looks a word without a '/' up on PATH only, never in the folder the command runs in
    (a file of that name there is not what runs: ``references._program``)."""
    return bool(word) and not any(c in word for c in "/\\") and not any(c.isspace() for c in word) \
        and "{{" not in word and not refers(word)


def read_command(mapping: dict) -> tuple:
    """(the key of the command the runner reads of a code-grader or a hook, 'command ?? script', and the command)."""
    key = "command" if mapping.get("command") is not None else "script"
    return key, mapping.get(key)


def names_file(word: str) -> bool:
    """Whether a command's word names a file in the repository: a relative path, or a name with a script's suffix
    (an absolute path is the machine's, and a word with spaces is a shell's script)."""
    return not (os.path.isabs(word) or any(c.isspace() for c in word)) and (
        word.startswith(".") or "/" in word or "\\" in word or word.endswith(COMMAND_SUFFIXES))


def check_custom_type(ev: dict, place) -> Iterator:
    """A custom assertion type, which the runner looks for at run time in '.agentv/assertions/' (a turn's as
    written: the loader does not read a turn's graders)."""
    if isinstance(ev.get("type"), str) and ev["type"].strip():
        yield Site("custom_type", ev["type"], place.at + ("type",), {"turn": True} if in_turn(place) else {})


# the media type the runner reads a preprocessor's type as (content-preprocessor.ts normalizePreprocessorType:
# trimmed, lower-cased, a file suffix made its media type)
MEDIA_TYPES = {"csv": "text/csv", "htm": "text/html", "html": "text/html", "json": "application/json",
               "markdown": "text/markdown", "md": "text/markdown", "pdf": "application/pdf", "sql": "application/sql",
               "txt": "text/plain", "xhtml": "application/xhtml+xml", "xls": "application/vnd.ms-excel",
               "xml": "application/xml", "yaml": "application/yaml", "yml": "application/yaml",
               "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
               "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


def check_preprocessor_types(items: list, place) -> Iterator:
    """EV108 for a preprocessor of a grader's list that a later one of the same type replaces: the loader keeps one
    for each type, the last (loaders/grader-parser.ts parseMergedPreprocessors). A turn's grader's list reaches the
    run as written, and a suite's is merged with each grader's: not checked."""
    if in_turn(place) or len(place.at) < 2:
        return
    types = [MEDIA_TYPES.get(item["type"].strip().lower(), item["type"].strip().lower())
             if isinstance(item, dict) and isinstance(item.get("type"), str) else None
             for item in (items if isinstance(items, list) else ())]
    for i, kind in enumerate(types):
        later = next((j for j in range(len(types) - 1, i, -1) if kind is not None and types[j] == kind), None)
        if later is not None:
            yield finding("EV108", f"this preprocessor is ignored because a later one of the list converts the same "
                          f"type ({quote(items[later]['type'])}): the runner keeps the last of each type",
                          place.at + (i, "type"), KEY)


def check_preprocessor_command(preprocessor: dict, place) -> Iterator:
    """A preprocessor's command, whose last word the runner looks up as a file: without it, it skips the test (a
    grader's preprocessor) or rejects the file (the suite's)."""
    command = preprocessor.get("command")
    if isinstance(command, list) and command and all(is_text(word) for word in command) \
            and not in_dropped_turn(place):
        suite, turn = place.at[:1] == ("preprocessors",), in_turn(place)
        then = "the runner rejects the file" if suite else "the runner skips the test" if not turn else \
            "the preprocessor fails when the grader runs, and the grader gets a warning in place of the file's text"
        yield Site("prompt_command", command, place.at + ("command",),
                   {"what": "preprocessor command file", "then": then, **(TURN if turn else {})})
        if not turn:
            yield from _leading_script(command, place.at + ("command",), {
                "what": "preprocessor command file", "then": "the preprocessor fails when the grader runs", **STARTED})


def custom_grader_file(name: str, folder: str, root: str) -> Optional[str]:
    """The grader file the runner registers as the custom type ``name`` (its file name), found in an '.agentv'
    folder from ``folder`` up to ``root``, then in those above it: the runner looks in every folder from the eval
    file's up to the file system's root, which it leaves out (registry discoverAssertions, discoverGraders); None
    without one."""
    found = (resolve(f"{kind}/{name}{suffix}", folder, root).path
             for kind in CUSTOM_TYPE_FOLDERS for suffix in CUSTOM_TYPE_SUFFIXES)
    return next((path for path in found if path is not None), None) or _above_root(name, root)


def _above_root(name: str, root: str) -> Optional[str]:
    from evallint.load import deps
    from evallint.load.view import current

    view, here = current(), os.path.dirname(os.path.abspath(root))
    while os.path.dirname(here) != here:  # not the file system's root
        for path in (os.path.join(here, kind, name + suffix) for kind in CUSTOM_TYPE_FOLDERS
                     for suffix in CUSTOM_TYPE_SUFFIXES):
            deps.note(path)
            if view.isfile(path):
                return path
        here = os.path.dirname(here)
    return None
