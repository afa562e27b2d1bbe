"""The vocabulary the schemas declare the format in: fields and validators that
carry the rule code of what they reject.

A rejected value raises marshmallow's ``ValidationError`` holding a ``Problem``:
a message string that also knows its rule code and what it points at.
marshmallow's own ``Schema.load`` collects them into its nested error
dictionary, whose keys are the data path of each problem (``walk.findings_of``
turns them into findings). Message templates are formatted with the offending value:
``{found}`` ("found 'x'", with the type for numbers), ``{value}`` (the value
alone), ``{shown}`` (the value for "invalid X" messages), ``{hint}`` (a "did you
mean") and ``{choices}`` (the accepted values)."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from marshmallow import Schema, ValidationError, fields, validate

from evallint.diagnostics import VALUE
from evallint.format.base import load, present_keys
from evallint.load.environment import is_whole_reference
from evallint.load import yaml11
from evallint.rules.common import is_finite_number, is_number, is_text
from evallint.suggest import did_you_mean, found, one_of, quote, shown, type_name, yaml_boolean

ABSENT = "absent"  # the key a problem is filed under is missing: it points at its mapping's first key


class Problem(str):
    """A validation message with its rule code and target: ``VALUE``, ``KEY``, ``FIRST_KEY`` (of the mapping
    the problem is filed under) or ``ABSENT``."""

    code: str
    target: str
    fix: Optional[tuple]

    def __new__(cls, code: str, text: str, target: str = VALUE, fix: Optional[tuple] = None) -> "Problem":
        problem = super().__new__(cls, text)
        problem.code, problem.target, problem.fix = code, target, fix
        return problem

    def __getnewargs__(self) -> tuple:
        return self.code, str(self), self.target, self.fix

    def format(self, *args: Any, **kwargs: Any) -> "Problem":
        """marshmallow formats a field's ``error_messages`` before raising them; a problem's text is final."""
        return self


def describe(template: str, value: Any, choices: tuple = (), **extra: Any) -> str:
    return template.format(found=found(value), value=quote(value), shown=shown(value),
                           hint=did_you_mean(value, choices), choices=one_of(choices),
                           found_list="found an empty list" if value == [] else found(value), **extra)


def invalid(code: str, template: str, value: Any, choices: tuple = ()) -> ValidationError:
    return ValidationError(Problem(code, describe(template, value, choices)))


def missing(code: str, text: str) -> dict:
    """``error_messages`` of a required field: its absence is reported at the mapping's first key."""
    return {"required": Problem(code, text, ABSENT)}


def problem_at(code: str, text: str, field: str = "_schema", target: str = "value") -> ValidationError:
    """A problem filed under ``field`` of the mapping being loaded (``_schema``: the mapping itself)."""
    return ValidationError(Problem(code, text, target), field_name=field)


def held(field) -> tuple:
    """The schemas of the mappings that ``field``'s value holds one level down: a nested mapping, the items
    of a list, the kinds chosen by 'type' (a field that chooses declares them as ``holds``)."""
    if hasattr(field, "holds"):
        return field.holds()
    if isinstance(field, (fields.Nested, MappingOr)) and isinstance(field.schema, Schema):
        return (field.schema,)
    if isinstance(field, fields.List):
        return held(field.inner)
    return ()


class OneOf(validate.Validator):
    """The value is one of ``choices``; else ``template`` under ``code``, but for a text that is the runner's
    ``default`` in another case: the runner does not read it and uses its default, which is what it says (EV130)."""

    def __init__(self, choices: tuple, code: str, template: str, default: Optional[str] = None):
        self.choices, self.code, self.template, self.default = tuple(choices), code, template, default

    def __call__(self, value: Any) -> Any:
        if is_whole_reference(value):  # the run's environment decides which word it is
            return value
        if isinstance(value, (dict, list)) or value not in self.choices:
            if isinstance(value, str) and self.default is not None and value.lower() == self.default:
                raise ValidationError(Problem("EV130", f"{quote(value)} is not read: the runner takes the value only as "
                                              f"written, so it uses its default, {quote(self.default)}, which is what "
                                              f"{quote(value)} says; write {quote(self.default)}"))
            raise invalid(self.code, self.template, value, self.choices)
        return value


