"""A 4.42 conversation test (``mode: conversation``) as the run plays it (orchestrator.ts runConversationMode): the
graders of the test itself and the suite's it gets, which grade its transcript, what its input sends, and whether
anything grades it at all. Its turns are turns.py's."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from evallint.diagnostics import KEY
from evallint.format.agentv4.graders import KINDS, SCHEMAS
from evallint.format.agentv4.turns import LIMITS_READ, no_data
from evallint.rules import grader_lists as lists
from evallint.rules.common import finding, is_text
from evallint.load.templates import is_include
from evallint.rules.grader_lists import first_list, members_of, normal_type, plays_turns, skips_defaults, value_at
from evallint.rules.messages import sent
from evallint.rules.template_vars import filled
from evallint.suggest import quote


def check_suite_conversation_graders(suite: dict, place) -> Iterator:
    """EV307 for a suite's default grader of the run's duration, cost or token usage when the suite has conversation
    tests: the loader appends the suite's graders ('assertions' else 'assert') to each test's but those that set
    'execution.skip_defaults' (loaders/grader-parser.ts), and a conversation's are graded on its transcript."""
    read, tests = _read_graders(suite, ()), suite.get("tests")
    talks = [test["id"] for test in (tests if isinstance(tests, list) and read else ()) if isinstance(test, dict)
             and plays_turns(test) and not skips_defaults(test) and isinstance(test.get("id"), str)]
    for grader, at in _with_members(read) if talks else ():
        yield from _conversation_no_data(grader, at, f"for the conversation test {quote(talks[0])}"
                                         f"{' and others' if len(talks) > 1 else ''}, the suite's",
                                         "give a conversation test 'execution: {skip_defaults: true}'")


def check_tests_file_conversation_graders(suite: dict, place) -> Iterator:
    """``check_suite_conversation_graders`` for a file of tests a suite names (loaded with the suite's defaults):
    reported at each conversation test of the file that gets such a grader, as the suite's own place is elsewhere."""
    read, tests = _read_graders(suite, ()), suite.get("tests")
    for i, test in enumerate(tests if isinstance(tests, list) and read else ()):
        if plays_turns(test) and not skips_defaults(test):
            for grader, at in _with_members(read):
                for found in _conversation_no_data(grader, at, "for this conversation test, the suite's",
                                                   "give it 'execution: {skip_defaults: true}'"):
                    yield replace(found, path=place.at + ("tests", i, "mode"), target=KEY)


def _read_graders(mapping: dict, at: tuple) -> list:
    """(each grader with its type as the loader reads it, '_' as '-'; its path) of the list the loader reads of a test
    or a suite, 'assertions' else 'assert' (those of no string type left out)."""
    key = "assertions" if "assertions" in mapping else "assert"
    graders = mapping.get(key)
    return [({**grader, "type": normal_type(grader["type"])}, at + (key, i))
            for i, grader in enumerate(graders if isinstance(graders, list) else ())
            if isinstance(grader, dict) and isinstance(grader.get("type"), str)]


def _with_members(read: list) -> Iterator:
    """The graders of ``read`` (``_read_graders``), each composite's members after it: the loader keeps a member
    with a 'name' and a grader kind as its type, as written (loaders/grader-parser.ts), and the composite grades its
    members as graders of its own."""
    pending = list(read)
    while pending:
        grader, at = pending.pop(0)
        yield grader, at
        if grader["type"] == "composite":
            members = grader.get("assertions")
            pending += [(member, at + ("assertions", i)) for i, member in enumerate(members if isinstance(members, list)
                                                                                     else ())
                        if isinstance(member, dict) and isinstance(member.get("name"), str) and member["name"]
                        and member.get("type") in KINDS]


