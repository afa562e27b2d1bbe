"""What the format declares at a place of a file: the keys a mapping accepts, each key's description and
accepted values. Read from the JSON Schemas of ``evallint schema``, which are generated from the same
declarations the checks load files with; a kind chosen by a key's value (an evaluator's ``type``, a
target's ``provider``) narrows them when that value is written."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from evallint import api
from evallint.server.place import ITEM, JSON, JSON_LINES, YAML

# kind of file -> (its schema, the place in it of the file's top, how the file is written): a dataset's line is
# an eval case
SCHEMA_OF_KIND = {"eval": ("eval", (), YAML), "dataset": ("eval", ("evalcases", ITEM), JSON_LINES),
                  "targets": ("targets", (), YAML), "config": ("config", (), YAML), "skills": ("skills", (), JSON)}


@dataclass(frozen=True)
class Key:
    """A key the JSON Schema declares at a place: what the editor shows of it on hover and completion."""

    name: str
    description: str
    values: tuple  # the accepted values when they are a closed set, else ()
    deprecated: bool = False  # read, but not to be written (a deprecated alias, a key the runner drops)


class Declarations:
    def __init__(self, schema: dict, top: tuple = (), form: str = YAML):
        self.schema = schema
        self.top = top
        self.form = form
        self.definitions = schema.get("definitions", {})

    def _deref(self, node: dict) -> dict:
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 32:
            node = {**self.definitions.get(node["$ref"].rsplit("/", 1)[-1], {}),
                    **{k: v for k, v in node.items() if k != "$ref"}}
            seen += 1
        return node if isinstance(node, dict) else {}

    def _shapes(self, node: dict, written: dict) -> list:
        """The object shapes ``node`` may take: itself, its alternatives, and the branches of its
        conditions that ``written`` (the mapping's keys and values) does not rule out."""
        node = self._deref(node)
        out = [node]
        for alternative in node.get("oneOf", []) + node.get("anyOf", []):
            out += self._shapes(alternative, written)
        for part in node.get("allOf", []):
            if "then" not in part:
                out += self._shapes(part, written)
                continue
            holds = self._holds(part.get("if", {}), written)
            if holds is not False:
                shapes = self._shapes(part["then"], written)
                # a branch that only may apply widens what is accepted, never narrows it
                out += shapes if holds else [{k: v for k, v in shape.items() if k != "propertyNames"}
                                             for shape in shapes]
        return out

    @staticmethod
    def _holds(condition: dict, written: dict) -> Optional[bool]:
        """Whether ``written`` meets a condition on values; None when a value it names is not written."""
        answer: Optional[bool] = True
        for name, expected in condition.get("properties", {}).items():
            value = written.get(name)
            if value is None:
                answer = None  # not written (yet): the branch may apply
                continue
            value = value.strip("'\"")
            if "const" in expected and value != expected["const"] or "enum" in expected and value not in expected["enum"]:
                return False
        return answer

    def _child(self, node: dict, part) -> Optional[dict]:
        for shape in self._shapes(node, {}):
            if part == ITEM and "items" in shape:
                return shape["items"]
            if part != ITEM and part in shape.get("properties", {}):
                return shape["properties"][part]
        return None

    def _at(self, path: list) -> Optional[dict]:
        node: Optional[dict] = self.schema
        for part in [*self.top, *path]:
            node = self._child(node, part) if node is not None else None
        return node

    def keys(self, path: list, written: dict) -> list:
        """The keys the mapping at ``path`` accepts, in the order they are declared."""
        node = self._at(path)
        if node is None:
            return []
        out: dict = {}
        allowed = None
        for shape in self._shapes(node, written):
            for name, prop in shape.get("properties", {}).items():
                if name not in out:
                    out[name] = self._key(name, prop)
            names = shape.get("propertyNames", {}).get("enum")
            if names is not None:
                allowed = set(names) if allowed is None else allowed & set(names)
        return [key for name, key in out.items() if allowed is None or name in allowed]

    def key(self, path: list, name: str, written: dict) -> Optional[Key]:
        node = self._at(path)
        if node is None:
            return None
        for shape in self._shapes(node, written):
            prop = shape.get("properties", {}).get(name)
            if prop is not None:
                return self._key(name, prop)
        return None

    def _key(self, name: str, prop: dict) -> Key:
        prop = self._deref(prop)
        return Key(name, prop.get("description", ""), tuple(self._values(prop)), bool(prop.get("deprecated")))

    def _values(self, prop: dict) -> list:
        prop = self._deref(prop)
        if "const" in prop:
            return [prop["const"]]
        values = list(prop.get("enum", []))
        # a choice in any case is a pattern, its words the examples (format/agentv4/project.choice)
        values += [v for v in prop.get("examples", []) if v not in values]
        for alternative in prop.get("oneOf", []) + prop.get("anyOf", []):
            values += [v for v in self._values(alternative) if v not in values]
        return [v for v in values if isinstance(v, str)]


_CACHE: dict = {}


def declarations(kind: Optional[str], version: Optional[str] = None) -> Optional[Declarations]:
    """The declarations of a kind of file (eval, dataset, targets, config, skills) in the format of an AgentV
    version (when none is given, the one the linter reads a file of that kind as when it holds no sign of
    another: AgentV 4.42.4's for an Agent Skills evals file, else 2.2's); None for the other kinds."""
    from evallint.format.generations import version_of

    if kind not in SCHEMA_OF_KIND:
        return None
    version = version_of(kind, None, version)
    if (kind, version) not in _CACHE:
        schema, top, form = SCHEMA_OF_KIND[kind]
        _CACHE[kind, version] = Declarations(api.json_schema(schema, version), top, form)
    return _CACHE[kind, version]
