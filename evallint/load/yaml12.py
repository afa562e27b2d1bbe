"""Reading YAML the way the runner's YAML 1.2 core-schema parser does.

``parse_yaml`` walks PyYAML's parser events once (the C parser when PyYAML has
libyaml) and builds four things side by side: the data, the position tree of
every node (``positions``), every file-level finding (EV001, EV003-EV007,
EV010), and the index ranges of the values that are never shown
(``secret_walk``, which follows the events past a finding that stops the build).

Nothing is composed or constructed by PyYAML: depth, aliases, tags and sizes
are checked event by event before any structure can grow, and an alias is
never expanded (it shares the anchored object, counted against a budget)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    MappingStartEvent,
    ScalarEvent,
)

from evallint.diagnostics import E, W, Finding, Rule, Span
from evallint.load import yaml11
from evallint.load.positions import LineMap, Loc, MapLoc, SeqLoc
from evallint.load.secret_walk import Level, Walk
from evallint.load.yaml_directives import as_runner_reads
from evallint.load.yaml_scalars import STANDARD_TAGS, key_text, resolve_plain, resolve_tagged, tag_problem

# the rules this module finds, explained in yaml12.md beside it
EV001 = Rule("EV001", "yaml-syntax", E, "the file is not well-formed YAML")
EV003 = Rule("EV003", "duplicate-key", E, "the same key appears twice in one mapping")
EV004 = Rule("EV004", "unsafe-tag", E, "a YAML tag other than the standard ones")
EV005 = Rule("EV005", "alias-limit", E, "aliases would expand beyond the limit, or refer to themselves")
EV006 = Rule("EV006", "too-large", E, "nesting deeper than the limit, or a file or scalar over the size cap")
EV007 = Rule("EV007", "multiple-documents", E, "more than one YAML document in the file")
# AgentV 4.42.4's parser merges '<<' keys: these two concern AgentV 2.2's, which keeps '<<' as a plain key
EV010 = Rule("EV010", "merge-key", E, "a '<<' merge key, which the runner's YAML 1.2 parser does not merge", generations=("2.2",))
EV013 = Rule("EV013", "redundant-merge-key", W, "a '<<' merge key whose keys are all written out in its mapping",
             generations=("2.2",))
EV014 = Rule("EV014", "yaml11-value", E, "under a '%YAML 1.1' directive, a plain value the runner reads as another type")

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_DEPTH = 200
MAX_SCALAR = 4 * 1024 * 1024
MIN_ALIAS_BUDGET = 10_000

# The libyaml that PyYAML 6.0.4 bundles refuses nesting deeper than this, with this problem; in a flow
# collection it scans ahead, so it can raise before the parser has given the events that go too deep
LIBYAML_MAX_DEPTH = 1000
LIBYAML_DEPTH_PROBLEM = "exceeded maximum nesting depth"

class _Fatal(Exception):
    """A finding that stops the build: the file has no data."""

    def __init__(self, finding: Finding):
        self.finding = finding


def _span(start, end=None) -> Span:
    if end is None or end is start:
        return Span(start.line, start.column, start.line, start.column + 1, start.index, start.index + 1)
    return Span(start.line, start.column, end.line, end.column, start.index, end.index)


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _too_deep(limit: int, mark) -> Finding:
    return Finding("EV006", f"nesting is deeper than the limit of {limit} levels", span=_span(mark))


@dataclass
class Parsed:
    """A YAML file parsed as the runner's parser reads it: its data with their positions, and what the parse found."""

    data: Any = None
    root: Optional[Loc] = None  # the position tree of ``data``
    findings: list = field(default_factory=list)
    ok: bool = True  # False when a fatal finding stopped the build
    empty: bool = False  # no YAML document in the file
    # the (start, end) index ranges of the values never shown (``secrets.secret_spans``), the events after
    # a fatal finding and the text after a syntax error included
    secrets: list = field(default_factory=list)
    # each '<<' key, left out of ``data``: (its mapping, its MapLoc, the value it merges, that value's Loc, the span of
    # the value as written: an alias, not its anchor), inner mappings first; 2.2 keeps '<<' a key, 4.42.4 merges (``merge_keys``)
    merges: list = field(default_factory=list)
    aliased: bool = False  # the file has an alias (AgentV 4.42.4's parser counts them: ``yaml_aliases``)
    aliases: int = 0  # its aliases
    alias_in_anchor: bool = False  # one of them lies inside an anchored node


