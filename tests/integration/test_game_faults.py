"""Whole episodes against a game that fails its ``/action`` route (the simulator over real HTTP,
behind a wrapper that answers that route with a fault): the game refusing an action (HTTP 400,
the mod's refusal) is a fact of the turn and the episode plays on to an outcome of the game;
any other failure (a 500, a 403, a 408) is the infrastructure's and crashes the episode, never
scored as the players' loss. (Every refusal used to be read as the former: a game whose
``/action`` always failed played out to ``timeout``, exit 0.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gptnt.config import GameConfig
from gptnt.missions import get_mission
from gptnt.players.cassette import loopback
from gptnt.records import read_events
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec
from gptnt.sim.game import Game
from gptnt.sim.server import create_app

GAME = ("solved", "strikeout", "timeout")


class _FailingAction:
    """The simulator, but its ``/action`` calls numbered in ``failing`` (from 1) answer
    ``status``."""

    def __init__(self, status: int, failing: range) -> None:
        self._app = create_app(Game(width=320, height=240))
        self._status, self._failing, self.actions = status, failing, 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].lower() == "/action":
            self.actions += 1
            if self.actions in self._failing:
                body = b"Cannot interact from this state" if self._status == 400 else b"fault"
                await send({"type": "http.response.start", "status": self._status,
                            "headers": [(b"content-length", str(len(body)).encode())]})  # fmt: skip
                await send({"type": "http.response.body", "body": body})
                return
        await self._app(scope, receive, send)


async def _play(game: _FailingAction, mode: str, url: str, tmp_path: Path) -> Any:
    with loopback(game) as backend:
        settings = EpisodeSettings(launch="task", idle_sleep_s=0.05, game_call_s=5.0,
                                   game=GameConfig(backend=backend, width=320, height=240))  # fmt: skip
        episode = Episode(EpisodeSpec.make("Wires-234", mode), settings, admin_url=url,  # type: ignore[arg-type]
                          run_dir=tmp_path, mission=get_mission("Wires-234"))  # fmt: skip
        return await episode.run(), episode


@pytest.mark.parametrize("status", [500, 403, 408])
@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_a_game_failing_its_actions_crashes_the_episode(
    status: int, mode: str, redis_admin_url: str, tmp_path: Path
) -> None:
    game = _FailingAction(status, range(2, 10**6))
    summary, _ = await _play(game, mode, redis_admin_url, tmp_path)
    assert summary.outcome == "crashed", (summary.outcome, summary.reason)
    assert f"/action: HTTP {status}" in summary.reason
    assert game.actions == 2  # the first action played, the second failed, no third was tried


async def test_a_refused_action_is_a_fact_of_the_turn(redis_admin_url: str, tmp_path: Path) -> None:
    """The oracle's first two presses are refused (400): it sees 'refused', and plays on."""
    game = _FailingAction(400, range(1, 3))
    summary, episode = await _play(game, "sync", redis_admin_url, tmp_path)
    assert summary.outcome in GAME, summary.reason
    results = [e.result for e in read_events(episode.dir) if e.kind == "turn" and e.result]
    assert results[0].startswith("refused: game: GameRefusedError: /action: HTTP 400")
