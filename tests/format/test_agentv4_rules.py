"""Each rule the AgentV 4.42 schemas use, on a suite with one mistake (its exact codes and data paths) and on
the same suite put right (no finding at all)."""
from __future__ import annotations

import textwrap

import pytest

from evallint.format.agentv4.suite import AGENTV4_SUITE_SCHEMA
from evallint.format.walk import load_checked
from evallint.load.yaml12 import parse_yaml

T = ("tests", 0)  # the first test
A = T + ("assertions", 0)  # its first assertion


def findings(text: str) -> list:
    parsed = parse_yaml(textwrap.dedent(text))
    assert parsed.ok and parsed.findings == []
    _, found = load_checked(AGENTV4_SUITE_SCHEMA, parsed.data)
    return [(f.code, f.path) for f in found.findings]


def one_test(body: str) -> str:
    """A suite of one test: ``body`` is its keys besides 'id'."""
    return "tests:\n  - id: t1\n" + textwrap.indent(textwrap.dedent(body), "    ")


def one_assertion(body: str) -> str:
    """A suite of one test with one assertion: ``body`` is the assertion's keys."""
    return one_test("criteria: c\ninput: hi\nassertions:\n  - " + textwrap.indent(textwrap.dedent(body), "    ")[4:])


def one_field_grader(body: str) -> str:
    """``one_assertion`` of a field-accuracy grader, in a test with the expected fields it reads."""
    return one_assertion(body).replace("input: hi\n", "input: hi\n    expected_output: {a: 1}\n", 1)


ONE = one_test("criteria: c\ninput: hi\n")  # a test that needs nothing else

