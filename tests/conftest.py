from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest
import pytest_lsp
from lsp import SERVER, start
from pytest_lsp import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


# End-to-end modules (a language server or an editor started per module, hostile files of many megabytes,
# fuzzing rounds, the runner's 1,566 mutants, git repositories with hooks): marked 'e2e', which .ci/run runs
# on the default python3 only, so that the suites of the other Pythons fit the machine's two cores.
E2E_MODULES = frozenset({"test_server", "test_server_actions", "test_server_answers", "test_server_faults",
                         "test_server_navigation", "test_server_parts", "test_server_reads", "test_neovim",
                         "test_hostile", "test_fuzz_cli", "test_runner_mutants", "test_untrusted_git"})


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if item.module.__name__ in E2E_MODULES:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(autouse=True)
def user_cache_home(tmp_path_factory) -> Iterator[Path]:
    """The user cache folder, where the result cache's key lives: a temporary one for every test, never
    the real home's. Processes the test starts inherit it with the environment. It is set with a
    monkeypatch of its own, which a test's ``monkeypatch.undo()`` leaves in place."""
    folder = tmp_path_factory.mktemp("user-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield folder


@pytest.fixture
def lint_calls(monkeypatch):
    """The files really linted (not answered from the cache), by name."""
    import evallint.lint as lint

    calls = []
    real = lint.lint_bytes

    def counting(data, path, *args, **kwargs):
        calls.append(os.path.basename(path))
        return real(data, path, *args, **kwargs)

    monkeypatch.setattr(lint, "lint_bytes", counting)
    return calls


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, repo):
    """``evallint server`` started over stdio for the test module's ``repo`` fixture (the server tests)."""
    await start(lsp_client, repo)
    yield
    await lsp_client.shutdown_session()
