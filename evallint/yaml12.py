"""One pass over PyYAML parser events (the C parser when present) that builds
the data the way the runner's YAML 1.2 core-schema parser would, the position
tree beside it, and every file-level finding (EV001, EV003-EV007, EV010).
When positions are not asked for, a plainer pass builds the data of an
ordinary file alone and hands anything unusual to the full one.

Nothing is composed or constructed by PyYAML: depth, aliases, tags and sizes
are checked event by event before any structure can grow, and an alias is
never expanded (it shares the anchored object, counted against a budget)."""
from __future__ import annotations

import math
import re
import sys
from typing import Any, Optional

from .lazy import deferred_compiles

# PyYAML's pure-Python reader, resolver and constructor compile their patterns as they are imported (the
# reader's printable-character class alone is a third of importing yaml); evallint parses with the C
# parser and resolves scalars itself, so they are compiled only if something uses them
with deferred_compiles("yaml.reader", "yaml.resolver", "yaml.constructor"):
    import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

import evallint as _package

from .diagnostics import Finding, Span
from .positions import KEY_ALIASES, LineMap, Loc, MapLoc, SeqLoc
from .record import factory, record

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
try:
    from yaml._yaml import CParser as _CParser
except ImportError:  # PyYAML without libyaml: every file takes the full pass
    _CParser = None

MAX_DEPTH = 200
MAX_SCALAR = 4 * 1024 * 1024
MIN_ALIAS_BUDGET = 10_000

_T = "tag:yaml.org,2002:"
STANDARD_TAGS = frozenset(
    _T + name for name in ("str", "int", "float", "bool", "null", "map", "seq", "binary", "timestamp", "omap", "set", "pairs")
) | {"!"}

ACCEPTED_TAGS = "!!str, !!int, !!float, !!bool, !!null, !!map, !!seq, !!binary, !!timestamp, !!omap, !!set, !!pairs"

_INT10 = re.compile(r"[-+]?[0-9]+\Z")
_INT8 = re.compile(r"0o[0-7]+\Z")
_INT16 = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(nan|NaN|NAN)\Z")
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))


class _Fatal(Exception):
    def __init__(self, finding: Finding):
        self.finding = finding


class _Unusual(Exception):
    """The plain pass met something it leaves to the full pass (a tag, an anchor,
    an alias, a complex, duplicate or merge key, a limit, a second document)."""


def _span(start, end=None) -> Span:
    end = end or start
    if end is start:
        return Span(start.line, start.column, start.line, start.column + 1, start.index, start.index + 1)
    return Span(start.line, start.column, end.line, end.column, start.index, end.index)


def _int(text: str):
    digits = text.lstrip("+-")
    if len(digits) > 4000:  # beyond Python's int/str limit: a JS number is a float
        return float(text)
    return int(text, 10)


def resolve_plain(text: str) -> Any:
    """YAML 1.2 core schema resolution of a plain scalar."""
    if text in _NULLS:
        return None
    first = text[0]
    if first in "tTfF":
        low = text.lower()
        if low == "true":
            return True
        if low == "false":
            return False
        return text
    if first in "0123456789+-.":
        if _INT10.match(text):
            return _int(text)
        if _INT8.match(text):
            return int(text[2:], 8)
        if _INT16.match(text):
            return int(text[2:], 16)
        if _FLOAT.match(text):
            return float(text)
        if _INF.match(text):
            return -math.inf if text[0] == "-" else math.inf
        if _NAN.match(text):
            return math.nan
    return text


def _resolve_tagged(text: str, tag: str, event) -> Any:
    kind = tag[len(_T):] if tag.startswith(_T) else ""
    if kind == "int":
        value = resolve_plain(text)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif kind == "float":
        value = resolve_plain(text)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif kind == "bool":
        value = resolve_plain(text)
        if isinstance(value, bool):
            return value
    elif kind == "null":
        if text in _NULLS:
            return None
    else:
        return text
    raise _Fatal(Finding("EV001", f"'{_clip(text)}' is not a valid !!{kind} value", span=_span(event.start_mark, event.end_mark)))


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


@record
class Parsed:
    data: Any = None
    root: Optional[Loc] = None
    findings: list = factory(list)
    ok: bool = True  # False when a fatal finding stopped the build
    empty: bool = False


