"""A regex grader's pattern as JavaScript's RegExp reads it (rules/js_regex.py), beside what node's own RegExp
refuses, and what the runner does with a grader whose pattern it refuses."""
from __future__ import annotations

import json
import subprocess

import pytest

from agentv_runner import require_runner
from agreement import run_written, write_suite
from clirun import run_concise
from evallint.rules.js_regex import regex_error

# (pattern, flags, why RegExp refuses it, None when it takes it)
PATTERNS = [
    ("answer", "", None), ("^an+sw?er{1,3}$", "i", None), ("[a-z]+\\d*", "", None), ("a|b|", "", None),
    ("[", "", "an unterminated character class"), ("[a-", "", "an unterminated character class"),
    ("(", "", "an unterminated group"), ("a)", "", "unmatched ')'"), ("*answer", "", "nothing to repeat"),
    ("a**", "", "nothing to repeat"), ("a*?", "", None), ("a|+", "", "nothing to repeat"),
    ("^*", "", "nothing to repeat"), ("\\b+", "", "nothing to repeat"), ("(?=a)*", "", None),
    ("(?=a)*", "u", "nothing to repeat"), ("(?<=a)*", "", "nothing to repeat"),
    ("a{2,1}", "", "numbers out of order in a {} quantifier"), ("{2}", "", "nothing to repeat"),
    ("a{2", "", None), ("{", "", None), ("}", "", None), ("]", "", None),
    ("{", "u", "a lone quantifier bracket"), ("]", "u", "a lone quantifier bracket"),
    ("(?i)answer", "", "an invalid group (JavaScript has no inline flags such as '(?i)': give them as 'flags')"),
    ("(?P<n>a)", "", "an invalid group ('(?P<name>...)' is Python's: write '(?<name>...)')"),
    ("(?<1a>x)", "", "an invalid group name"), ("(?<$a_1>x)\\k<$a_1>", "", None),
    ("(?<a>x)\\k<b>", "", "no group is named 'b'"), ("(?<a>x)\\k", "", "an invalid named reference"),
    ("\\k<b>", "", None), ("\\k<b>", "u", "no group is named 'b'"),
    ("\\", "", "'\\' at the end of the pattern"), ("answer\\_", "", None), ("answer\\_", "u", "an invalid escape"),
    ("\\-", "u", "an invalid escape"), ("[\\-]", "u", None), ("\\/", "u", None), ("\\Z", "", None),
    ("\\1", "", None), ("(a)\\1", "u", None), ("\\1", "u", "an invalid escape"), ("\\8", "", None),
    ("\\00", "u", "an invalid decimal escape"), ("\\c", "", None), ("\\c", "u", "an invalid control escape"),
    ("[\\c1]", "", None), ("\\x4", "", None), ("\\x4", "u", "an invalid escape"),
    ("\\u{110000}", "u", "an invalid Unicode escape"), ("\\u{10FFFF}", "u", None), ("\\u{41}", "", None),
    ("\\p{L}", "u", None), ("\\p", "u", "an invalid property name"), ("\\p", "", None),
    ("[z-a]", "", "a range out of order in a character class"), ("[\\d-z]", "", None),
    ("[\\d-z]", "u", "a range of a set of characters in a character class"),
    ("[\\x41-\\x40]", "", "a range out of order in a character class"),
    ("[\\1-\\0]", "", "a range out of order in a character class"),
    ("[😀-😁]", "", "a range out of order in a character class"), ("[😀-😁]", "u", None), ("[\\b-a]", "", None),
    ("[[a]--[b]]", "v", None), ("[[a]", "v", "an unterminated character class"),
    # the classes of the 'v' flag: set operations, strings, what they take only escaped
    ("[a&&b]", "v", None), ("[a--b--c]", "v", None), ("[\\w--\\d]", "v", None), ("[a&b!c]", "v", None),
    ("[\\-\\&\\&]", "v", None), ("[]", "v", None), ("[^^]", "v", None), ("[^\\q{a|b}]", "v", None),
    ("[\\q{ab|c}&&\\q{ab}]", "v", None), ("[^[\\p{RGI_Emoji}&&a]]", "v", None), ("[^\\q{\\uD83D\\uDE00}]", "v", None),
    ("[(]", "v", "'(' unescaped in a character class (write '\\(')"),
    ("[a-]", "v", "'-' unescaped in a character class (write '\\-')"),
    ("[\\q{a-b}]", "v", "'-' unescaped in a character class (write '\\-')"),
    ("[a!!b]", "v", "an invalid set operation in a character class ('!!')"),
    ("[&&a]", "v", "an invalid set operation in a character class ('&&')"),
    ("[\\q{a&&b}]", "v", "an invalid set operation in a character class ('&&')"),
    ("[ab&&c]", "v", "a set operation beside a union in a character class (nest one of them: '[[ab]&&c]')"),
    ("[a-c--b]", "v", "a set operation beside a union in a character class (nest one of them: '[[ab]&&c]')"),
    ("[a--b&&c]", "v", "a set operation other than '--', or none, in a character class"),
    ("[a&&bc]", "v", "a set operation other than '&&', or none, in a character class"),
    ("[a&&&b]", "v", "'&&&' in a character class"),
    ("[a--]", "v", "a set operation without its second operand in a character class"),
    ("[z-a]", "v", "a range out of order in a character class"),
    ("[a-\\d]", "v", "a range of a set of characters in a character class"),
    ("[\\q{a}-b]", "v", "'-' unescaped in a character class (write '\\-')"),
    ("[^\\q{ab}]", "v", "a negated character class that may match strings"),
    ("[^\\q{a|}]", "v", "a negated character class that may match strings"),
    ("[a[^\\q{ab}--\\q{c}]]", "v", "a negated character class that may match strings"),
    ("[^\\p{RGI_Emoji}]", "v", "a negated character class that may match strings"),
    ("\\P{RGI_Emoji}", "v", "an invalid property name ('\\P' negates no property of strings such as 'RGI_Emoji')"),
    ("\\p{RGI_Emoji}", "u", "an invalid property name ('RGI_Emoji' is a property of strings, read with the 'v' flag)"),
    ("[\\q{\\d}]", "v", "an invalid escape"), ("[\\q]", "v", "an invalid escape"), ("[\\1]", "v", "an invalid escape"),
    ("[\\q{a}", "v", "an unterminated character class"),
    # surrogate pairs written as escapes, names of JavaScript's identifiers, bounds V8 caps, nesting deeper than read
    ("[\\uD83D\\uDE00-\\uD83D\\uDE01]", "u", None), ("(?<a\u200d>a)", "", None), ("answer\\0\u0661?", "u", None),
    ("a{2147483648,2147483647}", "", None), ("(?<\\u0061>x)\\k<a>", "", None), ("(" * 1200 + ")" * 1200, "", None),
    ("(a)\\" + "1" * 5000, "", None), ("a{" + "9" * 5000 + "," + "8" * 5000 + "}", "", None),
]
# patterns that node refuses but evallint takes: a property's name (but for a property of strings) is not looked into
TAKEN = [("\\p{Nope}", "u")]