def _conversation_no_data(grader: dict, at: tuple, whose: str, *fix: str) -> Iterator:
    """``no_data`` for a grader the loader has read, which reads either spelling of execution-metrics' limits; and
    EV307 for a grader whose score the transcript it grades decides (``ON_TRANSCRIPT``)."""
    yield from no_data(grader, at, whose, LIMITS_READ if grader["type"] == "execution-metrics" else (), *fix)
    why = ON_TRANSCRIPT.get(grader["type"])
    if why is not None:
        negated = grader.get("negate") is True
        score = f"always scores {'1 (negated)' if negated else '0'}" if grader["type"] != "starts-with" else \
            "scores the same whatever the answers"
        yield finding("EV307", f"{whose} {quote(grader['type'])} grader {score}: the runner grades a conversation's "
                      f"own graders on its whole transcript, each message written 'role: content', {why}; "
                      f"{fix[0] if fix else IN_TURNS}", at + ("type",))


IN_TURNS = "grade the answers in the turns' assertions"
# the text checks whose value a conversation's own messages may hold: kind -> (its values a list, all must match)
TEXT_CHECKS = {"contains": (False, True), "icontains": (False, True), "contains-any": (True, False),
               "icontains-any": (True, False), "contains-all": (True, True), "icontains-all": (True, True)}


def _words_of_its_own(grader: dict, at: tuple, test: dict) -> Iterator:
    """EV309 for a conversation test's own text check whose value the transcript holds whatever the agent answers: the
    transcript it grades is every message written 'role: content', the test's input and the turns' inputs among them
    (orchestrator.ts runConversationMode)."""
    many, every = TEXT_CHECKS.get(grader["type"], (None, None))
    values = grader.get("value") if many else [grader.get("value")]
    if many is None or not isinstance(values, list) or not values or not all(is_text(v) for v in values):
        return
    folded = grader["type"].startswith("i")
    said = [(f"{role}: {content}", where) for role, content, where in _own_messages(filled(test))]
    found = [next((where for text, where in said if (v.lower() in text.lower() if folded else v in text)), None)
             for v in values]
    if all(found) if every else any(found):
        i = next(i for i, where in enumerate(found) if where)
        value = f"'value' {quote(values[i])}" if not many else f"'value' item {quote(values[i])}"
        negated = grader.get("negate") is True
        yield finding("EV309", f"{grader['type']} {value} is in {found[i]}: the runner grades a conversation test's own "
                      "graders on its whole transcript, each message written 'role: content', so the grader "
                      f"{'fails' if negated else 'passes'} whatever the answers{' (negated)' if negated else ''}; "
                      f"{IN_TURNS}", at + (("value", i) if many else ("value",)))


def _own_messages(test: dict) -> Iterator:
    """(role, content, where it is written) of each part of a conversation's transcript that the test decides: its
    input's messages with text content, the user's message of each turn with a text input, and the 'assistant: ' in
    front of each answer."""
    for role, i, content in sent(test.get("input")):
        if isinstance(content, str):
            yield role, content, "the test's input" if i is None else f"the test's input message {i + 1}"
    for i, turn in enumerate(test["turns"] if isinstance(test.get("turns"), list) else ()):
        if isinstance(turn, dict) and isinstance(turn.get("input"), str):
            yield "user", turn["input"], f"turn {i + 1}'s input"
    yield "assistant", "", "each answer's 'assistant: '"
# a grader kind whose score a conversation's transcript decides, and why
ON_TRANSCRIPT = {"is-json": "which is no JSON", "equals": "which is no one answer",
                 "starts-with": "which starts with the test's first message"}


def check_conversation_graders(test: dict, place) -> Iterator:
    """EV307 for a conversation test's own grader of the run's duration, cost or token usage (``_no_data``): the
    runner grades a conversation's transcript without them (a composite's members alike). The loader reads these
    graders: 'assertions' else 'assert', their types with '_' read as '-'."""
    for grader, at in _with_members(_read_graders(test, place.at) if plays_turns(test) else []):
        yield from _conversation_no_data(grader, at, "a conversation test's")
        yield from _words_of_its_own(grader, at, test)
    if plays_turns(test):
        yield from _ungraded(test, place)
        yield from _expected_in_every_turn(test, place.at)
        yield from _blocks_as_text(test, place.at)
        yield from _suite_files_as_text(test, place)


