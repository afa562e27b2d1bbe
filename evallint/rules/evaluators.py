"""EV3xx: evaluator entries of every kind."""
from __future__ import annotations

import re
import shlex
from typing import Any, Optional

from ..diagnostics import FIRST_KEY, KEY
from ..kinds import EVALUATOR_KINDS
from ..schemas.context import annotate, reference, report
from ..suggest import did_you_mean, found, one_of, quote, shown
from .common import check_string, check_unknown_keys, is_finite_number, is_text

COMMON_KEYS = ("type", "name", "weight")
KIND_KEYS = {
    "llm_judge": ("prompt", "rubrics", "model"),
    "rubric": ("rubrics", "model"),
    "tool_trajectory": ("mode", "minimums", "expected"),
    "composite": ("evaluators", "aggregator"),
    "field_accuracy": ("fields", "aggregation"),
    "latency": ("threshold",),
    "cost": ("budget",),
    "token_usage": ("max_total", "max_input", "max_output"),
}
TRAJECTORY_MODES = ("any_order", "in_order", "exact")
EXPECTED_TOOL_KEYS = ("tool", "args", "input", "output")
AGGREGATOR_TYPES = ("weighted_average", "code_judge", "llm_judge")
AGGREGATOR_KEYS = ("type", "weights", "path", "prompt", "model")
FIELD_MATCHES = ("exact", "numeric_tolerance", "date")
FIELD_KEYS = ("path", "match", "required", "weight", "tolerance", "relative", "formats")
AGGREGATIONS = ("weighted_average", "all_or_nothing")
RUBRIC_ITEM_KEYS = ("id", "description", "expected_outcome", "weight", "required")
_SHELL_SYNTAX = re.compile(r"[|&;<>()$`\\\"'*?\[\]#~=%{}!\n]")


def check_evaluator_list(value: Any, at: tuple, key: str = "evaluators") -> Optional[list]:
    """EV306 / EV303 for a list of evaluators; the annotated mapping items, or None."""
    if not isinstance(value, list):
        report("EV306", f"'{key}' must be a list of evaluators, {found(value)}", at)
        return None
    items = []
    names: dict = {}
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            report("EV306", f"an evaluator must be a mapping with 'type' and 'name', {found(item)}", at + (i,))
            continue
        name = item.get("name")
        if isinstance(name, str) and name:
            if name in names:
                report("EV303", f"duplicate evaluator name '{name}' (first used on line {{ref_line}}); "
                       "results are keyed by name, so one hides the other", at + (i, "name"), ref=names[name])
            else:
                names[name] = at + (i, "name")
        items.append(annotate(item, at + (i,)))
    return items


def check_evaluator(ev: dict, at: tuple) -> tuple[Optional[str], dict]:
    """Checks common to every evaluator, then the kind's own; returns (kind, clean fields)."""
    clean: dict = {}
    kind = ev.get("type")
    if "type" not in ev:
        report("EV301", f"evaluator has no 'type' (expected one of {one_of(EVALUATOR_KINDS)})", at, FIRST_KEY)
        kind = None
    elif kind not in EVALUATOR_KINDS:
        report("EV301", f"unknown evaluator type {shown(kind)}{did_you_mean(kind, EVALUATOR_KINDS)}; "
               f"expected one of {one_of(EVALUATOR_KINDS)}", at + ("type",))
        kind = None
    else:
        clean["type"] = kind

    if "name" not in ev:
        default = f" it defaults to '{kind}', but" if kind else ""
        report("EV302", f"evaluator has no 'name';{default} the reference runner drops unnamed evaluators", at, FIRST_KEY)
    elif not is_text(ev["name"]):
        report("EV110", f"evaluator 'name' must be a non-empty string, {found(ev['name'])}", at + ("name",))
    else:
        clean["name"] = ev["name"]

    if "weight" in ev:
        weight = ev["weight"]
        if not is_finite_number(weight):
            report("EV304", f"evaluator 'weight' must be a finite number >= 0, {found(weight)}", at + ("weight",))
        elif weight < 0:
            report("EV305", f"evaluator 'weight' must be >= 0, found {quote(weight)}", at + ("weight",))
        else:
            clean["weight"] = float(weight)

    if kind is None:
        return None, clean
    if kind != "code_judge":  # a code_judge's extra keys are configuration for its script
        check_unknown_keys(ev, COMMON_KEYS + KIND_KEYS[kind], at, f"{kind} evaluator")
    CHECKS[kind](ev, at, clean)
    return kind, clean


