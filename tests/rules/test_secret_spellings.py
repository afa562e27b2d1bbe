"""A secret is never printed nor cached, however its key is spelled: as an HTTP header, with a
hyphen, under another word for a secret, in a URL's user-info, as a later item of a list, under a nested
key, in compact JSON, under a key written with escapes. Each file has a finding on every line that holds
the secret (an unknown setting or key, or an unused suppression comment), so that line is shown."""
from __future__ import annotations

import io

import pytest
from cachedb import database, folder

from evallint import api
from evallint.cli import main
from evallint.config import Config

SECRET = "s3cr3t-VALUE-9f8e7d6c"
SHOWN = "  # evallint: disable=EV310"  # an unused suppression (EV099): a finding that shows its line

# lines of a target in .agentv/targets.yaml, after its name and provider
YAML = {
    "header": f"    x-api-key: {SECRET}\n",
    "header-capitalised": f"    X-Api-Key: {SECRET}\n",
    "authorization-header": f"    Authorization: Bearer {SECRET}\n",
    "hyphen": f"    private-key: {SECRET}\n",
    "passphrase": f"    passphrase: '{SECRET}'\n",
    "credentials": f"    credentials: {SECRET}\n",
    "cookie": f"    cookie: session={SECRET}\n",
    "url-user-info": f"    database_url: postgres://user:{SECRET}@db.example.com/evals\n",
    "list-second-item": f"    api_keys:\n      - first-key-in-list\n      - {SECRET}{SHOWN}\n",
    "flow-list-second-item": f"    client_secrets: [first-in-list, {SECRET}]\n",
    "nested-mapping": f"    credentials:\n      user: bob\n      value: {SECRET}{SHOWN}\n",
    "compact-json": f'    extra: {{"api_key":"{SECRET}"}}\n',
    "escaped-key": f'    "api\\u005fkey": {SECRET}{SHOWN}\n',
    "complex-key": f"    ? api_key\n    : {SECRET}{SHOWN}\n",
    "environment-reference-wrapped": f"    api_key: ${{{{ API_KEY }}}}\n      {SECRET}{SHOWN}\n",
    "alias": f"    base: &s {SECRET}\n    api_key: *s\n",
    "flow-mapping-over-lines": f"    extra: {{name: x,\n      auth_token: {SECRET}}}{SHOWN}\n",
}

# eval cases of a JSONL dataset, each with a key that no case has (EV109 on its line)
JSONL = {
    "header": f'{{"id": "a", "expected_outcome": "g", "input": "q", "x-api-key": "{SECRET}"}}\n',
    "compact": f'{{"id":"a","expected_outcome":"g","input":"q","api_key":"{SECRET}"}}\n',
    "escaped-key": f'{{"id":"a","expected_outcome":"g","input":"q","api\\u005fkey":"{SECRET}"}}\n',
    "authorization-header": f'{{"id":"a","expected_outcome":"g","input":"q","Authorization":"Bearer {SECRET}"}}\n',
    "list-second-item": f'{{"id":"a","expected_outcome":"g","input":"q","api_keys":["first","{SECRET}"]}}\n',
    "nested": f'{{"id":"a","expected_outcome":"g","input":"q","credentials":{{"user":"bob","pin":"{SECRET}"}}}}\n',
    "url-user-info": f'{{"id":"a","expected_outcome":"g","input":"q","db":"postgres://u:{SECRET}@h/db"}}\n',
    "cookie-escaped-value": '{"id":"a","expected_outcome":"g","input":"q","Cookie":"sid='
                            + SECRET.replace("V", "\\u0056") + '"}\n',
}


def _repo(tmp_path, kind: str, name: str):
    (tmp_path / ".git").mkdir()
    if kind == "yaml":
        (tmp_path / ".agentv").mkdir()
        path = tmp_path / ".agentv" / "targets.yaml"
        path.write_text("targets:\n  - name: default\n    provider: azure\n" + YAML[name])
    else:
        path = tmp_path / "evals" / "cases.jsonl"
        path.parent.mkdir()
        path.write_text(JSONL[name])
    return tmp_path, str(path.relative_to(tmp_path))


def _leaks(text: str) -> bool:
    return SECRET in text or SECRET[4:16] in text


CASES = [("yaml", name) for name in YAML] + [("jsonl", name) for name in JSONL]


@pytest.mark.parametrize("kind, name", CASES)
def test_no_output_format_prints_the_secret(tmp_path, monkeypatch, kind, name):
    repo, path = _repo(tmp_path, kind, name)
    monkeypatch.chdir(repo)
    for fmt in ("text", "concise", "json", "github", "sarif"):
        out, err = io.StringIO(), io.StringIO()
        code = main(["--no-cache", "--ignore", "EV512", "--select", "ALL", "--format", fmt, "--no-color", path],
                     stdout=out, stderr=err)
        assert code in (0, 1) and ("*" * 6 in out.getvalue() or fmt != "text"), out.getvalue()  # shown, starred
        assert not _leaks(out.getvalue() + err.getvalue()), (fmt, out.getvalue())


@pytest.mark.parametrize("kind, name", CASES)
def test_the_cache_holds_no_secret(tmp_path, monkeypatch, kind, name):
    repo, path = _repo(tmp_path, kind, name)
    monkeypatch.chdir(repo)
    outputs = []
    for _ in range(2):  # the second run is answered from the cache
        out = io.StringIO()
        main(["--ignore", "EV512", "--select", "ALL", "--no-color", path], stdout=out, stderr=io.StringIO())
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1] and "*" * 6 in outputs[0] and not _leaks(outputs[0])
    assert database().is_file()
    for stored in folder().iterdir():  # the database and any journal beside it
        data = stored.read_bytes()
        assert SECRET.encode() not in data and SECRET[4:16].encode() not in data, stored.name


@pytest.mark.parametrize("key", ["x-api-key", "X-Api-Key", "Authorization", "private-key", "passphrase",
                                 "credentials", "cookie", '"api\\u005fkey"'])
def test_the_language_servers_messages_hold_no_secret(tmp_path, key):
    """What the language server sends (``api.lint_text``'s diagnostics): a message that quotes the value
    (a tag it does not fit) has it starred."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".agentv").mkdir()
    path = tmp_path / ".agentv" / "targets.yaml"
    text = f"targets:\n  - name: default\n    provider: azure\n    {key}: !!int {SECRET}\n"
    result = api.lint_text(text, str(path), Config(root=str(tmp_path)))
    assert [(d.code, d.line, d.message) for d in result.diagnostics] == [
        ("EV001", 4, f"'{'*' * len(SECRET)}' is not a valid !!int value")]
