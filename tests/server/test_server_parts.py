"""The language server's parts, in process: positions in the protocol's terms, where the cursor is, what the
format declares there, and the guard that keeps a failing message from ending the server."""
from __future__ import annotations

import concurrent.futures
import gc
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError

from evallint.server.app import build
from evallint.server.declarations import declarations
from evallint.server.documents import Documents
from evallint.server.guard import guarded
from evallint.server.place import JSON, JSON_LINES, YAML, cursor_at, cursor_in
from evallint.server.positions import Positions


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def test_positions_count_utf16_units_and_every_line_ending():
    text = "a: \U0001F600x\r\nb: é\rc: 1\n"
    positions = Positions(text)
    assert positions.position(text.index("x")) == pos(0, 5)  # the emoji is two UTF-16 units
    assert positions.position(text.index("\r\n")) == pos(0, 6)
    assert positions.position(text.index("b")) == pos(1, 0)
    assert positions.position(text.index("c")) == pos(2, 0)  # a lone CR ends a line too
    assert positions.offset(pos(0, 5)) == text.index("x")
    assert positions.offset(pos(2, 99)) == len(text) - 1  # clamped to the line
    # evallint's lines break at LF only: its second line holds 'b' and 'c'
    assert positions.from_evallint(2, 1) == text.index("b")
    assert positions.from_evallint(2, 6) == text.index("c")
    assert positions.from_evallint(2, 99) == len(text) - 1
    assert positions.from_evallint(3, 1) == len(text)
    assert Positions(text, types.PositionEncodingKind.Utf8).position(text.index("x")) == pos(0, 7)
    assert Positions(text, types.PositionEncodingKind.Utf32).position(text.index("x")) == pos(0, 4)


def test_positions_of_a_buffer_with_a_byte_order_mark():
    text = "\ufeffid: 1\nx: 2\n"
    positions = Positions(text)
    assert positions.position(0) == pos(0, 1)  # offsets leave the mark out; the buffer holds it
    assert positions.offset(pos(0, 1)) == 0
    assert positions.lines() == ["id: 1", "x: 2", ""]
    assert positions.cursor(pos(0, 3)) == (0, 2)
    assert positions.at(0, 2) == pos(0, 3)


SUITE = """\
$schema: agentv-eval-v2
evalcases:
  - id: a
    input: q
    execution:
      target: x
      evaluators:
        - name: j
          type: tool_trajectory
          mo
        - name: k
          script:
          - bun
  - id: b
\x20\x20\x20\x20
"""
LINES = SUITE.split("\n")


@pytest.mark.parametrize("line, column, path, key, typed, siblings", [
    (9, 12, ["evalcases", "-", "execution", "evaluators", "-"], None, "mo", {"name": "j", "type": "tool_trajectory"}),
    (8, 16, ["evalcases", "-", "execution", "evaluators", "-"], "type", "", {"name": "j"}),
    (8, 18, ["evalcases", "-", "execution", "evaluators", "-"], "type", "to", {"name": "j"}),
    (5, 14, ["evalcases", "-", "execution"], "target", "", {"evaluators": ""}),
    (14, 4, ["evalcases", "-"], None, "", {"id": "b"}),
    (0, 3, [], None, "$sc", {"evalcases": ""}),
])
def test_where_the_cursor_is(line, column, path, key, typed, siblings):
    cursor = cursor_at(LINES, line, column)
    assert (cursor.path, cursor.key, cursor.typed, cursor.siblings) == (path, key, typed, siblings)


def test_the_cursor_is_nowhere_in_indentation_and_where_a_line_does_not_say():
    assert cursor_at(LINES, 3, 2) is None
    assert cursor_at(["a: [b, c"], 0, 7) is None  # a list of scalars
    assert cursor_at(["a: {b: x # {c"], 0, 13) is None  # a comment
    assert cursor_at(["a: {b: 1} "], 0, 10) is None  # after the collection
    assert cursor_at(["a: 'x {b: 1, c'"], 0, 14) is None  # a quoted string
    # after a whole value (a closed quote, a collection, a scalar and a space) or a key without its colon
    for line in ('{"id": "b", "input"', 'a: {b: "x"', "a: {b: [x, y]", "a: {b: {c: 1}", "a: {b: 1 ", "a: {b c "):
        assert cursor_at([line], 0, len(line), line.startswith("{")) is None, line
    assert cursor_at(['[::::"\\:'], 0, 7, True) is None  # in a list: a backslash that ends a quoted scalar


EVALUATORS = "        - {name: k, type: tool_trajectory, mode: in_order, exp}"
EVALUATOR_PATH = ["evalcases", "-", "execution", "evaluators", "-"]
JSON_LINE = '{"id": "a", "input": [{"role": "us", "content": "hi"}], "execution": {"evaluators": [{"ty'