def choice(choices: tuple, code: str, template: str, absent: str = "", default: Optional[str] = None,
           **kwargs: Any) -> fields.Raw:
    """A value from ``choices``; else ``template`` under ``code``. With ``absent``, the key is required and ``absent``
    says so; ``default``: what the runner uses when it does not read the value (``OneOf``; the JSON Schema's too)."""
    kwargs["metadata"] = {**kwargs.get("metadata", {}), **({"default": default} if default is not None else {})}
    messages = {"null": Problem(code, describe(template, None, choices)), **(missing(code, absent) if absent else {})}
    return fields.Raw(validate=OneOf(choices, code, template, default), required=bool(absent), error_messages=messages, **kwargs)


def _coded(field: fields.Field, code: str, template: str, null: Optional[str] = None) -> None:
    """``field`` rejects with ``template`` under ``code``, null too (marshmallow rejects null before the field
    sees it), with the ``null`` message when given."""
    field.code, field.template = code, template
    field.error_messages = {**field.error_messages, "null": Problem(code, null or describe(template, None))}


class Checked(fields.Field):
    """A field that rejects what ``check`` refuses with ``template`` under ``code``; ``checks`` are what
    needs more than its value alone (``walk.py``). A ``scalar`` field (a number, a boolean) takes a whole
    environment reference as written: what the run's environment gives it decides (``environment.py``)."""

    scalar = False

    def __init__(self, code: str, template: str, *, checks: tuple = (), **kwargs: Any):
        super().__init__(**kwargs)
        _coded(self, code, template)
        self.checks = checks

    def deserialize(self, value: Any, attr: Optional[str] = None, data: Any = None, **kwargs: Any) -> Any:
        if self.scalar and is_whole_reference(value):
            return value
        return super().deserialize(value, attr, data, **kwargs)

    def _deserialize(self, value: Any, attr: Optional[str], data: Any, **kwargs: Any) -> Any:
        return self.check(value)

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def reject(self, value: Any) -> ValidationError:
        return invalid(self.code, self.template, value)


class Text(Checked):
    """A string (``non_empty``: with more than white space, or with ``blank`` anything but '', all a loader drops)."""

    def __init__(self, code: str, template: str, *, non_empty: bool = False, blank: bool = False, **kwargs: Any):
        super().__init__(code, template, **kwargs)
        self.non_empty, self.blank = non_empty, blank

    def check(self, value: Any) -> str:
        filled = value != "" if self.blank else is_text(value)
        if not (isinstance(value, str) and (filled or not self.non_empty)):
            raise self.reject(value)
        return value

    def json_schema(self) -> dict:
        return {"type": "string", "minLength": 1} if self.non_empty else {"type": "string"}


class Setting(Checked):
    """A value the runner takes when ``accepts(value)`` holds; else ``template`` under ``code``, its ``{hint}`` the
    "did you mean" among what ``suggest`` gives of the value. Only a config file's data holds environment references
    (``environment.py``), and its settings are scalars."""

    scalar = True

    def __init__(self, accepts: Callable[[Any], bool], code: str, template: str,
                 suggest: Callable[[Any], tuple] = lambda value: (), **kwargs: Any):
        super().__init__(code, template, **kwargs)
        self.accepts, self.suggest = accepts, suggest

    def check(self, value: Any) -> Any:
        if not self.accepts(value):
            raise self.reject(value)
        return value

    def reject(self, value: Any) -> ValidationError:
        return invalid(self.code, self.template, value, self.suggest(value))


