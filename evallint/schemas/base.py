"""The base schema: unknown keys are left to the rules (EV109), never raised.

``LintSchema.load`` drives the schema's own declared fields and its
``pre_load``/``post_load`` hooks in the order marshmallow does, without the
general machinery the lint schemas never use (``partial``, ``@validates``,
``@validates_schema``, required fields, collection-level hooks). That
machinery is most of a load's cost, and a suite makes dozens of loads. A
schema that uses any of it, or a call that asks for it, goes through
marshmallow's own ``Schema.load``; ``tests/test_fast_paths.py`` checks that
both give the same models, findings and errors on every fixture."""
from __future__ import annotations

from collections.abc import Mapping

from marshmallow import EXCLUDE, Schema, ValidationError
from marshmallow import fields as ma_fields
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA
from marshmallow.error_store import ErrorStore
from marshmallow.exceptions import SCHEMA
from marshmallow.utils import missing

from .. import on_first_use
from .context import building, models

# evallint.model, imported when a load first builds the model: the command never does, and never imports it
model_module = on_first_use("model")


MARSHMALLOW_LOAD = False  # True: every load goes through marshmallow's Schema.load (tests compare the two)


# How the driver deserializes a present, non-null value of a field:
_FULL = 0  # field.deserialize, as marshmallow does
_PLAIN = 1  # no validators and no field-level hooks: its deserialize is its _deserialize
_STR = 2  # a plain String: a str is itself
_RAW = 3  # a plain Raw: the value itself
_NESTED = 4  # a plain Nested given a list (or a single object): the nested schema's load
# a plain List given a list, its inner field a plain Raw, String or other plain field: each item as that
# kind says, without marshmallow's per-item deserialize (``_list_items``)
_LIST_RAW, _LIST_STR, _LIST_PLAIN = 5, 6, 7
_LIST_OF = {_RAW: _LIST_RAW, _STR: _LIST_STR, _PLAIN: _LIST_PLAIN}


def _kind(field) -> int:
    if field.validators or getattr(field, "pre_load", ()) or getattr(field, "post_load", ()):
        return _FULL
    cls = field.__class__
    if cls is ma_fields.String:
        return _STR
    if cls is ma_fields.Raw:
        return _RAW
    if cls is ma_fields.Nested:
        return _NESTED
    if cls is ma_fields.List:
        return _LIST_OF.get(_kind(field.inner), _PLAIN)
    return _PLAIN


def _list_items(field, kind: int, items: list, key, data) -> list:
    """``List._deserialize`` of a list (``field`` a plain List, ``kind`` its ``_LIST_*``): the same
    values and errors."""
    if None in items:  # marshmallow's own "may not be null" for those items
        return field._deserialize(items, key, data)
    if kind == _LIST_RAW or (kind == _LIST_STR and all(item.__class__ is str for item in items)):
        return list(items)
    inner = field.inner
    result, errors = [], {}
    for index, item in enumerate(items):
        try:
            result.append(inner._deserialize(item, None, None))
        except ValidationError as error:
            if error.valid_data is not None:
                result.append(error.valid_data)
            errors[index] = error.messages
    if errors:
        raise ValidationError(errors, valid_data=result)
    return result