@pytest.mark.parametrize("lines, column, json_lines, path, key, typed, typed_start, siblings, name", [
    # in a flow mapping that is a list item: the keys before and after the cursor are its siblings
    (["evalcases:", "  - id: a", "    execution:", "      evaluators:", EVALUATORS], EVALUATORS.index("exp}") + 3, False,
     EVALUATOR_PATH, None, "exp", EVALUATORS.index("exp"), {"name": "k", "type": "tool_trajectory", "mode": "in_order"},
     "exp"),
    (["evalcases:", "  - id: a", "    execution:", "      evaluators:", EVALUATORS], EVALUATORS.index("in_order") + 3,
     False, EVALUATOR_PATH, "mode", "in_", EVALUATORS.index("in_order"), {"name": "k", "type": "tool_trajectory", "exp": ""}, "mode"),
    # a key's value, in a mapping in a list in a mapping
    (["  input: [{role: user, content: [{type: te"], 42, False, ["input", "-", "content", "-"], "type", "te", 40, {},
     "type"),
    # a JSON line: keys in quotes, the cursor inside them
    ([JSON_LINE], JSON_LINE.index('us"') + 2, True, ["input", "-"], "role", "us", JSON_LINE.index('us"'),
     {"content": '"hi"'}, "role"),
    ([JSON_LINE], len(JSON_LINE), True, ["execution", "evaluators", "-"], None, "ty", len(JSON_LINE) - 2, {}, "ty"),
    (['{"id": "a", '], 12, True, [], None, "", 12, {"id": '"a"'}, None),
    # a key after a value, its comma not typed yet
    (['{"id": "a" "inp'], 15, True, [], None, "inp", 12, {"id": '"a"'}, "inp"),
    # escapes: an escaped quote or a backslash does not end a quoted scalar
    (['{"a": "x\\"y"}'], 9, True, [], "a", 'x\\', 7, {}, "a"),
    (['{"a": "x\\'], 9, True, [], "a", 'x\\', 7, {}, "a"),
    (['{"role": "us\\"'], 14, True, [], "role", 'us\\"', 10, {}, "role"),
    (["a: {b: 'it''"], 12, False, ["a"], "b", "it''", 8, {}, "b"),
    # on the first character of a key: hover names it
    (["  - {role: user, content: q}"], 5, False, ["-"], None, "", 5, {"content": "q"}, "role"),
])
def test_where_the_cursor_is_in_a_flow_collection(lines, column, json_lines, path, key, typed, typed_start,
                                                   siblings, name):
    cursor = cursor_at(lines, len(lines) - 1, column, json_lines)
    assert (cursor.path, cursor.key, cursor.typed, cursor.typed_start, cursor.siblings, cursor.name) == \
        (path, key, typed, typed_start, siblings, name)


def test_the_cursor_is_placed_up_to_what_yaml_cannot_read_and_nowhere_after_it():
    """A flow collection is read from PyYAML's tokens up to its first error: the cursor before the error is
    placed; after it (a character no token starts with, an escape YAML does not know) it is nowhere."""
    line = "a: {b: 1, c: @x"
    cursor = cursor_at([line], 0, line.index("@"))
    assert (cursor.path, cursor.key, cursor.typed, cursor.siblings) == (["a"], "c", "", {"b": "1"})
    assert cursor_at([line], 0, len(line)) is None
    line = '{"a": "x\\q", "b": '
    assert cursor_at([line], 0, line.index('"x'), True).key == "a"
    assert cursor_at([line], 0, line.index("x"), True) is None
    assert cursor_at([line], 0, len(line), True) is None


def test_a_json_line_with_escaped_surrogates_is_read_past_them():
    """JSON writes an emoji as two escaped surrogates (Python's json.dumps does by default); libyaml refuses
    them in a double-quoted scalar, yet the keys after it are read."""
    line = '{"input": "\\ud83d\\ude00 hi", "ty'
    cursor = cursor_at([line], 0, len(line), True)
    assert (cursor.key, cursor.typed, cursor.typed_start, cursor.siblings) == \
        (None, "ty", len(line) - 2, {"input": '"\\ud83d\\ude00 hi"'})


def test_a_line_nested_deeper_than_the_yaml_scanner_goes_places_the_cursor_nowhere():
    for line in ("[" * 100_000, '{"a": ' * 100_000, "a: " + "{a: " * 100_000):
        assert cursor_at([line], 0, len(line), line.startswith(("[", "{"))) is None


def test_declared_keys_and_values_narrow_with_the_kind_written():
    eval_file = declarations("eval")
    evaluator = ["evalcases", "-", "execution", "evaluators", "-"]
    assert [k.name for k in eval_file.keys(evaluator, {"type": "tool_trajectory"})] == \
        ["type", "name", "weight", "mode", "minimums", "expected"]
    mode = eval_file.key(evaluator, "mode", {"type": "tool_trajectory"})
    assert (mode.description, mode.values) == ("How tool calls are compared.", ("any_order", "in_order", "exact"))
    assert eval_file.key(["evalcases", "-", "input", "-"], "role", {}).values == ("assistant", "system", "tool", "user")
    targets = declarations("targets")
    assert [k.name for k in targets.keys(["targets", "-"], {"provider": "mock"})] == \
        ["name", "provider", "judge_target", "workers", "delay_max_ms", "delay_min_ms", "delay_ms",
         "provider_batching", "response", "trace"]
    # a dataset's line is an eval case
    assert [k.name for k in declarations("dataset").keys([], {})][:3] == ["id", "conversation_id", "description"]
    assert declarations("sidecar") is None


