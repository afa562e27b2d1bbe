"""LintSchema's own load driver gives exactly what marshmallow's Schema.load
gives, on every fixture and without building the model; and the smaller
pieces every lint goes through (a dataset line's positions, remembered
suggestions, line positions counted in place) answer as they should."""
from __future__ import annotations

from pathlib import Path

import pytest
from marshmallow import ValidationError, fields, post_load, pre_load, validate

from evallint.config import Config
from evallint.discovery import expand_paths
from evallint.lint import lint_file
from evallint.rules.registry import RULES
from evallint.schemas import base
from evallint.schemas.base import LintSchema
from evallint.schemas.context import building, models

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def _lint_all(marshmallow_load: bool, monkeypatch) -> list:
    monkeypatch.setattr(base, "MARSHMALLOW_LOAD", marshmallow_load)
    config = Config(select=tuple(RULES), references=True, root=str(ROOT))
    out = []
    for path, explicit in expand_paths([str(FIXTURES)], config):
        result = lint_file(path, config, explicit=explicit)
        out.append((path, result.kind, repr(result.model), [repr(d) for d in result.diagnostics]))
    return out


def test_the_schema_driver_matches_marshmallow_on_every_fixture(monkeypatch):
    driven = _lint_all(False, monkeypatch)
    general = _lint_all(True, monkeypatch)
    assert len(driven) > 300
    assert sum(1 for _, kind, model, _ in driven if kind == "eval" and model != "None") > 100
    assert driven == general


def test_without_the_model_every_fixture_reports_exactly_the_same(monkeypatch):
    config = Config(select=tuple(RULES), references=True, root=str(ROOT))
    built = models = 0
    for path, explicit in expand_paths([str(FIXTURES)], config):
        full = lint_file(path, config, explicit=explicit)
        bare = lint_file(path, config, explicit=explicit, model=False)
        assert (bare.kind, bare.diagnostics, bare.text) == (full.kind, full.diagnostics, full.text), path
        assert bare.model is None
        built += full.model is not None
        models += 1
    assert built > 100 and models > 300


def test_a_load_without_the_model_runs_the_checks_and_builds_nothing():
    seen = []

    class Seen(_Inner):
        @pre_load
        def note(self, data, **kwargs):
            seen.append(dict(data))
            return data

    class Outer(LintSchema):
        n = fields.Integer()
        items = fields.Nested(Seen, many=True)

    with models(False):
        loaded = Outer().load({"n": 1, "items": [{"m": 2}, {"m": 3}]})
        assert building() is False
    assert loaded is None  # nothing kept: no field values, no post_load
    assert seen == [{"m": 2}, {"m": 3}]  # the nested schema's checks ran on every item
    assert building() is True
    assert _Probe().load({"n": 1})[0] == "built"


def test_a_load_that_goes_through_marshmallow_builds_its_nested_models_even_without_the_model(monkeypatch):
    monkeypatch.setattr(base, "MARSHMALLOW_LOAD", True)
    with models(False):
        loaded = _Probe().load({"n": 1, "items": [{"m": 2}]})
        assert building() is False  # restored after marshmallow's load
    assert loaded == ("built", {"n": 1, "w": 1.0, "items": [{"m": 2}]}, ["items", "n"])


def test_the_command_builds_no_model(monkeypatch):
    import evallint.lint as lint_module
    from evallint import runner

    real_lint = lint_module.lint_file
    seen = []

    def spy(path, config, *, explicit=True, model=True):
        result = real_lint(path, config, explicit=explicit, model=model)
        seen.append((model, result.model))
        return result

    monkeypatch.setattr(lint_module, "lint_file", spy)
    files = [(str(p), True) for p in _yaml_fixtures()[:20]]
    results = list(runner.lint_many(files, Config(), jobs=1, cache_dir=None, use_cache=False))
    assert [r.path for r in results] == [path for path, _ in files]
    assert len(seen) == 20 and all(model is False and built is None for model, built in seen)


class _Inner(LintSchema):
    m = fields.Integer()

    @pre_load
    def check(self, data, **kwargs):
        return data


class _Positive(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, int) or value <= 0:
            raise ValidationError("not a positive integer")
        return value * 10


class _Probe(LintSchema):
    n = fields.Integer()
    s = fields.String(allow_none=True)
    w = fields.Float(load_default=1.0)
    key = fields.String(data_key="other")
    items = fields.Nested(_Inner, many=True)
    raws = fields.List(fields.Raw())
    names = fields.List(fields.String())
    counts = fields.List(_Positive())
    floats = fields.List(fields.Float())
    bounded = fields.List(fields.Integer(validate=validate.Range(min=0)))

    @pre_load
    def check(self, data, **kwargs):
        return data

    @post_load(pass_original=True)
    def build(self, data, original, **kwargs):
        return ("built", data, sorted(original))


