"""Eval files with something to fix, written in random YAML layouts, and the check that a fix changed
only what it should (tests/run/test_fix_variants.py, tests/fuzz/fuzz_fix.py).

``variant(rng)`` writes one suite's data in a layout that ``rng`` picks: anchors and aliases, tags,
comments, block scalars, values on the next line, flow style, '---' lines, a lone anchor or tag line, the
top level indented, CRLF, a BOM. ``meaning(text)`` reads a file with PyYAML's own composer (not
evallint's parser) into a tree of typed nodes, with the fixes' changes folded back: a fixed file and its
original must have the same meaning."""
from __future__ import annotations

import random
import shlex
from dataclasses import dataclass, field
from typing import Any

import yaml

PLAIN_UNSAFE = set(":#{}[],&*!|>'\"%@`")


@dataclass
class Variant:
    text: str
    # anchors of nodes a fix rewrites (a numeric id, an 'outcome' or 'args' key, a script) that an alias
    # elsewhere repeats: the fix would change that place too, so evallint must refuse it
    shared: set = field(default_factory=set)


class _Writer:
    def __init__(self, rng: random.Random):
        self.rng = rng
        # (type, value, name, fixed): anchored scalars an alias may repeat; a fix is offered at an
        # alias of a one-line scalar (not of a block scalar)
        self.anchors: list = []
        self.shared: set = set()
        self.count = 0

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def _anchor(self, value: Any, fixed: bool) -> str:
        if not self.chance(0.25):
            return ""
        self.count += 1
        name = f"a{self.count}"
        self.anchors.append((type(value), value, name, fixed))
        return f"&{name} "

    def _alias(self, value: Any, fixed: bool):
        """Maybe an alias of an equal anchored scalar. A finding on an alias of a scalar points at the alias: a
        fix there rewrites the alias alone (a script's argv list), or is not offered (a number is quoted only where
        it is written out). An alias that no fix of its own rewrites shares the node a fix rewrites."""
        same = [a for a in self.anchors if a[0] is type(value) and a[1] == value]
        if same and self.chance(0.5):
            _, _, name, anchored_fixed = self.rng.choice(same)
            if anchored_fixed and not (fixed and isinstance(value, str)):
                self.shared.add(name)
            return f"*{name}"
        return None

    def scalar(self, value: Any, *, flow: bool, fixed: bool = False, numeric_id: bool = False) -> str:
        """One scalar's text: an alias of an equal anchored one, or itself with maybe an anchor or a tag."""
        alias = self._alias(value, fixed)
        if alias is not None:
            return alias
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (int, float)):
            text = repr(value)
            if numeric_id and self.chance(0.15):
                return "!!int " + text if isinstance(value, int) else "!!float " + text  # no fix offered
        else:
            text = self._string(value, flow)
            if self.chance(0.05):
                return self._anchor(value, False) + "!!str " + text  # no argv list for a tag
        return self._anchor(value, fixed) + text

    def _string(self, value: str, flow: bool) -> str:
        plain_ok = value and not (set(value) & PLAIN_UNSAFE) and value == value.strip() and value not in (
            "true", "false", "null", "~") and not value[0].isdigit() and not value.startswith(("-", "?"))
        style = self.rng.choice(["plain", "plain", "single", "double"]) if plain_ok else "double"
        if style == "single":
            return "'" + value.replace("'", "''") + "'"
        if style == "double":
            return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return value

    def key(self, name: str, fixed: bool = False) -> str:
        if self.chance(0.05):
            return '"' + name + '"'  # a quoted key: its rename is not offered
        tag = "!!str " if self.chance(0.05) else ""
        return self._anchor(name, fixed) + tag + name

    # --- block and flow nodes -------------------------------------------------------------------

    def flow(self, value: Any, role: str = "") -> str:
        if isinstance(value, dict):
            items = [f"{self.flow_key(k, role)}: {self.flow(v, self._role(k, role))}" for k, v in value.items()]
            return "{" + ", ".join(items) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self.flow(v, ITEM.get(role, "")) for v in value) + "]"
        fixed = role == "script" or (role == "id" and isinstance(value, (int, float)))
        return self.scalar(value, flow=True, fixed=fixed, numeric_id=role == "id")

    def flow_key(self, name: str, role: str) -> str:
        return self.key(name, fixed=(name == "outcome" and role == "case") or (name == "args" and role == "call"))

    @staticmethod
    def _role(key: str, parent: str) -> str:
        leaf = {("case", "id"): "id", ("evaluator", "script"): "script"}
        return CHILD.get((parent, key)) or leaf.get((parent, key), "")

    def block_map(self, value: dict, indent: int, role: str) -> list:
        lines = []
        step = self.rng.choice([2, 2, 4])
        for key, item in value.items():
            pad = " " * indent
            if self.chance(0.1):
                lines.append(f"{pad}# about {key}")
            head = f"{pad}{self.flow_key(key, role)}:"
            lines += self.entry(head, item, indent, step, self._role(key, role))
        return lines

    def entry(self, head: str, item: Any, indent: int, step: int, role: str) -> list:
        """A key's line and its value: inline, on the next line, a block scalar, or a block collection."""
        inner = " " * (indent + step)
        if isinstance(item, dict) and item and not self.chance(0.2):
            return [head + self._comment()] + self.block_map(item, indent + step, role)
        if isinstance(item, list) and item and not self.chance(0.2):
            items_indent = indent if self.chance(0.3) else indent + step
            return [head + self._comment()] + self.block_seq(item, items_indent, role)
        if isinstance(item, str) and item and "\n" not in item and self.chance(0.15):
            text = self._anchor(item, False)  # no fix is offered for a block scalar
            return [f"{head} {text}|-", f"{inner}{item}"]  # a block scalar: the same one-line string
        text = self.flow(item, role)
        if self.chance(0.1) and not text.startswith(("{", "[")):
            return [head, inner + text + self._comment()]  # the value on the next line
        return [f"{head} {text}{self._comment()}"]

    def block_seq(self, value: list, indent: int, role: str) -> list:
        lines = []
        item_role = ITEM.get(role, "")
        for item in value:
            pad = " " * indent
            if isinstance(item, dict) and item and not self.chance(0.25):
                body = self.block_map(item, indent + 2, item_role)
                first = body.index(next(line for line in body if not line.lstrip().startswith("#")))
                body = body[first:]  # comments go above the item's '-', not between it and its first key
                lines.append(pad + "- " + body[0][indent + 2:])
                lines += body[1:]
            else:
                lines.append(pad + "- " + self.flow(item, item_role) + self._comment())
        return lines

    def _comment(self) -> str:
        return "  # note" if self.chance(0.15) else ""


