"""How AgentV 4.42.4's YAML parser counts aliases, and the alias where it refuses the file.

AgentV 4.42.4 reads YAML with the ``yaml`` npm package 2.9.1 (``parse(text, {merge: true})``), which turns the
document into JavaScript values in document order and counts aliases on the way (``maxAliasCount``, 100):
each alias it resolves adds one to its anchor's uses (an anchor starts at one); at an anchor's first alias,
the anchor's weight is fixed as the largest of 1 for each scalar in the anchored node and uses times weight
of each anchor aliased inside it, at that moment (0 when there is neither). When uses times weight of an
anchor passes 100, the parser throws "Excessive alias count indicates a resource exhaustion attack" and the
runner rejects the file. A '<<' merge resolves its alias, then converts the merged mapping again: the aliases
inside it are resolved again, and the anchors inside it start over.

``tree_of`` makes an ``AliasTree`` from the parser events of a file that has aliases (``parse_yaml`` tells);
a subtree without anchors or aliases is kept as only what the count reads of it (a ``Leaf``). ``alias_limit``
converts the tree as the parser converts the document and gives the finding at the alias where the parser
throws. The events are read again only for such a file, so the files without aliases cost nothing."""
from __future__ import annotations

from typing import Optional, Union

from evallint.diagnostics import Finding, Span

MAX_ALIAS_COUNT = 100  # the parser's default ``maxAliasCount``, which AgentV 4.42.4 keeps
MAX_STEPS = 1_000_000  # conversions and resolutions counted before the count is given up (no finding)


class Leaf:
    """A subtree without anchors or aliases: its weight (1 when it holds a scalar, else 0), whether it is a
    mapping, and ``stop``: 0 when it is no mapping and no sequence of mappings only (a merge of it fails)."""

    __slots__ = ("weight", "is_map", "stop")
    parts = ()

    def __init__(self, weight: int, is_map: bool, stop: Optional[int]):
        self.weight, self.is_map, self.stop = weight, is_map, stop


LEAVES = {(weight, is_map, stop): Leaf(weight, is_map, stop)
          for weight in (0, 1) for is_map in (False, True) for stop in (None, 0)}
SCALAR = Leaf(1, False, 0)


class Collection:
    """A mapping or sequence with anchors or aliases in it: the weight of its leaves, its other parts (keys
    and values alike) in document order, and for a sequence ``stop``: the parts before its first item that is
    a leaf and no mapping (a merge of the sequence fails there), None when there is none."""

    __slots__ = ("is_map", "weight", "parts", "stop")

    def __init__(self, is_map: bool, weight: int, parts: list, stop: Optional[int]):
        self.is_map, self.weight, self.parts, self.stop = is_map, weight, parts, stop


class Anchored:
    """A node with an anchor; the parser keeps each anchored node's count apart, even under one name."""

    __slots__ = ("content",)

    def __init__(self, content: Union[Leaf, Collection]):
        self.content = content

    @property
    def is_map(self) -> bool:
        return self.content.is_map


class Alias:
    """An alias, its anchored node (the last one of its name before it) and where it is."""

    __slots__ = ("target", "name", "span")

    def __init__(self, target: Anchored, name: str, span: Span):
        self.target, self.name, self.span = target, name, span

    @property
    def is_map(self) -> bool:
        return self.target.is_map


class Merge:
    """The value of a '<<' key."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Open:
    """A collection being read: its weight, parts and ``stop`` so far, and for a mapping whether the value
    coming is a merge's."""

    __slots__ = ("anchor", "is_map", "weight", "parts", "stop", "merge_next")

    def __init__(self, anchor: Optional[str], is_map: bool):
        self.anchor, self.is_map = anchor, is_map
        self.weight, self.parts, self.stop = 0, [], None
        self.merge_next = False

    def node(self) -> Union[Leaf, Collection]:
        if self.parts:
            return Collection(self.is_map, self.weight, self.parts, self.stop)
        return LEAVES[self.weight, self.is_map, self.stop]


class AliasTree:
    """The tree of a file's anchors and aliases, built from its parser events in document order. ``root``
    is None when the file has no alias: nothing is counted."""

    def __init__(self):
        self.stack: list[_Open] = []
        self.anchors: dict[str, Anchored] = {}  # name -> the last complete node anchored with it
        self.top = None  # the document's node
        self.aliased = False

    @property
    def root(self):
        return self.top if self.aliased else None

    def scalar(self, anchor: Optional[str]) -> None:
        node = SCALAR
        if anchor is not None:
            node = self.anchors[anchor] = Anchored(SCALAR)
        self._add(node)

    def merge_key(self) -> None:
        """The key just read is a '<<' that merges: the next node is its value."""
        self.stack[-1].merge_next = True

    def start(self, anchor: Optional[str], is_map: bool) -> None:
        self.stack.append(_Open(anchor, is_map))

    def end(self) -> None:
        frame = self.stack.pop()
        node = frame.node()
        if frame.anchor is not None:
            node = self.anchors[frame.anchor] = Anchored(node)
        self._add(node)

    def alias(self, name: str, span: Span) -> None:
        """An alias of a complete anchored node (the builder reports any other first)."""
        self.aliased = True
        self._add(Alias(self.anchors[name], name, span))

    def _add(self, node) -> None:
        if not self.stack:
            self.top = node
            return
        top = self.stack[-1]
        if top.merge_next:
            top.merge_next = False
            if not isinstance(node, Leaf) or node.stop is not None:  # a leaf mapping merges no alias
                node = Merge(node)
        if isinstance(node, Leaf):
            top.weight = max(top.weight, node.weight)
            if not (top.is_map or node.is_map or top.stop is not None):
                top.stop = len(top.parts)
        else:
            top.parts.append(node)