def _check_llm_judge(ev: dict, at: tuple, clean: dict) -> None:
    for key in ("prompt", "model"):
        if check_string(ev, key, at, "llm_judge evaluator"):
            clean[key] = ev[key]
    if "prompt" in clean:
        reference("prompt", clean["prompt"], at + ("prompt",))
    if "rubrics" in ev:
        items = check_rubric_items(ev["rubrics"], at + ("rubrics",), required=False)
        if items is not None:
            clean["rubrics"] = items


def _check_rubric(ev: dict, at: tuple, clean: dict) -> None:
    if check_string(ev, "model", at, "rubric evaluator"):
        clean["model"] = ev["model"]
    if "rubrics" not in ev:
        report("EV360", "rubric evaluator has no 'rubrics' list", at, FIRST_KEY)
        return
    items = check_rubric_items(ev["rubrics"], at + ("rubrics",), required=True)
    if items:
        clean["rubrics"] = items


def check_rubric_items(value: Any, at: tuple, required: bool) -> Optional[list]:
    """EV360 / EV361 / EV362; the usable rubric items (strings or mappings)."""
    if not isinstance(value, list):
        report("EV360", f"'rubrics' must be a list of rubric items, {found(value)}", at)
        return None
    if not value and required:
        report("EV360", "'rubrics' is an empty list; a rubric evaluator needs at least one item", at)
        return None
    items = []
    ids: dict = {}
    for i, item in enumerate(value):
        where = at + (i,)
        if isinstance(item, str):
            if is_text(item):
                items.append(item)
            else:
                report("EV361", f"a rubric item must be a non-empty string or a mapping with 'description', {found(item)}",
                       where)
            continue
        if not isinstance(item, dict):
            report("EV361", f"a rubric item must be a non-empty string or a mapping with 'description', {found(item)}",
                   where)
            continue
        check_unknown_keys(item, RUBRIC_ITEM_KEYS, where, "rubric item")
        ok = True
        text = item.get("description", item.get("expected_outcome"))
        if "description" not in item and "expected_outcome" not in item:
            report("EV361", "rubric item has no 'description' (or 'expected_outcome')", where, FIRST_KEY)
            ok = False
        elif not is_text(text):
            key = "description" if "description" in item else "expected_outcome"
            report("EV361", f"rubric item '{key}' must be a non-empty string, {found(text)}", where + (key,))
            ok = False
        if "weight" in item and not (is_finite_number(item["weight"]) and item["weight"] >= 0):
            report("EV361", f"rubric item 'weight' must be a finite number >= 0, {found(item['weight'])}", where + ("weight",))
            ok = False
        if "required" in item and not isinstance(item["required"], bool):
            report("EV361", f"rubric item 'required' must be true or false, {found(item['required'])}",
                   where + ("required",))
            ok = False
        rid = item.get("id")
        if "id" in item and not isinstance(rid, str):
            report("EV110", f"rubric item 'id' must be a string, {found(rid)}", where + ("id",))
            ok = False
        elif isinstance(rid, str):
            if rid in ids:
                report("EV362", f"duplicate rubric id '{rid}' (first used on line {{ref_line}}); "
                       "scores of the two items are merged", where + ("id",), ref=ids[rid])
            else:
                ids[rid] = where + ("id",)
        if ok:
            items.append(item)
    return items


