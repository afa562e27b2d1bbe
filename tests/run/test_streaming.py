"""A run reports each file as its result comes, in output order, and keeps only the totals: memory does
not grow with the number of files (the cache writes its rows in batches too: test_cache.py)."""
from __future__ import annotations

import io
import json
import os

from clirun import git
from runsummary import RunSummary

from evallint import Diagnostic, Severity
from evallint.cli import main
from evallint.config import Config
from evallint.report.formats.base import json_text
from evallint.report.formats.json_format import JsonReporter
from evallint.report.formats.sarif import SarifReporter
from evallint.run import pool
from evallint.run.discovery import iter_paths

GOOD = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"
BAD = GOOD.replace("id: a", "id: 1")
EV103 = ("EV103 [error] case 'id' must be a string: the runner reads 1 as the number 1 and skips the case; the "
         "fix writes \"1\"\n")


class FirstWrite(io.StringIO):
    """An output stream that calls ``then`` when it is first written to."""

    def __init__(self, then):
        super().__init__()
        self.then = then

    def write(self, text: str) -> int:
        if self.then is not None:
            then, self.then = self.then, None
            then()
        return super().write(text)


def test_a_file_is_reported_before_the_files_after_it_are_linted(tmp_path, monkeypatch):
    """The last file is made bad when the first report line is written: it is linted after that, so its
    error is reported. A run that reported at its end would have linted it clean."""
    evals = tmp_path / "evals"
    evals.mkdir()
    count = 3 * pool.CHUNK
    for n in range(count):
        (evals / f"s{n:02}.yaml").write_text(BAD if n == 0 else GOOD)
    last = evals / f"s{count - 1:02}.yaml"
    out = FirstWrite(lambda: last.write_text(BAD))
    monkeypatch.chdir(tmp_path)
    code = main(["--no-cache", "-j1", "--format", "concise", "--quiet", "evals"], stdout=out, stderr=io.StringIO())
    assert (code, out.getvalue()) == (1, f"evals/s00.yaml:2:9: {EV103}evals/s{count - 1:02}.yaml:2:9: {EV103}")


def test_a_walk_gives_files_in_the_order_of_their_paths(tmp_path, monkeypatch):
    """'.', '-', ' ' and '!' sort before '/': 'a.yaml' and 'a b.yaml' come before 'a/x.yaml', as in the output."""
    names = ("a.yaml", "a/x.yaml", "a-b/y.yaml", "a b.yaml", "a.b/z.yaml", "a0.yaml", "A.yaml", "a/b/c.yaml",
             "ab.yaml", "a!.yaml", "é.yaml", "z.yaml")
    for name in names:
        (tmp_path / "evals" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "evals" / name).write_text(GOOD)
    monkeypatch.chdir(tmp_path)
    walked = [path for path, _ in iter_paths(["evals"], Config())]
    assert walked == sorted("evals/" + name for name in names)


def test_staged_files_come_in_the_order_of_the_paths_shown(tmp_path, monkeypatch):
    from evallint.run.staged import StagedIndex

    git(tmp_path, "init", "-q")
    (tmp_path / "evals" / "a").mkdir(parents=True)
    for name in ("evals/s.yaml", "z.eval.yaml", "evals/a b.yaml", "evals/a/x.yaml"):
        (tmp_path / name).write_text(BAD)
    git(tmp_path, "add", ".")
    monkeypatch.chdir(tmp_path / "evals")
    paths = [result.path for result in StagedIndex(os.getcwd()).lint(Config())]
    assert paths == ["../z.eval.yaml", "a b.yaml", "a/x.yaml", "s.yaml"]


def diagnostic(path: str, line: int, code: str = "EV109", message: str = "unknown key 'x'") -> Diagnostic:
    return Diagnostic(code, Severity.WARNING if code == "EV109" else Severity.ERROR, message, path, line, 3, line, 5)


def test_json_is_written_file_by_file_and_is_the_whole_array():
    first = [diagnostic("a.yaml", 1), diagnostic("a.yaml", 2, "EV103", "caf\u00e9 \x85 \u2028")]
    second = [diagnostic("b.yaml", 4)]
    out = io.StringIO()
    reporter = JsonReporter(out)
    reporter.file(first, {}, "a.yaml")
    so_far = out.getvalue()
    assert so_far.startswith("[\n  {\n    \"code\": \"EV109\"") and so_far.count("\"code\"") == 2
    reporter.file(second, {}, "b.yaml")
    reporter.finish(RunSummary(first + second, 2))
    whole = [d.as_dict() for d in first + second]
    assert out.getvalue() == json_text(json.dumps(whole, indent=2, ensure_ascii=False)) + "\n"
    empty = io.StringIO()
    JsonReporter(empty).finish(RunSummary([], 0))
    assert empty.getvalue() == "[]\n"


def test_sarif_results_wait_outside_memory_and_come_out_as_one_document():
    out = io.StringIO()
    reporter = SarifReporter(out)
    reporter.file([diagnostic("a.yaml", 1, "EV310", "mode 'x'"), diagnostic("a.yaml", 2)], {2: "  x: 1"}, "r/a.yaml")
    reporter.file([diagnostic("b.yaml", 4, "EV103", "caf\u00e9 \x85")], {}, "r/b.yaml")
    assert out.getvalue() == ""  # the rules that fired come first in the document: known at the end
    reporter.finish(RunSummary([], 2))
    document = json.loads(out.getvalue())
    assert out.getvalue() == json_text(json.dumps(document, indent=2, ensure_ascii=False)) + "\n"
    (run,) = document["runs"]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == ["EV103", "EV109", "EV310"]
    assert [(r["ruleId"], r["ruleIndex"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
            for r in run["results"]] == [("EV310", 2, "r/a.yaml"), ("EV109", 1, "r/a.yaml"), ("EV103", 0, "r/b.yaml")]
    assert list(run["results"][0]) == ["ruleId", "ruleIndex", "level", "message", "locations", "partialFingerprints"]
