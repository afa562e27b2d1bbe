"""No secret-looking value is ever printed: whatever finding sits on its line, whichever rules are
selected, in every format (a duplicate key, a syntax error and a finding on a flow mapping included)."""
from __future__ import annotations

import re

import pytest
from cachedb import folder

from evallint.cli import main
from evallint.diagnostics import Diagnostic, Severity
from evallint.load import secrets
from evallint.load.jsonl import parse_jsonl
from evallint.load.secrets import holds_secret
from evallint.load.yaml12 import parse_yaml
from evallint.report.result import masked_messages, snippets

SECRET = "sk-live-4f9a8b7c6d5e4f3a2b1c"
FILES = {
    # a duplicate key: EV003 sits on the second value
    "duplicate": f"targets:\n  - name: default\n    provider: azure\n    api_key: x\n    api_key: {SECRET}\n",
    # a syntax error on the line of the secret
    "syntax": f"targets:\n  - {{name: b, provider: azure, api_key: \"{SECRET}\", endpoint: [1}}\n",
    # a syntax error in a flow mapping whose secret key the parser reads as the end of a scalar over two lines
    "scalar key": f"{{targets: 0b1010\n  auth_token: {SECRET}}}\n",
    # a flow mapping with another finding on its line, EV512 ignored below
    "flow": f"targets:\n  - {{name: default, provider: azure, api_key: {SECRET}, colour: red}}\n",
    # a block scalar
    "block": f"targets:\n  - name: default\n    provider: azure\n    client_secret: |\n      {SECRET}\n    colour: 1\n",
    # a provider's key by its shape: in a command line, under a misspelt key, in a URL's query (a message quotes
    # that url cut short)
    "command": f"targets:\n  - name: c\n    provider: cli\n    command: \"agent --api-key {SECRET} {{PROMPT}} {{prompt}}\"\n",
    "misspelt": f"targets:\n  - name: o\n    provider: azure\n    api_kee: x\n    api_kee: {SECRET}\n",
    "query": f"targets:\n  - name: c\n    provider: cli\n    command: agent {{PROMPT}}\n    healthcheck:\n"
             f"      url: \"https://agent.example.com/health?token=x{SECRET}&x=1\"\n",
}


def secret_spans(text: str, json_lines: bool = False) -> list:
    """The spans of ``text`` as a lint stars them: the ranges its one parse found, as a YAML file or, with
    ``json_lines``, a JSONL file."""
    ranges = parse_jsonl(text).secret_ranges(text) if json_lines else parse_yaml(text).secrets
    return secrets.secret_spans(text, ranges)


def _repo(tmp_path, text):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    (tmp_path / ".agentv" / "targets.yaml").write_text(text)
    return tmp_path


@pytest.mark.parametrize("name", sorted(FILES))
@pytest.mark.parametrize("fmt", ["text", "concise", "json", "github", "sarif"])
def test_no_format_prints_a_secret(tmp_path, monkeypatch, name, fmt):
    import io

    repo = _repo(tmp_path, FILES[name])
    monkeypatch.chdir(repo)
    out, err = io.StringIO(), io.StringIO()
    code = main(["--no-cache", "--ignore", "EV512", "--select", "ALL", "--format", fmt, "--no-color",
                 ".agentv/targets.yaml"], stdout=out, stderr=err)
    assert code in (0, 1) and out.getvalue()  # findings were printed
    assert SECRET not in out.getvalue() + err.getvalue()
    assert SECRET[3:] not in out.getvalue() + err.getvalue()


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_run_from_the_cache_prints_no_secret_and_the_cache_holds_none(tmp_path, monkeypatch, name):
    import io

    repo = _repo(tmp_path, FILES[name])
    monkeypatch.chdir(repo)
    outputs = []
    for _ in range(2):  # the second run is answered from the cache
        out = io.StringIO()
        main(["--ignore", "EV512", "--select", "ALL", "--no-color", ".agentv/targets.yaml"], stdout=out,
             stderr=io.StringIO())
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1] and SECRET[3:] not in outputs[0]
    cache = [p for p in folder().iterdir() if p.name.startswith("results-")]
    assert cache and not any(SECRET[3:].encode() in p.read_bytes() for p in cache)


