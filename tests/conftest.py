from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
import pytest_lsp
from lsp import SERVER, start
from pytest_lsp import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


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


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, repo):
    """``evallint server`` started over stdio for the test module's ``repo`` fixture (the server tests)."""
    await start(lsp_client, repo)
    yield
    await lsp_client.shutdown_session()