def test_a_setting_read_in_any_case_offers_its_words():
    """An AgentV 4.42 target setting the runner reads in any case is a pattern in the JSON Schema, its words the
    examples, which completion offers."""
    targets = declarations("targets", "4.42")
    assert targets.key(["targets", "-"], "model_reasoning_effort", {"provider": "codex"}).values == (
        "minimal", "low", "medium", "high", "xhigh")
    assert targets.key(["targets", "-"], "log_format", {"provider": "claude"}).values == ("summary", "json")


def test_a_failing_request_is_logged_and_answered_with_an_error():
    log = []

    def broken(params):
        raise KeyError("boom")

    with pytest.raises(JsonRpcInternalError, match="evallint: textDocument/hover failed: KeyError: 'boom'"):
        guarded("textDocument/hover", log.append, request=True)(broken)(None)
    assert len(log) == 1
    assert log[0].startswith("evallint: textDocument/hover failed:\nTraceback (most recent call last):")
    assert log[0].endswith("KeyError: 'boom'\n")


def test_a_failing_notification_is_logged_and_gives_no_answer():
    log = []

    def broken(params):
        raise ValueError("bad")

    assert guarded("textDocument/didChange", log.append, request=False)(broken)(None) is None
    assert log[0].endswith("ValueError: bad\n")


def test_the_command_line_never_imports_the_server_libraries(tmp_path):
    (tmp_path / "a.eval.yaml").write_text("evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n")
    code = ("import io, sys\nfrom evallint.cli import main\n"
            f"main(['--no-cache', {str(tmp_path)!r}], stdout=io.StringIO(), stderr=io.StringIO())\n"
            "main(['rules'], stdout=io.StringIO())\n"
            "print(sorted(m for m in ('pygls', 'lsprotocol', 'evallint.server') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[]"]


class Wire:
    """Where the server in process writes its messages: kept, never read."""

    def __init__(self):
        self.sent = []

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def close(self) -> None:
        pass


def live_futures() -> int:
    gc.collect()
    return sum(isinstance(o, concurrent.futures.Future) for o in gc.get_objects())


@pytest.mark.asyncio
async def test_edits_leave_nothing_behind_in_the_server(tmp_path):
    """pygls keeps the future of every notification its built-in generator handlers take; the server's
    protocol takes the document notifications without one, so a long session does not grow."""
    server = build()
    server.protocol.set_writer(Wire())

    def receive(message: dict) -> None:
        server.protocol.handle_message(server.protocol.structure_message({"jsonrpc": "2.0", **message}))

    uri = (tmp_path / "a.yaml").as_uri()
    receive({"id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": tmp_path.as_uri()}})
    receive({"method": "initialized", "params": {}})
    receive({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": "evalcases: []\n"}}})

    def edit(version: int) -> None:
        receive({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": f"evalcases: []\n# edit {version}\n"}]}})

    edit(2)
    before = live_futures()
    for version in range(3, 103):
        edit(version)
    assert live_futures() == before
    receive({"method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
    assert live_futures() == before
    assert server.workspace.text_documents == {}


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=" -:{}[],#'\"\\ab\n\t", max_size=40), min_size=1, max_size=4), st.data())
def test_the_cursor_is_found_or_not_but_never_fails(lines, data):
    number = data.draw(st.integers(0, len(lines) - 1))
    column = data.draw(st.integers(0, len(lines[number])))
    for form in (YAML, JSON_LINES, JSON):
        cursor = cursor_in(form, lines, number, column)
        assert cursor is None or 0 <= cursor.typed_start <= column and \
            lines[number][cursor.typed_start:column] == cursor.typed


def test_another_file_is_read_as_the_linter_reads_a_file(tmp_path):
    """Positions in a file that is not open (where a target's entry is) come from the file as the linter reads
    it: a FIFO is refused without waiting for a writer, a file over the size cap is not read. A place that
    stands for the whole file is its start, and the file is not even opened."""
    (tmp_path / ".git").mkdir()
    fifo, big = tmp_path / "fifo.yaml", tmp_path / "big.yaml"
    os.mkfifo(fifo)
    with open(big, "wb") as fh:
        fh.truncate(200 * 2**20)  # sparse: no disk space taken
    documents = Documents(lambda: [str(tmp_path)], lambda: types.PositionEncodingKind.Utf16)
    start = types.Range(start=pos(0, 0), end=pos(0, 0))
    assert documents.range_in(str(fifo), 1, 1, 1, 1) == documents.range_in(str(big), 1, 1, 1, 1) == start
    assert documents.positions_of(str(big)) is None
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        asked = pool.submit(documents.positions_of, str(fifo))
        try:
            found = asked.result(timeout=120)
        except concurrent.futures.TimeoutError:
            found = "waiting for a writer"
        finally:
            try:  # a reader waiting on the FIFO gets its end of file, so the test ends either way
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass  # no reader: the FIFO was refused
    assert found is None