def _check_code_judge(ev: dict, at: tuple, clean: dict) -> None:
    if "script" not in ev:
        report("EV320", "code_judge evaluator has no 'script' (an argv list such as [\"python\", \"check.py\"])",
               at, FIRST_KEY)
    else:
        script = ev["script"]
        where = at + ("script",)
        if isinstance(script, str):
            if not is_text(script):
                report("EV321", "code_judge 'script' is an empty string; give the command as an argv list", where)
            else:
                clean["script"] = script
                fix = None
                if not _SHELL_SYNTAX.search(script):
                    fix = ("flow_list", shlex.split(script))
                report("EV322", f"code_judge 'script' {quote(script)} is one string, run through the platform shell "
                       "('sh -lc'); an argv list is portable and needs no quoting", where, fix=fix)
        elif isinstance(script, list):
            if not script:
                report("EV321", "code_judge 'script' is an empty list; give at least the program to run", where)
            else:
                ok = True
                for i, token in enumerate(script):
                    if not is_text(token):
                        report("EV321", f"code_judge 'script' tokens must be non-empty strings, {found(token)}",
                               where + (i,))
                        ok = False
                if ok:
                    clean["script"] = script
        else:
            report("EV321", f"code_judge 'script' must be an argv list of strings, {found(script)}", where)
    if check_string(ev, "cwd", at, "code_judge evaluator"):
        clean["cwd"] = ev["cwd"]
        reference("cwd", ev["cwd"], at + ("cwd",))
    if "script" in clean:
        reference("script", clean["script"], at + ("script",), cwd=clean.get("cwd"))
    if "target" in ev:
        target = ev["target"]
        if target is True:
            clean["target"] = True
        elif isinstance(target, dict):
            calls = target.get("max_calls")
            if "max_calls" in target and not (is_finite_number(calls) and calls >= 0):
                report("EV323", f"code_judge 'target.max_calls' must be a finite number >= 0, {found(calls)}",
                       at + ("target", "max_calls"))
            else:
                clean["target"] = target
        else:
            report("EV323", f"code_judge 'target' must be true or a mapping with 'max_calls', {found(target)}",
                   at + ("target",))
    clean["config"] = {k: v for k, v in ev.items() if isinstance(k, str) and k not in
                       ("type", "name", "weight", "script", "cwd", "target")}


def _check_tool_trajectory(ev: dict, at: tuple, clean: dict) -> None:
    mode = ev.get("mode")
    if "mode" not in ev:
        report("EV310", f"tool_trajectory evaluator has no 'mode' (expected one of {one_of(TRAJECTORY_MODES)})",
               at, FIRST_KEY)
        mode = None
    elif mode not in TRAJECTORY_MODES:
        report("EV310", f"invalid tool_trajectory mode {shown(mode)}{did_you_mean(mode, TRAJECTORY_MODES)}; "
               f"expected one of {one_of(TRAJECTORY_MODES)}", at + ("mode",))
        mode = None
    else:
        clean["mode"] = mode

    if "minimums" in ev:
        minimums = ev["minimums"]
        if not isinstance(minimums, dict):
            report("EV313", f"'minimums' must be a mapping of tool name to minimum call count, {found(minimums)}",
                   at + ("minimums",))
        else:
            ok = True
            for tool, count in minimums.items():
                if not (is_finite_number(count) and count >= 0):
                    report("EV313", f"minimum count for tool '{tool}' must be a finite number >= 0, {found(count)}",
                           at + ("minimums", tool))
                    ok = False
            if ok:
                clean["minimums"] = minimums
        if mode in ("in_order", "exact"):
            report("EV315", f"'minimums' is ignored by mode '{mode}'; it is read only by 'any_order'",
                   at + ("minimums",), KEY)
    elif mode == "any_order":
        report("EV311", "tool_trajectory mode 'any_order' needs 'minimums' (tool name -> minimum call count)",
               at, FIRST_KEY)

    if "expected" in ev:
        expected = _check_expected_tools(ev["expected"], at + ("expected",))
        if expected is not None:
            clean["expected"] = expected
        if mode == "any_order":
            report("EV315", "'expected' is ignored by mode 'any_order'; it is read only by 'in_order' and 'exact'",
                   at + ("expected",), KEY)
    elif mode in ("in_order", "exact"):
        report("EV312", f"tool_trajectory mode '{mode}' needs 'expected' (the list of tool calls)", at, FIRST_KEY)