def test_the_snippet_stars_the_value_and_keeps_the_rest_of_the_line(tmp_path, monkeypatch):
    import io

    monkeypatch.chdir(_repo(tmp_path, FILES["flow"]))
    out = io.StringIO()
    assert main(["--no-cache", "--ignore", "EV512", "--no-color", ".agentv/targets.yaml"], stdout=out,
                 stderr=io.StringIO()) == 0  # EV507 is a warning
    assert f"2 |   - {{name: default, provider: azure, api_key: {'*' * len(SECRET)}, colour: red}}" in out.getvalue()


@pytest.mark.parametrize("text, expected", [
    (f"api_key: {SECRET}  # prod", [(0, 9, 9 + len(SECRET))]),
    (f'"apiKey": "{SECRET}"', [(0, 10, 12 + len(SECRET))]),
    (f"{{token: {SECRET}, other: 1}}", [(0, 8, 8 + len(SECRET))]),
    ("api_key: ${{ OPENAI_API_KEY }}", []),
    ("max_tokens: 100\ntokens: 5", []),
    (f"password: >\n  {SECRET}\nnext: 1", [(1, 2, 2 + len(SECRET))]),
    # the values under a secret key however deep, not the structure (the keys, the '-')
    ("secrets:\n  - name: a", [(1, 10, 11)]),
    # a block scalar's lines are its text, whatever they look like
    (f"a:\n  client_secret: |\n    {SECRET}\n    colour: x\n  colour: 1", [(2, 4, 4 + len(SECRET)), (3, 4, 13)]),
    # a value that goes on below its key, wrapped; the lines of the key's own mapping are not
    (f"  - api_key: {SECRET[:8]}\n      {SECRET[8:]}: x\n    provider: azure", [(0, 13, 21), (1, 6, 26)]),
    # an alias: the value is where its anchor is, on its line or below it
    (f"x: &a {SECRET}\napi_key: *a", [(0, 6, 6 + len(SECRET)), (1, 9, 11)]),
    (f"x: &a |\n  {SECRET}\napi_key: *a", [(1, 2, 2 + len(SECRET)), (2, 9, 11)]),
    (f"x: &a\n  {SECRET}\napi_key: *a", [(1, 2, 2 + len(SECRET)), (2, 9, 11)]),
    (f"x: &a {SECRET[:8]}\n  {SECRET[8:]}\napi_key: *a", [(0, 6, 14), (1, 2, 22), (2, 9, 11)]),
    # an alias in a flow collection over several lines: its name ends at the comma
    (f"t: [{{name: d,\n  api_key: *a,\n  c: 1}}]\nbase: &a {SECRET}", [(1, 11, 13), (3, 9, 9 + len(SECRET))]),
    # not an alias, not an anchor: a block scalar's text, an '&' inside a word
    ("api_key: |\n  *zz\nq: &zz keepme", [(1, 2, 5)]),
    ("y: 'R&a b'\napi_key: *a", [(1, 9, 11)]),
    # a doubled single quote does not close the string; a quoted string goes on to its closing quote
    (f"api_key: 'sk-''{SECRET}'", [(0, 9, 16 + len(SECRET))]),
    (f'    api_key: "{SECRET}\n  tail"\n    other: 1', [(0, 13, 14 + len(SECRET)), (1, 2, 7)]),
    # a value shaped like a provider's key, anywhere; a URL query parameter named like a secret, a comment too
    (f"command: agent --key {SECRET} --x", [(0, 21, 21 + len(SECRET))]),
    ("k: ghp_0123456789abcdefghijABCDEFGHIJ, n: AKIA0123456789ABCDEF", [(0, 3, 37), (0, 42, 62)]),
    ("url: https://h.example/p?access_token=abc123&page=2  # ?password=hunter2",
     [(0, 38, 44), (0, 65, 72)]),
    ("url: https://h.example/p?page=2&sort=sk-desc", []),
    # an Azure key's 32 hex digits, not a commit's 40
    ("key: 0123456789abcdef0123456789ABCDEF\nref: 0123456789abcdef0123456789abcdef01234567",
     [(0, 5, 37)]),
])
def test_secret_spans(text, expected):
    assert secret_spans(text) == expected