class Flag(Checked):
    """``true`` or ``false``. ``otherwise``: what the runner uses in place of a value that is no boolean (a
    boolean, or a function of the mapping the flag is in that gives it), when it uses something in its place
    rather than rejecting the file or taking it from elsewhere. YAML 1.1's words for a boolean (``yes``,
    ``off``) are such values: where what the runner uses is what the word says, the setting runs as written
    (EV120, a warning); elsewhere the message says what the runner uses. So are a text ``'true'`` or ``'false'``
    and a number 0 or 1, which say a boolean too: where the runner uses what they say, EV120."""

    scalar = True

    def __init__(self, code: str, template: str, *, otherwise: Any = None, **kwargs: Any):
        super().__init__(code, template, **kwargs)
        self.otherwise = otherwise

    def _deserialize(self, value: Any, attr: Optional[str], data: Any, **kwargs: Any) -> Any:
        return self.judge(value, self._used(data))

    def judge(self, value: Any, used: Optional[bool], source: str = "its default") -> bool:
        """``value`` when it is a boolean; else the ValidationError that says what the runner does with it, given
        ``used``, what it uses in its place (None: it uses none, or none known), and where that comes from
        (``source``, for the message)."""
        said = yaml11.boolean(value) if isinstance(value, str) else None
        if said is None:
            try:
                return self.check(value)
            except ValidationError:
                said = _said(value)  # a value the check rejects may still say a boolean
                if said is not None and used == said:
                    raise self._runs_as_said(value, said, source, "the text" if isinstance(value, str) else "the number")
                raise
        if used == said:
            raise self._runs_as_said(value, used, source)
        if used is None:
            read = f"the runner reads YAML 1.2, where {quote(value)} is text, not a boolean; write true or false"
        else:
            read = (f"a string in YAML 1.2, which the runner reads as text: it uses {source}, {yaml_boolean(used)}, "
                    f"not the {yaml_boolean(said)} that {quote(value)} says; write {yaml_boolean(said)}")
        raise ValidationError(Problem(self.code, f"{describe(self.template, value)} ({read})"))

    def _used(self, data: Any) -> Any:
        """What the runner uses in place of a value that is no boolean, in the mapping ``data``."""
        return self.otherwise(data) if callable(self.otherwise) else self.otherwise

    def _runs_as_said(self, value: Any, used: bool, source: str, kind: Optional[str] = None) -> ValidationError:
        """EV120: the runner uses ``used`` (``source``: its default, or where it comes from), which is what ``value``
        says; ``kind``: 'the text' or 'the number' (None: a YAML 1.1 word, which the fix rewrites)."""
        key, shown_used = self.data_key or self.name, yaml_boolean(used)
        if kind is None:
            why = (f"'{key}' is {quote(value)}, which the runner reads as text, not as a boolean (YAML 1.2 reads only "
                   f"true and false), so it uses {source}, {shown_used}, which is what {quote(value)} says")
        else:
            why = (f"'{key}' is {kind} {quote(value)}, not a boolean, so the runner uses {source}, {shown_used}, "
                   "which is what it says")
        return ValidationError(Problem("EV120", f"{why}; write {shown_used}", fix=("boolean", used) if kind is None
                                       else None))

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.reject(value)
        return value

    def json_schema(self) -> dict:
        return {"type": "boolean"}


class MergedFlag(Flag):
    """A flag the runner reads as absent when it is no boolean, and then takes from elsewhere in the file (a test's
    hooks 'enabled', from the suite's): the field lets such a value through, and a check of the mapping that knows
    what is used in its place judges it (``Flag.judge``)."""

    def _deserialize(self, value: Any, attr: Optional[str], data: Any, **kwargs: Any) -> Any:
        return value