def may_pass_limit(parsed) -> bool:
    """Whether AgentV 4.42.4's count can pass its limit on the file ``parse_yaml`` read as ``parsed``. It cannot
    when no alias lies inside an anchored node and no '<<' merges one: then each anchor weighs at most 1 and counts
    1 plus its own aliases, so the count stays within the limit while the file has fewer aliases than it. Only the
    other files are read again to count (``tree_of``)."""
    return bool(parsed.merges) or parsed.alias_in_anchor or parsed.aliases >= MAX_ALIAS_COUNT


def tree_of(text: str):
    """The ``AliasTree`` root of ``text``, a YAML file that ``parse_yaml`` read whole (every alias names an
    anchor complete before it)."""
    import yaml

    from evallint.load.yaml12 import LOADER
    from evallint.load.yaml_directives import as_runner_reads

    tree, counts = AliasTree(), []  # per open collection: [is a mapping, nodes in it so far]
    for event in yaml.parse(as_runner_reads(text)[0], Loader=LOADER):
        if isinstance(event, (yaml.CollectionEndEvent,)):
            counts.pop()
            tree.end()
            continue
        if not isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent, yaml.CollectionStartEvent)):
            continue
        key = bool(counts) and counts[-1][0] and counts[-1][1] % 2 == 0
        if counts:
            counts[-1][1] += 1
        if isinstance(event, yaml.AliasEvent):
            start, end = event.start_mark, event.end_mark
            tree.alias(event.anchor, Span(start.line, start.column, end.line, end.column, start.index, end.index))
        elif isinstance(event, yaml.ScalarEvent):
            tree.scalar(event.anchor)
            if key and event.value == "<<" and not event.style and event.tag is None:
                tree.merge_key()
        else:
            is_map = isinstance(event, yaml.MappingStartEvent)
            tree.start(event.anchor, is_map)
            counts.append([is_map, 0])
    return tree.root


def alias_limit(root) -> list:
    """EV005 at the alias where AgentV 4.42.4's YAML parser throws "Excessive alias count" converting the
    tree ``root`` (``AliasTree.root``); nothing when it does not (or the count is given up)."""
    try:
        if root is not None:
            _Conversion().to_js(root)
    except _Excess as found:
        alias = found.alias
        return [Finding("EV005", f"alias '*{alias.name}' goes past the limit of AgentV 4.42.4's YAML parser, which "
                        f"refuses more than {MAX_ALIAS_COUNT} alias expansions (\"Excessive alias count\") and "
                        "rejects the whole file; write some of the aliased values out", span=alias.span)]
    except (_GiveUp, RecursionError):  # a merge the parser refuses for another reason, or a pathological file
        pass
    return []


class _Excess(Exception):
    def __init__(self, alias: Alias):
        self.alias = alias


class _GiveUp(Exception):
    pass


class _Count:
    """An anchor's uses and weight (the parser's ``count`` and ``aliasCount``)."""

    __slots__ = ("uses", "weight")

    def __init__(self):
        self.uses, self.weight = 1, 0


class _Conversion:
    """The parser's conversion to JavaScript (``toJS``, ``toJSON``, ``Alias.resolve``, ``getAliasCount``, the
    merge's ``addMergeToJSMap`` and ``mergeValue``), as far as it counts aliases."""

    def __init__(self):
        self.counts: dict[Anchored, _Count] = {}  # the parser's ``ctx.anchors``
        self.steps = 0

    def to_js(self, node) -> None:
        """Converting a node: an anchored one starts a count of its own."""
        if isinstance(node, Anchored):
            self.counts[node] = _Count()
            node = node.content
        self.to_json(node)

    def to_json(self, node) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _GiveUp()
        if isinstance(node, Alias):
            self.resolve(node)
        elif isinstance(node, Collection):
            for part in node.parts:
                if isinstance(part, Merge):
                    self.merge(part.value)
                else:
                    self.to_js(part)

    def resolve(self, alias: Alias) -> Anchored:
        target = alias.target
        count = self.counts.get(target)
        if count is None:  # anchored where the parser does not convert it (a merge's value): converted now
            self.to_js(target)
            count = self.counts[target]
        count.uses += 1
        if count.weight == 0:
            count.weight = self.weight(target)
        if count.uses * count.weight > MAX_ALIAS_COUNT:
            raise _Excess(alias)
        return target

    def weight(self, node) -> int:
        if isinstance(node, Leaf):
            return node.weight
        if isinstance(node, Alias):
            count = self.counts.get(node.target)
            return count.uses * count.weight if count else 0
        if isinstance(node, Anchored):
            return self.weight(node.content)
        if isinstance(node, Merge):
            return self.weight(node.value)
        return max([node.weight] + [self.weight(part) for part in node.parts])

    def merge(self, value) -> None:
        """A '<<' key's value: a mapping, or a sequence of mappings, each merged in turn."""
        source = self.resolve(value) if isinstance(value, Alias) else value
        content = source.content if isinstance(source, Anchored) else source
        if content.is_map:
            self.merge_value(source)
            return
        for item in content.parts[:content.stop]:
            self.merge_value(item)
        if content.stop is not None:
            raise _GiveUp()  # the parser refuses a merge of anything but mappings, with an error of its own

    def merge_value(self, value) -> None:
        """One merged mapping, converted again (not as its anchor's node: its count does not start over)."""
        source = self.resolve(value) if isinstance(value, Alias) else value
        if not source.is_map:
            raise _GiveUp()  # the parser refuses a merge of anything but mappings, with an error of its own
        self.to_json(source.content if isinstance(source, Anchored) else source)
