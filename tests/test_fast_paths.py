"""The plain YAML pass gives exactly what the full one gives, on every fixture."""
from __future__ import annotations

from pathlib import Path

import pytest

from evallint.config import Config
from evallint.discovery import expand_paths
from evallint.lint import lint_file
from evallint.rules.registry import RULES
from evallint.yaml12 import parse_yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def _yaml_fixtures() -> list:
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


@pytest.mark.parametrize("light", [True, False], ids=["light events", "class events"])
def test_the_plain_yaml_pass_matches_the_full_pass_on_every_fixture(light, monkeypatch):
    """Both ways the plain pass gets its events: the parser making light tuples (nothing else parses
    YAML meanwhile), and the classes' events turned into them (another thread might)."""
    import evallint
    from evallint import yaml12

    monkeypatch.setattr(evallint, "OWN_PROCESS", False)
    monkeypatch.setattr(yaml12, "_alone", lambda: light)
    plain = 0
    for path in _yaml_fixtures():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        fast, full = parse_yaml(text, positions=False), parse_yaml(text)
        assert (fast.data, fast.empty, fast.ok, fast.findings) == (full.data, full.empty, full.ok, full.findings), path
        plain += fast.root is None
    assert plain > 200  # most files are ordinary and took the plain pass


@pytest.mark.parametrize("text", [
    "a: 1\nb: [x, {c: d}]\n",  # ordinary: the plain pass gives the data
    "a: &x 1\nb: *x\n",  # an anchor: the plain pass hands the file to the full one
    "a: [1, 2\n",  # not YAML: the parser raises
    "a: 1\n---\nb: 2\n",  # two documents
])
def test_the_parser_makes_its_own_events_again_after_a_plain_pass(text, monkeypatch):
    """The event names of PyYAML's C module point at the light constructors only while a plain pass
    runs, whatever ends it: afterwards ``yaml.parse`` gives PyYAML's own event classes."""
    import yaml
    import yaml._yaml
    import yaml.events

    import evallint

    monkeypatch.setattr(evallint, "OWN_PROCESS", True)
    before = {name: getattr(yaml._yaml, name) for name in dir(yaml._yaml) if name.endswith("Event")}
    parse_yaml(text, positions=False)
    assert {name: getattr(yaml._yaml, name) for name in before} == before
    assert all(getattr(yaml.events, name) is cls for name, cls in before.items())
    events = list(yaml.parse("a: 1\n", Loader=yaml.CSafeLoader))
    assert [type(e).__name__ for e in events][:3] == ["StreamStartEvent", "DocumentStartEvent", "MappingStartEvent"]
    assert isinstance(events[3], yaml.events.ScalarEvent) and events[3].value == "a"


def test_light_events_only_when_nothing_else_can_be_parsing(monkeypatch):
    """A program with another thread running gets the classes' events turned into tuples, and the C
    module's names are never touched."""
    import threading

    import yaml._yaml

    import evallint
    from evallint import yaml12

    monkeypatch.setattr(evallint, "OWN_PROCESS", False)
    assert yaml12._alone()
    seen = []
    real = setattr

    def spying(obj, name, value):
        if obj is yaml._yaml:
            seen.append(name)
        return real(obj, name, value)

    monkeypatch.setattr(yaml12, "setattr", spying, raising=False)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not yaml12._alone()
        assert parse_yaml("a: [1, b]\n", positions=False).data == {"a": [1, "b"]} and seen == []
    finally:
        stop.set()
        other.join()
    assert parse_yaml("a: [1, b]\n", positions=False).data == {"a": [1, "b"]} and "ScalarEvent" in seen


def test_the_plain_jsonl_pass_matches_the_full_pass_on_every_fixture():
    from evallint.jsonl import parse_jsonl

    plain = 0
    files = sorted(p for p in FIXTURES.rglob("*.jsonl") if p.is_file())
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        fast, full = parse_jsonl(text, positions=False), parse_jsonl(text)
        assert (fast.cases, fast.lines, fast.findings) == (full.cases, full.lines, full.findings), path
        plain += not fast.locs and bool(fast.cases)
    assert plain > 20


def test_a_duplicate_key_in_a_dataset_line_takes_the_positions_pass():
    from evallint.jsonl import parse_jsonl

    text = '{"id": "a", "input": "x"}\n{"id": "b", "input": "y", "id": "c"}\n'
    fast = parse_jsonl(text, positions=False)
    assert fast.locs and [(f.code, f.span.line, f.span.column) for f in fast.findings] == [("EV003", 1, 26)]