def _check_expected_tools(value: Any, at: tuple) -> Optional[list]:
    if not isinstance(value, list):
        report("EV314", f"'expected' must be a list of {{tool, args}} entries, {found(value)}", at)
        return None
    items = []
    for i, item in enumerate(value):
        where = at + (i,)
        if not isinstance(item, dict):
            report("EV314", f"an expected tool must be a mapping with 'tool', {found(item)}", where)
            continue
        check_unknown_keys(item, EXPECTED_TOOL_KEYS, where, "expected tool")
        ok = True
        if "tool" not in item:
            report("EV314", "expected tool entry has no 'tool' (the tool name)", where, FIRST_KEY)
            ok = False
        elif not is_text(item["tool"]):
            report("EV314", f"expected tool 'tool' must be a non-empty string, {found(item['tool'])}", where + ("tool",))
            ok = False
        if "args" in item and not (item["args"] == "any" or isinstance(item["args"], dict)):
            report("EV314", f"expected tool 'args' must be 'any' or a mapping of arguments, {found(item['args'])}",
                   where + ("args",))
            ok = False
        if ok:
            items.append(item)
    return items


def _check_composite(ev: dict, at: tuple, clean: dict) -> None:
    members: list = []
    if "evaluators" not in ev:
        report("EV330", "composite evaluator has no 'evaluators' list of members", at, FIRST_KEY)
    elif not isinstance(ev["evaluators"], list) or not ev["evaluators"]:
        report("EV330", f"composite 'evaluators' must be a non-empty list of evaluators, {_found_list(ev['evaluators'])}",
               at + ("evaluators",))
    else:
        members = check_evaluator_list(ev["evaluators"], at + ("evaluators",)) or []
        clean["evaluators"] = members
    member_names = {m.get("name") for m in members if isinstance(m.get("name"), str)}
    member_names |= {m.get("type") for m in members if "name" not in m and isinstance(m.get("type"), str)}

    if "aggregator" not in ev:
        report("EV331", f"composite evaluator has no 'aggregator' (a mapping whose 'type' is one of "
               f"{one_of(AGGREGATOR_TYPES)})", at, FIRST_KEY)
        return
    agg = ev["aggregator"]
    where = at + ("aggregator",)
    if not isinstance(agg, dict):
        report("EV331", f"composite 'aggregator' must be a mapping with 'type', {found(agg)}", where)
        return
    check_unknown_keys(agg, AGGREGATOR_KEYS, where, "aggregator")
    kind = agg.get("type")
    if "type" not in agg:
        report("EV331", f"aggregator has no 'type' (expected one of {one_of(AGGREGATOR_TYPES)})", where, FIRST_KEY)
        return
    if kind not in AGGREGATOR_TYPES:
        report("EV331", f"unknown aggregator type {shown(kind)}{did_you_mean(kind, AGGREGATOR_TYPES)}; "
               f"expected one of {one_of(AGGREGATOR_TYPES)}", where + ("type",))
        return
    clean_agg: dict = {"type": kind}
    if kind == "code_judge" and not is_text(agg.get("path")):
        if "path" in agg:
            report("EV331", f"code_judge aggregator 'path' must be a non-empty string, {found(agg['path'])}",
                   where + ("path",))
        else:
            report("EV331", "code_judge aggregator has no 'path' (the script or command that aggregates)",
                   where, FIRST_KEY)
    for key in ("path", "prompt", "model"):
        if key in agg and check_string(agg, key, where, "aggregator"):
            clean_agg[key] = agg[key]
    if kind == "code_judge" and is_text(clean_agg.get("path")):
        reference("script", clean_agg["path"], where + ("path",), cwd=None)
    if kind == "llm_judge" and "prompt" in clean_agg:
        reference("prompt", clean_agg["prompt"], where + ("prompt",), aggregator=True)
    if "weights" in agg:
        weights = agg["weights"]
        if not isinstance(weights, dict):
            report("EV332", f"aggregator 'weights' must be a mapping of member name to weight, {found(weights)}",
                   where + ("weights",))
        else:
            good = {}
            for name, weight in weights.items():
                if members and name not in member_names:
                    known = sorted(n for n in member_names if isinstance(n, str))
                    report("EV332", f"weight for '{name}' names no member evaluator{did_you_mean(name, known)}; "
                           f"members: {one_of(known)}", where + ("weights", name), KEY)
                elif not (is_finite_number(weight) and weight >= 0):
                    report("EV332", f"weight for '{name}' must be a finite number >= 0, {found(weight)}",
                           where + ("weights", name))
                else:
                    good[name] = float(weight)
            clean_agg["weights"] = good
    clean["aggregator"] = clean_agg


def _found_list(value: Any) -> str:
    return "found an empty list" if isinstance(value, list) else found(value)


