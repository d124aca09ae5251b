"""The simulator's optional per-run token: without the ``X-Gptnt-Token`` extension header a
request is refused, so only the game service the run handed the token can drive the game."""

from __future__ import annotations

import httpx
import pytest

from gptnt.config import GameConfig
from gptnt.errors import ConfigError
from gptnt.players.cassette import loopback_async
from gptnt.preflight import Needs, probe
from gptnt.protocol.client import TOKEN_ENV, TOKEN_HEADER, GameClient
from gptnt.services.game._backend import Backend
from gptnt.sim.game import Game
from gptnt.sim.server import create_app


async def test_a_simulator_with_a_token_refuses_requests_without_it() -> None:
    transport = httpx.ASGITransport(app=create_app(Game(width=160, height=120), token="s3cret"))
    async with httpx.AsyncClient(transport=transport, base_url="http://sim.invalid") as http:
        assert (await http.get("/health")).status_code == 403
        wrong = await http.get("/health", headers={TOKEN_HEADER: "guess"})
        assert wrong.status_code == 403 and TOKEN_HEADER in wrong.text
    async with GameClient("http://sim.invalid", transport=transport, token="s3cret") as client:
        assert await client.health()  # answered: the token was presented


async def test_the_sim_process_backend_draws_its_own_token() -> None:
    backend = Backend(GameConfig(backend="sim-process", width=160, height=120))
    client = await backend.open()
    try:
        assert await client.health()  # the game service presents the token
        async with httpx.AsyncClient(base_url=client.base_url) as stranger:
            assert (await stranger.get("/health")).status_code == 403
    finally:
        await backend.close()


async def test_preflight_presents_the_game_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run with ``GPTNT_GAME_TOKEN`` set used to fail its preflight with a 403."""
    app = create_app(Game(width=160, height=120), token="s3cret")
    async with loopback_async(app, log_level="critical") as url:
        monkeypatch.delenv(TOKEN_ENV, raising=False)
        with pytest.raises(ConfigError, match="/health did not answer"):
            await probe(Needs(game=url))
        monkeypatch.setenv(TOKEN_ENV, "s3cret")
        await probe(Needs(game=url))  # answered: the token was presented