def _data_paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _data_paths(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _data_paths(value, path + (i,))


def test_positions_pass_stops_once_every_path_is_complete():
    from evallint.yaml12 import locate_paths

    text = "a:\n  b: 1\n  c: [2, 3]\nd: 4\n"
    stopped = locate_paths(text, [("a", "b")])
    assert stopped.values["a"].values["b"].start.line == 1
    assert stopped.end is stopped.start  # the root's end was never reached
    whole = locate_paths(text, [("a", "x")])  # not in the file: read to the end
    assert whole.end.line == 4
    alias = locate_paths("outcome: x\nexpected_outcome: y\n", [("expected_outcome",)])
    assert alias.values["expected_outcome"].start.line == 1  # the alias alone does not stop the pass


def test_positions_along_reported_paths_match_the_full_tree_on_every_fixture():
    from evallint.diagnostics import FIRST_KEY, KEY, VALUE
    from evallint.positions import KEY_ALIASES, Index
    from evallint.yaml12 import locate_paths

    checked = 0
    canonical = {alias: name for name, aliases in KEY_ALIASES.items() for alias in aliases}
    for path in _yaml_fixtures():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        fast = parse_yaml(text, positions=False)
        if fast.root is not None or not fast.ok:
            continue  # the full pass took it: its tree is the full one
        full = Index(parse_yaml(text).root)
        paths = list(_data_paths(fast.data))
        # as the rules name them: canonical keys, and paths below what exists
        asked = paths + [tuple(canonical.get(p, p) for p in q) for q in paths] + [q + ("missing", 0) for q in paths]
        everything = Index(locate_paths(text, asked))
        for q in asked:
            for target in (VALUE, KEY, FIRST_KEY):
                assert everything.locate(q, target) == full.locate(q, target), (path, q, target)
        sampled = asked[:: max(1, len(asked) // 15)]
        for q, r in zip(sampled, sampled[1:] + sampled[:1], strict=True):  # one or two paths: the pass stops after them
            alone, pair = Index(locate_paths(text, [q])), Index(locate_paths(text, [q, r]))
            for target in (VALUE, KEY, FIRST_KEY):
                assert alone.locate(q, target) == full.locate(q, target), (path, q, target)
                assert pair.locate(q, target) == full.locate(q, target), (path, q, r, target)
                assert pair.locate(r, target) == full.locate(r, target), (path, q, r, target)
        checked += 1
    assert checked > 200


def test_suggestions_are_remembered_and_the_same_for_any_iterable_of_options():
    from evallint import suggest

    suggest._remembered.cache_clear()
    assert suggest.closest("in-order", ["any_order", "in_order"]) == "in_order"
    assert suggest.closest("in-order", (o for o in ("any_order", "in_order"))) == "in_order"
    assert suggest._remembered.cache_info().hits == 1  # the same word and options: answered once
    assert suggest.closest("In_Order", ["in_order"]) == "in_order"
    assert suggest.closest("zzzzzz", ["any_order"]) is None
    assert suggest.did_you_mean(5, ["a"]) == "" and suggest.did_you_mean("exat", ["exact"]) == " (did you mean 'exact'?)"


@pytest.mark.parametrize("light", [True, False], ids=["light events", "class events"])
@pytest.mark.parametrize("text,limits,code", [
    ("a: " + "x" * 50 + "\nb: short\n", {"max_scalar": 40}, "EV006"),  # a scalar over the limit
    ("a: short\nb: [" + "y" * 41 + "]\n", {"max_scalar": 40}, "EV006"),
    ("a: " + "x" * 40 + "\n", {"max_scalar": 40}, None),  # at the limit: ordinary
    ("a: [[[[1]]]]\n", {"max_depth": 4}, "EV006"),  # nesting over the limit
    ("a: [[[1]]]\n", {"max_depth": 4}, None),
])
def test_the_plain_pass_hands_a_file_over_a_limit_to_the_full_pass(light, text, limits, code, monkeypatch):
    import evallint
    from evallint import yaml12

    monkeypatch.setattr(evallint, "OWN_PROCESS", False)
    monkeypatch.setattr(yaml12, "_alone", lambda: light)
    fast, full = parse_yaml(text, positions=False, **limits), parse_yaml(text, **limits)
    assert (fast.data, fast.ok, fast.findings) == (full.data, full.ok, full.findings)
    assert [f.code for f in fast.findings] == ([code] if code else [])
    if code is None:
        assert fast.root is None and full.root is not None  # an ordinary file is the plain pass's: no positions


def test_positions_counted_in_place_are_the_line_table_s():
    from evallint.positions import LineMap

    text = "a: 1\n\nb:\n  - c\r\n  - d\u2028e\nlast"  # only '\n' breaks a line
    table = LineMap(text)
    table._asked = 16  # past the few counted in place: the table of line starts answers
    for offset in range(len(text) + 1):
        assert LineMap(text).position(offset) == table.position(offset), offset
    assert LineMap(text).position(len(text)) == (5, 4)