def test_a_value_written_with_escapes_leaves_messages_decoded_too():
    text = 'api_key: "sk-live-\\x34f9a8b7c6d5e"\n'
    d = Diagnostic("EV001", Severity.ERROR, "unknown provider 'sk-live-4f9a8b7c6d5e'", "t.yaml", 1, 1, 1, 2)
    (out,) = masked_messages(text, [d], secret_spans(text))
    assert out.message == f"unknown provider '{'*' * len('sk-live-4f9a8b7c6d5e')}'"


def test_a_message_quoting_a_secret_cut_short_loses_its_start_too():
    text = f"url: https://h.example/health?api_key={SECRET}&x=1\n"
    d = Diagnostic("EV510", Severity.ERROR, f"url 'https://h.example/health?api_key={SECRET[:12]}...' is literal",
                   "t.yaml", 1, 1, 1, 2)
    (out,) = masked_messages(text, [d], secret_spans(text))
    assert out.message == "url 'https://h.example/health?api_key=************...' is literal"


def test_messages_lose_the_secret_too():
    text = f"api_key: {SECRET}\n"
    d = Diagnostic("EV001", Severity.ERROR, f"bad value {SECRET!r} here", "t.yaml", 1, 1, 1, 2)
    (out,) = masked_messages(text, [d], secret_spans(text))
    assert out.message == f"bad value '{'*' * len(SECRET)}' here"
    assert snippets(text, [d], secret_spans(text)) == {1: f"api_key: {'*' * len(SECRET)}"}


@pytest.mark.parametrize("key", ["api_key", "apiKey", "APIKey", "x-api-key", "X-Api-Key", "Authorization",
                                 "Proxy-Authorization", "private-key", "passphrase", "credentials", "Cookie",
                                 "set_cookie", "auth", "basic-auth", "db_pwd", "clientSecret", "ACCESS.TOKEN",
                                 "token_usage", "api_keys"])
def test_keys_that_hold_secrets(key):
    assert holds_secret(key)


@pytest.mark.parametrize("key", ["max_tokens", "max_output_tokens", "key", "keywords", "author", "monkey",
                                 "expected_outcome", "tokens", 3, None])
def test_keys_that_hold_none(key):
    assert not holds_secret(key)


@pytest.mark.parametrize("text, expected", [
    # a complex key
    (f"? api_key\n: {SECRET}", [(1, 2, 2 + len(SECRET))]),
    # a key written with escapes is the key the parser reads
    (f'"api\\u005fkey": {SECRET}', [(0, 16, 16 + len(SECRET))]),
    # an alias as the key: the scalar it names
    (f"k: &k api_key\n*k : {SECRET}", [(1, 5, 5 + len(SECRET))]),
    # an environment reference that goes on below is no reference
    ("api_key: ${{ KEY }}\n  more", [(0, 9, 19), (1, 2, 6)]),
    ("api_key: ${{ KEY }}\nmore: x", []),
    # a flow mapping over several lines: its deeper sibling is not starred
    (f"t: {{api_key: {SECRET},\n  c: {{d: shown}}}}", [(0, 13, 13 + len(SECRET))]),
    # every item of a list under a secret key, nested mappings too
    (f"api_keys:\n- a1\n- {SECRET}\n- {{n: {SECRET}}}", [(1, 2, 4), (2, 2, 2 + len(SECRET)), (3, 6, 6 + len(SECRET))]),
    # an alias of an alias: the node anchored at the end of the chain
    (f"a: &a {SECRET}\nb: &b [*a, x]\napi_key: *b", [(0, 6, 6 + len(SECRET)), (1, 6, 13), (2, 9, 11)]),
    # a URL's user-info anywhere, a comment too
    ("db: postgres://user:pw@host/db  # or https://u:p@h", [(0, 15, 22), (0, 45, 48)]),
    # a syntax error where a secret value was due: the rest is starred
    ('a: 1\napi_key: "unclosed\n  more', [(1, 9, 18), (2, 2, 6)]),
    # a syntax error elsewhere: the lines of the rest that hold a secret word
    ("d: 'it''s\napi_key: x\nother: y", [(1, 0, 10)]),
    # ... a secret word the parser read before it stopped, on the line where it stopped
    ("{t: 1\n  auth_token: x}", [(1, 12, 16)]),
])
def test_secret_spans_from_the_structure(text, expected):
    assert secret_spans(text) == expected


