"""The bus and service tests: an admin connection to the suite's real Redis server and a fresh
game's key names."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from services.bus import GameKeys, connect


@pytest.fixture
async def admin(redis_admin_url: str) -> AsyncIterator[object]:
    client = connect(redis_admin_url)
    yield client
    await client.aclose()


@pytest.fixture
def keys() -> GameKeys:
    return GameKeys(uuid.uuid4().hex[:8])
