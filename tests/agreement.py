"""evallint's model of AgentV 4.42 tests beside what AgentV 4.42.4's own loader makes of the same file, cut to
what both hold (each test's id, criteria, input, expected output and graders), and a repository to load."""
from __future__ import annotations

from typing import Optional

from agentv_runner import load_tests, run_suite
from evallint.config import Config
from evallint.lint import lint_file


def _blocks(content):
    """A message's content, its blocks cut to their type and value (the loader adds the file's text; in an
    expected output it keeps a file's path under 'path', not 'value'; it replaces an image's path by the image's
    data, so an image is cut to its type)."""
    if isinstance(content, (list, tuple)):
        return [_block(block) if isinstance(block, dict) else block for block in content]
    return content


def _block(block: dict) -> dict:
    if block.get("type") == "image":
        return {"type": "image"}
    if block.get("type") == "file" and "value" not in block and "path" in block:
        return {"type": "file", "value": block["path"]}
    return {k: v for k, v in block.items() if k in ("type", "value")}


def runner_tests(root, name: str) -> list:
    loaded = load_tests(root, [name])[name]
    assert loaded["error"] is None
    return [(test["id"], test["criteria"], [(m["role"], _blocks(m.get("content"))) for m in test["input"]],
             [(m["role"], _blocks(m.get("content"))) for m in test["expected_output"]],
             [(a["name"], a["type"]) for a in test.get("assertions") or ()]) for test in loaded["tests"]]


def model_tests(root, name: str) -> list:
    model = lint_file(str(root / name), Config(root=str(root))).model
    return [(test.id, test.criteria, [(m.role, _blocks(m.content)) for m in test.input],
             [(m.role, _blocks(m.content)) for m in test.expected_output],
             [(a.name, a.type) for a in test.assertions]) for test in model.tests]


def write_suite(tmp_path, text: str, files: tuple = ()):
    """A repository with the suite ``a.eval.yaml`` holding ``text`` and the (path, text) ``files`` it uses."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "a.eval.yaml").write_text(text)
    for path, content in files:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(content)
    return tmp_path


def run_files(tmp_path, files: tuple, eval_file: str = "evals/a.eval.yaml") -> dict:
    """What the runner's ``runEvaluation`` does with ``eval_file`` among the (path, text) ``files`` written in
    ``tmp_path``'s repo/, its home folder home/ (``agentv_runner.run_suite``: the run starts in repo/)."""
    (tmp_path / "repo").mkdir(exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    return run_suite(write_suite(tmp_path / "repo", "", files), eval_file, tmp_path / "home")


def run_written(tmp_path, text: str, files: tuple = (), grade: Optional[str] = None) -> dict:
    """What the runner's ``runEvaluation`` does with the suite ``a.eval.yaml`` holding ``text`` (and the (path,
    text) ``files`` it uses), written in ``tmp_path``'s repo/, its home folder home/ (``agentv_runner.run_suite``);
    ``grade``: what its graders answer."""
    (tmp_path / "repo").mkdir(parents=True, exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    return run_suite(write_suite(tmp_path / "repo", text, files), "a.eval.yaml", tmp_path / "home", grade=grade)



def one_grader_suite(table: dict, question: str = "q") -> str:
    """A suite of one test per row of ``table`` (test id -> (its one grader, in YAML's flow style, the score the
    runner gives it)), each asking ``question``."""
    return "tests:\n" + "".join(f"  - {{id: {test_id}, input: {question}, assertions: [{grader}]}}\n"
                                 for test_id, (grader, _) in table.items())


def scores_of(table: dict) -> dict:
    """test id -> score, of a table of test id -> (what the test holds, the score the runner gives it)."""
    return {test_id: score for test_id, (_, score) in table.items()}