class _Frame:
    """A mapping or sequence being built; the mapping's pending key, if any."""

    __slots__ = ("value", "loc", "anchor", "size", "key", "key_loc", "has_key", "drop", "is_map")

    def __init__(self, value, loc, anchor, is_map):
        self.value, self.loc, self.anchor, self.is_map = value, loc, anchor, is_map
        self.size, self.key, self.key_loc, self.has_key, self.drop = 1, None, None, False, False


def parse_yaml(text: str, *, max_depth: int = MAX_DEPTH, max_scalar: int = MAX_SCALAR,
               alias_budget: Optional[int] = None, positions: bool = True) -> Parsed:
    """Parse ``text``. Without ``positions`` the data comes from the plain pass
    when the file is ordinary (``root`` is None); anything that could be
    reported takes the full pass, which builds positions."""
    if not positions and _CParser is not None:
        try:
            data = _plain_build(text, max_depth, max_scalar)
        except (_Unusual, yaml.YAMLError):
            pass
        else:
            return Parsed(data=None if data is _NOTHING else data, empty=data is _NOTHING)
    result = Parsed()
    try:
        _build(text, result, max_depth, max_scalar,
               alias_budget if alias_budget is not None else max(MIN_ALIAS_BUDGET, len(text) // 2))
    except _Fatal as fatal:
        result.findings.append(fatal.finding)
        result.ok = False
        result.data = None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or "invalid YAML"
        if exc.context and exc.context not in message:
            message = f"{message} ({exc.context})"
        span = _span(mark) if mark is not None else Span(0, 0, 0, 1)
        result.findings.append(Finding("EV001", message, span=span))
        result.ok = False
        result.data = None
    except yaml.YAMLError as exc:
        position = getattr(exc, "position", None)
        span = Span(0, 0, 0, 1)
        if isinstance(position, int):
            if LOADER is not yaml.SafeLoader:  # libyaml counts bytes of the UTF-8 text, not characters
                position = len(text.encode("utf-8", "surrogatepass")[:position].decode("utf-8", "ignore"))
            before = text[:position]
            line = before.count("\n")
            column = position - (before.rfind("\n") + 1)
            span = Span(line, column, line, column + 1, position, position + 1)
        result.findings.append(Finding("EV001", f"not readable as YAML: {getattr(exc, 'reason', None) or exc}", span=span))
        result.ok = False
        result.data = None
    return result


def _build(text, result: Parsed, max_depth, max_scalar, alias_budget) -> None:
    stack: list[_Frame] = []
    anchors: dict[str, tuple] = {}
    open_anchors: set = set()
    aliased = 0  # nodes added by aliases beyond the file's own
    documents = 0
    findings = result.findings
    got_root = False

    def check_tag(event):
        tag = event.tag
        if tag is not None and tag not in STANDARD_TAGS:
            shown = "!!" + tag[len(_T):] if tag.startswith(_T) else tag
            findings.append(Finding("EV004", f"tag '{shown}' is not a standard YAML tag; nothing is constructed from it "
                                    f"(accepted: {ACCEPTED_TAGS})", span=_span(event.start_mark)))

    def add_key(top, loc, event):
        """The node just built is a key of the mapping on top of the stack."""
        if top.loc.first is None:
            top.loc.first = loc
        if event.__class__ is ScalarEvent:
            key = event.value
            if key == "<<" and not event.style and event.tag is None:
                findings.append(Finding(
                    "EV010",
                    "merge key '<<' is not merged by the runner's YAML 1.2 parser: it is kept as a literal key "
                    "and the merged fields are missing; write the keys out",
                    span=_span(event.start_mark, event.end_mark)))
                top.drop = True
        else:
            key = text[loc.start.index:loc.end.index] if loc.end.index > loc.start.index else "<complex key>"
            key = " ".join(key.split())
        if not top.drop and key in top.value:
            first = LineMap(text).position(top.loc.keys[key].start.index)[0]
            findings.append(Finding("EV003", f"duplicate key '{_clip(key)}' (first defined on line {first + 1}); "
                                    "the runner rejects files with duplicate keys", span=loc.span()))
            top.drop = True
        top.key, top.key_loc, top.has_key = key, loc, True

    def attach(value, loc, size, event):
        nonlocal got_root
        if not stack:
            result.data, result.root, got_root = value, loc, True
            return
        top = stack[-1]
        top.size += size
        if not top.is_map:
            top.value.append(value)
            top.loc.items.append(loc)
        elif not top.has_key:
            add_key(top, loc, event)
        else:
            if not top.drop:
                key = top.key
                top.value[key] = value
                top.loc.keys[key] = top.key_loc
                top.loc.values[key] = loc
            top.has_key = False
            top.drop = False

    for event in yaml.parse(text, Loader=LOADER):
        cls = event.__class__
        if cls is ScalarEvent:
            raw = event.value
            if len(raw) > max_scalar:
                raise _Fatal(Finding("EV006", f"a scalar of {len(raw)} characters is over the limit of {max_scalar}",
                                     span=_span(event.start_mark)))
            tag = event.tag
            if tag is not None:
                check_tag(event)
                value = _resolve_tagged(raw, tag, event) if tag in STANDARD_TAGS and tag != "!" else raw
            elif event.style:
                value = raw
            else:
                value = resolve_plain(raw)
            loc = Loc(event.start_mark, event.end_mark)
            if event.anchor is not None:
                anchors[event.anchor] = (value, loc, 1)
            attach(value, loc, 1, event)
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if len(stack) >= max_depth:
                raise _Fatal(Finding("EV006", f"nesting is deeper than the limit of {max_depth} levels",
                                     span=_span(event.start_mark)))
            if event.tag is not None:
                check_tag(event)
            if cls is MappingStartEvent:
                frame = _Frame({}, MapLoc(event.start_mark), event.anchor, True)
            else:
                frame = _Frame([], SeqLoc(event.start_mark), event.anchor, False)
            if event.anchor is not None:
                open_anchors.add(event.anchor)
            stack.append(frame)
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            frame = stack.pop()
            frame.loc.end = event.end_mark
            if frame.anchor is not None:
                anchors[frame.anchor] = (frame.value, frame.loc, frame.size)
                open_anchors.discard(frame.anchor)
            attach(frame.value, frame.loc, frame.size, event)
        elif cls is AliasEvent:
            name = event.anchor
            if name in open_anchors:
                raise _Fatal(Finding("EV005", f"recursive alias '*{name}' refers to the node that contains it",
                                     span=_span(event.start_mark, event.end_mark)))
            if name not in anchors:
                raise _Fatal(Finding("EV001", f"alias '*{name}' refers to no anchor '&{name}' defined before it",
                                     span=_span(event.start_mark, event.end_mark)))
            value, loc, size = anchors[name]
            aliased += size
            if aliased > alias_budget:
                raise _Fatal(Finding("EV005", f"aliases expand to more than {alias_budget} nodes beyond the file's own "
                                     f"(at alias '*{name}'); the file is not expanded further (alias bomb?)",
                                     span=_span(event.start_mark, event.end_mark)))
            attach(value, loc, size, event)
        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _Fatal(Finding("EV007", "more than one YAML document in the file; the runner reads exactly one",
                                     span=_span(event.start_mark)))
    result.empty = not got_root


_NOTHING = object()  # no document, no pending key


def _plain_build(text: str, max_depth: int, max_scalar: int) -> Any:
    """The data of an ordinary file, straight from the C parser's events, with
    no positions and no findings: whatever could be reported raises _Unusual
    and the full pass (``_build``) takes the file. Most files are ordinary, and
    this pass costs about half as much as the full one.

    The C parser makes each event by calling the event class its module names
    (a Python ``__init__`` setting seven attributes: a third of the pass). When
    nothing else can be parsing YAML meanwhile (a process evallint owns,
    ``evallint.OWN_PROCESS``: the command and its workers; or a program with no
    other thread), those names point at ``_light_events``' constructors of
    (value, style) tuples and markers for the length of the pass, and back at
    the classes after it, whatever happens. Otherwise the classes' events are
    turned into the same light events."""
    light = _LIGHT if len(text) <= max_scalar else _light_events(max_scalar)  # else no scalar can be too long
    if not (_package.OWN_PROCESS or _alone()):
        return _plain_events(_as_light(_CParser(text).get_event, light), max_depth)
    module = _yaml_module
    for name, make in light.items():
        setattr(module, name, make)
    try:
        return _plain_events(_CParser(text).get_event, max_depth)
    finally:
        for name, cls in _CLASSES.items():
            setattr(module, name, cls)


class _Marker:
    """An event the plain pass reads by identity."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


# What the C parser makes of each event, in place of the event classes, while the plain pass runs: a
# scalar is a (value, style) tuple, anything else a marker, and whatever the plain pass leaves to the
# full one (an anchor, a tag, an alias, a scalar over the limit) is _ODD
_MAP, _SEQ, _END, _DOC, _SKIP, _ODD = (_Marker(name) for name in ("map", "seq", "end", "document", "skip", "odd"))


def _light_events(max_scalar: Optional[int]) -> dict:
    """The constructors of the plain pass's events; with ``max_scalar``, a longer scalar is _ODD."""
    if max_scalar is None:
        def scalar(anchor, tag, implicit, value, start, end, style):
            return (value, style) if anchor is None and tag is None else _ODD
    else:
        def scalar(anchor, tag, implicit, value, start, end, style):
            return (value, style) if anchor is None and tag is None and len(value) <= max_scalar else _ODD
    return {
        "ScalarEvent": scalar,
        "MappingStartEvent": lambda anchor, tag, implicit, start, end, flow: _MAP if anchor is None and tag is None
        else _ODD,
        "SequenceStartEvent": lambda anchor, tag, implicit, start, end, flow: _SEQ if anchor is None and tag is None
        else _ODD,
        "MappingEndEvent": lambda start, end: _END,
        "SequenceEndEvent": lambda start, end: _END,
        "AliasEvent": lambda anchor, start, end: _ODD,
        "DocumentStartEvent": lambda start, end, explicit, version, tags: _DOC,
        "DocumentEndEvent": lambda start, end, explicit: _SKIP,
        "StreamStartEvent": lambda start, end, encoding: _SKIP,
        "StreamEndEvent": lambda start, end: _SKIP,
    }


_LIGHT = _light_events(None)
if _CParser is not None:
    import yaml._yaml as _yaml_module

    _CLASSES = {name: getattr(_yaml_module, name) for name in _LIGHT}


def _alone() -> bool:
    """No thread but this one (none was ever started when ``threading`` was never imported)."""
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _as_light(get_event, light: dict):
    """``get_event`` of a parser that makes the classes' events, giving ``light``'s events instead."""
    scalar, mapping, sequence = light["ScalarEvent"], light["MappingStartEvent"], light["SequenceStartEvent"]

    def get():
        event = get_event()
        if event is None:
            return None
        cls = event.__class__
        if cls is ScalarEvent:
            return scalar(event.anchor, event.tag, None, event.value, None, None, event.style)
        if cls is MappingStartEvent:
            return mapping(event.anchor, event.tag, None, None, None, None)
        if cls is SequenceStartEvent:
            return sequence(event.anchor, event.tag, None, None, None, None)
        if cls is MappingEndEvent or cls is SequenceEndEvent:
            return _END
        if cls is AliasEvent:
            return _ODD
        return _DOC if cls is DocumentStartEvent else _SKIP

    return get


def _plain_events(get_event, max_depth: int) -> Any:
    """``_plain_build``'s pass over the events (``_light_events``'): the most frequent first."""
    stack: list = []
    top: Any = None
    is_map = False
    key: Any = _NOTHING
    root: Any = _NOTHING
    documents = 0
    while True:
        event = get_event()
        if event.__class__ is tuple:
            raw, style = event
            if is_map and key is _NOTHING:
                if raw in top or (raw == "<<" and not style):
                    raise _Unusual()
                key = raw
                continue
            # a plain scalar that starts with none of the characters of null, booleans and numbers is a string
            value = raw if style or (raw and raw[0] not in _SPECIAL_START) else resolve_plain(raw)
        elif event is _END:
            value = top
            top, is_map, key = stack.pop()
        elif event is _MAP:
            if len(stack) >= max_depth or (is_map and key is _NOTHING):
                raise _Unusual()
            stack.append((top, is_map, key))
            top, is_map, key = {}, True, _NOTHING
            continue
        elif event is _SEQ:
            if len(stack) >= max_depth or (is_map and key is _NOTHING):
                raise _Unusual()
            stack.append((top, is_map, key))
            top, is_map, key = [], False, _NOTHING
            continue
        elif event is _SKIP:
            continue
        elif event is _DOC:
            documents += 1
            if documents > 1:
                raise _Unusual()
            continue
        elif event is None:
            return root
        else:  # _ODD
            raise _Unusual()
        if is_map:
            top[key] = value
            key = _NOTHING
        elif top is None:
            root = value
        else:
            top.append(value)


_SPECIAL_START = frozenset("~nNtTfF0123456789+-.")  # how a plain null, boolean or number can start


_CANONICAL = {alias: canonical for canonical, aliases in KEY_ALIASES.items() for alias in aliases}


def locate_paths(text: str, paths) -> Optional[Loc]:
    """A position tree of an ordinary file (one the plain pass took) holding only
    the nodes on ``paths`` (a sequence keeps None for the items it leaves out):
    what a file's findings need, at a fraction of the full tree's cost. A key
    spelled as an alias of a path's canonical key (positions.KEY_ALIASES) counts
    as on the path, since Index looks it up that way. The pass stops once every
    path's own node is complete (then no ancestor's end is ever asked for)."""
    if _CParser is None:
        return parse_yaml(text).root
    wanted = {()}
    ends = set()  # the paths themselves: when all are complete, the rest of the file is not needed
    for path in paths:
        path = tuple(_CANONICAL.get(part, part) for part in path)
        wanted.update(path[:i] for i in range(1, len(path) + 1))
        ends.add(path)
    open_ends = len(ends)
    get_event = _CParser(text).get_event
    root: Optional[Loc] = None
    # frames: [loc, path, is_map, pending key or _NOTHING, its Loc, next item index, reached through no alias key]
    stack: list = []
    skip = 0  # depth inside a collection that is on no path
    while True:
        event = get_event()
        if event is None:
            return root
        cls = event.__class__
        if skip:
            if cls is MappingStartEvent or cls is SequenceStartEvent:
                skip += 1
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                skip -= 1
                if not skip:
                    _placed(stack[-1], None)
            continue
        if cls is MappingEndEvent or cls is SequenceEndEvent:
            frame = stack.pop()
            loc = frame[0]
            loc.end = event.end_mark
            if frame[6] and frame[1] in ends:
                open_ends -= 1
            if stack:
                _placed(stack[-1], loc)
                if not open_ends:
                    return _close(stack)
            else:
                root = loc
            continue
        if cls is not ScalarEvent and cls is not MappingStartEvent and cls is not SequenceStartEvent:
            continue
        top = stack[-1] if stack else None
        if top is not None and top[2] and top[3] is _NOTHING:  # a key (the plain pass allows only scalars)
            top[3], top[4] = event.value, Loc(event.start_mark, event.end_mark)
            if top[0].first is None:
                top[0].first = top[4]
            continue
        if top is None:
            path: tuple = ()
            exact = True
        elif top[2]:
            key = top[3]
            path = top[1] + (_CANONICAL.get(key, key),)
            exact = top[6] and key not in _CANONICAL  # an alias: a canonical key later on would win in Index
        else:
            path = top[1] + (top[5],)
            exact = top[6]
        on_path = path in wanted
        if cls is ScalarEvent:
            loc = Loc(event.start_mark, event.end_mark) if on_path else None
            if top is None:
                root = loc
            else:
                _placed(top, loc)
                if on_path and exact and path in ends:
                    open_ends -= 1
                    if not open_ends:
                        return _close(stack)
        elif not on_path:
            skip = 1
        else:
            loc = MapLoc(event.start_mark) if cls is MappingStartEvent else SeqLoc(event.start_mark)
            stack.append([loc, path, cls is MappingStartEvent, _NOTHING, None, 0, exact])


def _close(stack: list) -> Loc:
    """The root of a pass stopped early: each open collection is placed in its parent (its end is
    never asked for: no path ends at it)."""
    for i in range(len(stack) - 1, 0, -1):
        _placed(stack[i - 1], stack[i][0])
    return stack[0][0]


def _placed(frame: list, loc: Optional[Loc]) -> None:
    """The value of the frame's pending key, or its next item, is done; ``loc`` when it is on a path."""
    if frame[2]:
        if loc is not None:
            frame[0].keys[frame[3]] = frame[4]
            frame[0].values[frame[3]] = loc
        frame[3] = _NOTHING
    else:
        if loc is not None:
            items = frame[0].items
            items.extend([None] * (frame[5] - len(items)))
            items.append(loc)
        frame[5] += 1