def merge_keys(parsed: Parsed) -> None:
    """Merge each '<<' of ``parsed`` into its mapping, as AgentV 4.42.4's parser does: the keys of the
    mapping (or of each mapping of a list, the first one first) that the mapping does not write itself, at
    the place the merged mapping holds them. Once: the merges are used up."""
    for mapping, loc, merged, merged_loc, _ in parsed.merges:
        sources = (list(zip(merged, merged_loc.items)) if isinstance(merged, list) and isinstance(merged_loc, SeqLoc)
                   else [(merged, merged_loc)])
        for source, source_loc in sources:
            if not (isinstance(source, dict) and isinstance(source_loc, MapLoc)):
                continue
            for key, value in source.items():
                if key not in mapping:
                    mapping[key] = value
                    loc.keys[key], loc.values[key] = source_loc.keys[key], source_loc.values[key]
    parsed.merges = []


def parse_yaml(text: str, *, max_depth: int = MAX_DEPTH, max_scalar: int = MAX_SCALAR) -> Parsed:
    """The data of ``text``, its position tree and its file-level findings."""
    result = Parsed()
    text, result.findings = as_runner_reads(text)  # the same length: every position stays
    builder = _Builder(text, result, max_depth, max_scalar)
    try:
        builder.run(yaml.parse(text, Loader=LOADER))
    except _Fatal as fatal:
        result.findings.append(fatal.finding)
    except yaml.MarkedYAMLError as exc:
        result.findings.append(_marked_error(exc, max_depth, text))
    except yaml.YAMLError as exc:
        result.findings.append(_unmarked_error(exc, text))
    else:
        return result
    finally:
        result.secrets = builder.walk.finish()
    result.ok = False
    result.data = None
    return result


def _marked_error(exc: yaml.MarkedYAMLError, max_depth: int, text: str) -> Finding:
    from evallint.load.yaml_hints import syntax_message

    mark = exc.problem_mark or exc.context_mark
    if exc.problem == LIBYAML_DEPTH_PROBLEM and mark is not None:
        # the nesting is deeper than libyaml's limit, so deeper than the smaller of the two limits
        return _too_deep(min(max_depth, LIBYAML_MAX_DEPTH), mark)
    span = _span(mark) if mark is not None else Span(0, 0, 0, 1)
    return Finding("EV001", syntax_message(exc, text), span=span)


def _pure_python() -> bool:  # PyYAML built without libyaml
    return issubclass(LOADER, yaml.scanner.Scanner)


def _unmarked_error(exc: yaml.YAMLError, text: str) -> Finding:
    """A reader error (a character YAML does not allow): its ``position`` is an offset in the text."""
    position = getattr(exc, "position", None)
    span = Span(0, 0, 0, 1)
    if isinstance(position, int):
        if not _pure_python():  # libyaml counts bytes of the UTF-8 text, not characters
            position = len(text.encode("utf-8", "surrogatepass")[:position].decode("utf-8", "ignore"))
        before = text[:position]
        line = before.count("\n")
        column = position - (before.rfind("\n") + 1)
        span = Span(line, column, line, column + 1, position, position + 1)
    return Finding("EV001", f"not readable as YAML: {getattr(exc, 'reason', None) or exc}", span=span)


_PENDING = object()  # a merge key whose value is not parsed yet


class _Frame(Level):
    """A mapping or sequence being built; for a mapping, its pending key (``expect_key`` False once it is
    read). As a level of the secret walk, whether its values are under a secret key."""

    __slots__ = ("value", "loc", "size", "key", "key_loc", "drop", "merges")

    def __init__(self, value, loc, anchor, is_map, secret: bool, start: int):
        super().__init__(is_map, secret, anchor, start)
        self.value, self.loc = value, loc
        self.size = 1  # nodes in it, itself included (what an alias of it adds)
        self.key, self.key_loc = None, None
        self.drop = False  # the pending key is left out of the data (a duplicate, a merge key)
        # [span of a '<<' key, its value, the value's Loc, the value's span as written] of this mapping
        self.merges: list = []


