"""``evallint server``'s code actions, end to end: each applied gives the expected text, byte for byte what
``--fix`` writes; "disable for this line" writes a suppression that the next lint honours."""
from __future__ import annotations

import io
import os

import pytest
from conftest import FIXTURES
from lsp import apply, change, open_text, published
from lsprotocol import types
from pytest_lsp import LanguageClient

from evallint.cli import main

pytestmark = pytest.mark.asyncio

FIX_ALL = "source.fixAll.evallint"


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / ".evallint.toml").write_text('extend-select = ["EV9", "EV322"]\nreferences = false\n')
    return tmp_path


async def actions(client: LanguageClient, uri: str, start: types.Position, end: types.Position, only=None) -> list:
    return list(await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=start, end=end),
        context=types.CodeActionContext(diagnostics=[], only=only))))


def described(found: list) -> list:
    return [(a.title, a.kind, a.is_preferred, [d.code for d in a.diagnostics or ()]) for a in found]


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def cli_fix(repo, name: str, data: bytes) -> bytes:
    """What ``evallint --fix`` writes for a file holding ``data``."""
    path = repo / "cli" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    old = os.getcwd()
    os.chdir(repo)
    try:
        main(["--fix", "--quiet", str(path)], stdout=io.StringIO(), stderr=io.StringIO())
    finally:
        os.chdir(old)
    return path.read_bytes()


PAIRS = sorted((FIXTURES / "fix").glob("*.in.yaml"))


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
async def test_fix_all_makes_what_fix_writes(client: LanguageClient, repo, pair):
    data = pair.read_bytes()
    text = data.decode("utf-8")
    uri = open_text(client, repo / "evals" / "a.yaml", text)
    await published(client, uri)
    found = await actions(client, uri, at(0, 0), at(0, 0), only=[FIX_ALL])
    expected = cli_fix(repo, "a.yaml", data)
    if expected == data:
        assert found == []
        return
    [action] = found
    assert (action.title, action.kind) == ("Fix all safe evallint problems", FIX_ALL)
    assert apply(text, action.edit.changes[uri]).encode("utf-8") == expected


async def test_each_fix_and_disable_action_of_a_line(client: LanguageClient, repo):
    text = (FIXTURES / "fix" / "EV103_quote_id.in.yaml").read_text()
    uri = open_text(client, repo / "evals" / "a.yaml", text)
    assert [(d.code, d.range.start.line) for d in await published(client, uri)] == \
        [("EV103", 2), ("EV103", 5), ("EV103", 8), ("EV103", 9)]
    found = await actions(client, uri, at(5, 9), at(5, 9))
    assert described(found) == [
        ("Quote 017 as a string (EV103)", "quickfix", True, ["EV103"]),
        ("Disable EV103 for this line", "quickfix", False, ["EV103"]),
        ("Fix all safe evallint problems", FIX_ALL, None, []),
    ]
    quote, disable, _ = found
    assert apply(text, quote.edit.changes[uri]) == text.replace("  - id: 017\n", '  - id: "017"\n')
    disabled = apply(text, disable.edit.changes[uri])
    assert disabled == text.replace("  - id: 017\n", "  - id: 017  # evallint: disable=EV103\n")
    change(client, uri, 2, disabled)
    assert [(d.code, d.range.start.line) for d in await published(client, uri)] == \
        [("EV103", 2), ("EV103", 8), ("EV103", 9)]
    # a line with a comment already, and one with the directive already (more codes go into it)
    found = await actions(client, uri, at(2, 8), at(2, 9), only=["quickfix"])
    assert apply(disabled, found[1].edit.changes[uri]).split("\n")[2] == \
        "  - id: 1   # the first case  # evallint: disable=EV103"
    flow = await actions(client, uri, at(8, 10), at(8, 10), only=["quickfix"])
    assert [a.title for a in flow] == ["Quote 2.50 as a string (EV103)", "Disable EV103 for this line"]
    assert apply(disabled, flow[1].edit.changes[uri]).split("\n")[8] == \
        "  - {id: 2.50, expected_outcome: Flow style., input: Hi}  # evallint: disable=EV103"


async def test_an_existing_directive_takes_one_more_code(client: LanguageClient, repo):
    text = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n    extra: 1  # evallint: disable=EV110\n"
    uri = open_text(client, repo / "evals" / "a.yaml", text)
    assert [(d.code, d.range.start.line) for d in await published(client, uri)] == \
        [("EV904", 0), ("EV109", 4), ("EV099", 4)]
    found = await actions(client, uri, at(4, 4), at(4, 4), only=["quickfix"])
    assert [a.title for a in found] == ["Disable EV109 for this line"]
    assert apply(text, found[0].edit.changes[uri]).split("\n")[4] == "    extra: 1  # evallint: disable=EV110,EV109"


async def test_an_unsafe_fix_is_marked_and_never_preferred(client: LanguageClient, repo):
    text = (FIXTURES / "fix" / "EV322_script_list.in.yaml").read_text()
    uri = open_text(client, repo / "evals" / "a.yaml", text)
    assert [(d.code, d.range.start.line) for d in await published(client, uri)] == \
        [("EV322", 8), ("EV322", 11), ("EV322", 14)]
    found = await actions(client, uri, at(8, 16), at(8, 16), only=["quickfix"])
    assert [(a.title, a.is_preferred) for a in found] == [
        ("Split the command into an argv list (EV322) [unsafe: may change what the runner does]", False),
        ("Disable EV322 for this line", False)]
    assert apply(text, found[0].edit.changes[uri]).split("\n")[8] == \
        '        script: ["python", "check.py", "--strict"]  # no shell syntax'
    assert await actions(client, uri, at(0, 0), at(0, 0), only=[FIX_ALL]) == []  # no safe fix to apply


async def test_no_disable_action_inside_a_multi_line_string(client: LanguageClient, repo):
    text = (FIXTURES / "bad" / "EV208_role_marker_in_content.yaml").read_text()
    uri = open_text(client, repo / "evals" / "a.yaml", text)
    assert [(d.code, d.range.start.line) for d in await published(client, uri)] == \
        [("EV208", 6), ("EV208", 15), ("EV208", 19), ("EV208", 20)]
    assert await actions(client, uri, at(15, 16), at(15, 16), only=["quickfix"]) == []
    assert [a.title for a in await actions(client, uri, at(6, 40), at(6, 40))] == ["Disable EV208 for this line"]


async def test_actions_follow_the_kinds_asked_for(client: LanguageClient, repo):
    text = (FIXTURES / "fix" / "EV103_quote_id.in.yaml").read_text()
    uri = open_text(client, repo / "evals" / "a.yaml", text)
    await published(client, uri)
    assert [a.kind for a in await actions(client, uri, at(5, 9), at(5, 9), only=["source"])] == [FIX_ALL]
    assert [a.kind for a in await actions(client, uri, at(5, 9), at(5, 9), only=["refactor"])] == []
    assert [a.kind for a in await actions(client, uri, at(1, 0), at(1, 0))] == [FIX_ALL]  # no diagnostic there