def _check_field_accuracy(ev: dict, at: tuple, clean: dict) -> None:
    if "aggregation" in ev and ev["aggregation"] not in AGGREGATIONS:
        value = ev["aggregation"]
        report("EV342", f"invalid aggregation {quote(value)}{did_you_mean(value, AGGREGATIONS)}; expected one of "
               f"{one_of(AGGREGATIONS)} (the runner silently drops anything else)", at + ("aggregation",))
    elif "aggregation" in ev:
        clean["aggregation"] = ev["aggregation"]
    if "fields" not in ev:
        report("EV340", "field_accuracy evaluator has no 'fields' list", at, FIRST_KEY)
        return
    value = ev["fields"]
    if not isinstance(value, list) or not value:
        report("EV340", f"field_accuracy 'fields' must be a non-empty list of fields, {_found_list(value)}",
               at + ("fields",))
        return
    items = []
    for i, item in enumerate(value):
        where = at + ("fields", i)
        if not isinstance(item, dict):
            report("EV340", f"a field must be a mapping with 'path' and 'match', {found(item)}", where)
            continue
        check_unknown_keys(item, FIELD_KEYS, where, "field")
        ok = True
        if "path" not in item:
            report("EV340", "field has no 'path' (for example 'invoice.total')", where, FIRST_KEY)
            ok = False
        elif not is_text(item["path"]):
            report("EV340", f"field 'path' must be a non-empty string, {found(item['path'])}", where + ("path",))
            ok = False
        match = item.get("match")
        if "match" not in item:
            report("EV341", f"field has no 'match' (expected one of {one_of(FIELD_MATCHES)})", where, FIRST_KEY)
            ok = False
        elif match not in FIELD_MATCHES:
            report("EV341", f"invalid field match {shown(match)}{did_you_mean(match, FIELD_MATCHES)}; "
                   f"expected one of {one_of(FIELD_MATCHES)}", where + ("match",))
            ok = False
        elif match == "numeric_tolerance":
            tol = item.get("tolerance")
            if "tolerance" not in item:
                report("EV343", "'match: numeric_tolerance' needs a numeric 'tolerance' >= 0; this field has none",
                       where, FIRST_KEY)
            elif not (is_finite_number(tol) and tol >= 0):
                report("EV343", f"'tolerance' must be a finite number >= 0 for 'match: numeric_tolerance', {found(tol)}",
                       where + ("tolerance",))
        if ok:
            items.append(item)
    clean["fields"] = items


def _number_field(ev: dict, at: tuple, clean: dict, key: str, code: str, kind: str, unit: str) -> None:
    if key not in ev:
        report(code, f"{kind} evaluator has no '{key}' ({unit})", at, FIRST_KEY)
        return
    value = ev[key]
    if not (is_finite_number(value) and value >= 0):
        report(code, f"{kind} '{key}' must be a finite number >= 0, {found(value)}", at + (key,))
        return
    clean[key] = float(value)


def _check_latency(ev: dict, at: tuple, clean: dict) -> None:
    _number_field(ev, at, clean, "threshold", "EV350", "latency", "milliseconds, a number >= 0")


def _check_cost(ev: dict, at: tuple, clean: dict) -> None:
    _number_field(ev, at, clean, "budget", "EV351", "cost", "a number >= 0")


def _check_token_usage(ev: dict, at: tuple, clean: dict) -> None:
    keys = KIND_KEYS["token_usage"]
    if not any(k in ev for k in keys):
        report("EV352", f"token_usage evaluator sets none of {one_of(keys)}", at, FIRST_KEY)
        return
    for key in keys:
        if key in ev:
            value = ev[key]
            if not (is_finite_number(value) and value >= 0):
                report("EV352", f"token_usage '{key}' must be a finite number >= 0, {found(value)}", at + (key,))
            else:
                clean[key] = float(value)


CHECKS = {
    "llm_judge": _check_llm_judge,
    "rubric": _check_rubric,
    "code_judge": _check_code_judge,
    "tool_trajectory": _check_tool_trajectory,
    "composite": _check_composite,
    "field_accuracy": _check_field_accuracy,
    "latency": _check_latency,
    "cost": _check_cost,
    "token_usage": _check_token_usage,
}
