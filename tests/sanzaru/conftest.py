"""SANZARU tests use the loopback OpenAI-compatible stand-in of the player tests."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "players"))
from fake_openai import FakeServer, serve

from gptnt.players.backends import OFFLINE_ENV


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OFFLINE_ENV, "1")


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    async for fake in serve():
        yield fake