def _both(schema, data, **kwargs):
    outcomes = []
    for general in (False, True):
        base.MARSHMALLOW_LOAD = general
        try:
            outcomes.append(("ok", schema.load(data, **kwargs)))
        except ValidationError as exc:
            outcomes.append(("error", exc.messages, exc.valid_data))
        finally:
            base.MARSHMALLOW_LOAD = False
    return outcomes


@pytest.mark.parametrize("data,kwargs", [
    ({"n": 1, "s": None, "other": "k", "items": [{"m": 2}]}, {}),
    ({}, {}),
    ({"n": "x", "s": 5, "items": [{"m": "y"}, 3, {"m": 1}]}, {}),
    ({"items": "not a list"}, {}),
    ([{"n": 1}, {"n": "bad"}, "not a mapping"], {"many": True}),
    ([{"n": 1}, {"w": 2}], {"many": True}),
    ({"n": 1}, {"many": True}),
    ("scalar", {}),
    ({"raws": [1, "a", {"b": [2]}], "names": ["x", "y"], "counts": [1, 2], "floats": [1, 2.5], "bounded": [0]}, {}),
    ({"raws": [1, None], "names": ["x", None, 3], "counts": [None, 2], "floats": [None], "bounded": [-1, None]}, {}),
    ({"names": ["x", 3, {"a": 1}], "counts": [1, -1, "x", 4], "floats": ["q", 1]}, {}),
    ({"raws": "not a list", "names": {"a": 1}, "counts": 5, "floats": []}, {}),
    ({"raws": [], "names": [], "counts": [], "floats": ["1.5"]}, {}),
])
def test_the_driver_loads_and_fails_as_marshmallow_does(data, kwargs):
    driven, general = _both(_Probe(), data, **kwargs)
    assert driven == general
    with models(False):  # building nothing, the driver fails with the same messages or keeps nothing
        try:
            bare = ("ok", _Probe().load(data, **kwargs))
        except ValidationError as exc:
            bare = ("error", exc.messages)
    if general[0] == "error":
        assert bare == general[:2]
    else:
        assert bare == ("ok", [None] * len(data) if kwargs.get("many") else None)


def test_a_schema_using_what_the_driver_leaves_out_goes_through_marshmallow():
    class Required(LintSchema):
        n = fields.Integer(required=True)

    assert Required()._plan is None
    assert _Probe()._plan is not None
    kinds = {name: kind for name, _, _, kind in _Probe()._plan[1]}
    assert (kinds["raws"], kinds["names"], kinds["counts"], kinds["floats"], kinds["bounded"]) == (
        base._LIST_RAW, base._LIST_STR, base._LIST_PLAIN, base._LIST_PLAIN, base._PLAIN)  # a validator: marshmallow's
    with pytest.raises(ValidationError) as exc:
        Required().load({})
    assert exc.value.messages == {"n": ["Missing data for required field."]}


def _yaml_fixtures() -> list:
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def test_a_duplicate_key_in_a_dataset_line_is_reported_at_its_column():
    from evallint.jsonl import parse_jsonl

    text = '{"id": "a", "input": "x"}\n{"id": "b", "input": "y", "id": "c"}\n'
    parsed = parse_jsonl(text)
    assert len(parsed.locs) == 2 and [(f.code, f.span.line, f.span.column) for f in parsed.findings] == [("EV003", 1, 26)]


def test_suggestions_are_remembered_and_the_same_for_any_iterable_of_options():
    from evallint import suggest

    suggest._remembered.cache_clear()
    assert suggest.closest("in-order", ["any_order", "in_order"]) == "in_order"
    assert suggest.closest("in-order", (o for o in ("any_order", "in_order"))) == "in_order"
    assert suggest._remembered.cache_info().hits == 1  # the same word and options: answered once
    assert suggest.closest("In_Order", ["in_order"]) == "in_order"
    assert suggest.closest("zzzzzz", ["any_order"]) is None
    assert suggest.did_you_mean(5, ["a"]) == "" and suggest.did_you_mean("exat", ["exact"]) == " (did you mean 'exact'?)"


def test_positions_counted_in_place_are_the_line_table_s():
    from evallint.positions import LineMap

    text = "a: 1\n\nb:\n  - c\r\n  - d\u2028e\nlast"  # only '\n' breaks a line
    table = LineMap(text)
    table._asked = 16  # past the few counted in place: the table of line starts answers
    for offset in range(len(text) + 1):
        assert LineMap(text).position(offset) == table.position(offset), offset
    assert LineMap(text).position(len(text)) == (5, 4)
