"""The work of "did you mean" is bounded per file: each distinct word of a file is compared once, at most
``SUGGESTIONS_PER_FILE`` words of a file get a suggestion, and they are compared with ``OPTIONS_PER_FILE`` options
in all, so a file of many unknown keys, or of thousands of tests naming unknown ones, costs what its size does."""
from __future__ import annotations

from evallint import lint_paths, suggest
from evallint.config import Config
from evallint.suggest import OPTIONS_PER_FILE, SUGGESTIONS_PER_FILE

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


def test_words_compared_with_many_options_get_a_suggestion_while_the_files_share_of_options_lasts(tmp_path):
    """Each 'depends_on' id of 600 tests is compared with the 600 ids: the first words use up the file's options."""
    tests = 600
    path = tmp_path / "many.eval.yaml"
    path.write_text("tests:\n" + "".join(f"  - {{id: case-{i:03d}, input: hi, criteria: ok, depends_on: [cse-{i:03d}]}}\n"
                                         for i in range(tests)), encoding="utf-8")
    suggested = OPTIONS_PER_FILE // tests
    found = [(d.line, d.code, d.message) for d in lint_paths([path], config=Config(references=False))]
    assert found == [(i + 2, "EV122", f"'depends_on' names 'cse-{i:03d}', which is no test of this suite"
                      + (f" (did you mean 'case-{i:03d}'?)" if i < suggested else "") + "; the run fails before any test")
                     for i in range(tests)]
