"""The grader lists of an AgentV 4.42 test, suite and JSONL dataset line: which one the loader reads (the first
present that holds a value, as its ``??`` chooses), the ones it passes over or shadows (EV113), the ``include``
entries it replaces by a template's assertions, and the members of a composite it drops (``member_problems``)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

from evallint.diagnostics import KEY
from evallint.load.environment import is_whole_reference
from evallint.load.templates import is_include
from evallint.rules.common import Site, finding, repeats
from evallint.suggest import found, quote

# the types the loader makes an llm-grader of, which asks a language model
MODEL_GRADERS = ("llm-grader", "rubrics", "rubric")
# the test's grader lists, in the order the loader looks for the first present
TEST_LISTS = (("assertions",), ("assert",), ("execution", "evaluators"), ("evaluators",))
# the suite's default grader lists, likewise
SUITE_LISTS = (("assertions",), ("assert",), ("execution", "assertions"), ("execution", "assert"),
               ("execution", "evaluators"))
# the suite's default grader lists when the top level's 'assertions ?? assert' is null (a null 'assert', and no
# list in 'assertions'): the loader puts that null in place of 'execution.assertions', which it then never reads
ERASED = ("execution", "assertions")
SUITE_LISTS_ERASED = tuple(path for path in SUITE_LISTS if path != ERASED)
# the default grader lists of a JSONL dataset line's 'execution', which replaces its sidecar's
LINE_DEFAULT_LISTS = (("assertions",), ("assert",), ("evaluators",))
# the lists of a composite's members (grader-parser.ts: 'assertions ?? assert ?? evaluators')
MEMBER_LISTS = (("assertions",), ("assert",), ("evaluators",))


_NOTHING = object()


def normal_type(kind: str) -> str:
    """A grader's type as the loader matches it: every '_' replaced by '-'."""
    return kind.replace("_", "-")


def named_by_parts(data: Any, parts, default: Any = None) -> Any:
    """What a grader's path, split into ``parts`` (texts), names in ``data`` as JavaScript reads ``data[part]`` part by
    part: a key of a mapping, or of a list an index written in ASCII digits; ``default`` where a part names nothing or
    what it is read of is no mapping or list."""
    for part in parts:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and part.isdigit() and part.isascii() and int(part) < len(data):
            data = data[int(part)]
        else:
            return default
    return data


def value_at(data: Any, path: tuple, default: Any = None) -> Any:
    """What ``data`` holds at the data path ``path`` (a key of a mapping or an index of a list at each step);
    ``default`` when nothing is there."""
    for key in path:
        if isinstance(data, dict):
            data = data.get(key, _NOTHING)
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return default
        if data is _NOTHING:
            return default
    return data


def present_at(data: dict, path: tuple) -> bool:
    """Whether ``data`` has the key at the end of ``path``, whatever it holds."""
    parent = value_at(data, path[:-1]) if len(path) > 1 else data
    return isinstance(parent, dict) and path[-1] in parent


def first_list(data: dict, lists: tuple):
    """The one of ``lists`` (data paths) the loader reads in ``data``, as its ``a ?? b ?? ...`` chooses: the first
    present that holds a value, else the last of ``lists`` when it is present and null (the chain's value, which
    the loader finds no list), else None (nothing to read: every other null counts as absent)."""
    held = next((path for path in lists if value_at(data, path) is not None), None)  # absent reads as None too
    return held or (lists[-1] if present_at(data, lists[-1]) else None)


def members_of(composite: dict) -> tuple:
    """(the key of the composite's members that the loader reads, or None; its list, or an empty one)."""
    path = first_list(composite, MEMBER_LISTS)
    members = composite[path[0]] if path else None
    return (path[0] if path else None), (members if isinstance(members, list) else [])


def suite_lists(data: dict) -> tuple:
    """The suite's default grader lists that the loader looks at in ``data``, in its order (``SUITE_LISTS``, or
    ``SUITE_LISTS_ERASED``)."""
    erased = present_at(data, ("assert",)) and data["assert"] is None and data.get("assertions") is None
    return SUITE_LISTS_ERASED if erased else SUITE_LISTS


def erased(data: dict, at: tuple = ()) -> Iterator:
    """EV113 for a suite's 'execution.assertions' that a null top-level 'assert' takes the place of."""
    if suite_lists(data) is SUITE_LISTS_ERASED and present_at(data, ERASED):
        yield finding("EV113", "'execution.assertions' is ignored because the top-level 'assert' is null: the runner "
                      "puts the top level's 'assertions' (else 'assert') in place of 'execution.assertions', so it "
                      "reads none of these graders; remove 'assert'", at + ERASED, KEY)