def _said(value: Any) -> Optional[bool]:
    """The boolean a text 'true' or 'false' (in any case, white space around it) or a number 0 or 1 says; else
    None."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value in (0, 1):
        return value == 1
    return None


class Number(Checked):
    """A finite number (``finite`` false: any), as a float; with ``minimum``, no smaller (``exclusive``: and not that
    one; ``below``: the code and template of a smaller number, when it is a rule of its own)."""

    scalar = True

    def __init__(self, code: str, template: str, *, minimum: Optional[float] = None, exclusive: bool = False,
                 below: Optional[tuple] = None, finite: bool = True, **kwargs: Any):
        super().__init__(code, template, **kwargs)
        self.minimum, self.exclusive, self.below, self.finite = minimum, exclusive, below, finite

    def check(self, value: Any) -> float:
        if not (is_finite_number(value) if self.finite else is_number(value)):
            raise self.reject(value)
        if self.minimum is not None and (value < self.minimum or self.exclusive and value == self.minimum):
            raise invalid(*self.below, value) if self.below else self.reject(value)
        return float(value)

    def json_schema(self) -> dict:
        bound = {} if self.minimum is None else {"exclusiveMinimum" if self.exclusive else "minimum": self.minimum}
        return {"type": "number", **bound}


class NumberMap(Checked):
    """A mapping of names to finite numbers >= 0; ``item`` (formatted with ``{name}`` too) for each value
    that is not such a number."""

    def __init__(self, code: str, template: str, item: str, **kwargs: Any):
        super().__init__(code, template, **kwargs)
        self.item = item

    def check(self, value: Any) -> dict:
        if not isinstance(value, dict):
            raise self.reject(value)
        errors = {name: [Problem(self.code, describe(self.item, count, name=name))] for name, count in value.items()
                  if not (is_finite_number(count) and count >= 0 or is_whole_reference(count))}
        if errors:
            raise ValidationError(errors)
        return {name: count if is_whole_reference(count) else float(count) for name, count in value.items()}


class Mapping(Checked):
    """A mapping of anything."""

    def check(self, value: Any) -> dict:
        if not isinstance(value, dict):
            raise self.reject(value)
        return value

    def json_schema(self) -> dict:
        return {"type": "object"}


class MappingOr(Checked):
    """A mapping loaded by ``schema``, or a value that ``accepts`` keeps as written (a path, a name);
    ``accepted_shape``: the JSON Schema of such a value (None: the field's JSON Schema is open)."""

    accepted_shape: Optional[dict] = None

    def __init__(self, schema: Schema, code: str, template: str, *, accepts: Any = None, **kwargs: Any):
        super().__init__(code, template, **kwargs)
        self.schema, self.accepts = schema, accepts

    def check(self, value: Any) -> Any:
        if self.accepts is not None and self.accepts(value):
            return value
        if not isinstance(value, dict):
            raise self.reject(value)
        return load(self.schema, value)

    def parts(self, value: Any, at: tuple) -> Iterator:
        if isinstance(value, dict):
            yield self.schema, value, at


class Items(fields.List):
    """A list (``non_empty``: with at least one item, else ``empty``) of ``inner``."""

    def __init__(self, inner: fields.Field, code: str, template: str, *, non_empty: bool = False,
                 empty: str = "", checks: tuple = (), **kwargs: Any):
        super().__init__(inner, **kwargs)
        _coded(self, code, template)
        self.non_empty, self.empty, self.checks = non_empty, empty or template, checks

    def parts(self, value: Any, at: tuple) -> Iterator:
        for i, item in enumerate(value if isinstance(value, list) else ()):
            yield self.inner, item, at + (i,)

    def _deserialize(self, value: Any, attr: Optional[str], data: Any, **kwargs: Any) -> list:
        if not isinstance(value, list):
            raise invalid(self.code, self.template, value)
        if self.non_empty and not value:
            raise invalid(self.code, self.empty, value)
        return super()._deserialize(value, attr, data, **kwargs)


class Record(fields.Nested):
    """A mapping loaded by the ``nested`` schema; ``null``: the message for a null, when the runner does more."""

    def __init__(self, nested: Any, code: str, template: str, null: Optional[str] = None, **kwargs: Any):
        super().__init__(nested, **kwargs)
        _coded(self, code, template, null)

    def _deserialize(self, value: Any, attr: Optional[str], data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise invalid(self.code, self.template, value)
        return super()._deserialize(value, attr, data, **{**kwargs, "partial": present_keys(self.schema, value)})

    def parts(self, value: Any, at: tuple) -> Iterator:
        yield self.schema, value, at


class CaseId(Checked):
    """A case id: a non-empty string. Every AgentV release keeps a case whose id is only white space (it tests
    the id's truth, not its text), so only the empty string is refused."""

    def __init__(self, **kwargs):
        super().__init__("EV103", "case 'id' must be a string, {found}; quote it", **kwargs)
        self.error_messages = {**self.error_messages, "null": Problem(
            "EV103", "case 'id' has no value; every case needs a unique string id")}

    def check(self, value):
        if isinstance(value, (int, float)):
            # the runner reads the value, not its text (017 is 17), and skips a case whose id is no string;
            # report/fixes.py fills in the text as written and what the fix writes (quote_message)
            read = f"the {type_name(value).split()[-1]} {quote(value)}"  # 'the number 17', 'the boolean true'
            raise ValidationError(Problem("EV103", f"case 'id' must be a string: the runner reads {{written}} as "
                                                   f"{read} and skips the case; {{remedy}}", fix=("quote",)))
        if not isinstance(value, str):
            raise ValidationError(Problem("EV103", describe(self.template, value)))
        if not value:
            raise ValidationError(Problem("EV103", "case 'id' is an empty string; every case needs a unique string id"))
        return value

    def json_schema(self) -> dict:
        return {"type": "string", "minLength": 1}