@pytest.mark.parametrize("pattern, flags, why", PATTERNS)
def test_regexp_refuses_these_patterns_for_these_reasons(pattern, flags, why):
    assert regex_error(pattern, flags) == why


@pytest.mark.runner
def test_node_refuses_the_same_patterns():
    """Modifiers such as '(?i:...)' are not among them: node 23 reads them, an earlier one does not."""
    script = ("const cases = JSON.parse(process.argv[1]); console.log(JSON.stringify(cases.map(([p, f]) => "
              "{ try { new RegExp(p, f); return true; } catch { return false; } })))")
    cases = [(pattern, flags) for pattern, flags, _ in PATTERNS] + TAKEN
    done = subprocess.run([require_runner(), "-e", script, json.dumps(cases)], capture_output=True, text=True,
                          timeout=60, check=True)
    assert json.loads(done.stdout) == [why is None for _, _, why in PATTERNS] + [False] * len(TAKEN)
    assert [regex_error(pattern, flags) for pattern, flags in TAKEN] == [None] * len(TAKEN)


REGEXES = ("tests:\n  - id: broken\n    input: q\n    assertions:\n      - {type: regex, value: 'answer ('}\n"
           "  - id: negated\n    input: q\n    assertions:\n      - {type: regex, value: '*', negate: true}\n"
           "  - id: valid\n    input: q\n    assertions:\n      - {type: regex, value: 'answer \\d'}\n"
           "  - id: turn\n    mode: conversation\n    input: hi\n    turns:\n"
           "      - {input: q, assertions: [{type: regex, value: 'answer[', flags: i}]}\n")


def test_a_regex_graders_pattern_that_regexp_refuses_is_an_error(tmp_path):
    fails = "the grader fails when it grades ('Invalid regular expression') and scores"
    assert run_concise(write_suite(tmp_path, REGEXES), "--no-cache", "a.eval.yaml") == (1, (
        f"a.eval.yaml:5:30: EV110 [error] regex 'answer (' is no JavaScript regular expression: an unterminated group; "
        f"{fails} 0\n"
        f"a.eval.yaml:9:30: EV110 [error] regex '*' is no JavaScript regular expression: nothing to repeat; {fails} 1 "
        "(negated)\n"
        f"a.eval.yaml:18:54: EV110 [error] regex 'answer[' is no JavaScript regular expression: an unterminated character "
        f"class; {fails} 0\n"), "")


@pytest.mark.runner
def test_the_runner_fails_a_regex_grader_whose_pattern_regexp_refuses(tmp_path):
    ran = run_written(tmp_path, REGEXES)
    assert ran["scores"] == {"broken": 0, "negated": 1, "valid": 1, "turn": 0}
