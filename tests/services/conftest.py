"""The bus and service tests: an admin connection to the suite's real Redis server and a fresh
game's key names."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable

import pytest

from gptnt.services.bus import GameKeys, connect, delete_users


@pytest.fixture
async def admin(redis_admin_url: str) -> AsyncIterator[object]:
    client = connect(redis_admin_url)
    yield client
    await client.aclose()


@pytest.fixture
async def new_game(redis_admin_url: str) -> AsyncIterator[Callable[[], GameKeys]]:
    """Makes fresh games' key names. The Redis server is the whole session's (integration tests
    check that nothing of a game outlives it), so what a test leaves under them, keys and ACL
    users, is removed after it."""
    made: list[GameKeys] = []

    def make() -> GameKeys:
        made.append(GameKeys(uuid.uuid4().hex[:8]))
        return made[-1]

    yield make
    admin = connect(redis_admin_url)
    try:
        for game in made:
            found = [k async for k in admin.scan_iter(match=f"{game.prefix}*")]
            if found:
                await admin.delete(*found)
            await delete_users(admin, game)
    finally:
        await admin.aclose()


@pytest.fixture
def keys(new_game: Callable[[], GameKeys]) -> GameKeys:
    """A fresh game's key names (cleaned up after the test, see ``new_game``)."""
    return new_game()
