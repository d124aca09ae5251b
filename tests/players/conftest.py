"""Player tests never reach a paid model API: only endpoints on this machine are allowed."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fake_openai import FakeServer, serve

from gptnt.players.backends import OFFLINE_ENV


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OFFLINE_ENV, "1")
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(key, raising=False)


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    """A loopback OpenAI-compatible server (see ``fake_openai``)."""
    async for fake in serve():
        yield fake