AS_JSON = "in a conversation the runner sends a message whose content is no string as its JSON text"


def _suite_files_as_text(test: dict, place) -> Iterator:
    """EV112 for the suite's input files, which the loader sends with a conversation test's string input (unless
    the test skips the suite's defaults) as one message of content blocks: sent as JSON text."""
    files = place.document.get("input_files") if isinstance(place.document, dict) else None
    if isinstance(files, list) and any(is_text(path) for path in files) and isinstance(test.get("input"), str) \
            and "input_files" not in test and not skips_defaults(test):
        yield finding("EV112", f"the suite's 'input_files' are not attached to this conversation test: {AS_JSON}, so the "
                      "files reach the agent as JSON, their paths and text in quotes; give the test "
                      "'execution: {skip_defaults: true}' and put what the agent needs in its input text",
                      place.at + ("mode",), KEY)


def _blocks_as_text(test: dict, at: tuple) -> Iterator:
    """EV112 for a conversation test's input that makes a message of content blocks (its input files, a list of
    blocks): the run sends such a message as JSON text, paths and all, with no file or image attached
    (orchestrator.ts runConversationMode)."""
    files = test.get("input_files")
    if isinstance(files, list) and any(is_text(path) for path in files):
        yield finding("EV112", f"a conversation test's 'input_files' are not attached: {AS_JSON}, so the files reach "
                      "the agent as JSON, their paths and text in quotes; put what the agent needs in the input text",
                      at + ("input_files",), KEY)
    messages = test.get("input") if isinstance(test.get("input"), list) else [test.get("input")]
    for i, message in enumerate(messages):
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, (list, dict)):
            where = at + (("input", i) if isinstance(test.get("input"), list) else ("input",)) + ("content",)
            yield finding("EV112", f"a conversation test's input message of content blocks is sent as text: {AS_JSON}, "
                          "so no file or image is attached; write the content as text", where)


def _ungraded(test: dict, place) -> Iterator:
    """EV121 for a conversation test's criteria that nothing grades, EV106 for a conversation test without criteria
    that nothing grades: with turns that have no assertions or expected output, and no grader of the test's own (its
    'rubrics' too) or the suite's, the runner scores each turn 1 ungraded and grades no transcript
    (orchestrator.ts runConversationMode). EV121 too for criteria that no grader the run gives the test reads
    (``grades_criteria``): a turn's graders, the default llm-grader of a turn with an expected output alone, the
    test's own and the suite's."""
    turns, graders = test["turns"], _own_and_defaults(test, place.document)
    if graders is None or any(not isinstance(turn, dict) for turn in turns):
        return  # a turn that is no mapping is EV110, a list of graders that is no list EV306
    key = next((key for key in ("criteria", "expected_outcome") if is_text(test.get(key))), None)
    if any(turn.get("assertions") or turn.get("expected_output") for turn in turns) or graders or test.get("rubrics"):
        if key is not None and not test.get("rubrics") and not any(map(_turn_reads_criteria, turns)) \
                and not any(map(_reads_criteria, graders)):
            yield finding("EV121", f"the conversation test's {quote(key)} is never graded: none of the graders the "
                          "runner gives its turns and its transcript reads it, only an llm-grader, a code-grader, an "
                          "inline-assert or a custom type does; write what the answers must do in the turns' "
                          "'assertions' (a string there is graded by an llm-grader)", place.at + (key,), KEY)
    elif key is not None:
        yield finding("EV121", f"the conversation test's {quote(key)} is never graded: no turn has 'assertions' or an "
                      f"'expected_output' and the test gets no graders, {UNGRADED}", place.at + (key,), KEY)
    else:
        yield finding("EV106", "the conversation test grades nothing: no turn has 'assertions' or an 'expected_output', "
                      f"and the test has no criteria and gets no graders, {UNGRADED}", place.at + ("turns",), KEY)