@pytest.mark.parametrize("text, expected", [
    (f'{{"api_key":"{SECRET}"}}', [(0, 11, 13 + len(SECRET))]),
    (f'{{"a": 1, "api\\u005fkey": "{SECRET}"}}', [(0, 25, 27 + len(SECRET))]),
    ('{"x-api-key": ["a1", {"v": 7}]}\n{"Cookie": "c0"}', [(0, 15, 19), (0, 27, 28), (1, 11, 15)]),
    ('{"api_key": "${{ KEY }}", "max_tokens": 5, "db": "pg://u:p@h"}', [(0, 55, 58)]),
    # a line that is no JSON is read as far as it goes
    ('{"api_key": "unclosed', [(0, 12, 21)]),
    ('{"a": [1}, "token": "S1"}', [(0, 20, 24)]),
])
def test_json_lines_secret_spans(text, expected):
    assert secret_spans(text, json_lines=True) == expected


def test_each_anchored_node_is_starred_once():
    """A chain of anchors, each holding an alias of the one before, all named under a secret key: each
    anchored node is starred once and each alias followed once (the work stays linear in the text)."""
    n = 300
    text = "a0: &a0 x\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, n)) + \
        "api_key: [" + ", ".join(f"*a{i}" for i in range(n)) + "]\n"
    assert len(parse_yaml(text).secrets) == n + n


def test_the_documented_words_are_the_words_looked_up():
    from conftest import ROOT

    from evallint.load.secrets import SECRET_NAME_WORDS, SECRET_WORDS

    doc = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    section = doc[doc.index("#### Values that are never shown"):]
    section = section[:section.index("\n#")]
    first, second = section.split("\n- ")[1:3]
    assert re.findall(r"`([a-z_]+)`", first.split("(but")[0]) == list(SECRET_WORDS)
    assert re.findall(r"`([a-z_]+)`", second.split("as a word")[0]) == list(SECRET_NAME_WORDS)


@pytest.mark.parametrize("text, json_lines, expected", [
    ("ſecret: hidden-value\n", False, [(0, 8, 20)]),
    ('{"id": "a", "ſecret": "S1"}', True, [(0, 22, 26)]),
])
def test_a_key_is_read_as_the_secret_words_are_looked_up(text, json_lines, expected):
    """'ſ' (long s) casefolds to 's': the key is 'secret' as ``holds_secret`` reads it, so its value is
    starred though no secret word is written in the text letter for letter."""
    assert secret_spans(text, json_lines=json_lines) == expected