def suite_data(rng: random.Random) -> dict:
    """An eval suite with things to fix, and values that repeat so that aliases can share them."""
    data: dict = {}
    if rng.random() < 0.2:
        data["$schema"] = "agentv-eval-v2"
    if rng.random() < 0.5:
        data["description"] = rng.choice(["outcome", "Checks things.", "args", "python judge.py"])
    if rng.random() < 0.7:
        data["target"] = "default"
    elif rng.random() < 0.3:
        data["execution"] = {"target": "default"}
    cases = []
    for n in range(rng.randint(1, 3)):
        case: dict = {"id": rng.choice([5, 17, 2.5, True, f"case-{n}", 5])}
        if rng.random() < 0.3:
            case["conversation_id"] = rng.choice([5, "outcome", "default"])
        case["outcome" if rng.random() < 0.6 else "expected_outcome"] = rng.choice(["Goal", "outcome", "default"])
        case["input"] = "q"
        if rng.random() < 0.4:
            call = {"tool": "t", ("args" if rng.random() < 0.7 else "input"): {"k": rng.choice([1, "args"])}}
            case["expected_messages"] = [{"role": "assistant", "tool_calls": [call]}]
        if rng.random() < 0.3:
            case["evaluators"] = [{"name": "j", "type": "code_judge", "script": "python judge.py"}]
        cases.append(case)
    data["evalcases"] = cases
    return data


def variant(rng: random.Random) -> Variant:
    data = suite_data(rng)
    writer = _Writer(rng)
    indent = 2 if rng.random() < 0.15 else 0
    lines = ["# A suite", "# with a comment block"] if rng.random() < 0.5 else []
    if rng.random() < 0.3:
        lines.append(rng.choice(["---", "--- # the suite", "--- !!map", "--- &top", "--- &top # c"]))
    elif rng.random() < 0.15:
        lines.append(rng.choice(["&top", "!!map", "&top # the suite"]))
    if rng.random() < 0.2:
        lines.append("")
    if rng.random() < 0.08:
        lines.append(writer.flow(data, "root"))
    else:
        for key, item in data.items():
            lines += writer.entry(" " * indent + writer.flow_key(key, "root") + ":", item, indent, 2,
                                  writer._role(key, "root"))
    eol = "\r\n" if rng.random() < 0.2 else "\n"
    bom = "\ufeff" if rng.random() < 0.1 else ""
    return Variant(bom + eol.join(lines) + eol, writer.shared)


# --- what a file means, with the fixes' changes folded back ---------------------------------------

STR = "tag:yaml.org,2002:str"


def _tree(node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return ("map", [(_tree(k), _tree(v)) for k, v in node.value])
    if isinstance(node, yaml.SequenceNode):
        return ("seq", [_tree(v) for v in node.value])
    return (node.tag, node.value)


CHILD = {("root", "evalcases"): "cases", ("case", "expected_messages"): "messages", ("case", "evaluators"): "evaluators",
         ("message", "tool_calls"): "calls"}
ITEM = {"cases": "case", "messages": "message", "evaluators": "evaluator", "calls": "call"}
RENAME = {"case": ("outcome", "expected_outcome"), "call": ("args", "input")}


def _folded(tree: Any, role: str = "root") -> Any:
    """Each fixable spelling in its fixed form: 'outcome' and 'args' renamed, a number id a string, a
    script an argv list, a root 'target' under 'execution', no '$schema'."""
    kind, value = tree
    if kind == "seq":
        return ("seq", [_folded(v, ITEM.get(role, "")) for v in value])
    if kind != "map":
        return tree
    names = [k[1] for k, _ in value]
    old, new = RENAME.get(role, (None, None))
    out = []
    for key, item in value:
        name = key[1]
        if name == old and new not in names:
            key = (key[0], new)
        if role == "case" and name == "id" and item[0] not in ("map", "seq"):
            item = (STR, item[1])
        elif role == "evaluator" and name == "script" and item[0] == STR:
            item = ("seq", [(STR, token) for token in shlex.split(item[1])])
        else:
            item = _folded(item, CHILD.get((role, name), ""))
        out.append((key, item))
    if role == "root":
        out = [(k, v) for k, v in out if k[1] != "$schema"]
        if "target" not in names:
            out = [((k[0], "target"), v[1][0][1]) if k[1] == "execution" and v[0] == "map"
                   and [kk[1] for kk, _ in v[1]] == ["target"] else (k, v) for k, v in out]
    return ("map", out)


def meaning(text: str) -> Any:
    """The typed node tree of ``text`` (one document; aliases expanded), fixes folded back."""
    return _folded(_tree(yaml.compose(text.lstrip("\ufeff"), Loader=yaml.SafeLoader)))