def _own_and_defaults(test: dict, suite) -> list:
    """The graders of a conversation test's own list and of the suite's defaults it gets, which grade its transcript;
    None when one of them is no list."""
    own = first_list(test, lists.TEST_LISTS)
    read = (value_at(test, own) if own else None, lists.defaults_for(suite, test))
    if any(value is not None and not isinstance(value, list) for value in read):
        return None
    return [grader for value in read for grader in value or ()]


UNGRADED = ("so the runner scores each turn 1 without grading; give the turns their 'assertions' (or the test its own, "
            "which grade the whole transcript)")


def _expected_in_every_turn(test: dict, at: tuple) -> Iterator:
    """EV214 for a conversation test's expected output when a turn before the last has an llm-grader: the loader
    makes it the test's reference answer, which the run gives every turn's llm-grader as what the turn's answer
    should say (orchestrator.ts runConversationMode keeps the test's reference answer in each turn's), and the
    conversation's own code-graders get no expected output."""
    turns = test["turns"]
    if test.get("expected_output") in (None, "", [], {}) or not isinstance(turns, list):
        return
    early = next((i for i, turn in enumerate(turns[:-1]) if isinstance(turn, dict) and _turn_reads_reference(turn)), None)
    if early is not None:
        yield finding("EV214", "a conversation test's 'expected_output' is the reference answer of every turn's "
                      f"llm-grader: turn {early + 1}'s grades its answer against it too, though the conversation has "
                      "not reached it; put what each turn's answer must say in its 'assertions', and what the "
                      "conversation must end with in the last turn's", at + ("expected_output",), KEY)


def _turn_reads_reference(turn: dict) -> bool:
    """Whether an llm-grader grades a turn: a string among its assertions, one of type 'llm-grader' (the run gets a
    turn's graders as written), a composite's member, or the default grader of a turn with an expected output
    alone."""
    return _turn_graded_by(turn, _is_llm_grader, otherwise=False)


def _turn_graded_by(turn: dict, holds, otherwise: bool) -> bool:
    """Whether one of a turn's graders ``holds`` (``otherwise`` when its 'assertions' is no list), or, without graders,
    the default llm-grader grades its expected output (orchestrator.ts buildTurnAssertions)."""
    graders = turn.get("assertions")
    if not graders:
        return bool(turn.get("expected_output"))
    return any(map(holds, graders)) if isinstance(graders, list) else otherwise


def _is_llm_grader(grader) -> bool:
    """A turn's grader that is an llm-grader, or a composite with one among its members, which in a turn the run reads
    from 'assertions' alone (EV307 says so of the others)."""
    if isinstance(grader, str):
        return True
    kind = grader.get("type") if isinstance(grader, dict) else None
    members = grader.get("assertions") if kind == "composite" else None
    return kind == "llm-grader" or isinstance(members, list) and any(map(_is_llm_grader, members))


def _turn_reads_criteria(turn: dict) -> bool:
    """Whether a turn's grading reads the test's criteria: one of its graders does, or, without graders, its expected
    output has the default llm-grader grade it."""
    return _turn_graded_by(turn, _reads_criteria, otherwise=True)


def _reads_criteria(grader) -> bool:
    """Whether a grader may read the test's criteria (``grades_criteria``): a string is an llm-grader's rubric, an
    include stands for the graders of its template (which the loader expands), a composite reads it through a member
    that does (``members_of``; one without a list of members may), and a type that is no built-in kind (a custom one)
    may; an entry of no type reads nothing."""
    if isinstance(grader, str) or is_include(grader):
        return True
    kind = normal_type(grader["type"]) if isinstance(grader, dict) and isinstance(grader.get("type"), str) else None
    if kind == "composite":
        key, members = members_of(grader)
        return key is None or any(map(_reads_criteria, members))
    return kind is not None and (kind not in SCHEMAS or SCHEMAS[kind].grades_criteria)
