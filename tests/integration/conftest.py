"""Integration tests: the services over a real Redis server (``redis_admin_url``, the whole
suite's), and model players against a loopback provider stand-in (``standin_players``)."""

from __future__ import annotations

import pytest
from standin_players import STANDIN_KEY, STANDIN_KEY_ENV


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in's fake key in the environment (only loopback model endpoints are allowed in
    every test: ``tests/conftest.py``)."""
    monkeypatch.setenv(STANDIN_KEY_ENV, STANDIN_KEY)
