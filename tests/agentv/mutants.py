"""Single-mistake variants of AgentV 4.42.4's own example suites and datasets, with what its loader makes of each.

    python tests/agentv/mutants.py            write fixtures/agentv-4.42.4-mutants/mutants.jsonl
    python tests/agentv/mutants.py --check    derive the verdicts again with the live loader and compare

Each variant is one of the examples with one mistake made in it, as line edits of its text: a key the
runner reads misspelt, spelled in another case, deleted, given a value of another type or moved a level up;
an enumerated value misspelt; a deprecated alias of the earlier format; a YAML 1.1 scalar; a reference to a
file broken or written without its ``file://``. Free-form data (metadata, vars, a grader's config, structured message
contents, tool calls' arguments) is left alone: what is in it is the author's. The same kind of
mistake at the same place of the format (``tests[].assertions[].type``) is made in at most ``PER_PLACE``
files. The loader (``tests/agentv/load.mjs``) then loads every variant from beside its source, so relative
references and the nearest ``.agentv/`` are the same, and a variant's verdict compares what it made of the
variant with what it made of the source: the tests, the suite's settings, the suite's metadata (its target,
read by ``readTestSuiteMetadata`` for a run), what it printed and the error it threw; where the tests came from (``source``, a snapshot of their text) is not compared.
Every environment variable the corpus names (``${{ NAME }}``) reads as set, as in a run of the suite.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fixtures" / "agentv-4.42.4-examples"
OUT = ROOT / "fixtures" / "agentv-4.42.4-mutants" / "mutants.jsonl"
LOADER = Path(__file__).resolve().parent / "load.mjs"
PER_PLACE = 2  # files in which the same kind of mistake is made at the same place of the format
LOG_CUT = 300  # characters of each printed line kept in a verdict

# Keys whose value is the author's data, not the format's: no mistake is made inside them.
FREE_FORM = {"metadata", "vars", "governance", "config", "args", "minimums", "weights", "tags", "env", "headers"}
TOOL_CALL_LISTS = {"tool_calls", "expected", "expected_tools"}  # a tool call's input and output are data


def free_form(place) -> bool:
    """Whether what ``place`` holds is the author's data: a free-form key, a message's structured content
    (an ``expected_output`` mapping is one: the expected answer, read as an assistant message's content), a
    tool call's input or output."""
    name, path = place.name, place.path
    if name in FREE_FORM:
        return True
    if name in ("content", "expected_output") and isinstance(place.value, yaml.MappingNode):
        return True
    return name in ("input", "output") and len(path) >= 3 and path[-3] in TOOL_CALL_LISTS

# The keys whose string values are a closed set in the format.
ENUMERATED = {"type", "mode", "role", "operator", "aggregation", "strategy", "match", "args_match",
              "on_turn_failure", "algorithm", "provider", "fallback"}
# Aliases of the earlier format (AgentV 2.2), key for key and grader type for grader type.
OLD_KEYS = {"tests": "evalcases", "criteria": "expected_outcome", "input": "input_messages",
            "expected_output": "expected_messages", "assertions": "evaluators", "command": "script"}
OLD_TYPES = {"llm-grader": "llm_judge", "code-grader": "code_judge", "tool-trajectory": "tool_trajectory",
             "field-accuracy": "field_accuracy", "execution-metrics": "execution_metrics",
             "token-usage": "token_usage", "skill-trigger": "skill_trigger", "is-json": "is_json",
             "rubrics": "rubric"}
YAML11 = {"true": "yes", "false": "no"}


def _line_end(text_lines: list, index: int) -> str:
    line = text_lines[index]
    return line[len(line.rstrip("\r\n")):] or "\n"


class Place:
    """A mapping entry of a parsed suite: its key node, value node, data path and the mapping's entries."""

    def __init__(self, key, value, path: tuple, siblings: list, parents: list):
        self.key, self.value, self.path, self.siblings, self.parents = key, value, path, siblings, parents

    @property
    def pattern(self) -> str:
        return ".".join("[]" if isinstance(part, int) else part for part in self.path).replace(".[]", "[]")

    @property
    def name(self) -> str:
        return str(self.key.value)


def places(node, path=(), parents=()) -> list:
    """Every mapping entry under ``node`` outside free-form data, depth first."""
    out = []
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                continue
            place = Place(key, value, path + (str(key.value),), node.value, list(parents))
            out.append(place)
            if not free_form(place):
                out += places(value, place.path, parents + ((node, place),))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out += places(item, path + (i,), parents)
    return out


def _replace_span(lines: list, mark_line: int, start: int, end: int, new: str) -> list:
    line = lines[mark_line]
    return [[mark_line, mark_line + 1, [line[:start] + new + line[end:]]]]


def _key_edit(lines: list, place: Place, new_name: str):
    key = place.key
    if key.style is not None or key.start_mark.line != key.end_mark.line:
        return None
    return _replace_span(lines, key.start_mark.line, key.start_mark.column, key.end_mark.column, new_name)


def _value_edit(lines: list, node, new_text: str):
    if not isinstance(node, yaml.ScalarNode) or node.style is not None or node.start_mark.line != node.end_mark.line:
        return None
    return _replace_span(lines, node.start_mark.line, node.start_mark.column, node.end_mark.column, new_text)


def _entry_lines(lines: list, place: Place):
    """(first, end) lines of a block entry that starts its line, or None. A node's end mark is where the next
    token starts: the entry ends on the line before it when only indentation stands before it there."""
    key, value = place.key, place.value
    first = key.start_mark.line
    if lines[first][:key.start_mark.column].strip():
        return None  # after '- ' or inside a flow collection
    mark = value.end_mark
    before = lines[mark.line][:mark.column] if mark.line < len(lines) else ""
    end = mark.line if not before.strip() else mark.line + 1
    return first, max(end, first + 1)


def misspelt(word: str) -> str:
    """Two neighbouring letters swapped (or the last one doubled): a typo, not another word."""
    for i in range(1, len(word) - 1):
        if word[i] != word[i + 1] and word[i].isalpha() and word[i + 1].isalpha():
            return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word + word[-1]


def other_case(word: str):
    if "_" in word:
        head, *rest = word.split("_")
        return head + "".join(part.title() for part in rest)
    if "-" in word:
        return word.replace("-", "_")
    if re.search(r"[a-z][A-Z]", word):
        return re.sub(r"([a-z])([A-Z])", r"\1_\2", word).lower()
    return word[:1].upper() + word[1:]


def variants_of(source: str, text: str) -> list:
    """(kind, place pattern, description, edits) of every mistake made in one suite."""
    lines = text.splitlines(keepends=True)
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    folder = (CORPUS / source).parent
    out = []

    def add(kind, place, desc, edits, renamed=None):
        if edits:
            out.append((kind, place.pattern if isinstance(place, Place) else place, desc, edits, renamed))

    for place in places(root):
        name = place.name
        add("key-misspelt", place, f"key '{name}' misspelt '{misspelt(name)}'", _key_edit(lines, place, misspelt(name)),
            [name, misspelt(name)])
        if other_case(name) != name:
            add("key-case", place, f"key '{name}' written '{other_case(name)}'",
                _key_edit(lines, place, other_case(name)), [name, other_case(name)])
        if name in OLD_KEYS:
            add("old-key", place, f"key '{name}' written as the earlier format's '{OLD_KEYS[name]}'",
                _key_edit(lines, place, OLD_KEYS[name]), [name, OLD_KEYS[name]])
        span = _entry_lines(lines, place)
        if span is not None:
            add("key-deleted", place, f"key '{name}' deleted", [[span[0], span[1], []]])
        value = place.value
        if free_form(place):
            continue
        if isinstance(value, yaml.ScalarNode) and value.style is None and value.start_mark.line == value.end_mark.line:
            word = str(value.value)
            if re.fullmatch(r"-?\d+(\.\d+)?", word):
                add("value-type", place, f"'{name}' given the text 'many' for the number {word}",
                    _value_edit(lines, value, "many"))
                add("yaml11", place, f"'{name}': {word} written with a YAML 1.1 digit separator",
                    _value_edit(lines, value, word[0] + "_" + word[1:]) if len(word) > 1 and word[1].isdigit() else None)
            elif word in YAML11:
                add("value-type", place, f"'{name}' given the text 'sometimes' for {word}",
                    _value_edit(lines, value, "sometimes"))
                add("yaml11", place, f"'{name}': {word} written as YAML 1.1's '{YAML11[word]}'",
                    _value_edit(lines, value, YAML11[word]))
            elif word:
                add("value-type", place, f"'{name}' given a list for the text '{word[:40]}'",
                    _value_edit(lines, value, f"[{word}]") if "#" not in word and ":" not in word else None)
            if name in ENUMERATED and word:
                for kind, new in (("enum-misspelt", misspelt(word)), ("enum-case", other_case(word)),
                                  ("old-type", OLD_TYPES.get(word))):
                    if new and new != word:
                        add(kind, f"{place.pattern}={word}", f"'{name}: {word}' written '{new}'",
                            _value_edit(lines, value, new))
            if word.startswith("file://"):
                add("file-url-dropped", place, f"'{word}' written without 'file://'",
                    _value_edit(lines, value, word[len("file://"):]))
            reference = word[len("file://"):] if word.startswith("file://") else word
            if "/" in reference or "." in reference:
                target = (folder / reference)
                if reference and target.is_file():
                    stem, dot, ext = target.name.partition(".")
                    broken = reference[: len(reference) - len(target.name)] + stem + "x" + dot + ext
                    add("reference-broken", place, f"reference '{reference}' names no file ('{broken}')",
                        _value_edit(lines, value, word.replace(reference, broken)))
        elif isinstance(value, (yaml.MappingNode, yaml.SequenceNode)) and not value.flow_style:
            span = _entry_lines(lines, place)
            if span is not None and value.start_mark.line > place.key.start_mark.line:
                first_line = lines[span[0]]
                head = first_line[:place.key.end_mark.column] + ": 42" + _line_end(lines, span[0])
                add("value-type", place, f"'{name}' given the number 42 for a "
                    f"{'list' if isinstance(value, yaml.SequenceNode) else 'mapping'}", [[span[0], span[1], [head]]])
        moved = _moved_up(lines, place)
        if moved is not None:
            add("moved-up", place, f"'{name}' moved a level up, beside '{moved[0]}'", moved[1])
    return out


def _moved_up(lines: list, place: Place):
    """A one-line entry taken out of its mapping and written after the entry that holds that mapping."""
    if not place.parents or not isinstance(place.value, yaml.ScalarNode):
        return None
    span = _entry_lines(lines, place)
    if span is None or span[1] != span[0] + 1 or len(place.siblings) < 2:
        return None
    _, holder = place.parents[-1]
    holder_span = _entry_lines(lines, holder)
    if holder_span is None:
        return None
    indent = " " * holder.key.start_mark.column
    moved = indent + lines[span[0]].lstrip(" ")
    return holder.name, [[holder_span[1], holder_span[1], [moved]], [span[0], span[1], []]]


def jsonl_variants_of(text: str) -> list:
    """Mistakes in a JSONL dataset's lines: each top-level key misspelt, in another case, deleted, or the
    earlier format's; the same kind at the same key in ``PER_PLACE`` lines at most (counted by the caller)."""
    lines = text.splitlines(keepends=True)
    out = []
    for index, line in enumerate(lines):
        try:
            case = json.loads(line)
        except ValueError:
            continue
        if not isinstance(case, dict):
            continue
        ending = line[len(line.rstrip("\r\n")):]
        for key in case:
            quoted = json.dumps(key) + ":"
            at = line.find(quoted)
            if at < 0:
                continue
            renames = [("key-misspelt", misspelt(key)), ("key-case", other_case(key)), ("old-key", OLD_KEYS.get(key))]
            for kind, new in renames:
                if new and new != key:
                    out.append((kind, f"[]{key}", f"key '{key}' written '{new}'",
                                [[index, index + 1, [line[:at] + json.dumps(new) + ":" + line[at + len(quoted):]]]],
                                [key, new]))
            rest = {k: v for k, v in case.items() if k != key}
            out.append(("key-deleted", f"[]{key}", f"key '{key}' deleted",
                        [[index, index + 1, [json.dumps(rest, ensure_ascii=False) + ending]]], None))
    return out


def apply(text: str, edits: list) -> str:
    lines = text.splitlines(keepends=True)
    for start, end, new in sorted(edits, key=lambda edit: edit[0], reverse=True):
        lines[start:end] = new
    return "".join(lines)


def mutants() -> list:
    """Every variant, before the loader has seen it: id, file, source, kind, place, desc, edits."""
    stored = json.loads((CORPUS / "runner-loaded.json").read_text(encoding="utf-8"))
    seen: dict = {}
    out = []
    for source in sorted(stored):
        if stored[source]["error"] or stored[source]["logs"]:
            continue  # a variant of a file the loader already complains of says nothing clear
        text = (CORPUS / source).read_text(encoding="utf-8")
        found = jsonl_variants_of(text) if source.endswith(".jsonl") else variants_of(source, text)
        for kind, place, desc, edits, renamed in found:
            files = seen.setdefault((kind, place), set())
            if source not in files and len(files) >= PER_PLACE:
                continue
            if source in files:
                continue
            files.add(source)
            ident = f"v{len(out) + 1:04d}"
            folder, name = os.path.split(source)
            stem, dot, suffix = name.partition(".")
            out.append({"id": ident, "file": f"{folder}/{stem}__{ident}{dot}{suffix}", "source": source,
                        "kind": kind, "place": place, "desc": desc, "edits": edits, "renamed": renamed})
    return out


def _as_source(entry: dict, file: str, source: str) -> dict:
    """The loader's entry for a variant with the variant's name put back to its source's."""
    text = json.dumps(entry, sort_keys=True)
    for a, b in ((file, source), (Path(file).name.split(".")[0], Path(source).name.split(".")[0])):
        text = text.replace(a, b)
    return json.loads(text)


def _comparable(entry: dict) -> dict:
    """What a verdict compares: the loader's entry without ``source`` blocks (where a test came from, a
    snapshot of its text) and without what validation said."""
    data = {key: value for key, value in entry.items() if key != "validate"}
    data["tests"] = [{key: value for key, value in test.items() if key != "source"} for test in data["tests"]]
    return data


def _without_configs(data):
    """``data`` with what each grader hands its script as ``config`` (every key the grader does not read, as
    written) reduced to its keys: a value that differs only there is the script's to read, which the loader
    cannot show; a key gone from it is a setting the script no longer gets."""
    if isinstance(data, dict):
        return {key: sorted(value) if key == "config" and isinstance(value, dict) else _without_configs(value)
                for key, value in data.items()}
    if isinstance(data, list):
        return [_without_configs(value) for value in data]
    return data


def _renamed_back(data, old: str, new: str):
    """``data`` with every mapping key ``new`` named ``old`` again."""
    if isinstance(data, dict):
        return {(old if key == new else key): _renamed_back(value, old, new) for key, value in data.items()}
    if isinstance(data, list):
        return [_renamed_back(value, old, new) for value in data]
    return data


# ``${{ NAME }}``: an environment variable a file of the format names (the runner's interpolation syntax).
ENV_REFERENCE = re.compile(r"\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
ENV_VALUE = "set"  # what every variable the corpus names reads as


def named_variables(root: Path) -> dict:
    """Every environment variable a YAML or JSON(L) file under ``root`` names, set to ``ENV_VALUE``: an author
    runs a suite with the variables it names set (a ``use_target: ${{ AGENT_TARGET }}`` names the target a run
    delegates to), and the loader reads an unset one as empty, which would hide what a mistake around it drops."""
    names = set()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".yaml", ".yml", ".json", ".jsonl") and path.is_file():
            names.update(ENV_REFERENCE.findall(path.read_text(encoding="utf-8", errors="replace")))
    return {name: ENV_VALUE for name in sorted(names)}


def run_loader(root: Path, files: list, workers: int = 2) -> dict:
    """The loader's entry for each file (relative to ``root``), ``workers`` node processes at once, with
    every variable the files under ``root`` name set (and no other value of theirs taken from outside)."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is needed: the verdicts come from AgentV's own loader")
    env = {**os.environ, **named_variables(root)}
    batches = [files[i::workers] for i in range(workers)]
    # run in the root: the loader also looks for files from the working folder
    procs = [subprocess.Popen([node, str(LOADER), "--suite", "--metadata", "--validate", str(root), *batch],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root, env=env)
             for batch in batches if batch]
    out = {}
    for proc in procs:
        stdout, stderr = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"the AgentV loader failed:\n{stderr}")
        out.update(json.loads(stdout))
    return out


def verdicts(variants: list) -> list:
    """The variants with the loader's verdict: ``runner`` (error, tests loaded, printed lines), ``identical``
    (the loader made the same of the variant as of its source), ``carried`` (it made the same but for the
    renamed key, which it carried as written, or but for what a grader hands its script as ``config``: what
    that key's reader, a grader or a script, then does with it the loader cannot show), ``warned`` (it made
    the same but printed otherwise: a deprecation warning, for a form it still reads alike), and
    ``validate``: what AgentV's own validation says of the variant and not of its source. The variants are written into a copy of the corpus, beside their sources."""
    with tempfile.TemporaryDirectory(prefix="agentv-variants-") as folder:
        copy = Path(folder) / "corpus"
        shutil.copytree(CORPUS, copy)
        for variant in variants:
            text = (CORPUS / variant["source"]).read_text(encoding="utf-8")
            (copy / variant["file"]).write_text(apply(text, variant["edits"]), encoding="utf-8")
        loaded = run_loader(copy, sorted({v["source"] for v in variants}) + [v["file"] for v in variants])
    out = []
    for variant in variants:
        entry = _as_source(loaded[variant["file"]], variant["file"], variant["source"])
        base = loaded[variant["source"]]
        runner = {"error": entry["error"], "tests": None if entry["error"] else len(entry["tests"]),
                  "logs": [line[:LOG_CUT] for line in entry["logs"]]}
        mutated, original = _comparable(entry), _comparable(base)
        identical = mutated == original
        carried = not identical and (
            (variant["renamed"] is not None and _renamed_back(mutated, *variant["renamed"]) == original)
            or _without_configs(mutated) == _without_configs(original))
        warned = not identical and {**mutated, "logs": []} == {**original, "logs": []}
        said_before = {(e["severity"], e["message"]) for e in base["validate"]}
        validate = [f"{e['severity']}: {e['message'][:LOG_CUT]}" for e in entry["validate"]
                    if (e["severity"], e["message"]) not in said_before]
        out.append({**variant, "runner": runner, "identical": identical, "carried": carried, "warned": warned,
                    "validate": validate})
    return out


def render(rows: list) -> str:
    return "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare the live loader's verdicts with the stored ones")
    args = parser.parse_args(argv)
    text = render(verdicts(mutants()))
    if args.check:
        stored = OUT.read_text(encoding="utf-8")
        if stored != text:
            with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as fh:
                fh.write(text)
            print(f"the live loader's verdicts differ from {OUT.relative_to(ROOT)}: see {fh.name}", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"{text.count(chr(10))} variants written to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