CASES = [
    # (what, the suite with the mistake, its findings, the suite put right)
    ("no tests", "name: s\n", [("EV101", ())], one_test("criteria: c\ninput: hi\n")),
    ("tests misspelt", "test: ['file://a.yaml']\n", [("EV101", ("test",))], "tests: ['file://a.yaml']\n"),
    ("tests of the wrong type", "tests: 3\n", [("EV101", ("tests",))], "tests: ./cases.yaml\n"),
    ("a test that is no mapping", "tests: [3]\n", [("EV102", ("tests", 0))], "tests: ['file://cases.yaml']\n"),
    ("a numeric id", "tests:\n  - {id: 1, criteria: c, input: hi}\n", [("EV103", T + ("id",))],
     "tests:\n  - {id: '1', criteria: c, input: hi}\n"),
    ("no id", "tests:\n  - {criteria: c, input: hi}\n", [("EV103", T)], "tests:\n  - {id: a, criteria: c, input: hi}\n"),
    ("a duplicate id", "tests:\n  - {id: a, criteria: c, input: hi}\n  - {id: a, criteria: c, input: hi}\n",
     [("EV104", ("tests", 1, "id"))],
     "tests:\n  - {id: a, criteria: c, input: hi}\n  - {id: b, criteria: c, input: hi}\n"),
    ("no input", one_test("criteria: c\n"), [("EV105", T)], one_test("criteria: c\ninput: hi\n")),
    ("an empty input list", one_test("criteria: c\ninput: []\n"), [("EV105", T + ("input",))],
     one_test("criteria: c\ninput: [{role: user, content: hi}]\n")),
    ("input_files with messages", one_test("criteria: c\ninput: [{role: user, content: hi}]\ninput_files: [a.md]\n"),
     [("EV105", T + ("input",))], one_test("criteria: c\ninput: hi\ninput_files: [a.md]\n")),
    ("the suite's input_files with messages",
     "input_files: [a.md]\n" + one_test("criteria: c\ninput: [{role: user, content: hi}]\n"),
     [("EV105", T + ("input",))],
     "input_files: [a.md]\n" + one_test("criteria: c\ninput: [{role: user, content: hi}]\nexecution: "
                                        "{skip_defaults: true}\n")),
    ("nothing to grade by", one_test("input: hi\n"), [("EV106", T)], one_test("input: hi\nexpected_output: hello\n")),
    ("criteria no string", one_test("criteria: [c]\ninput: hi\n"), [("EV107", T + ("criteria",)), ("EV106", T)],
     one_test("criteria: c\ninput: hi\n")),
    ("expected_outcome beside criteria", one_test("criteria: c\nexpected_outcome: d\ninput: hi\n"),
     [("EV108", T + ("expected_outcome",))], one_test("criteria: c\ninput: hi\n")),
    ("expected_outcome alone", one_test("expected_outcome: c\ninput: hi\n"), [("EV109", T + ("expected_outcome",))],
     one_test("criteria: c\ninput: hi\n")),
    ("evalcases", "evalcases:\n  - {id: a, criteria: c, input: hi}\n", [("EV109", ("evalcases",))],
     "tests:\n  - {id: a, criteria: c, input: hi}\n"),
    ("evalcases beside tests", "tests: [file://a.yaml]\nevalcases: []\n", [("EV108", ("evalcases",))],
     "tests: [file://a.yaml]\n"),
    # the loader reads `tests ?? eval_cases ?? evalcases`: the later list is dropped
    ("evalcases beside eval_cases", "eval_cases:\n  - {id: a, criteria: c, input: hi}\nevalcases:\n  - {id: b, "
     "criteria: c, input: hi}\n", [("EV109", ("eval_cases",)), ("EV108", ("evalcases",))],
     "tests:\n  - {id: a, criteria: c, input: hi}\n  - {id: b, criteria: c, input: hi}\n"),
    ("an unknown test key", one_test("criteria: c\ninput: hi\nnotes: x\n"), [("EV109", T + ("notes",))],
     one_test("criteria: c\ninput: hi\nmetadata: {notes: x}\n")),
    ("a suite name the runner rejects", "name: My Suite\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV110", ("name",))], "name: my-suite\n" + one_test("criteria: c\ninput: hi\n")),
    ("metadata the runner rejects", "name: s\nversion: 2\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV110", ("version",))], "name: s\nversion: '2'\n" + one_test("criteria: c\ninput: hi\n")),
    ("an empty list of tests", "tests: []\n", [("EV111", ("tests",))], "tests: ['file://cases.yaml']\n"),
    ("a path of tests written as a reference", "tests: file://cases.yaml\n", [("EV401", ("tests",))],
     "tests: cases.yaml\n"),
    ("expected_output of another type", one_test("criteria: c\ninput: hi\nexpected_output: 4\n"),
     [("EV112", T + ("expected_output",))], one_test("criteria: c\ninput: hi\nexpected_output: '4'\n")),
    ("assert beside assertions", one_test("criteria: c\ninput: hi\nassertions: []\nassert: [x]\n"),
     [("EV113", T + ("assert",))], one_test("criteria: c\ninput: hi\nassertions: [x]\n")),
    ("an unknown default kind", "evaluator: llm-gradr\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV114", ("evaluator",))], "evaluator: llm_grader\n" + one_test("criteria: c\ninput: hi\n")),
    ("a key with a word put in front", one_test("criteria: c\ninput: hi\ntest_assertions: [x]\n"),
     [("EV115", T + ("test_assertions",))], one_test("criteria: c\ninput: hi\nassertions: [x]\n")),
    ("a misspelt key", one_test("critera: c\ninput: hi\n"), [("EV115", T + ("critera",)), ("EV106", T)],
     one_test("criteria: c\ninput: hi\n")),
    ("an earlier name of input", one_test("criteria: c\ninput_messages: hi\n"),
     [("EV115", T + ("input_messages",)), ("EV105", T)], one_test("criteria: c\ninput: hi\n")),
    ("a removed execution key", "execution: {total_budget_usd: 3}\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV115", ("execution", "total_budget_usd"))], "execution: {budget_usd: 3}\n" + one_test("criteria: c\ninput: hi\n")),
    ("a removed workspace key", "workspace: {static_path: ./w}\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV115", ("workspace", "static_path"))], "workspace: {path: ./w}\n" + one_test("criteria: c\ninput: hi\n")),
    ("a removed repo key", "workspace: {repos: [{path: ./r, source: x}]}\n" + ONE,
     [("EV115", ("workspace", "repos", 0, "source"))], "workspace: {repos: [{path: ./r, repo: x}]}\n" + ONE),
    ("a base commit that is not the commit", "workspace: {repos: [{repo: x, path: app, commit: a, base_commit: b}]}\n"
     + ONE, [("EV110", ("workspace", "repos", 0, "base_commit"))],
     "workspace: {repos: [{repo: x, path: app, commit: a, base_commit: a}]}\n" + ONE),
    ("a workspace path in a pooled mode", "workspace: {mode: pooled, path: ./w}\n" + ONE,
     [("EV110", ("workspace", "mode"))], "workspace: {mode: static, path: ./w}\n" + ONE),
    ("a static workspace for each test", "workspace: {path: ./w, isolation: per_test}\n" + ONE,
     [("EV110", ("workspace", "isolation"))], "workspace: {path: ./w, isolation: shared}\n" + ONE),
    ("a static workspace of repos without a path", "workspace: {mode: static, repos: [{repo: x, path: app}]}\n" + ONE,
     [("EV110", ("workspace", "mode"))], "workspace: {mode: static, path: ./w, repos: [{repo: x, path: app}]}\n" + ONE),
    ("a static workspace of nothing", "workspace: {mode: static}\n" + ONE, [("EV110", ("workspace", "mode"))],
     "workspace: {mode: static, path: ./w}\n" + ONE),
    ("a workspace path that is no string (null is none, as the docs' own example writes it)",
     "workspace: {mode: pooled, path: 3, template: [t]}\n" + ONE,
     [("EV110", ("workspace", "template")), ("EV110", ("workspace", "path"))],
     "workspace: {mode: pooled, path: null, template: null, hooks: {after_each: {reset: fast}}}\n" + ONE),
    ("required commands that are no list", "workspace: {env: {required_commands: git}}\n" + ONE,
     [("EV110", ("workspace", "env", "required_commands"))],
     "workspace: {env: {required_commands: [git]}}\n" + ONE),
    ("metadata that is no mapping", "metadata: [a]\n" + one_test("criteria: c\ninput: hi\nmetadata: owner bob\n"),
     [("EV110", T + ("metadata",)), ("EV110", ("metadata",))],
     "metadata: {team: a}\n" + one_test("criteria: c\ninput: hi\nmetadata: {owner: bob}\nworkspace: null\n")),
    ("turns without a conversation", one_test("criteria: c\ninput: hi\nturns: [{input: again}]\nwindow_size: 2\n"),
     [("EV121", T + ("turns",)), ("EV121", T + ("window_size",))],
     one_test("criteria: c\ninput: hi\nmode: conversation\nturns: [{input: again, assertions: [answered]}]\n"
              "window_size: 2\n")),
    ("a turn's grader of no data", one_test("criteria: c\ninput: hi\nmode: conversation\n"
                                            "turns: [{input: again, assertions: [{type: cost, budget: 1}, Says hi]}]\n"),
     [("EV307", T + ("turns", 0, "assertions", 0, "type"))],
     one_test("criteria: c\ninput: hi\nassertions: [{type: cost, budget: 1}]\n")),
    ("a conversation's expected output that an early turn's llm-grader gets",
     one_test("input: hi\nexpected_output: bye\nmode: conversation\n"
              "turns: [{input: again, assertions: [Says hi]}, {input: end, assertions: [Says bye]}]\n"),
     [("EV214", T + ("expected_output",))],
     one_test("input: hi\nmode: conversation\n"
              "turns: [{input: again, assertions: [Says hi]}, {input: end, assertions: [Says bye]}]\n")),
    ("a code-grader target's model, which does not choose the target",
     one_test("criteria: c\ninput: hi\nassertions: [{type: code-grader, command: [python3, c.py], "
              "target: {max_calls: 5, model: gpt-4o}}]\n"),
     [("EV115", T + ("assertions", 0, "target", "model"))],
     one_test("criteria: c\ninput: hi\nassertions: [{type: code-grader, command: [python3, c.py], target: {max_calls: 5}}]\n")),
    ("a dependency on no test", "tests:\n  - {id: a, criteria: c, input: hi}\n  - {id: b, criteria: c, input: hi, "
     "depends_on: [A]}\n", [("EV122", ("tests", 1, "depends_on", 0))],
     "tests:\n  - {id: a, criteria: c, input: hi}\n  - {id: b, criteria: c, input: hi, depends_on: [a]}\n"),
    ("a name of the suite's input that a test's vars do not hold",
     "input: 'about {{ topic }}'\n" + one_test("criteria: c\ninput: hi\nvars: {other: x}\n"), [("EV406", ("input",))],
     "input: 'about {{ topic }}'\n" + one_test("criteria: c\ninput: hi\nvars: {topic: x}\n")),
    ("a test's own target", "execution: {target: a}\n" + one_test("criteria: c\ninput: hi\nexecution: {target: b}\n"),
     [("EV116", T + ("execution", "target"))],
     "execution: {targets: [a, b]}\n" + one_test("criteria: c\ninput: hi\nexecution: {targets: [b]}\n")),
    ("a description no string", "description: [x]\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV117", ("description",))], "description: x\n" + one_test("criteria: c\ninput: hi\n")),
    ("a role in capitals", one_test("criteria: c\ninput: [{role: User, content: hi}]\n"),
     [("EV201", T + ("input", 0, "role"))], one_test("criteria: c\ninput: [{role: user, content: hi}]\n")),
    ("content of a number", one_test("criteria: c\ninput: [{role: user, content: 3}]\n"),
     [("EV202", T + ("input", 0, "content"))], one_test("criteria: c\ninput: [{role: user, content: '3'}]\n")),
    ("a content block of no type the runner reads",
     one_test("criteria: c\ninput: [{role: user, content: [{type: txt, value: hi}]}]\n"),
     [("EV203", T + ("input", 0, "content", 0, "type"))],
     one_test("criteria: c\ninput: [{role: user, content: [hi, {type: file, value: a.md}]}]\n")),
    ("tool calls no list", one_test("criteria: c\ninput: hi\nexpected_output: [{role: assistant, tool_calls: x}]\n"),
     [("EV204", T + ("expected_output", 0, "tool_calls"))],
     one_test("criteria: c\ninput: hi\nexpected_output: [{role: assistant, tool_calls: [{tool: x}]}]\n")),
    ("tool calls of a user", one_test("criteria: c\ninput: [{role: user, content: hi, tool_calls: [{tool: x}]}]\n"),
     [("EV206", T + ("input", 0, "tool_calls"))], one_test("criteria: c\ninput: [{role: user, content: hi}]\n")),
    ("a message no mapping", one_test("criteria: c\ninput: [hi]\n"), [("EV207", T + ("input", 0))],
     one_test("criteria: c\ninput: [{role: user, content: hi}]\n")),
    ("a role marker", one_test("criteria: c\ninput: 'a @[System]: b'\n"), [("EV208", T + ("input",))],
     one_test("criteria: c\ninput: 'a b'\n")),
    ("a misspelt type", one_assertion("type: cnotains\nvalue: x\n"), [("EV301", A + ("type",))],
     one_assertion("type: contains\nvalue: x\n")),
    ("a deprecated judge", one_assertion("type: llm_judge\n"), [("EV301", A + ("type",))],
     one_assertion("type: llm_grader\n")),
    ("no type", one_assertion("name: x\nvalue: y\n"), [("EV301", A)], one_assertion("name: x\ntype: my-grader\n")),
    ("a composite member without a name",
     one_assertion("type: composite\naggregator: {type: weighted_average}\nassertions: [{type: is-json}]\n"),
     [("EV330", A + ("assertions",)), ("EV302", A + ("assertions", 0))],
     one_assertion("type: composite\naggregator: {type: weighted_average}\nassertions: [{name: j, type: is-json}]\n")),
    ("a composite member in snake case",
     one_assertion("type: composite\naggregator: {type: threshold, threshold: 0.5}\n"
                   "assertions: [{name: j, type: is_json}]\n"),
     [("EV330", A + ("assertions",)), ("EV301", A + ("assertions", 0, "type"))],
     one_assertion("type: composite\naggregator: {type: threshold, threshold: 0.5}\n"
                   "assertions: [{name: j, type: is-json}]\n")),
    ("a weight of text", one_assertion("type: is-json\nweight: heavy\n"), [("EV304", A + ("weight",))],
     one_assertion("type: is-json\nweight: 2\n")),
    ("a negative weight", one_assertion("type: is-json\nweight: -1\n"), [("EV305", A + ("weight",))],
     one_assertion("type: is-json\nweight: 2\n")),
    ("a grader of a blank prefix", one_assertion("type: starts-with\nvalue: ' '\n"), [("EV309", A + ("value",))],
     one_assertion("type: starts-with\nvalue: answer\n")),
    ("a regex literal with flags", one_assertion("type: regex\nvalue: /answer/i\n"), [("EV316", A + ("value",))],
     one_assertion("type: regex\nvalue: answer\nflags: i\n")),
    ("a regex's pattern under another name", one_assertion("type: regex\npattern: a+\n"),
     [("EV110", A), ("EV115", A + ("pattern",))], one_assertion("type: regex\nvalue: a+\n")),
    ("every grader weighing 0", one_assertion("type: is-json\nweight: 0\n"), [("EV308", T + ("assertions",))],
     one_assertion("type: is-json\nweight: 0.5\n")),
    ("assertions no list", one_test("criteria: c\ninput: hi\nassertions: {type: is-json}\n"),
     [("EV306", T + ("assertions",))], one_test("criteria: c\ninput: hi\nassertions: [{type: is-json}]\n")),
    ("an assertion of a number", one_test("criteria: c\ninput: hi\nassertions: [3]\n"),
     [("EV306", T + ("assertions", 0))], one_test("criteria: c\ninput: hi\nassertions: ['3']\n")),
    ("a trajectory mode in kebab case", one_assertion("type: tool-trajectory\nmode: in-order\nexpected: [{tool: a}]\n"),
     [("EV310", A + ("mode",))], one_assertion("type: tool-trajectory\nmode: in_order\nexpected: [{tool: a}]\n")),
    ("any_order without minimums", one_assertion("type: tool-trajectory\nmode: any_order\n"), [("EV311", A)],
     one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {a: 1}\n")),
    # the grader scores 1 whatever the agent calls (graders/tool-trajectory.ts: 'No tool requirements specified')
    ("any_order with empty minimums", one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {}\n"),
     [("EV311", A + ("minimums",))], one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {a: 1}\n")),
    ("exact with an empty expected list", one_assertion("type: tool-trajectory\nmode: exact\nexpected: []\n"),
     [("EV312", A + ("expected",))], one_assertion("type: tool-trajectory\nmode: exact\nexpected: [{tool: a}]\n")),
    # the grader compares a listed field only where the expected args hold it, split at '.' alone
    ("an args_match field no expected call holds",
     one_assertion("type: tool-trajectory\nmode: in_order\nargs_match: [query, 'f[0].n']\n"
                   "expected: [{tool: s, args: {q: x, f: [{n: 1}]}}]\n"),
     [("EV314", A + ("args_match", 0)), ("EV314", A + ("args_match", 1))],
     one_assertion("type: tool-trajectory\nmode: in_order\nargs_match: [q, f.0.n]\n"
                   "expected: [{tool: s, args: {q: x, f: [{n: 1}]}}]\n")),
    ("superset without expected", one_assertion("type: tool-trajectory\nmode: superset\n"), [("EV312", A)],
     one_assertion("type: tool-trajectory\nmode: superset\nexpected: [{tool: a}]\n")),
    ("a minimum of text", one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {a: one}\n"),
     [("EV313", A + ("minimums", "a"))], one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {a: 1}\n")),
    ("arguments under input",
     one_assertion("type: tool-trajectory\nmode: exact\nexpected: [{tool: a, input: {q: 1}}]\n"),
     [("EV115", A + ("expected", 0, "input"))],
     one_assertion("type: tool-trajectory\nmode: exact\nexpected: [{tool: a, args: {q: 1}}]\n")),
    ("an expected tool without a tool", one_assertion("type: tool-trajectory\nmode: exact\nexpected: [{args: any}]\n"),
     [("EV314", A + ("expected", 0))], one_assertion("type: tool-trajectory\nmode: exact\nexpected: [{tool: a, "
                                                     "args: any}]\n")),
    ("an args_match mode in brackets",
     one_assertion("type: tool-trajectory\nmode: exact\nargs_match: [superset]\nexpected: [{tool: a}]\n"),
     [("EV314", A + ("args_match", 0))],
     one_assertion("type: tool-trajectory\nmode: exact\nargs_match: superset\nexpected: [{tool: a, args_match: [q]}]\n")),
    ("a code-grader without command", one_assertion("type: code-grader\n"), [("EV320", A)],
     one_assertion("type: code-grader\ncommand: [python, check.py]\n")),
    ("an empty command", one_assertion("type: code-grader\ncommand: []\n"), [("EV321", A + ("command",))],
     one_assertion("type: code-grader\ncommand: python check.py\n")),
    ("a code-grader's script", one_assertion("type: code-grader\nscript: [python, check.py]\n"),
     [("EV109", A + ("script",))], one_assertion("type: code-grader\ncommand: [python, check.py]\n")),
    ("target access of text", one_assertion("type: code-grader\ncommand: [x]\ntarget: yes\n"),
     [("EV323", A + ("target",))], one_assertion("type: code-grader\ncommand: [x]\ntarget: {max_calls: 3}\n")),
    ("a YAML 1.1 word for the default", one_assertion("type: contains\nvalue: a\nnegate: no\n"),
     [("EV120", A + ("negate",))], one_assertion("type: contains\nvalue: a\nnegate: false\n")),
    ("target access misspelt", one_assertion("type: code-grader\ncommand: [x]\ntarget: {mxa_calls: 3}\n"),
     [("EV115", A + ("target", "mxa_calls"))], one_assertion("type: code-grader\ncommand: [x]\ntarget: {max_calls: 3}\n")),
    ("a preprocessor type misspelt", "preprocessors: [{type: pfd, command: [x]}]\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV110", ("preprocessors", 0, "type"))],
     "preprocessors: [{type: PDF, command: [x]}]\n" + one_test("criteria: c\ninput: hi\n")),
    ("a target's hooks of a number", "execution: {targets: [{name: a, hooks: 42}]}\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV110", ("execution", "targets", 0, "hooks"))],
     "workspace: {template: w}\nexecution: {targets: [{name: a, hooks: {before_all: {command: x}}}]}\n"
     + one_test("criteria: c\ninput: hi\n")),
    ("a target's hook misspelt",
     "execution: {targets: [{name: a, hooks: {beforeEach: {command: x}}}]}\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV115", ("execution", "targets", 0, "hooks", "beforeEach"))],
     "workspace: {template: w}\nexecution: {targets: [{name: a, hooks: {before_each: {command: x}}}]}\n"
     + one_test("criteria: c\ninput: hi\n")),
    ("a composite without members", one_assertion("type: composite\naggregator: {type: weighted_average}\n"),
     [("EV330", A)], one_assertion("type: composite\naggregator: {type: weighted_average}\n"
                                   "evaluators: [{name: j, type: is-json}]\n")),
    ("an aggregator in kebab case",
     one_assertion("type: composite\naggregator: {type: weighted-average}\nassertions: [{name: j, type: is-json}]\n"),
     [("EV331", A + ("aggregator", "type"))],
     one_assertion("type: composite\naggregator: {type: llm_grader}\nassertions: [{name: j, type: is-json}]\n")),
    ("a weight of text in an aggregator",
     one_assertion("type: composite\naggregator: {type: weighted_average, weights: {j: x}}\n"
                   "assertions: [{name: j, type: is-json}]\n"),
     [("EV332", A + ("aggregator", "weights", "j"))],
     one_assertion("type: composite\naggregator: {type: weighted_average, weights: {j: 2}}\n"
                   "assertions: [{name: j, type: is-json}]\n")),
    ("a threshold given as text, reported once",
     one_assertion("type: composite\naggregator: {type: threshold, threshold: '0.5'}\n"
                   "assertions: [{name: j, type: is-json}]\n"),
     [("EV331", A + ("aggregator", "threshold"))],
     one_assertion("type: composite\naggregator: {type: threshold, threshold: 0.5}\n"
                   "assertions: [{name: j, type: is-json}]\n")),
    ("a weight naming no member",
     one_assertion("type: composite\naggregator: {type: weighted_average, weights: {k: 2}}\n"
                   "assertions: [{name: j, type: is-json}]\n"),
     [("EV332", A + ("aggregator", "weights", "k"))],
     one_assertion("type: composite\naggregator: {type: weighted_average, weights: {j: 2}}\n"
                   "assertions: [{name: j, type: is-json}]\n")),
    ("a member negated",
     one_assertion("type: composite\naggregator: {type: weighted_average}\n"
                   "assertions: [{name: j, type: is-json, negate: true}]\n"),
     [("EV333", A + ("assertions", 0, "negate"))],
     one_assertion("type: composite\naggregator: {type: weighted_average}\n"
                   "assertions: [{name: j, type: is-json, negate: false}]\n")),
    ("expected calls counted in any order",
     one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {s: 1}\nexpected: [{tool: s}]\n"),
     [("EV315", A + ("expected",))], one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {s: 1}\n")),
    ("a field path that is no string", one_assertion("type: tool-trajectory\nmode: in_order\nexpected: [{tool: s}]\n"
                                                     "args_match: [x, 1]\n"),
     [("EV314", A + ("args_match", 1))],
     one_assertion("type: tool-trajectory\nmode: in_order\nexpected: [{tool: s}]\nargs_match: [x]\n")),
    ("arguments matched in any order",
     one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {s: 1}\nargsMatch: exact\n"),
     [("EV315", A + ("argsMatch",))], one_assertion("type: tool-trajectory\nmode: any_order\nminimums: {s: 1}\n")),
    ("no fields", one_field_grader("type: field-accuracy\nfields: []\n"), [("EV340", A + ("fields",))],
     one_field_grader("type: field-accuracy\nfields: [{path: a, match: exact}]\n")),
    ("a field match misspelt", one_field_grader("type: field-accuracy\nfields: [{path: a, match: exat}]\n"),
     [("EV341", A + ("fields", 0, "match"))], one_field_grader("type: field-accuracy\nfields: [{path: a, match: date}]\n")),
    ("an aggregation misspelt", one_field_grader("type: field-accuracy\nfields: [{path: a, match: exact}]\n"
                                              "aggregation: mean\n"),
     [("EV342", A + ("aggregation",))], one_field_grader("type: field-accuracy\nfields: [{path: a, match: exact}]\n"
                                                      "aggregation: all_or_nothing\n")),
    ("no tolerance", one_field_grader("type: field-accuracy\nfields: [{path: a, match: numeric_tolerance}]\n"),
     [("EV343", A + ("fields", 0))],
     one_field_grader("type: field-accuracy\nfields: [{path: a, match: numeric_tolerance, tolerance: 1}]\n")),
    ("a negative field weight", one_field_grader("type: field-accuracy\nfields: [{path: a, match: exact, weight: -1}]\n"),
     [("EV305", A + ("fields", 0, "weight"))],
     one_field_grader("type: field-accuracy\nfields: [{path: a, match: exact, weight: 2}]\n")),
    ("a latency without threshold", one_assertion("type: latency\n"), [("EV350", A)],
     one_assertion("type: latency\nthreshold: 100\n")),
    ("a cost without budget", one_assertion("type: cost\nbudget: cheap\n"), [("EV351", A + ("budget",))],
     one_assertion("type: cost\nbudget: 0.5\n")),
    ("an exploration ratio written as a percentage", one_assertion("type: execution-metrics\ntarget_exploration_ratio: 60\n"),
     [("EV352", A + ("target_exploration_ratio",))],
     one_assertion("type: execution-metrics\ntarget_exploration_ratio: 0.6\n")),
    ("execution-metrics without limits", one_assertion("type: execution-metrics\nexploration_tolerance: 0.2\n"),
     [("EV352", A), ("EV115", A + ("exploration_tolerance",))],
     one_assertion("type: execution-metrics\nmaxToolCalls: 3\n")),
    ("rubrics without criteria", one_assertion("type: rubrics\nexpected_outcome: good\n"),
     [("EV360", A), ("EV109", A + ("expected_outcome",))], one_assertion("type: rubrics\ncriteria: [good]\n")),
    ("a rubric item of strings", one_assertion("type: rubric\nrubrics: [good]\n"),
     [("EV361", A + ("rubrics", 0)), ("EV360", A + ("rubrics",))],
     one_assertion("type: rubric\nrubrics: [{outcome: good}]\n")),
    ("a checklist item's min_score", one_assertion("type: rubrics\ncriteria:\n  - {id: a, outcome: x, min_score: 0.6}\n"),
     [("EV115", A + ("criteria", 0, "min_score"))],
     one_assertion("type: rubrics\ncriteria:\n  - {id: a, outcome: x, min_score: 0.6, score_ranges: {0: bad, 5: ok}}\n")),
    ("two rubric items of one id", one_assertion("type: rubrics\ncriteria:\n  - {id: clear, outcome: a}\n"
                                                 "  - {id: clear, outcome: b}\n"),
     [("EV362", A + ("criteria", 1, "id"))],
     one_assertion("type: rubrics\ncriteria:\n  - {id: clear, outcome: a}\n  - {id: plain, outcome: b}\n")),
    # a string's id is 'rubric-N' by its place: among every item of a grader's list, among a test's strings and
    # mappings alone
    ("a rubric id a string's place gives", one_assertion("type: rubrics\ncriteria: [a, {id: rubric-1, outcome: b}]\n"),
     [("EV362", A + ("criteria", 1, "id"))], one_assertion("type: rubrics\ncriteria: [a, {id: rubric-2, outcome: b}]\n")),
    ("a test's rubric id a string's place gives", one_test("criteria: c\ninput: hi\nrubrics: [null, a, {id: rubric-1, "
                                                           "outcome: b}]\n"),
     [("EV361", T + ("rubrics", 0)), ("EV362", T + ("rubrics", 2, "id"))],
     one_test("criteria: c\ninput: hi\nrubrics: [a, {id: rubric-2, outcome: b}]\n")),
    ("score bands with a gap", one_assertion("type: rubrics\ncriteria:\n  - score_ranges: {0: bad, 5: good}\n"
                                             "  - score_ranges: [{score_range: [0, 4], outcome: bad}]\n"),
     [("EV361", A + ("criteria", 1, "score_ranges"))],
     one_assertion("type: rubrics\ncriteria:\n  - score_ranges: {0: bad, 5: good}\n"
                   "  - score_ranges: [{score_range: [0, 4], outcome: bad}, {score_range: [5, 10], outcome: ok}]\n")),
    ("a target's key for its grader on a grader", one_assertion("type: llm-grader\njudge_target: big\n"),
     [("EV115", A + ("judge_target",))], one_assertion("type: llm-grader\ntarget: big\n")),
    ("a field path naming nothing expected",
     one_test("criteria: c\ninput: hi\nexpected_output: {items: [{sku: A1}]}\nassertions:\n"
              "  - {type: field-accuracy, fields: [{path: 'items[0].sku', match: exact},\n"
              "                                    {path: '$.items[0].sku', match: exact}]}\n"),
     [("EV340", T + ("assertions", 0, "fields", 1, "path"))],
     one_test("criteria: c\ninput: hi\nexpected_output: {items: [{sku: A1}]}\nassertions:\n"
              "  - {type: field-accuracy, fields: [{path: 'items[0].sku', match: exact}, {path: items.0.sku, match: exact}]}\n")),
    # a prompt script gets its own 'config' alone, when it has one (grader-parser.ts)
    ("a grader's config beside its prompt script's",
     one_assertion("type: llm-grader\nprompt: {command: [python3, p.py], config: {style: brief}}\nconfig: {strict: true}\n"
                   "tone: dry\n"), [("EV108", A + ("config",)), ("EV108", A + ("tone",))],
     one_assertion("type: llm-grader\nprompt: {command: [python3, p.py], config: {style: brief, strict: true}}\n")),
    ("a custom type's setting", one_assertion("type: sentiment\nthreshold: 0.8\n"), [("EV317", A + ("threshold",))],
     one_assertion("type: sentiment\nweight: 2\n")),
    ("workers out of range", "execution: {workers: 64}\n" + one_test("criteria: c\ninput: hi\n"),
     [("EV513", ("execution", "workers"))], "execution: {workers: 50}\n" + one_test("criteria: c\ninput: hi\n")),
]


@pytest.mark.parametrize("bad, expected, good", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_each_mistake_has_its_code_at_its_place(bad, expected, good):
    assert findings(bad) == expected
    assert findings(good) == []


def test_the_cases_use_every_rule_of_the_schemas():
    import evallint.format.agentv4 as package
    from pathlib import Path
    import re

    used = set()
    for module in Path(package.__file__).parent.glob("*.py"):
        # the targets, config and sidecar files' and the templates' rules: tests/format/test_agentv4_project.py,
        # test_agentv4_sidecar.py, test_agentv4_templates.py
        if module.name not in ("project.py", "sidecar.py", "templates.py"):
            used |= set(re.findall(r'"(EV\d{3})"', module.read_text(encoding="utf-8")))
    rules = (Path(package.__file__).parents[2] / "rules" / "agentv4.py").read_text(encoding="utf-8")
    used |= set(re.findall(r'"(EV\d{3})"', rules))
    tested = {code for case in CASES for code, _ in case[2]}
    assert sorted(used - tested) == []