def read_as_absent(data: dict, lists: tuple) -> list:
    """The paths of ``lists`` that hold null in ``data`` and that the loader's ``??`` reads as absent: all of
    them but the one it reads (the last list, when no list holds a value)."""
    used = first_list(data, lists)
    return [path for path in lists if path != used and present_at(data, path) and value_at(data, path) is None]


def as_read(data: dict, lists: tuple) -> dict:
    """``data`` without the null lists of ``lists`` that the loader's ``??`` reads as absent."""
    return without(data, read_as_absent(data, lists))


def without(data: Any, paths: list) -> Any:
    """``data`` without the mapping keys at ``paths`` (data paths), left unchanged: copies along the paths only."""
    for path in paths:
        data = _without(data, tuple(path))
    return data


def _without(data: Any, path: tuple) -> Any:
    if not path:
        return data
    head, rest = path[0], path[1:]
    if isinstance(data, dict) and head in data:
        if not rest:
            return {key: value for key, value in data.items() if key != head}
        return {**data, head: _without(data[head], rest)}
    if isinstance(data, list) and isinstance(head, int) and 0 <= head < len(data) and rest:
        return [*data[:head], _without(data[head], rest), *data[head + 1:]]
    return data


def skips_defaults(test: Any) -> bool:
    """Whether ``test`` skips the suite's defaults (its input, input files and graders): 'execution.skip_defaults'
    is true (the loader reads no other value)."""
    execution = test.get("execution") if isinstance(test, dict) else None
    return isinstance(execution, dict) and execution.get("skip_defaults") is True


def defaults_for(suite: Any, test: Any) -> Any:
    """What the suite's default grader list the loader reads holds, for ``test`` (None when the suite is no mapping,
    has no such list, or the test skips the suite's defaults)."""
    if not isinstance(suite, dict) or skips_defaults(test):
        return None
    path = first_list(suite, suite_lists(suite))
    return value_at(suite, path) if path else None


def listed(value: Any) -> list:
    """``value`` when it is a list, else an empty one: what a loop over a list the loader reads sees of another."""
    return value if isinstance(value, list) else []


def default_graders(document: Any, test: Any, dataset: bool = False) -> Any:
    """What the default grader list ``test`` gets holds (``defaults_for``); of a JSONL ``dataset`` line (whose
    ``document`` holds its sidecar's 'execution'), its own 'execution''s list when it has one (a mapping), which
    replaces the sidecar's (jsonl-parser.ts: 'caseExecution ?? globalExecution')."""
    if dataset and isinstance(test, dict) and isinstance(test.get("execution"), dict):
        own = line_defaults(test)
        return value_at(test, own) if own else None
    return defaults_for(document, test)


def test_graders(document: Any, test: dict, dataset: bool = False) -> list:
    """The graders of ``test``: its own list (the one the loader reads, ``TEST_LISTS``) then the defaults it gets
    (``default_graders``)."""
    path = first_list(test, TEST_LISTS)
    own = value_at(test, path) if path else None
    return listed(own) + listed(default_graders(document, test, dataset))


def line_defaults(line: dict) -> Any:
    """The path of the list a JSONL dataset line's 'execution' gives as its default graders (in place of the
    sidecar's), or None: not when 'skip_defaults' is true."""
    execution = line.get("execution")
    if not isinstance(execution, dict) or execution.get("skip_defaults") is True:
        return None
    path = first_list(execution, LINE_DEFAULT_LISTS)
    return ("execution",) + path if path else None


def not_read(data: dict, lists: tuple) -> list:
    """The paths of ``lists`` present in ``data`` that the loader does not read: all but the one it reads, the null
    ones that its ``??`` reads as absent and those an earlier one shadows alike."""
    used = first_list(data, lists)
    return [path for path in lists if path != used and present_at(data, path)]


def shadowed(data: dict, at: tuple, lists: tuple, read_anyway: Any = None) -> Iterator:
    """EV113 for each grader list the loader does not read because an earlier one is present (but for
    ``read_anyway``, a path it reads in another role)."""
    used = first_list(data, lists)
    for path in lists[lists.index(used) + 1:] if used else ():
        if present_at(data, path) and path != read_anyway:
            yield finding("EV113", f"'{'.'.join(path)}' is ignored because '{'.'.join(used)}' is also set; the "
                          "runner reads only the first of " + ", ".join(f"'{'.'.join(p)}'" for p in lists),
                          at + path, KEY)


