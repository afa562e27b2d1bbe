"""The work of "did you mean" is bounded per file: each distinct word of a file is compared once, and at most
``SUGGESTIONS_PER_FILE`` words of a file get a suggestion, so a file of many unknown keys costs what its size
does."""
from __future__ import annotations

from evallint import lint_paths, suggest
from evallint.config import Config
from evallint.suggest import SUGGESTIONS_PER_FILE

SUITE_KEYS = "(known keys: $schema, dataset, description, evalcases, evaluator, execution, target)"
CASE = "  - id: case-{i}\n    expected_outcome: The agent answers.\n    input: Hello\n"


def _suite(tmp_path, name, keys):
    path = tmp_path / name
    path.write_text("".join(f"{key}: x\n" for key in keys) + "evalcases:\n" + CASE.format(i=0), encoding="utf-8")
    return path


def test_at_most_so_many_unknown_keys_of_a_file_get_a_suggestion_and_each_file_its_own(tmp_path):
    many = [f"descripton{i:03d}" for i in range(SUGGESTIONS_PER_FILE + 50)]
    first = _suite(tmp_path, "a.eval.yaml", many)
    second = _suite(tmp_path, "b.eval.yaml", ["descripton"])
    found = [(d.path, d.line, d.code, d.message) for d in lint_paths([first, second], config=Config(references=False))]
    assert found == [
        (str(first), i + 1, "EV109", f"unknown key '{key}' in eval suite "
                                     + ("(did you mean 'description'?)" if i < SUGGESTIONS_PER_FILE else SUITE_KEYS))
        for i, key in enumerate(many)
    ] + [(str(second), 1, "EV109", "unknown key 'descripton' in eval suite (did you mean 'description'?)")]


def test_a_key_repeated_in_every_case_is_compared_with_each_key_it_may_stand_for_once(tmp_path, monkeypatch):
    compared = []
    measure = suggest.edit_distance

    def counting(a, b, *limit):
        compared.append((a, b))
        return measure(a, b, *limit)

    monkeypatch.setattr(suggest, "edit_distance", counting)
    path = tmp_path / "cases.eval.yaml"
    path.write_text("evalcases:\n" + "".join(CASE.format(i=i) + "    exectuion: {}\n" for i in range(300)),
                    encoding="utf-8")
    found = lint_paths([path], config=Config(references=False))
    assert [(d.line, d.code) for d in found] == [(5 + 4 * i, "EV109") for i in range(300)]
    assert len(compared) == len(set(compared))  # no pair of words twice, however many cases repeat the key
