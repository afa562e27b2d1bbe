"""What cannot be checked in: special files, links, permissions, big inputs."""
from __future__ import annotations

import os

import pytest

from evallint import lint_paths
from evallint.config import Config

VALID = "evalcases:\n  - id: a\n    expected_outcome: g\n    input: q\n"


def codes(path, **kw):
    return [(d.code, d.line, d.column) for d in lint_paths([path], config=Config(references=False, **kw))]


def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "evals" / "x.yaml"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    (diag,) = lint_paths([fifo], config=Config(references=False))
    assert diag.code == "EV009" and "FIFO" in diag.message


def test_broken_symlink(tmp_path):
    link = tmp_path / "broken.yaml"
    link.symlink_to(tmp_path / "nowhere.yaml")
    (diag,) = lint_paths([link])
    assert diag.code == "EV009" and "broken symbolic link" in diag.message


def test_symlink_loop(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.symlink_to(b)
    b.symlink_to(a)
    assert [d.code for d in lint_paths([a])] == ["EV009"]


def test_symlink_leaving_the_root_is_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text(VALID)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "evals").mkdir()
    (repo / "evals" / "s.yaml").symlink_to(outside / "secret.yaml")
    (diag,) = lint_paths([repo / "evals" / "s.yaml"])
    assert diag.code == "EV009" and "leaves the repository root" in diag.message


def test_symlink_inside_the_root_is_followed(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "real.yaml").write_text(VALID)
    (tmp_path / "link.yaml").symlink_to(tmp_path / "real.yaml")
    assert lint_paths([tmp_path / "link.yaml"]) == []


def test_directory_named_like_a_file(tmp_path):
    (tmp_path / "evals" / "x.yaml").mkdir(parents=True)
    assert lint_paths([tmp_path / "evals" / "x.yaml"])[0].code == "EV009"


def test_device_link_is_refused(tmp_path):
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / ".git").mkdir()
    assert [d.code for d in lint_paths([tmp_path / "zero.yaml"], config=Config(root="/"))] == ["EV009"]


def test_unreadable_file(tmp_path, monkeypatch):
    # chmod cannot make a file unreadable for root (CI), so the kernel's answer is simulated
    import evallint.load.source as source

    path = tmp_path / "x.yaml"
    path.write_text(VALID)
    real_open = os.open

    def deny(name, *args, **kwargs):
        if os.fspath(name) == str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(source.os, "open", deny)
    (diag,) = lint_paths([path])
    assert (diag.code, diag.message) == ("EV009", "cannot read file: Permission denied")


def test_invalid_utf8_position(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"evalcases:\n  - id: caf\xc3\xa9\xff\n")
    (diag,) = lint_paths([path])
    assert (diag.code, diag.line, diag.column) == ("EV002", 2, 13)
    assert "0xff" in diag.message and "byte offset 24" in diag.message


def test_utf8_bom_is_fine(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + VALID.encode())
    assert lint_paths([path]) == []


@pytest.mark.parametrize("bom", [b"\xff\xfe", b"\xfe\xff"])
def test_utf16_is_refused(tmp_path, bom):
    path = tmp_path / "x.yaml"
    path.write_bytes(bom + VALID.encode("utf-16-le" if bom == b"\xff\xfe" else "utf-16-be"))
    assert [d.code for d in lint_paths([path])] == ["EV002"]


def test_one_bad_file_never_stops_the_others(tmp_path):
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "a.yaml").write_bytes(b"\xff\xfe")
    os.mkfifo(tmp_path / "evals" / "b.yaml")
    (tmp_path / "evals" / "c.yaml").write_text("evalcases:\n  - id: 1\n    expected_outcome: g\n    input: q\n")
    assert [(os.path.basename(d.path), d.code) for d in lint_paths([tmp_path])] == [
        ("a.yaml", "EV002"), ("b.yaml", "EV009"), ("c.yaml", "EV103")]


ADDRESS_SPACE = 768 * 1024 * 1024  # bytes: several times what linting a few megabytes takes


def test_five_megabyte_file_lints_with_bounded_memory(bounded, tmp_path):
    case = "  - id: c{i}\n    expected_outcome: goal {i}\n    input: question {i} " + "x" * 60 + "\n"
    path = tmp_path / "big.yaml"
    path.write_text("evalcases:\n" + "".join(case.format(i=i) for i in range(40_000)))
    assert path.stat().st_size > 5_000_000
    proc = bounded.run("--no-references", "big.yaml", cwd=tmp_path, address_space=ADDRESS_SPACE)
    assert (proc.returncode, proc.stdout) == (0, "No problems found (1 file checked).\n")


def test_alias_bomb_lints_with_bounded_memory(bounded, tmp_path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    (tmp_path / "bomb.yaml").write_text("evalcases: []\n" + "\n".join(lines) + "\n")
    proc = bounded.run("--no-references", "--format", "concise", "bomb.yaml", cwd=tmp_path,
                       address_space=ADDRESS_SPACE)
    assert proc.returncode == 1
    assert proc.stdout.startswith("bomb.yaml:6:10:") and " EV005 [error] aliases expand to more than" in proc.stdout