def check_include(value: Any, place) -> Iterator:
    """The template an 'include' entry names, which the loader reads in its place (not in a turn, where the runner
    takes the entry as written: format/agentv4/turns.py)."""
    if is_include(value) and not in_turn(place):
        yield Site("assertion_template", value["include"], place.at + ("include",))
    elif isinstance(value, dict) and "include" in value and len(value) > 1 and not in_turn(place):
        yield finding("EV115", "'include' is read only as the item's one key: beside other keys the runner reads the "
                      "item as an assertion and never includes the template; write the include as an item of its own",
                      place.at + ("include",), KEY)


def check_member_include(value: Any, place) -> Iterator:
    """``check_include`` of a composite's member: the template's items are members there, which the loader drops as
    it drops any member (``member_problems``; the kinds of the family go with the site, ``loaded_files``)."""
    for item in check_include(value, place):
        yield replace(item, extra={**item.extra, "members": tuple(place.schema.kinds)}) if isinstance(item, Site) else item


# the aggregators of a composite that read its members' results as one object keyed by name (graders/composite.ts)
RESULTS_BY_NAME = ("code-grader", "llm-grader")


def member_names(aggregator: Any, members: list, at: tuple) -> Iterator:
    """EV303 for a composite member (at ``at`` + its index) named as an earlier one, whose result an aggregator that
    reads the results by name (``RESULTS_BY_NAME``) takes in place of the earlier one's."""
    if not (isinstance(aggregator, dict) and aggregator.get("type") in RESULTS_BY_NAME):
        return
    for here, name, first in repeated_names([None if is_include(m) else m for m in members], at):
        yield finding("EV303", f"duplicate member name {quote(name)} (first used on line {{ref_line}}): the "
                      f"{aggregator['type']} aggregator gets the members' results keyed by name, so this one's "
                      "result replaces the earlier one's", here, ref=first)


def repeated_names(items: Any, at: tuple) -> Iterator[tuple]:
    """(the place of a 'name' an earlier item holds too, that name, the earlier item's place) of each mapping of
    ``items`` (at ``at``) with a string 'name' written before (``common.repeats``)."""
    return repeats((at + (i, "name"), item["name"]) for i, item in enumerate(items if isinstance(items, list) else ())
                   if isinstance(item, dict) and isinstance(item.get("name"), str))


def member_problems(member: Any, kinds, misspelt=None) -> list:
    """(code, message, the member's key it is about or None) for each reason the loader drops ``member`` from a
    composite (grader-parser.ts): no mapping, no string 'name', a 'type' that is no built-in kind as written (the
    loader reads members' types so; not one the run's environment gives). ``misspelt``: whether a type is a near
    miss of a kind, which the member's own type check reports; without it, a member without a string type is
    reported here too."""
    if not isinstance(member, dict):
        return [("EV330", f"a composite member must be a mapping with 'name' and 'type', {found(member)}; the runner "
                 "drops it", None)]
    out = [] if isinstance(member.get("name"), str) else [
        ("EV302", "composite member has no string 'name'; the runner drops the member", "name" if "name" in member else None)]
    kind = member.get("type")
    if is_whole_reference(kind):
        return out
    if isinstance(kind, str) and kind not in kinds and normal_type(kind) in kinds:
        out.append(("EV301", f"composite member type '{kind}' must be written '{normal_type(kind)}': the runner reads "
                    "members' types as written and drops this member", "type"))
    elif isinstance(kind, str) and normal_type(kind) not in kinds and not (misspelt and misspelt(kind)):
        out.append(("EV301", f"composite member type '{kind}' is no built-in kind; the runner drops a member of a "
                    "custom type", "type"))
    elif not isinstance(kind, str) and misspelt is None:
        out.append(("EV301", "composite member has no string 'type'; the runner drops the member",
                    "type" if "type" in member else None))
    return out


def in_turn(place) -> bool:
    """Whether a content block is in an AgentV 4.42 turn (a key 'turns' on its path: no other walked value holds
    one), whose expected output the runner passes on as written."""
    return "turns" in place.at


def in_dropped_turn(place) -> bool:
    """Whether ``place`` is in a turn the runner never plays: its test is not in conversation mode, so it runs
    once and drops its turns (EV121 says so; the loader fills no vars into 'mode')."""
    return in_turn(place) and not plays_turns(turn_test(place))


def turn_test(place) -> Any:
    """The test holding the turn that ``place`` is in."""
    return value_at(place.document, place.at[:place.at.index("turns")])


def plays_turns(test: Any) -> bool:
    """Whether the runner plays ``test``'s turns: it is in conversation mode and has turns (orchestrator.ts)."""
    return isinstance(test, dict) and test.get("mode") == "conversation" and isinstance(test.get("turns"), list) \
        and bool(test["turns"])