def test_a_dataset_gives_its_secret_values_from_its_parse():
    """A JSONL line that is an eval case gives the ranges of its secret values as it is parsed (from its
    keys' positions); a line that gives no case is read as far as JSON's grammar goes."""
    text = '{"id": "a", "api_key": "S1"}\n{"token": [1}\n'
    assert parse_jsonl(text).secrets == [(23, 27)]
    assert secret_spans(text, json_lines=True) == [(0, 23, 27), (1, 11, 12)]


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_lint_parses_the_file_once(tmp_path, monkeypatch, name):
    """The values never shown come from the file's one parse: evallint's parse entry point is called once
    and PyYAML's parser reads the text once (one loader is made), the part after a syntax error included."""
    from evallint import lint, models
    from evallint.config import Config
    from evallint.load import evidence, yaml12

    read, parsed = [], []

    class Counted(yaml12.LOADER):
        def __init__(self, stream):
            read.append(stream)
            super().__init__(stream)

    def parse_yaml(text, **limits):
        parsed.append(text)
        return yaml12.parse_yaml(text, **limits)

    monkeypatch.setattr(yaml12, "LOADER", Counted)
    monkeypatch.setattr(models, "parse_yaml", parse_yaml)  # a dataset's sidecar's
    monkeypatch.setattr(evidence, "parse_yaml", parse_yaml)  # the parse that tells the kind is the lint's
    result = lint.lint_file(str(_repo(tmp_path, FILES[name]) / ".agentv" / "targets.yaml"), Config())
    assert result.diagnostics and parsed == read == [FILES[name]]
    shown = "\n".join(result.lines.values()) + "\n".join(d.message for d in result.diagnostics)
    assert SECRET[3:] not in shown


SUITE = ("tests:\n  - id: t\n    input: 'my key is " + SECRET + "'\n    criteria: c\n    assertions:\n"
         "      - type: code-grader\n        command: [python3, check.py]\n"
         "        config: {api_key: x" + SECRET + ", url: 'https://user:pass" + SECRET + "@example.com'}\n"
         "      - {type: contains, value: answer, negate: no}\n")


def test_normalize_and_a_fixs_diff_print_no_secret(tmp_path, monkeypatch):
    import io

    (tmp_path / ".git").mkdir()
    (tmp_path / "check.py").write_text("import sys\nsys.stdin.read()\n")
    (tmp_path / "a.eval.yaml").write_text(SUITE)
    (tmp_path / "b.eval.yaml").write_text(SUITE.replace("negate: no", "negate: false"))
    monkeypatch.chdir(tmp_path)
    for argv in (["normalize", "b.eval.yaml"], ["--no-cache", "--fix", "--diff", "a.eval.yaml"]):
        out, err = io.StringIO(), io.StringIO()
        assert main(argv, stdout=out, stderr=err) in (0, 1)
        assert "negate" in out.getvalue() and "*" * len(SECRET) in out.getvalue()  # what it shows, starred
        assert SECRET[3:] not in out.getvalue() + err.getvalue()


def test_a_shells_reference_in_a_secret_setting_is_said_to_be_none_the_runner_fills(tmp_path):
    """'${NAME}' and '$NAME' are a shell's: the runner fills only '${{ NAME }}' (AgentV 4.42.4 rejects the target);
    the variable's name is no secret, so the message names it."""
    from clirun import run_concise

    text = ("targets:\n  - name: oa\n    provider: openai\n    model: ${{ M }}\n    api_key: ${OPENAI_API_KEY}\n"
            "  - name: az\n    provider: openai\n    model: ${{ M }}\n    api_key: ' $AZ_KEY'\n")
    assert run_concise(_repo(tmp_path, text), "--no-cache", ".agentv/targets.yaml") == (1, (
        ".agentv/targets.yaml:5:14: EV512 [error] 'api_key' is a shell's reference to 'OPENAI_API_KEY', which the "
        "runner does not fill (it fills only '${{ NAME }}'); write '${{ OPENAI_API_KEY }}'\n"
        ".agentv/targets.yaml:9:14: EV512 [error] 'api_key' is a shell's reference to 'AZ_KEY', which the runner does "
        "not fill (it fills only '${{ NAME }}'); write '${{ AZ_KEY }}'\n"), "")