class LintSchema(Schema):
    """Schemas run rule checks in ``pre_load`` and hand marshmallow only the
    values those checks accepted, so loading itself never fails on user input;
    what is wrong has been reported with its position."""

    class Meta:
        unknown = EXCLUDE

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._plan = self._driver_plan()

    def _driver_plan(self):
        """(pre hooks, fields, post hooks) when this schema can be driven directly, else None."""
        hooks = self._hooks
        if hooks[VALIDATES] or hooks[VALIDATES_SCHEMA] or self.partial or self.unknown != EXCLUDE:
            return None
        if any(many for _, many, _ in hooks[PRE_LOAD] + hooks[POST_LOAD]):
            return None
        if any(f.required for f in self.load_fields.values()):
            return None
        fields = tuple((f.data_key if f.data_key is not None else name, f.attribute or name, f, _kind(f))
                       for name, f in self.load_fields.items())
        pre = tuple(getattr(self, name) for name, _, _ in hooks[PRE_LOAD])
        post = tuple((getattr(self, name), kw.get("pass_original", False)) for name, _, kw in hooks[POST_LOAD])
        checks = tuple((key, field, kind) for key, _, field, kind in fields)
        return pre, fields, post, checks

    def load(self, data, *, many=None, partial=None, unknown=None):
        plan = self._plan
        if plan is None or MARSHMALLOW_LOAD or partial or unknown not in (None, EXCLUDE):
            with models(True):  # marshmallow's post_load hooks expect their nested models built
                return super().load(data, many=many, partial=partial, unknown=unknown)
        many = self.many if many is None else bool(many)
        pre, fields, post, checks = plan
        build = building()
        errors: list = []  # store_error arguments: an ErrorStore is made only when there is an error
        if many:
            if not isinstance(data, list):
                with models(True):
                    return super().load(data, many=True)  # marshmallow's own "invalid type" error
            originals = data
            for hook in pre:
                data = [hook(item, many=True, partial=None, unknown=EXCLUDE) for item in data]
            index = self.opts.index_errors
            if not build:
                result = [self._check_fields(item, checks, errors, i if index else None) for i, item in enumerate(data)]
            else:
                result = [self._fields_of(item, fields, errors, i if index else None) for i, item in enumerate(data)]
            if not errors and post and build:
                for hook, original in post:
                    if original:
                        result = [hook(item, raw, many=True, partial=None, unknown=EXCLUDE)
                                  for item, raw in zip(result, originals, strict=True)]
                    else:
                        result = [hook(item, many=True, partial=None, unknown=EXCLUDE) for item in result]
        else:
            original = data
            for hook in pre:
                data = hook(data, many=False, partial=None, unknown=EXCLUDE)
            if not build:
                result = self._check_fields(data, checks, errors, None)
            else:
                result = self._fields_of(data, fields, errors, None)
            if not errors and post and build:
                for hook, pass_original in post:
                    result = (hook(result, original, many=False, partial=None, unknown=EXCLUDE) if pass_original
                              else hook(result, many=False, partial=None, unknown=EXCLUDE))
        if errors:
            store = ErrorStore()
            for messages, key, index in errors:
                store.store_error(messages, key, index=index)
            raise ValidationError(store.errors, data=originals if many else original, valid_data=result)
        return result

    def _fields_of(self, data, fields, errors: list, index):
        out = {}
        if data.__class__ is not dict and not isinstance(data, Mapping):
            errors.append(([self.error_messages["type"]], SCHEMA, index))
            return out
        get = data.get
        for key, attribute, field, kind in fields:
            raw = get(key, missing)
            if raw is missing:
                default = field.load_default
                if default is missing:
                    continue
                out[attribute] = default() if callable(default) else default
                continue
            try:
                if raw is None or kind == _FULL:
                    out[attribute] = field.deserialize(raw, key, data)
                elif kind == _STR and raw.__class__ is str or kind == _RAW:
                    out[attribute] = raw
                elif kind == _NESTED and (raw.__class__ is list or not (field.many or field.schema.many)):
                    out[attribute] = field.schema.load(raw, unknown=field.unknown)
                elif kind >= _LIST_RAW and raw.__class__ is list:
                    out[attribute] = _list_items(field, kind, raw, key, data)
                else:
                    out[attribute] = field._deserialize(raw, key, data)
            except ValidationError as error:
                errors.append((error.messages, key, index))
                if error.valid_data:
                    out[attribute] = error.valid_data
        return out

    def _check_fields(self, data, checks, errors: list, index) -> None:
        """``_fields_of`` when no model is built (``models(False)``): every field that could report or
        run a nested schema's checks does, and nothing is kept. A present string of a plain String and
        a present, non-null value of a plain Raw pass as they are: they are skipped."""
        if data.__class__ is not dict and not isinstance(data, Mapping):
            errors.append(([self.error_messages["type"]], SCHEMA, index))
            return None
        get = data.get
        for key, field, kind in checks:
            raw = get(key, missing)
            if raw is missing:
                continue
            try:
                if raw is None or kind == _FULL:
                    field.deserialize(raw, key, data)
                elif kind == _STR and raw.__class__ is str or kind == _RAW:
                    continue
                elif kind == _NESTED and (raw.__class__ is list or not (field.many or field.schema.many)):
                    field.schema.load(raw, unknown=field.unknown)
                elif kind >= _LIST_RAW and raw.__class__ is list:
                    _list_items(field, kind, raw, key, data)
                else:
                    field._deserialize(raw, key, data)
            except ValidationError as error:
                errors.append((error.messages, key, index))
        return None