class _Builder:
    """Builds ``result`` (data, positions, findings) from the events of ``text``, and tells ``walk`` what
    it reads (``stack`` is the walk's too)."""

    def __init__(self, text: str, result: Parsed, max_depth: int, max_scalar: int):
        self.text = text
        self.result = result
        self.findings = result.findings
        self.max_depth = max_depth
        self.max_scalar = max_scalar
        self.alias_budget = max(MIN_ALIAS_BUDGET, len(text) // 2)
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple] = {}  # name -> (value, Loc, size) of a complete anchored node
        self.open_anchors: set = set()  # anchors of the collections still being built
        self.aliased = 0  # nodes added by aliases beyond the file's own
        self.documents = 0
        self.got_root = False
        self.yaml11 = False  # a '%YAML 1.1' directive: the runner reads the document as YAML 1.1
        self.walk = Walk(text, self.stack)

    def run(self, events) -> None:
        """Build from ``events``, the parser events of ``text``. When a finding stops the build, the walk
        follows the events left (PyYAML's pure-Python scanner looks at each open flow collection of a line for
        every token, so with it the rest is taken as unread); at a syntax error, it adds the part of the text
        the parser does not reach."""
        event = None
        try:
            for event in events:
                if isinstance(event, ScalarEvent):
                    self.scalar(event)
                elif isinstance(event, CollectionStartEvent):
                    self.start(event)
                elif isinstance(event, CollectionEndEvent):
                    self.end(event)
                elif isinstance(event, AliasEvent):
                    self.alias(event)
                elif isinstance(event, DocumentStartEvent):
                    self.document(event)
        except _Fatal:
            if _pure_python():
                self.walk.unread(event)
            else:
                self.walk.go_on(event, events)
            raise
        except yaml.YAMLError:
            self.walk.unread(event)
            raise
        self.result.empty = not self.got_root

    def document(self, event: DocumentStartEvent) -> None:
        self.yaml11 = event.version == (1, 1)
        self.documents += 1
        if self.documents > 1:
            raise _Fatal(Finding("EV007", "more than one YAML document in the file; the runner reads exactly one",
                                 span=_span(event.start_mark)))

    def scalar(self, event: ScalarEvent) -> None:
        raw = event.value
        if len(raw) > self.max_scalar:
            raise _Fatal(Finding("EV006", f"a scalar of {len(raw)} characters is over the limit of {self.max_scalar}",
                                 span=_span(event.start_mark)))
        tag = event.tag
        if tag is not None:
            self.check_tag(event)
            value = self.tagged(raw, tag, event) if tag in STANDARD_TAGS and tag != "!" else raw
        elif event.style:  # quoted, literal or folded: a string
            value = raw
        else:
            value = resolve_plain(raw)
            if self.yaml11:
                meaning = yaml11.changed_meaning(raw, value)
                if meaning:
                    self.findings.append(Finding("EV014", meaning, span=_span(event.start_mark, event.end_mark)))
        loc = Loc(event.start_mark, event.end_mark)
        if event.anchor is not None:
            self.anchors[event.anchor] = (value, loc, 1)
            self.walk.anchored(event.anchor, *self.walk.extent(event), raw)
        self.attach(value, loc, 1, event)

    def start(self, event: CollectionStartEvent) -> None:
        if len(self.stack) >= self.max_depth:
            raise _Fatal(_too_deep(self.max_depth, event.start_mark))
        if event.tag is not None:
            self.check_tag(event)
        anchor, secret = event.anchor, self.walk.inside()
        start = 0 if anchor is None else self.walk.content_start(event)
        if isinstance(event, MappingStartEvent):
            frame = _Frame({}, MapLoc(event.start_mark), anchor, True, secret, start)
        else:
            frame = _Frame([], SeqLoc(event.start_mark), anchor, False, secret, start)
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        self.stack.append(frame)

    def end(self, event: CollectionEndEvent) -> None:
        frame = self.stack.pop()
        frame.loc.end = event.end_mark
        for span, merged, loc, written in frame.merges:
            self.judge_merge(frame.value, span, merged)
            self.result.merges.append((frame.value, frame.loc, merged, loc, written))
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (frame.value, frame.loc, frame.size)
            self.open_anchors.discard(frame.anchor)
            self.walk.anchored(frame.anchor, frame.start, event.end_mark.index)
        self.attach(frame.value, frame.loc, frame.size, event)

    def alias(self, event: AliasEvent) -> None:
        name = event.anchor
        span = _span(event.start_mark, event.end_mark)
        if name in self.open_anchors:
            raise _Fatal(Finding("EV005", f"recursive alias '*{name}' refers to the node that contains it", span=span))
        if name not in self.anchors:
            from evallint.load.yaml_hints import undefined_alias
            raise _Fatal(Finding("EV001", undefined_alias(name, self.anchors, self.text, event.start_mark), span=span))
        value, loc, size = self.anchors[name]
        self.aliased += size
        if self.aliased > self.alias_budget:
            raise _Fatal(Finding("EV005", f"aliases expand to more than {self.alias_budget} nodes beyond the file's own "
                                 f"(at alias '*{name}'); the file is not expanded further (alias bomb?)", span=span))
        self.walk.alias_read(event)
        self.result.aliased = True
        self.result.aliases += 1
        self.result.alias_in_anchor = self.result.alias_in_anchor or bool(self.open_anchors)
        # a scalar's value is found at the alias that puts it here
        self.attach(value, loc if isinstance(value, (dict, list)) else Loc(event.start_mark, event.end_mark), size, event)

    @staticmethod
    def tagged(raw: str, tag: str, event) -> Any:
        """The value of a scalar with a standard tag; EV001 when its text is not a value of that tag."""
        try:
            return resolve_tagged(raw, tag)
        except ValueError as exc:
            raise _Fatal(Finding("EV001", f"'{_clip(raw)}' is {exc}", span=_span(event.start_mark, event.end_mark)))

    def check_tag(self, event) -> None:
        problem = tag_problem(event.tag, isinstance(event, ScalarEvent))
        if problem:
            self.findings.append(Finding("EV004", problem, span=_span(event.start_mark)))

    def attach(self, value, loc: Loc, size: int, event) -> None:
        """The node just completed (its last event ``event``) goes into the collection on top of the
        stack: as an item, a key, or the value of the pending key. With no collection open, it is the
        document's root."""
        if not self.stack:
            self.result.data, self.result.root, self.got_root = value, loc, True
            return
        top = self.stack[-1]
        top.size += size
        if not top.is_map:
            top.value.append(value)
            top.loc.items.append(loc)
            if top.secret:
                self.walk.hide(event)
        elif top.expect_key:
            self.add_key(top, loc, event, value)
        else:
            if top.secret or top.key_secret:
                self.walk.hide(event)
            if not top.drop:
                key = top.key
                top.value[key] = value
                top.loc.keys[key] = top.key_loc
                top.loc.values[key] = loc
            elif top.merges and top.merges[-1][1] is _PENDING:
                start = event.start_mark if isinstance(event, AliasEvent) else loc.start
                top.merges[-1][1:] = value, loc, _span(start, event.end_mark)
            top.expect_key, top.key_secret, top.drop = True, False, False

    def judge_merge(self, mapping: dict, span, merged) -> None:
        """The runner's YAML 1.2 parser keeps '<<' as a literal key: EV010 when the merge would have supplied
        a key the mapping lacks, EV013 when every key it merges is written out anyway."""
        sources = merged if isinstance(merged, list) else [merged]
        if not all(isinstance(source, dict) for source in sources):
            self.findings.append(Finding("EV010", "merge key '<<' is not merged by the runner's YAML 1.2 parser "
                                         "(and merges no mapping here); remove it", span=span))
            return
        missing = [key for source in sources for key in source if key not in mapping]
        if missing:
            shown = ", ".join(f"'{_clip(str(key))}'" for key in dict.fromkeys(missing))
            self.findings.append(Finding(
                "EV010", f"merge key '<<' is not merged by the runner's YAML 1.2 parser: it is kept as a literal "
                f"key and the keys it would supply ({shown}) are missing; write them out", span=span))
        else:
            self.findings.append(Finding("EV013", "merge key '<<' changes nothing: the runner's YAML 1.2 parser does not merge "
                                         "it, and every key it would merge is written out here; remove it", span=span))

    def add_key(self, top: _Frame, loc: Loc, event, value) -> None:
        """The node just completed is a key of the mapping ``top``. An alias of a scalar is that scalar's
        value, as the runner reads it, at the alias; a key that is no scalar is kept as its text, its
        whitespace runs made single spaces."""
        aliased_scalar = isinstance(event, AliasEvent) and not isinstance(value, (dict, list))
        if aliased_scalar:
            loc = Loc(event.start_mark, event.end_mark)
        if top.loc.first is None:
            top.loc.first = loc
        if aliased_scalar:
            key = key_text(value)
        elif isinstance(event, ScalarEvent):
            key = event.value
            if key == "<<" and not event.style and event.tag is None:
                top.merges.append([_span(event.start_mark, event.end_mark), _PENDING, None, None])  # judged with its value
                top.drop = True
        else:
            text = self.text
            key = text[loc.start.index:loc.end.index] if loc.end.index > loc.start.index else "<complex key>"
            key = " ".join(key.split())
        if not top.drop and key in top.value:
            first = LineMap(self.text).position(top.loc.keys[key].start.index)[0]
            self.findings.append(Finding("EV003", f"duplicate key '{_clip(key)}' (first defined on line {first + 1}); "
                                         "the runner rejects files with duplicate keys", span=loc.span()))
            top.drop = True
        top.key, top.key_loc, top.expect_key = key, loc, False
        top.key_secret = self.walk.key_holds_secret(event)
